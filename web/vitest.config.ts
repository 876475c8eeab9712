import { defineConfig } from 'vitest/config';

/** Unit tests of the web app (node: logic, rules, translations); browser journeys live in vitest.e2e.config.ts. */
export default defineConfig({
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
  },
});
