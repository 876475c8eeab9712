// Worker thread of las-decode-thread.ts: decodes blocks of uncompressed LAS
// records that the reading thread put in shared memory, into shared column
// memory (a reader with `reuse`) or into a buffer of its own that it
// transfers. record-decoder.ts is TypeScript, so the TypeScript loader (tsx)
// is registered first, as decode.worker.mjs does.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { decodeRecords } = await import('./record-decoder.ts');

parentPort.on('message', (task) => {
  try {
    const bytes = new Uint8Array(task.input, task.inputOffset, task.count * task.layout.recordLength);
    const output = task.output ? new Uint8Array(task.output, task.outputOffset, task.outputLength) : undefined;
    const chunk = decodeRecords(bytes, task.count, task.layout, output);
    const transfer = [];
    const buffer = output ? undefined : chunk.x.buffer;
    if (buffer) transfer.push(buffer);
    if (chunk.extra) for (const column of Object.values(chunk.extra)) transfer.push(column.buffer);
    parentPort.postMessage({ id: task.id, buffer, extra: chunk.extra }, transfer);
  } catch (error) {
    parentPort.postMessage({ id: task.id, error: String(error?.message ?? error) });
  }
});
parentPort.postMessage({ ready: true });
