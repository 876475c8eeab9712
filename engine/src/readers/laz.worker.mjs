// Worker thread decoding LAZ chunks in parallel; see laz-worker-pool.ts.
// laz-decode.mjs loads the TypeScript decoder (./lazjs), so the TypeScript
// loader (tsx) is registered first, as tiler.worker.mjs does.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { decodeLazChunk } = await import('./laz-decode.mjs');

parentPort.on('message', async (task) => {
  try {
    const records = await decodeLazChunk(
      new Uint8Array(task.compressed),
      task.pointFormat,
      task.recordLength,
      task.pointCount,
    );
    parentPort.postMessage({ id: task.id, records: records.buffer }, [records.buffer]);
  } catch (error) {
    parentPort.postMessage({ id: task.id, error: String(error?.message ?? error) });
  }
});
