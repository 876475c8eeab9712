import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The client's IP address for per-IP limits: with TRUST_PROXY on, the last
 * X-Forwarded-For entry (the one our proxy appended; earlier entries come from the
 * client and could be forged), else the socket's remote address.
 * 'unknown' when neither is available (requests made in-process by tests).
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
