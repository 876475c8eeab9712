// Worker thread of decode-pool.ts: decodes LAZ chunks (lazjs or laz-perf) to
// raw records or to columns, so the reading thread only receives transferred
// typed arrays. laz-decode.mjs and record-decoder.ts import TypeScript: they
// are loaded as plain JavaScript, from a bundle cached by
// core/worker-bundle.mjs (through tsx when none can be built), as
// tiler.worker.mjs does.
import { parentPort } from 'node:worker_threads';
import { importCompiled } from '../core/worker-bundle.mjs';

const {
  modules: [{ decodeLazChunk }, { decodeRecords }],
} = await importCompiled(import.meta.url, ['./laz-decode.mjs', './record-decoder.ts']);

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
