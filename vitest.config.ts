import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * Every package keeps its own vitest.config.ts; this file only lists them.
 * NUAGE_TEST_PHASE=units leaves the browser journeys out and =browser runs only
 * them: `npm test` runs the two phases one after the other, so the journeys
 * (chromium rendering WebGL in software) never share the 2 cores with the
 * engine's CPU-heavy tests.
 */
const phase = process.env.NUAGE_TEST_PHASE;
const units = ['engine', 'tiles-cache', 'migrations', 'fixtures', 'api', 'web', 'bench'].map(
  (p) => `./${p}/vitest.config.ts`,
);
const browser = ['./web/vitest.e2e.config.ts'];
const projects = phase === 'units' ? units : phase === 'browser' ? browser : [...units, ...browser];

export default defineConfig({
  test: {
    projects: projects.filter((f) => existsSync(new URL(f, import.meta.url))),
  },
});
