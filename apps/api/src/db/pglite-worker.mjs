// The embedded database's own thread (see pglite-thread.ts): PGlite (PostgreSQL compiled to
// WebAssembly) runs here, so its work never holds up the server's event loop. It takes the
// PostgreSQL wire protocol's bytes as the `pg` driver wrote them and answers the engine's
// bytes, one request at a time, in order (PGlite is one backend).
//
// Plain JavaScript on purpose: a worker thread does not inherit the TypeScript loader the
// server runs under, and this file needs nothing from the app.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

if (!parentPort) throw new Error('pglite-worker.mjs runs as a worker thread');
const port = parentPort;

let pglite;
try {
  pglite = await PGlite.create(workerData?.dataDir ?? 'memory://');
  port.postMessage({ type: 'ready' });
} catch (error) {
  port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}

let queue = Promise.resolve();
port.on('message', (message) => {
  queue = queue.then(async () => {
    if (message.type === 'exec') {
      try {
        const answer = await pglite.execProtocolRaw(message.bytes);
        // A copy that owns its buffer, handed over without another copy.
        const bytes = answer.slice();
        port.postMessage({ type: 'answer', id: message.id, bytes }, [bytes.buffer]);
      } catch (error) {
        port.postMessage({ type: 'answer', id: message.id, error: error instanceof Error ? error.message : String(error) });
      }
    } else if (message.type === 'close') {
      await pglite.close();
      port.postMessage({ type: 'closed' });
    }
  });
});
