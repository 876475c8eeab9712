import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/** Every package keeps its own vitest.config.ts; this file only lists them. */
export default defineConfig({
  test: {
    projects: [
      ...['engine', 'tiles-cache', 'migrations', 'fixtures', 'api', 'web', 'bench'].map(
        (p) => `./${p}/vitest.config.ts`,
      ),
      './web/vitest.e2e.config.ts',
    ].filter((f) => existsSync(new URL(f, import.meta.url))),
  },
});
