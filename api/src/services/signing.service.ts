import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppDeps } from '../context.js';
import { readOrCreateSetting } from '../db/queries/global-parameters.queries.js';

/**
 * Signatures of the URLs that work without a session: uploads, tiles and file
 * downloads. The key is URL_SIGNING_SECRET, or a secret generated once and
 * kept in the `settings` table so that every API process agrees on it. Each
 * kind of URL signs its own message (domain separation), so a signature made
 * for one kind never opens another.
 */
export interface Signer {
  /** HMAC-SHA256 (base64url) of the parts, joined by newlines (which no part may hold). */
  sign(kind: SignedKind, parts: readonly (string | number)[]): Promise<string>;
  /** Constant-time check of a signature made by `sign`. */
  verify(kind: SignedKind, parts: readonly (string | number)[], signature: string): Promise<boolean>;
}

export type SignedKind = 'upload' | 'tiles' | 'file';

const signers = new WeakMap<AppDeps, Signer>();

/** The signer of a process (one per deps, the secret loaded once). */
export function signer(deps: AppDeps): Signer {
  let s = signers.get(deps);
  if (!s) {
    s = createSigner(deps);
    signers.set(deps, s);
  }
  return s;
}

function createSigner(deps: AppDeps): Signer {
  let key: Promise<string> | null = null;
  const getKey = () => {
    key ??= (async () => {
      const secret =
        deps.config.URL_SIGNING_SECRET ||
        (await readOrCreateSetting(deps.database.db, 'url_signing_secret', randomBytes(48).toString('base64url')));
      return secret;
    })().catch((err) => {
      key = null;
      throw err;
    });
    return key;
  };
  const mac = async (kind: SignedKind, parts: readonly (string | number)[]) => {
    for (const p of parts) {
      if (String(p).includes('\n')) throw new Error('a signed part cannot hold a newline');
    }
    return createHmac('sha256', await getKey())
      .update([kind, ...parts].join('\n'))
      .digest();
  };
  return {
    async sign(kind, parts) {
      return (await mac(kind, parts)).toString('base64url');
    },
    async verify(kind, parts, signature) {
      if (!/^[A-Za-z0-9_-]{43}$/.test(signature)) return false;
      const expected = await mac(kind, parts);
      const given = Buffer.from(signature, 'base64url');
      return given.byteLength === expected.byteLength && timingSafeEqual(given, expected);
    },
  };
}

/** A random single-use token (256 bits, base64url). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 (hex) of a token: what the database keeps. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Unix seconds `seconds` from now. */
export function expiresIn(seconds: number, now = Date.now()): number {
  return Math.floor(now / 1000) + seconds;
}

/** True when a Unix-seconds expiry (raw query text) is well formed and still in the future. */
export function notExpired(expires: string | number, now = Date.now()): boolean {
  const exp = typeof expires === 'number' ? expires : /^\d{1,12}$/.test(expires) ? Number(expires) : Number.NaN;
  return Number.isSafeInteger(exp) && exp * 1000 >= now;
}
