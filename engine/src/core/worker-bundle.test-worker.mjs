// Test helper of worker-bundle.test.ts: runs importCompiled in a plain worker
// thread (no vitest transform, no TypeScript loader) and posts what it got.
import { parentPort, workerData } from 'node:worker_threads';
import { importCompiled } from './worker-bundle.mjs';

const { baseUrl, specifiers, options } = workerData;
try {
  const result = await importCompiled(baseUrl, specifiers, options);
  parentPort.postMessage({
    mode: result.mode,
    built: result.built,
    bundle: result.bundle,
    reason: result.reason,
    exports: result.modules.map((m) => Object.fromEntries(Object.entries(m))),
  });
} catch (error) {
  parentPort.postMessage({ error: String(error?.message ?? error) });
}
