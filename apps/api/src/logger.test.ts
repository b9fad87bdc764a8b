import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, wantsPrettyLogs } from './logger.ts';

function capture() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { destination, text: () => chunks.join('') };
}

describe('logs', () => {
  it('are readable lines at a terminal outside production, JSON lines otherwise', () => {
    expect(wantsPrettyLogs({ nodeEnv: 'development' }, true)).toBe(true);
    expect(wantsPrettyLogs({ nodeEnv: 'test' }, true)).toBe(true);
    expect(wantsPrettyLogs({ nodeEnv: 'production' }, true)).toBe(false);
    expect(wantsPrettyLogs({ nodeEnv: 'development' }, false)).toBe(false);
  });

  it('print a readable line through pino-pretty, with secrets redacted', () => {
    const out = capture();
    createLogger({ logLevel: 'info', nodeEnv: 'development' }, { pretty: true, destination: out.destination }).info({ attempt: 2, user: { password: 'hunter2' } }, 'database reachable');
    const text = out.text();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: database reachable \{"attempt":2,/);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('hunter2');
  });

  it('write one JSON object per line otherwise', () => {
    const out = capture();
    createLogger({ logLevel: 'info', nodeEnv: 'production' }, { pretty: false, destination: out.destination }).fatal({ err: new Error('boom') }, 'uncaught exception');
    const lines = out.text().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 60, msg: 'uncaught exception', err: { message: 'boom', type: 'Error' } });
  });
});
