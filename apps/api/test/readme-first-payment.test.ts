import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createStore } from './gateway-fixtures.ts';
import { testServer } from './harness.ts';

/*
 * The README's "Take your first payment" is run as written, so it cannot rot: its SDK program
 * (with `@kestrel/sdk` pointed at the package's source) and its curl commands, against the
 * test server with a fresh approved store. Issue 20 item 16: no hard-coded port 3000 and no
 * macOS `open` in its commands, and a fresh order id each run (the commands run twice).
 */

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function section(): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('### Take your first payment');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n### ', start + 10);
  return readme.slice(start, end);
}

function codeBlocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);
}

async function environment() {
  const { baseUrl } = await testServer();
  const store = await createStore();
  return { ...process.env, KESTREL_URL: baseUrl, STORE_ID: store.storeId, STORE_KEY: store.storeKey };
}

describe('README: Take your first payment', () => {
  it('has no hard-coded port 3000 and no macOS open in its commands', () => {
    const commands = [...codeBlocks(section(), 'sh'), ...codeBlocks(section(), 'js')];
    expect(commands.length).toBe(3);
    for (const block of commands) {
      expect(block).not.toMatch(/localhost:3000|127\.0\.0\.1:3000/);
      expect(block).not.toMatch(/^\s*open\s/m);
    }
  });

  it('runs its SDK program as written: creates a payment, verifies a callback the server signed, retrieves it', async () => {
    const [program] = codeBlocks(section(), 'js');
    expect(program).toContain("from '@kestrel/sdk'");
    const env = await environment();
    const directory = mkdtempSync(path.join(tmpdir(), 'kestrel-readme-'));
    const sdk = pathToFileURL(path.join(root, 'packages/sdk/src/index.ts')).href;
    const signing = pathToFileURL(path.join(root, 'apps/api/src/modules/callbacks/signing.ts')).href;
    // The README's program, then a callback signed by the server's own signing, handed to its handler.
    const script =
      program!.replace("'@kestrel/sdk'", `'${sdk}'`) +
      `\nconst { callbackBody, signatureHeader } = await import('${signing}');\n` +
      `const body = callbackBody({ paymentStatus: 'success', tnxId: 't-1', currency: 'USD', amount: 19.99, orderId: 'readme-order', paymentId: payment.paymentId });\n` +
      `await onKestrelCallback(body, signatureHeader(process.env.STORE_KEY, body));\n`;
    const file = path.join(directory, 'first-payment.mjs');
    writeFileSync(file, script);
    for (let round = 0; round < 2; round += 1) {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: root, env });
      expect(stdout).toMatch(new RegExp(`^Send the customer to ${env.KESTREL_URL}/web-pay/\\S+$`, 'm'));
      expect(stdout).toContain('Order readme-order is paid');
      expect(stdout).toContain('Payment status: initiate');
    }
  }, 240_000);

  it('runs its curl commands as written: create, pay by test card, retrieve — twice, each with a fresh order', async () => {
    const [, commands] = codeBlocks(section(), 'sh');
    expect(commands).toContain('curl');
    const env = await environment();
    const outputs: string[] = [];
    for (let round = 0; round < 2; round += 1) {
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', commands!], { cwd: root, env });
      outputs.push(stdout);
      expect(stdout).toContain('"paymentStatus":"success"');
      expect(stdout).toMatch(/"message":"[^"]+","redirectUrl":"https:\/\/shop\.example\.test\/kestrel\/callback\?paymentStatus=success/);
    }
    const orderIds = outputs.map((output) => /"orderId":"(order-[^"]+)"/.exec(output)?.[1]);
    expect(orderIds[0]).toBeTruthy();
    expect(orderIds[1]).not.toBe(orderIds[0]);
  }, 240_000);
});
