import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { readOrCreateJwtSecret } from '../db/queries/tokens.queries.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';

/** Session lengths a user may pick at login ("remember me", spec §9); 30 is the default. */
export const REMEMBER_DAYS = [7, 30, 90] as const;
export type RememberDays = (typeof REMEMBER_DAYS)[number];
export const DEFAULT_REMEMBER_DAYS: RememberDays = 30;
/** The longest a token can live; a revoked session row may be forgotten after this. */
export const MAX_SESSION_MS = 90 * 86_400_000;

const ISSUER = 'nuage';
const AUDIENCE = 'nuage-api';
const ALGORITHM = 'HS256';

/** What a verified session token says. */
export interface SessionClaims {
  userId: string;
  /** The user's token version when the token was issued; raising it revokes the token. */
  tokenVersion: number;
  /** Shared by a login's token and every refresh of it; a logout revokes the session. */
  sessionId: string;
  rememberDays: RememberDays;
  issuedAt: Date;
  expiresAt: Date;
}

/** Signs and verifies session tokens (JWT, HS256 only). */
export interface TokenService {
  issue(input: { userId: string; tokenVersion: number; rememberDays: RememberDays; sessionId?: string }): Promise<{
    token: string;
    claims: SessionClaims;
  }>;
  /** Verifies signature, algorithm, issuer, audience and expiry; throws 401 TOKEN_EXPIRED or TOKEN_INVALID. */
  verify(token: string): Promise<SessionClaims>;
}

const services = new WeakMap<AppDeps, TokenService>();

/**
 * The token service of a process (one per deps). The HS256 key is JWT_SECRET, or a
 * secret generated once and kept in the `settings` table so that every API process
 * and every restart agree on it.
 *
 * @example
 * const { token } = await tokenService(deps).issue({ userId: '1', tokenVersion: 0, rememberDays: 30 });
 * const claims = await tokenService(deps).verify(token);
 */
export function tokenService(deps: AppDeps): TokenService {
  let service = services.get(deps);
  if (!service) {
    service = createTokenService(deps);
    services.set(deps, service);
  }
  return service;
}

function createTokenService(deps: AppDeps): TokenService {
  let key: Promise<Uint8Array> | null = null;
  const getKey = () => {
    key ??= (async () => {
      const secret =
        deps.config.JWT_SECRET ||
        (await readOrCreateJwtSecret(deps.database.db, randomBytes(48).toString('base64url')));
      return new TextEncoder().encode(secret);
    })().catch((err) => {
      key = null; // retry on the next request (database briefly unreachable)
      throw err;
    });
    return key;
  };

  return {
    async issue({ userId, tokenVersion, rememberDays, sessionId }) {
      const issuedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
      const expiresAt = new Date(issuedAt.getTime() + rememberDays * 86_400_000);
      const sid = sessionId ?? randomUUID();
      const token = await new SignJWT({ ver: tokenVersion, sid, rem: rememberDays })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .setJti(randomUUID())
        .sign(await getKey());
      return { token, claims: { userId, tokenVersion, sessionId: sid, rememberDays, issuedAt, expiresAt } };
    },

    async verify(token) {
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(token, await getKey(), {
          algorithms: [ALGORITHM],
          issuer: ISSUER,
          audience: AUDIENCE,
          requiredClaims: ['sub', 'exp', 'iat', 'ver', 'sid', 'rem'],
        }));
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) {
          throw new AppError(401, 'TOKEN_EXPIRED', 'the session has expired: log in again');
        }
        if (err instanceof joseErrors.JOSEError) {
          throw new AppError(401, 'TOKEN_INVALID', 'the session token is not valid');
        }
        throw err;
      }
      const { sub, ver, sid, rem, iat, exp } = payload;
      if (
        typeof sub !== 'string' ||
        !/^\d{1,18}$/.test(sub) ||
        !Number.isInteger(ver) ||
        typeof sid !== 'string' ||
        !REMEMBER_DAYS.includes(rem as RememberDays)
      ) {
        throw new AppError(401, 'TOKEN_INVALID', 'the session token is not valid');
      }
      return {
        userId: sub,
        tokenVersion: ver as number,
        sessionId: sid,
        rememberDays: rem as RememberDays,
        issuedAt: new Date((iat as number) * 1000),
        expiresAt: new Date((exp as number) * 1000),
      };
    },
  };
}

/** A new single-use token for a mail link (256 random bits) and the hash that is stored. */
export function newMailToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashMailToken(token) };
}

/** SHA-256 (hex) of a mail token: high-entropy tokens need no slow hash. */
export function hashMailToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
