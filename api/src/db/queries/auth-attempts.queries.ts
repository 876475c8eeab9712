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

/** The back-off schedule of failed logins (see LOGIN_THROTTLE in rate-limit.service.ts). */
export interface LoginBackoffPolicy {
  windowSeconds: number;
  /** Failures of one (account, client) pair before it waits. */
  pairFree: number;
  /** Failures of one client, whatever the accounts, before it waits. */
  clientFree: number;
  /** Failures of one account from all clients that mean it is under attack. */
  accountUnderAttack: number;
  /** The first wait, doubled at each further failure, up to `maxSeconds`. */
  baseSeconds: number;
  maxSeconds: number;
}

/** Result of asking to try a login: the counted attempt ids, or the seconds to wait. */
export type LoginReservation =
  | { ok: true; ids: string[]; accountFailures: number }
  | { ok: false; retryAfterSeconds: number };

function backoff(failures: number, free: number, sinceLast: number, p: LoginBackoffPolicy): number {
  if (failures < free) return 0;
  const wait = Math.min(p.maxSeconds, p.baseSeconds * 2 ** Math.min(30, failures - free));
  return wait - sinceLast;
}

/**
 * Counts one login attempt of `account` from `client` unless that pair or that
 * client must still wait (exponential back-off on their own failures). The
 * account's failures from other clients never make a client wait, except one
 * that has itself failed on the account while it is under attack. Check and
 * insert run under an advisory lock on the account, so parallel guesses are
 * counted exactly.
 */
export async function reserveLoginAttempt(
  db: Db,
  account: string,
  client: string,
  p: LoginBackoffPolicy,
): Promise<LoginReservation> {
  const pair = `${account} ${client}`;
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`login:${account}`}))`.execute(trx);
    const rows = await trx
      .selectFrom('auth_attempts')
      .select((eb) => [
        'bucket',
        eb.fn.countAll<string>().as('n'),
        sql<number>`extract(epoch from (now() - max(created_at)))`.as('since'),
      ])
      .where('created_at', '>', sql<Date>`now() - make_interval(secs => ${p.windowSeconds})`)
      .where((eb) =>
        eb.or([
          eb.and([eb('bucket', '=', 'login-pair'), eb('subject', '=', pair)]),
          eb.and([eb('bucket', '=', 'login-ip'), eb('subject', '=', client)]),
          eb.and([eb('bucket', '=', 'login-account'), eb('subject', '=', account)]),
        ]),
      )
      .groupBy('bucket')
      .execute();
    const of = (bucket: string) => {
      const r = rows.find((x) => x.bucket === bucket);
      return { n: Number(r?.n ?? 0), since: Number(r?.since ?? 0) };
    };
    const pairF = of('login-pair');
    const clientF = of('login-ip');
    const accountF = of('login-account');
    // Under attack, a client that already failed on this account waits from its first failure on.
    const pairFree = accountF.n >= p.accountUnderAttack ? Math.min(1, p.pairFree) : p.pairFree;
    const wait = Math.max(
      backoff(pairF.n, pairFree, pairF.since, p),
      backoff(clientF.n, p.clientFree, clientF.since, p),
    );
    if (wait > 0) return { ok: false as const, retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
    const inserted = await trx
      .insertInto('auth_attempts')
      .values([
        { bucket: 'login-pair', subject: pair },
        { bucket: 'login-ip', subject: client },
        { bucket: 'login-account', subject: account },
      ])
      .returning('id')
      .execute();
    return { ok: true as const, ids: inserted.map((r) => r.id), accountFailures: accountF.n + 1 };
  });
}

/** Forgets the failures of one (account, client) pair: its owner just proved who they are. */
export async function forgetLoginPair(db: Db, account: string, client: string): Promise<void> {
  await db
    .deleteFrom('auth_attempts')
    .where('bucket', '=', 'login-pair')
    .where('subject', '=', `${account} ${client}`)
    .execute();
}
