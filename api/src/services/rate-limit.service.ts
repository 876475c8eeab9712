import type { Kysely } from 'kysely';
import {
  forgetAttempts,
  type LoginBackoffPolicy,
  pruneAttempts,
  reserveAttempt,
  reserveLoginAttempt,
} from '../db/queries/auth-attempts.queries.js';
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
  /** Registrations per client IP. */
  registerIp: { bucket: 'register-ip', limit: 20, windowSeconds: 60 * 60 },
  /** Reset and activation mails asked per client IP. */
  mailIp: { bucket: 'mail-ip', limit: 20, windowSeconds: 60 * 60 },
  /** Reset and activation mails asked per address (no mail bombing of one inbox). */
  mailAddress: { bucket: 'mail-address', limit: 5, windowSeconds: 60 * 60 },
} as const satisfies Record<string, RateRule>;

/**
 * Failed logins slow down the client that fails, never the account: an
 * (account, client) pair gets 5 free failures, then waits 1 s, 2 s, 4 s … (at
 * most 15 min) before each further try; a client (IP address as
 * `clientIp()` resolves it) gets 50 free failures across accounts, then the
 * same doubling. Failures are forgotten after 15 minutes. A client that has not
 * failed on an account can always try it, so nobody who knows an email can
 * lock its owner out; once an account has 10 failures in the window (it is
 * under attack) a client that failed on it once already waits, and the owner
 * gets a mail (at most one an hour).
 */
export const LOGIN_THROTTLE = {
  windowSeconds: 15 * 60,
  pairFree: 5,
  clientFree: 50,
  accountUnderAttack: 10,
  baseSeconds: 1,
  maxSeconds: 15 * 60,
  /** Failures of an account in the window after which its owner is told by mail. */
  alertAfter: 10,
  /** At most one such mail per account in this many seconds. */
  alertEverySeconds: 60 * 60,
} as const satisfies LoginBackoffPolicy & Record<string, number>;

/**
 * Counts one login attempt of `email` from `client` under {@link LOGIN_THROTTLE},
 * or throws 429 TOO_MANY_ATTEMPTS with the seconds this client must wait.
 * @returns the attempt ids (to un-count a login that succeeds) and the account's failures in the window.
 */
export async function countLoginAttempt(
  db: Kysely<Database>,
  email: string,
  client: string,
): Promise<{ ids: string[]; accountFailures: number }> {
  if (Math.random() < 0.01) await pruneAttempts(db);
  const r = await reserveLoginAttempt(db, email, client, LOGIN_THROTTLE);
  if (!r.ok) {
    throw new AppError(429, 'TOO_MANY_ATTEMPTS', `too many failed logins: try again in ${r.retryAfterSeconds} s`, {
      retryAfterSeconds: r.retryAfterSeconds,
    });
  }
  return { ids: r.ids, accountFailures: r.accountFailures };
}

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
