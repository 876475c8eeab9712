import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Hono } from 'hono';
import { createApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import type { AppDeps, AppEnv } from '../src/context.js';
import { createLogger } from '../src/log.js';
import { closeTileRenderPool } from '../src/services/tile-render.pool.js';
import { openLocalStorage } from '../src/storage.js';
import { createTestDatabase, type TestDatabase } from './db.js';

export interface TestApp {
  app: Hono<AppEnv>;
  deps: AppDeps;
  tdb: TestDatabase;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The real app over a database of its own and a temporary data folder.
 * `env` overrides configuration variables (as strings, like the environment).
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const tdb = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'nuage-test-'));
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: tdb.url,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PUBLIC_URL: 'http://localhost:8080',
    ADMIN_PASSWORD: 'Admin-Passw0rd!',
    // Test apps start many workers: the warm-up is exercised by the smoke test (npm start).
    TILER_WARM_UP: 'false',
    ...env,
  });
  const log = createLogger({ level: config.LOG_LEVEL, role: 'test' });
  const storage = await openLocalStorage(config.STORAGE_DIR);
  const deps: AppDeps = { config, database: tdb, log, storage, migrationVersion: 0 };
  const app = createApp(deps);
  return {
    app,
    deps,
    tdb,
    dataDir,
    async close() {
      await closeTileRenderPool();
      await tdb.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
