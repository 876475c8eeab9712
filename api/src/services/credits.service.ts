import type { Kysely } from 'kysely';
import {
  insertLedgerRow,
  type LedgerRow,
  openReservationOfJob,
  reservationCount,
} from '../db/queries/credits.queries.js';
import {
  addCredits,
  currentSubscription,
  lockSubscription,
  type SubscriptionRow,
} from '../db/queries/subscriptions.queries.js';
import type { Database, LedgerKind } from '../db/types.js';
import { AppError } from '../errors.js';

/*
 * The credits ledger (spec §3 credits, in hectares). A subscription's `credits`
 * is what is available now; every movement is one row of the `charges` table
 * under a unique key, written in the same transaction as the balance change:
 *
 * - a processing request reserves the project's area (the balance goes down at
 *   once, so parallel requests can never spend the same hectares);
 * - the job's success charges the reservation (delta 0: already taken off);
 * - a failure for our fault releases it (the hectares come back);
 * - allocations (each period, each purchase) and admin grants add credits.
 */

type Db = Kysely<Database>;

/** Runs `fn` in `db` when it is already a transaction, else in a new one. */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** Hectares rounded the way messages show them: required up, available down (2 decimals). */
export function insufficientCredits(required: number, available: number): AppError {
  const r = Math.ceil(required * 100 - 1e-9) / 100;
  const a = Math.max(0, Math.floor(available * 100 + 1e-9) / 100);
  return new AppError(
    402,
    'INSUFFICIENT_CREDITS',
    `insufficient credits: the project covers ${r} ha, you have ${a} ha left`,
    { required: r, available: a },
  );
}

/** Failure codes that are the user's doing (a bad file or options): the reserved credits are spent. */
export const USER_FAULT_CODES: ReadonlySet<string> = new Set([
  'INVALID_INPUT',
  'INVALID_FILE',
  'MISSING_LAS_HEADER',
  'CRS_REQUIRED',
  'INVALID_PROCESSING_OPTIONS',
]);

/**
 * Reserves `hectares` of the user's current subscription for a processing job,
 * in the caller's transaction: the balance goes down now, under a key of its
 * own for the job (each admin retry reserves again under the next key). 402
 * INSUFFICIENT_CREDITS when the credits left do not cover it; the balance
 * never goes below zero (a conditional update on the locked row).
 */
export async function reserveForJob(
  trx: Db,
  r: { userId: string; projectId: string; jobId: string; hectares: number },
): Promise<LedgerRow> {
  const sub = await currentSubscription(trx, r.userId, true);
  if (!sub) throw new AppError(403, 'NO_SUBSCRIPTION', 'no subscription found: contact support');
  const balance = await addCredits(trx, sub.id, -r.hectares);
  if (balance === null) throw insufficientCredits(r.hectares, sub.credits);
  const n = await reservationCount(trx, r.jobId);
  const row = await insertLedgerRow(trx, {
    key: `reserve:processing:${r.jobId}:${n + 1}`,
    kind: 'reservation',
    userId: r.userId,
    subscriptionId: sub.id,
    hectares: r.hectares,
    delta: -r.hectares,
    projectId: r.projectId,
    jobId: r.jobId,
  });
  if (!row) throw new Error(`reservation ${r.jobId}:${n + 1} exists already`);
  return row;
}

/**
 * Settles a job's open reservation, once: `charge` spends it (success, or a
 * failure the user caused), `release` gives the hectares back to the user's
 * current subscription (a failure of ours, a refusal, a deleted project).
 * Returns the settling row, or null when nothing was open (already settled,
 * or never reserved).
 */
export async function settleReservation(
  trx: Db,
  reservation: LedgerRow,
  outcome: 'charge' | 'release',
  note?: string,
): Promise<LedgerRow | null> {
  if (outcome === 'charge') {
    return (
      (await insertLedgerRow(trx, {
        key: `charge:${reservation.charge_key}`,
        kind: 'charge',
        userId: reservation.user_id,
        subscriptionId: reservation.subscription_id,
        hectares: reservation.hectares,
        delta: 0,
        projectId: reservation.project_id,
        jobId: reservation.job_id,
        reservationId: reservation.id,
        note: note ?? null,
      })) ?? null
    );
  }
  // Released to the subscription that applies now (the reserved one may have been replaced since).
  const target =
    (reservation.user_id ? await currentSubscription(trx, reservation.user_id, true) : undefined) ??
    (reservation.subscription_id ? await lockSubscription(trx, reservation.subscription_id) : undefined);
  const row = await insertLedgerRow(trx, {
    key: `release:${reservation.charge_key}`,
    kind: 'release',
    userId: reservation.user_id,
    subscriptionId: target?.id ?? null,
    hectares: reservation.hectares,
    delta: target ? reservation.hectares : 0,
    projectId: reservation.project_id,
    jobId: reservation.job_id,
    reservationId: reservation.id,
    note: note ?? null,
  });
  if (row && target) await addCredits(trx, target.id, reservation.hectares);
  return row ?? null;
}

/** Settles the open reservation of a job (see {@link settleReservation}); null when there is none. */
export async function settleJob(
  trx: Db,
  jobId: string,
  outcome: 'charge' | 'release',
  note?: string,
): Promise<LedgerRow | null> {
  const open = await openReservationOfJob(trx, jobId);
  return open ? settleReservation(trx, open, outcome, note) : null;
}

/**
 * Adds credits to a (locked) subscription under a unique key: `add` adds
 * `hectares`, `topUp` fills the balance up to `hectares` (a freemium refill).
 * Returns the delta applied, or null when the key was applied before.
 */
export async function creditSubscription(
  trx: Db,
  sub: SubscriptionRow,
  c: {
    key: string;
    kind: Extract<LedgerKind, 'opening' | 'allocation' | 'grant' | 'transfer'>;
    hectares: number;
    mode?: 'add' | 'topUp';
    actorId?: string | null;
    note?: string | null;
  },
): Promise<number | null> {
  const delta = c.mode === 'topUp' ? Math.max(0, c.hectares - sub.credits) : c.hectares;
  const row = await insertLedgerRow(trx, {
    key: c.key,
    kind: c.kind,
    userId: sub.user_id,
    subscriptionId: sub.id,
    hectares: c.hectares,
    delta,
    actorId: c.actorId ?? null,
    note: c.note ?? null,
  });
  if (!row) return null;
  if (delta !== 0) await addCredits(trx, sub.id, delta);
  return delta;
}

/**
 * Takes credits off a (locked) subscription under a unique key (an admin's
 * adjustment, a transfer out): 409 CREDITS_NEGATIVE when fewer are available.
 */
export async function debitSubscription(
  trx: Db,
  sub: SubscriptionRow,
  c: {
    key: string;
    kind: Extract<LedgerKind, 'adjustment' | 'transfer'>;
    hectares: number;
    actorId?: string | null;
    note?: string | null;
  },
): Promise<boolean> {
  const balance = await addCredits(trx, sub.id, -c.hectares);
  if (balance === null) {
    throw new AppError(
      409,
      'CREDITS_NEGATIVE',
      `only ${Math.floor(sub.credits * 100) / 100} ha are available: credits never go below zero`,
      { available: Math.floor(sub.credits * 100) / 100 },
    );
  }
  const row = await insertLedgerRow(trx, {
    key: c.key,
    kind: c.kind,
    userId: sub.user_id,
    subscriptionId: sub.id,
    hectares: c.hectares,
    delta: -c.hectares,
    actorId: c.actorId ?? null,
    note: c.note ?? null,
  });
  if (!row) {
    // Applied before under this key: undo this second debit.
    await addCredits(trx, sub.id, c.hectares);
    return false;
  }
  return true;
}

/**
 * Makes sure a processing job holds its reservation when it starts: the one
 * taken with the request, or a new one (an admin retry after a failure gave
 * the credits back, or a job queued before reservations existed). 402
 * INSUFFICIENT_CREDITS when the credits left do not cover it.
 */
export async function ensureJobReservation(
  db: Db,
  r: { userId: string; projectId: string; jobId: string; hectares: number },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.selectFrom('jobs').select('id').where('id', '=', r.jobId).forUpdate().executeTakeFirst();
    if (await openReservationOfJob(trx, r.jobId)) return;
    await reserveForJob(trx, r);
  });
}
