// Worker thread of the roof plane fits (see buildings-fit.ts): loads the
// TypeScript filters as plain JavaScript (core/worker-bundle.mjs, tsx when no
// bundle can be built), then fits ranges of slots.
import { importCompiled } from '../core/worker-bundle.mjs';

const {
  modules: [{ runFitTask }],
} = await importCompiled(import.meta.url, ['./buildings-fit.task.ts']);

export default runFitTask;
