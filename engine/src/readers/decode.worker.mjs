// Worker thread of decode-pool.ts: decodes LAZ chunks (lazjs or laz-perf) to
// raw records or to columns, so the reading thread only receives transferred
// typed arrays. laz-decode.mjs and record-decoder.ts are
// TypeScript-loaded, so the TypeScript loader (tsx) is registered first, as
// tiler.worker.mjs does.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { decodeLazChunk } = await import('./laz-decode.mjs');
const { decodeRecords } = await import('./record-decoder.ts');

/** Every typed-array buffer of a chunk (columns share buffers), to transfer rather than copy. */
function buffersOf(chunk) {
  const out = new Set();
  for (const value of Object.values(chunk)) if (ArrayBuffer.isView(value)) out.add(value.buffer);
  if (chunk.extra) for (const value of Object.values(chunk.extra)) out.add(value.buffer);
  return [...out];
}

parentPort.on('message', async (task) => {
  try {
    const records = await decodeLazChunk(
      new Uint8Array(task.bytes),
      task.pointFormat,
      task.recordLength,
      task.pointCount,
    );
    if (!task.layout) {
      parentPort.postMessage({ id: task.id, records: records.buffer }, [records.buffer]);
      return;
    }
    const chunk = decodeRecords(records, task.pointCount, task.layout);
    parentPort.postMessage({ id: task.id, chunk }, buffersOf(chunk));
  } catch (error) {
    parentPort.postMessage({ id: task.id, error: String(error?.message ?? error) });
  }
});
