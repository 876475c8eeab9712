// Worker thread of las-decode-thread.ts: decodes blocks of uncompressed LAS
// records with the WebAssembly decoder, over the memory a reader shares with
// it (records and columns both live there). record-decoder-wasm.ts is
// TypeScript, so the TypeScript loader (tsx) is registered first, as
// decode.worker.mjs does.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { WasmRecordDecoder } = await import('./record-decoder-wasm.ts');

/** Decoders by reader id: one per read in progress, over that read's memory. */
const decoders = new Map();

parentPort.on('message', (task) => {
  if (task.type === 'open') {
    decoders.set(task.reader, new WasmRecordDecoder(task.layout, 0, task.memory));
    return;
  }
  if (task.type === 'close') {
    decoders.delete(task.reader);
    return;
  }
  try {
    const decoder = decoders.get(task.reader);
    const chunk = decoder.decode(task.records, task.count, task.columns);
    const transfer = [];
    let buffer;
    if (task.copyBytes > 0) {
      // Columns of their own (a consumer that keeps chunks): copied out of shared memory.
      buffer = new ArrayBuffer(task.copyBytes);
      new Uint8Array(buffer).set(decoder.bytesAt(task.columns, task.copyBytes));
      transfer.push(buffer);
    }
    if (chunk.extra) for (const column of Object.values(chunk.extra)) transfer.push(column.buffer);
    parentPort.postMessage({ id: task.id, buffer, extra: chunk.extra }, transfer);
  } catch (error) {
    parentPort.postMessage({ id: task.id, error: String(error?.message ?? error) });
  }
});
parentPort.postMessage({ ready: true });
