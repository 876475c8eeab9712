// Worker thread of the classification's wire search (see classify-wires.task.ts):
// loads the TypeScript filters as plain JavaScript (core/worker-bundle.mjs, tsx
// when no bundle can be built), then serves one cloud's candidates.
import { importCompiled } from '../core/worker-bundle.mjs';

const {
  modules: [{ runWiresTask }],
} = await importCompiled(import.meta.url, ['./classify-wires.task.ts']);

export default runWiresTask;
