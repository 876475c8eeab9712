/**
 * Child process that hosts the embedded database, so PGlite's work never runs
 * on the API's event loop. Started by `main.ts`; reports its URL over IPC and
 * stops when its parent goes away.
 */
import { startEmbeddedDatabase } from './embedded.js';

const dir = process.env.EMBEDDED_DB_DIR;
if (!dir || !process.send) {
  console.error('error: embedded-process must be forked with EMBEDDED_DB_DIR set');
  process.exit(2);
}

try {
  const db = await startEmbeddedDatabase({ dir, port: Number(process.env.EMBEDDED_DB_PORT ?? 0) });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await db.stop().catch(() => {});
    process.exit(0);
  };
  process.on('disconnect', stop);
  // A signal to the whole process group (Ctrl-C, `kill -- -pgid`) must not stop the
  // database before its clients: the parent says when, after they have closed.
  process.on('SIGTERM', () => {});
  process.on('SIGINT', () => {});
  process.on('message', (m) => {
    if (m === 'stop') void stop();
  });
  process.send({ type: 'ready', url: db.url });
} catch (err) {
  process.send({ type: 'failed', message: (err as Error).message });
  process.exit(1);
}
