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
 * The common table expressions that look a token up by its hash and record
 * its use (at most once a minute, so a GIS tool fetching tiles does not write
 * a row per request; a request that finds the row being recorded by another
 * does not wait for it): `token_owner` holds the {@link AccessTokenOwner} row, if
 * any. A null hash finds nothing. Used alone ({@link findAccessTokenOwner}) or
 * inside a query that reads what the token is for in the same round trip.
 */
export function accessTokenOwnerCtes(tokenHash: string | null) {
  return sql`
    token_found AS (
      SELECT t.id, t.user_id, t.revoked_at IS NOT NULL AS revoked,
             (t.expires_at IS NOT NULL AND t.expires_at <= now()) AS expired, t.last_used_at
      FROM access_tokens t WHERE t.token_hash = ${tokenHash}::text
    ), token_touched AS (
      -- SKIP LOCKED: requests using the token at the same moment do not queue behind the one that records it.
      UPDATE access_tokens a SET last_used_at = now()
      WHERE a.id = (
        SELECT l.id FROM access_tokens l JOIN token_found t ON l.id = t.id
        WHERE NOT t.revoked AND NOT t.expired
          AND (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute')
        FOR UPDATE OF l SKIP LOCKED)
      RETURNING a.id
    ), token_owner AS (
      SELECT t.id AS token_id, u.id AS user_id, u.email, u.roles, t.revoked, t.expired, u.enabled, u.activation_pending
      FROM token_found t JOIN users u ON u.id = t.user_id
    )`;
}

/** Looks a token up by its hash and records its use (see {@link accessTokenOwnerCtes}). */
export async function findAccessTokenOwner(db: Db, tokenHash: string): Promise<AccessTokenOwner | undefined> {
  const r = await sql<AccessTokenOwner>`
    WITH ${accessTokenOwnerCtes(tokenHash)}
    SELECT * FROM token_owner`.execute(db);
  return r.rows[0];
}
