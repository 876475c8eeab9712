import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import type { Logger } from './log.js';
import type { TilesStoreLike } from './storage.js';

/**
 * What every route and service may use; built once per process by `main.ts` (or by a test).
 *
 * This module holds types only and imports only types from leaf modules, so any
 * module (services, mail, middleware, jobs) can depend on it without creating an
 * import cycle. `context.ts` re-exports it.
 */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  log: Logger;
  storage: TilesStoreLike;
  /** Version of the schema this process migrated to at start. */
  migrationVersion: number;
}
