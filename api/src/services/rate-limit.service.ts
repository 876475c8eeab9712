import type { Kysely } from 'kysely';
import { forgetAttempts, pruneAttempts, reserveAttempt } from '../db/queries/auth-attempts.queries.js';
import type { Database } from '../db/types.js';
import { AppError } from '../errors.js';

/** A limit: at most `limit` counted attempts per subject in a sliding window. */
export interface RateRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

/**
 * The limits on the unauthenticated account endpoints. Counts live in the database
 * (table auth_attempts), so every API process shares them.
 */
export const RATE_RULES = {
  /** Failed logins per account (email, known or not): spec-level rule of the accounts issue. */
  loginAccount: { bucket: 'login-account', limit: 10, windowSeconds: 15 * 60 },
  /** Failed logins per client IP, whatever the accounts tried. */
  loginIp: { bucket: 'login-ip', limit: 50, windowSeconds: 15 * 60 },
  /** Registrations per client IP. */
  registerIp: { bucket: 'register-ip', limit: 20, windowSeconds: 60 * 60 },
  /** Reset and activation mails asked per client IP. */
  mailIp: { bucket: 'mail-ip', limit: 20, windowSeconds: 60 * 60 },
  /** Reset and activation mails asked per address (no mail bombing of one inbox). */
  mailAddress: { bucket: 'mail-address', limit: 5, windowSeconds: 60 * 60 },
} as const satisfies Record<string, RateRule>;

/**
 * Counts one attempt against a rule, or throws 429 TOO_MANY_ATTEMPTS with the
 * seconds to wait (the route sets Retry-After from `details.retryAfterSeconds`).
 * @returns the attempt's id, to un-count it with {@link releaseAttempts}.
 */
export async function countAttempt(db: Kysely<Database>, rule: RateRule, subject: string): Promise<string> {
  if (Math.random() < 0.01) await pruneAttempts(db);
  const r = await reserveAttempt(db, rule.bucket, subject, rule.limit, rule.windowSeconds);
  if (!r.ok) {
    throw new AppError(429, 'TOO_MANY_ATTEMPTS', `too many attempts: try again in ${r.retryAfterSeconds} s`, {
      retryAfterSeconds: r.retryAfterSeconds,
    });
  }
  return r.id;
}

/** Un-counts attempts (they turned out not to be failures), in one statement. */
export function releaseAttempts(db: Kysely<Database>, ...ids: string[]): Promise<void> {
  return forgetAttempts(db, ids);
}
