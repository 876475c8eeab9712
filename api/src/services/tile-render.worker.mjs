// Worker thread of the tile render pool (see tile-render.pool.ts): loads the
// TypeScript renderer as plain JavaScript (engine core/worker-bundle.mjs, tsx
// when no bundle can be built), then serves render tasks on its parent port.
import { parentPort } from 'node:worker_threads';
import { importCompiled } from '@nuage/engine/core/worker-bundle.mjs';

const {
  modules: [{ serveTileRenderer }],
} = await importCompiled(import.meta.url, ['./tile-render.task.ts']);

serveTileRenderer(parentPort);
