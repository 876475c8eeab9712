// Worker thread of one vector export (see exports.thread.ts): loads the
// TypeScript task as plain JavaScript (engine core/worker-bundle.mjs, tsx when
// no bundle can be built), makes the export given as workerData, posts the reply.
import { parentPort, workerData } from 'node:worker_threads';
import { importCompiled } from '@nuage/engine/core/worker-bundle.mjs';

const {
  modules: [{ serveExport }],
} = await importCompiled(import.meta.url, ['./export.task.ts']);

serveExport(parentPort, workerData);
