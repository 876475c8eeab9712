import type { Language } from './services/account-rules/account.rules.js';
import type { SessionClaims } from './services/token.service.js';

/**
 * The types of a request's session, shared by `context.ts` (Hono variables),
 * `middleware/auth.ts` and `services/auth.service.ts`. Types only: keeping them
 * here lets `context.ts` name them without importing the auth middleware or
 * service (which import `AppDeps`), so there is no import cycle.
 */

/** Roles of spec §6. */
export type Role = 'user' | 'admin';

/** Where a request's session token came from. */
export type TokenSource = 'bearer' | 'cookie';

/** The user of a verified session (`c.get('user')`). */
export interface AuthUser {
  id: string;
  email: string;
  roles: Role[];
  preferLanguage: Language;
  session: SessionClaims;
  /** How the token arrived: the web app's cookie or an API client's bearer header. */
  via: TokenSource;
}

/** The lazily resolved session of a request (`c.get('auth')`). */
export interface AuthContext {
  /** The token the request carries (Authorization: Bearer first, then the session cookie). */
  readonly token: { value: string; source: TokenSource } | null;
  /** Verifies the token once per request; throws 401 with the reason when there is no valid session. */
  user(): Promise<AuthUser>;
  /** Like user(), but null instead of a 401 (for routes open to visitors). */
  optionalUser(): Promise<AuthUser | null>;
}
