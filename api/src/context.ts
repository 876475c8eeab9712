import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import type { Logger } from './log.js';
import type { TilesStoreLike } from './storage.js';

/** What every route and service may use; built once per process by `main.ts` (or by a test). */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  log: Logger;
  storage: TilesStoreLike;
  /** Version of the schema this process migrated to at start. */
  migrationVersion: number;
}

/** Hono context variables set by the app's middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    log: Logger;
  };
}
