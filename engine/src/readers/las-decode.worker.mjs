// Worker thread of las-decode-thread.ts: runs the WebAssembly LAS record
// decoder (record-decoder-wasm.ts), whose compiled module and shared memory a
// reader sends it, on blocks the reader names by offsets in that memory.
// Plain JavaScript with no imports, so the thread starts in a few
// milliseconds (no TypeScript loader): the columns are carved and the extra
// bytes decoded by the reading thread.
import { parentPort } from 'node:worker_threads';

/** Decoders by reader id: one per read in progress, over that read's memory. */
const decoders = new Map();

parentPort.on('message', (task) => {
  if (task.type === 'open') {
    const instance = new WebAssembly.Instance(task.module, { env: { memory: task.memory } });
    decoders.set(task.reader, { decode: instance.exports.decode, memory: task.memory });
    return;
  }
  if (task.type === 'close') {
    decoders.delete(task.reader);
    return;
  }
  try {
    const decoder = decoders.get(task.reader);
    decoder.decode(task.records, task.count, task.columns);
    let buffer;
    if (task.copyBytes > 0) {
      // Columns of their own (a consumer that keeps chunks): copied out of shared memory.
      buffer = new ArrayBuffer(task.copyBytes);
      new Uint8Array(buffer).set(new Uint8Array(decoder.memory.buffer, task.columns, task.copyBytes));
    }
    parentPort.postMessage({ id: task.id, buffer }, buffer ? [buffer] : []);
  } catch (error) {
    parentPort.postMessage({ id: task.id, error: String(error?.message ?? error) });
  }
});
parentPort.postMessage({ ready: true });
