import { type Kysely, sql } from 'kysely';
import type { Database } from '../types.js';

type Db = Kysely<Database>;

/** Result of trying to count one more attempt against a limit. */
export type Reservation = { ok: true; id: string } | { ok: false; retryAfterSeconds: number };

/**
 * Counts one attempt for (bucket, subject) unless `limit` attempts already happened
 * in the last `windowSeconds`. Check and insert run under a transaction-scoped
 * advisory lock on the pair, so concurrent requests (from any API process) can never
 * overshoot the limit.
 */
export async function reserveAttempt(
  db: Db,
  bucket: string,
  subject: string,
  limit: number,
  windowSeconds: number,
): Promise<Reservation> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`${bucket}:${subject}`}))`.execute(trx);
    const since = sql<Date>`now() - make_interval(secs => ${windowSeconds})`;
    const row = await trx
      .selectFrom('auth_attempts')
      .select((eb) => [
        eb.fn.countAll<string>().as('n'),
        sql<number>`extract(epoch from (min(created_at) + make_interval(secs => ${windowSeconds}) - now()))`.as('wait'),
      ])
      .where('bucket', '=', bucket)
      .where('subject', '=', subject)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= limit) {
      return { ok: false as const, retryAfterSeconds: Math.max(1, Math.ceil(Number(row.wait))) };
    }
    const inserted = await trx
      .insertInto('auth_attempts')
      .values({ bucket, subject })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ok: true as const, id: inserted.id };
  });
}

/** Un-counts attempts (a login that turned out to succeed is not a failure). */
export async function forgetAttempts(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('auth_attempts').where('id', 'in', ids).execute();
}

/** Deletes attempts older than any window (a day). */
export async function pruneAttempts(db: Db): Promise<void> {
  await db.deleteFrom('auth_attempts').where('created_at', '<', sql<Date>`now() - interval '1 day'`).execute();
}
