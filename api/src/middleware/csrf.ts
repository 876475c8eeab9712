import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { Config } from '../config.js';
import type { AppEnv } from '../context.js';
import { AppError } from '../errors.js';
import { sessionCookieName } from './auth.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * Refuses cross-site requests that ride on the session cookie: every
 * POST/PUT/PATCH/DELETE that carries the cookie (and no bearer token) must come
 * from this origin or from PUBLIC_URL's. Browsers tell where a request comes
 * from with `Sec-Fetch-Site` and `Origin` (sent on every non-GET request);
 * `same-origin` and `none` (typed by the user) pass, otherwise `Origin` (or,
 * without it, `Referer`) must be one of the allowed origins. A request with
 * none of these headers does not come from a browser page, which is what CSRF
 * needs, and passes. Bearer tokens are not sent by browsers on their own, so
 * requests carrying one are never checked. 403 CROSS_SITE_REQUEST otherwise.
 *
 * @example
 * app.use('*', csrfGuard(deps.config));
 */
export function csrfGuard(config: Config) {
  const allowed = new Set([new URL(config.PUBLIC_URL).origin]);
  const cookieName = sessionCookieName(config);
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!STATE_CHANGING.has(c.req.method)) return next();
    if (/^Bearer\s/i.test(c.req.header('authorization') ?? '')) return next();
    if (getCookie(c, cookieName) === undefined) return next();
    const site = c.req.header('sec-fetch-site')?.toLowerCase();
    if (site === 'same-origin' || site === 'none') return next();
    const self = originOf(c.req.url);
    const claimed = c.req.header('origin');
    const from = claimed !== undefined ? claimed : originOf(c.req.header('referer'));
    if (from === null || from === undefined) {
      // No Origin, no Referer: a browser would have sent Origin with this method, unless Sec-Fetch-Site says cross-site.
      if (site === undefined) return next();
    } else if (from === self || allowed.has(from)) {
      return next();
    }
    throw new AppError(
      403,
      'CROSS_SITE_REQUEST',
      `refused: a ${c.req.method} with the session cookie from another site (${from ?? site}); use this application's own pages or a bearer token`,
    );
  });
}
