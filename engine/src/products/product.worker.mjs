// Worker thread of the product lanes (product-lanes.ts): loads the product
// registry as plain JavaScript (core/worker-bundle.mjs, tsx when no bundle can
// be built), then runs the products the main thread hands it, one at a time.
import { parentPort } from 'node:worker_threads';
import { importCompiled } from '../core/worker-bundle.mjs';

const {
  modules: [{ serveLane }],
} = await importCompiled(import.meta.url, ['./product-thread.task.ts']);

serveLane(parentPort);
