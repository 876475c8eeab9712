import { createHmac, timingSafeEqual } from 'node:crypto';
import { checkKey } from './keys.js';

/** Why a signed request was refused. */
export type SignatureCheck = { ok: true } | { ok: false; reason: 'expired' | 'bad-signature' | 'malformed' };

/**
 * HMAC-SHA256 of `key` and `expires` (Unix seconds), base64url. The newline
 * separator cannot occur in a valid key, so two different (key, expires)
 * pairs never sign the same message.
 */
export function signKey(key: string, expires: number, secret: string): string {
  checkKey(key);
  return createHmac('sha256', secret).update(`${key}\n${expires}`).digest('base64url');
}

export interface SignedUrlOptions {
  secret: string;
  /** Lifetime in seconds (default 3600). */
  expiresIn?: number;
  /** Clock, for tests (ms since epoch). */
  now?: number;
}

/**
 * A URL for one object that works without a session until it expires:
 * `<base>/<key>?expires=<unix s>&signature=<hmac>`.
 *
 * @example
 * createSignedUrl('https://nuage.example/files', 'projects/p/assets/a/cloud.laz', { secret, expiresIn: 600 });
 */
export function createSignedUrl(baseUrl: string, key: string, options: SignedUrlOptions): string {
  const now = options.now ?? Date.now();
  const expires = Math.floor(now / 1000) + (options.expiresIn ?? 3600);
  const signature = signKey(key, expires, options.secret);
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const path = key.split('/').map(encodeURIComponent).join('/');
  return `${base}${path}?expires=${expires}&signature=${signature}`;
}

/**
 * Checks a signature in constant time (with respect to the signature bytes)
 * and the expiry. `expires` is the raw query value.
 */
export function verifySignature(
  key: string,
  expires: string | number | undefined,
  signature: string | undefined,
  secret: string,
  now: number = Date.now(),
): SignatureCheck {
  if (expires === undefined || signature === undefined) return { ok: false, reason: 'malformed' };
  const exp = typeof expires === 'number' ? expires : /^\d{1,12}$/.test(expires) ? Number(expires) : Number.NaN;
  if (!Number.isSafeInteger(exp)) return { ok: false, reason: 'malformed' };
  let expected: Buffer;
  try {
    expected = Buffer.from(signKey(key, exp, secret), 'base64url');
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const given = Buffer.from(signature, 'base64url');
  if (given.byteLength !== expected.byteLength || !timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad-signature' };
  }
  if (exp * 1000 < now) return { ok: false, reason: 'expired' };
  return { ok: true };
}

/** Verifies a full signed URL made by `createSignedUrl` against the base it was made with. */
export function verifySignedUrl(
  baseUrl: string,
  url: string,
  secret: string,
  now: number = Date.now(),
): SignatureCheck {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  if (parsed.origin !== base.origin || !parsed.pathname.startsWith(base.pathname))
    return { ok: false, reason: 'malformed' };
  let key: string;
  try {
    key = decodeURIComponent(parsed.pathname.slice(base.pathname.length));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  return verifySignature(
    key,
    parsed.searchParams.get('expires') ?? undefined,
    parsed.searchParams.get('signature') ?? undefined,
    secret,
    now,
  );
}
