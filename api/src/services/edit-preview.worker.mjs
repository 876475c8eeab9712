// Worker thread of the classification-edit preview (see edit-preview.thread.ts):
// loads the TypeScript task as plain JavaScript (engine core/worker-bundle.mjs,
// tsx when no bundle can be built), then serves previews on its parent port.
import { parentPort } from 'node:worker_threads';
import { importCompiled } from '@nuage/engine/core/worker-bundle.mjs';

const {
  modules: [{ servePreviews }],
} = await importCompiled(import.meta.url, ['./edit-preview.task.ts']);

servePreviews(parentPort);
