import { type Kysely, sql } from 'kysely';
import type { Database, UserTokensTable } from '../types.js';

type Db = Kysely<Database>;
export type TokenPurpose = UserTokensTable['purpose'];

/** The settings key of the generated JWT secret (used when JWT_SECRET is not set). */
const JWT_SECRET_KEY = 'auth.jwt_secret';

/**
 * Returns the stored JWT secret, storing `candidate` first when there is none.
 * Several processes starting together agree on one value (the key is unique).
 */
export async function readOrCreateJwtSecret(db: Db, candidate: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key: JWT_SECRET_KEY, value: JSON.stringify(candidate) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', JWT_SECRET_KEY)
    .executeTakeFirstOrThrow();
  return row.value as string;
}

/**
 * Stores a new one-time token (its hash) for a user; earlier unused tokens of the
 * same purpose stop working, so only the latest mail's link is valid.
 */
export async function replaceUserToken(
  db: Db,
  t: { userId: string; purpose: TokenPurpose; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('user_tokens')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', t.userId)
      .where('purpose', '=', t.purpose)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('user_tokens')
      .values({ user_id: t.userId, purpose: t.purpose, token_hash: t.tokenHash, expires_at: t.expiresAt })
      .execute();
  });
}

/** The user and expiry of a usable (unused, unexpired) token, without using it. */
export function findUsableToken(db: Db, tokenHash: string, purpose: TokenPurpose) {
  return db
    .selectFrom('user_tokens')
    .innerJoin('users', 'users.id', 'user_tokens.user_id')
    .select(['user_tokens.user_id', 'user_tokens.expires_at', 'users.email'])
    .where('user_tokens.token_hash', '=', tokenHash)
    .where('user_tokens.purpose', '=', purpose)
    .where('user_tokens.used_at', 'is', null)
    .where('user_tokens.expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
}

/**
 * Uses a token: marks it used if it is usable and, when `email` is given, belongs to
 * that account. Atomic (one UPDATE), so a token works once even under concurrent use.
 * @returns the user id, or undefined when the token is not usable.
 */
export async function consumeToken(
  db: Db,
  tokenHash: string,
  purpose: TokenPurpose,
  email?: string,
): Promise<string | undefined> {
  let q = db
    .updateTable('user_tokens')
    .set({ used_at: sql`now()` })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`);
  if (email !== undefined) {
    q = q.where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('email', '=', email));
  }
  const row = await q.returning('user_id').executeTakeFirst();
  return row?.user_id;
}

/** Ends a session (every token carrying this session id), and forgets sessions ended long ago. */
export async function revokeSession(db: Db, sessionId: string, userId: string, expiresAt: Date): Promise<void> {
  await db
    .insertInto('revoked_sessions')
    .values({ session_id: sessionId, user_id: userId, expires_at: expiresAt })
    .onConflict((oc) => oc.column('session_id').doNothing())
    .execute();
  await db.deleteFrom('revoked_sessions').where('expires_at', '<', sql<Date>`now()`).execute();
}
