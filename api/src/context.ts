import type { AuthContext, AuthUser } from './auth.types.js';
import type { Logger } from './log.js';

// AppDeps lives in deps.ts (types only, no import back into the app) so that services,
// mail and middleware can use it without an import cycle; re-exported for existing importers.
export type { AppDeps } from './deps.js';

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
