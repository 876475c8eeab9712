import { configDefaults, defineConfig } from 'vitest/config';
import { withoutSharedRealData } from '../fixtures/src/real-data-gate.js';

export default defineConfig({
  test: {
    name: 'api',
    root: import.meta.dirname,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Without ../shared/data/real (a fresh clone), the tests that need it are left out with one line saying so.
    exclude: [...configDefaults.exclude, ...withoutSharedRealData(import.meta.dirname)],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
