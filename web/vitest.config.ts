import { configDefaults, defineConfig } from 'vitest/config';
import { withoutSharedRealData } from '../fixtures/src/real-data-gate.js';

/** Unit tests of the web app (node: logic, rules, translations); browser journeys live in vitest.e2e.config.ts. */
export default defineConfig({
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    // Without ../shared/data/real (a fresh clone), the tests that need it are left out with one line saying so.
    exclude: [...configDefaults.exclude, ...withoutSharedRealData(import.meta.dirname)],
    environment: 'node',
  },
});
