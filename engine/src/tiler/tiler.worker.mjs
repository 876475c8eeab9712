// Worker thread entry of the tiler: runs tiler.worker.ts as plain JavaScript,
// from a bundle cached by core/worker-bundle.mjs (through tsx when none can
// be built), so that a fresh thread does not transpile TypeScript.
import { importCompiled } from '../core/worker-bundle.mjs';

await importCompiled(import.meta.url, ['./tiler.worker.ts']);
