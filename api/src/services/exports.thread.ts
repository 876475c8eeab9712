import { Worker } from 'node:worker_threads';
import { threadExecArgv } from '@nuage/engine/core/worker-bundle.mjs';
import type { ExportArtifact } from '@nuage/engine/writers/export.js';
import { type ExportReply, type ExportTask, replyResult } from './export.task.js';

const WORKER_FILE = new URL('./export.worker.mjs', import.meta.url);

/**
 * Makes a vector export in a worker thread of its own (export.task.ts), so
 * the API's main thread keeps answering while a large GeoJSON is parsed and
 * a Shapefile or DXF written (the contours of wires.laz: ~8 CPU-seconds).
 * Exports are rare and cached once made, so a thread per export is enough;
 * concurrent first requests of one export already share one (exports.service).
 * Rejects with the API's error when the writer refuses the input, and when the
 * thread dies.
 */
export function exportInThread(task: ExportTask): Promise<ExportArtifact> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = new Worker(WORKER_FILE, { workerData: task, execArgv: threadExecArgv() });
    worker.once('message', (reply: ExportReply) => {
      settled = true;
      try {
        resolve(replyResult(reply));
      } catch (err) {
        reject(err);
      }
      void worker.terminate();
    });
    worker.once('error', (err) => {
      if (settled) return;
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (settled) return;
      settled = true;
      reject(new Error(`the export thread exited (code ${code}) before it answered`));
    });
  });
}
