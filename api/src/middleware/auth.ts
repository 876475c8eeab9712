import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { AuthContext, AuthUser, Role } from '../auth.types.js';
import type { Config } from '../config.js';
import type { AppEnv } from '../context.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { authenticate } from '../services/auth.service.js';
import type { SessionClaims } from '../services/token.service.js';

export type { AuthContext, AuthUser, Role, TokenSource } from '../auth.types.js';

/** Name of the session cookie; `__Host-` (Secure, Path=/, no Domain) when PUBLIC_URL is https. */
export function sessionCookieName(config: Config): string {
  return isHttps(config) ? '__Host-nuage_session' : 'nuage_session';
}

function isHttps(config: Config): boolean {
  return config.PUBLIC_URL.startsWith('https:');
}

/**
 * Sets the web session cookie: HttpOnly, SameSite=Lax, Path=/, Secure over https,
 * and as long-lived as the token (the remember-me choice: 7, 30 or 90 days).
 */
export function setSessionCookie(c: Context, config: Config, token: string, claims: SessionClaims): void {
  setCookie(c, sessionCookieName(config), token, {
    path: '/',
    httpOnly: true,
    secure: isHttps(config),
    sameSite: 'Lax',
    maxAge: Math.max(0, Math.floor((claims.expiresAt.getTime() - Date.now()) / 1000)),
    expires: claims.expiresAt,
  });
}

/** Removes the session cookie. */
export function clearSessionCookie(c: Context, config: Config): void {
  deleteCookie(c, sessionCookieName(config), { path: '/', secure: isHttps(config) });
}

function readToken(c: Context, config: Config): AuthContext['token'] {
  const header = c.req.header('authorization');
  if (header) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (m) return { value: m[1]!, source: 'bearer' };
  }
  const cookie = getCookie(c, sessionCookieName(config));
  return cookie ? { value: cookie, source: 'cookie' } : null;
}

/**
 * Installed once on the whole app: gives every request `c.get('auth')`, which
 * verifies the session token only when a route asks for the user (so public
 * routes and static files cost nothing, and a stale cookie never breaks login).
 */
export function authContext(deps: AppDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const token = readToken(c, deps.config);
    let resolved: Promise<AuthUser> | null = null;
    const user = () => {
      resolved ??= token
        ? authenticate(deps, token.value, token.source)
        : Promise.reject(new AppError(401, 'UNAUTHORIZED', 'authentication is required: log in'));
      return resolved;
    };
    c.set('auth', {
      token,
      user,
      optionalUser: () =>
        user().catch((err) => (err instanceof AppError && err.status === 401 ? null : Promise.reject(err))),
    });
    await next();
  });
}

/**
 * Requires a valid session (bearer token or cookie) and sets `c.get('user')`.
 * 401 with UNAUTHORIZED, TOKEN_INVALID, TOKEN_EXPIRED or TOKEN_REVOKED otherwise.
 *
 * @example
 * app.get('/projects', requireUser, (c) => c.json(listProjects(c.get('user').id)));
 */
export const requireUser = createMiddleware<{ Variables: { user: AuthUser; auth: AuthContext } }>(async (c, next) => {
  c.set('user', await c.get('auth').user());
  await next();
});

/**
 * Requires a session whose user has `role`; 401 without a session, 403 FORBIDDEN
 * without the role. Sets `c.get('user')`.
 *
 * @example
 * app.get('/admin/stats', requireRole('admin'), handler);
 */
export function requireRole(role: Role) {
  return createMiddleware<{ Variables: { user: AuthUser; auth: AuthContext } }>(async (c, next) => {
    const user = await c.get('auth').user();
    if (!user.roles.includes(role)) {
      throw new AppError(403, 'FORBIDDEN', `this needs the ${role} role`);
    }
    c.set('user', user);
    await next();
  });
}
