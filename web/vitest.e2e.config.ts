import { configDefaults, defineConfig } from 'vitest/config';
import { withoutSharedRealData } from '../fixtures/src/real-data-gate.js';

/**
 * Browser journeys (Playwright driving Debian's chromium) against the real
 * server started by e2e/harness.ts. Files run one at a time: a 2-core machine
 * runs the server, its worker, PostGIS and chromium already.
 */
export default defineConfig({
  test: {
    name: 'browser',
    root: import.meta.dirname,
    include: ['e2e/**/*.e2e.ts'],
    // Without ../shared/data/real (a fresh clone), the tests that need it are left out with one line saying so.
    exclude: [...configDefaults.exclude, ...withoutSharedRealData(import.meta.dirname)],
    globalSetup: ['./e2e/harness.ts'],
    fileParallelism: false,
    // A guard against hangs, not a speed check (speed lives in the benchmarks): the viewer journeys wait
    // up to 240 s for tiles in software WebGL and took up to 285 s in a CI run (SwiftShader on 2 cores), over the old 180 s.
    testTimeout: 600_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
