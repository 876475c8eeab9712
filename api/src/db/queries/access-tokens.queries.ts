import { type Kysely, type Selectable, sql } from 'kysely';
import type { AccessTokensTable, Database } from '../types.js';

type Db = Kysely<Database>;

export type AccessTokenRow = Selectable<AccessTokensTable>;

/** A user's tokens that are not revoked, newest first (expired ones included: the list says so). */
export async function listAccessTokens(db: Db, userId: string): Promise<AccessTokenRow[]> {
  return db
    .selectFrom('access_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** How many usable (not revoked, not expired) tokens a user has. */
export async function countActiveAccessTokens(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('access_tokens')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
    .executeTakeFirst();
  return row?.n ?? 0;
}

/** Stores a new token (its hash only). */
export async function insertAccessToken(
  db: Db,
  values: { userId: string; name: string; tokenHash: string; tokenPrefix: string; expiresAt: Date | null },
): Promise<AccessTokenRow> {
  return db
    .insertInto('access_tokens')
    .values({
      user_id: values.userId,
      name: values.name,
      token_hash: values.tokenHash,
      token_prefix: values.tokenPrefix,
      expires_at: values.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Revokes one of a user's tokens; false when the user has no such (unrevoked) token. */
export async function revokeAccessToken(db: Db, userId: string, id: string): Promise<boolean> {
  const r = await db
    .updateTable('access_tokens')
    .set({ revoked_at: sql`now()` })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The user a token hash opens, with what decides whether it still may: revoked, expired, account state. */
export interface AccessTokenOwner {
  token_id: string;
  user_id: string;
  email: string;
  roles: string[];
  revoked: boolean;
  expired: boolean;
  enabled: boolean;
  activation_pending: boolean;
}

/**
 * Looks a token up by its hash and records its use (at most once a minute, so
 * a GIS tool fetching tiles does not write a row per request).
 */
export async function findAccessTokenOwner(db: Db, tokenHash: string): Promise<AccessTokenOwner | undefined> {
  const r = await sql<AccessTokenOwner>`
    WITH t AS (
      SELECT t.id, t.user_id, t.revoked_at IS NOT NULL AS revoked,
             (t.expires_at IS NOT NULL AND t.expires_at <= now()) AS expired, t.last_used_at
      FROM access_tokens t WHERE t.token_hash = ${tokenHash}
    ), touched AS (
      UPDATE access_tokens a SET last_used_at = now()
      FROM t WHERE a.id = t.id AND NOT t.revoked AND NOT t.expired
        AND (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute')
      RETURNING a.id
    )
    SELECT t.id AS token_id, u.id AS user_id, u.email, u.roles, t.revoked, t.expired, u.enabled, u.activation_pending
    FROM t JOIN users u ON u.id = t.user_id`.execute(db);
  return r.rows[0];
}
