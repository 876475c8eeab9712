import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import type { Logger } from './log.js';
import type { AuthContext, AuthUser } from './middleware/auth.js';
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
    /** The request's session, verified on demand (middleware/auth.ts). */
    auth: AuthContext;
    /** The logged-in user; set by requireUser / requireRole, read it only behind them. */
    user: AuthUser;
  };
}
