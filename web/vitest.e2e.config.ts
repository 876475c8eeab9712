import { defineConfig } from 'vitest/config';

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
    globalSetup: ['./e2e/harness.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
