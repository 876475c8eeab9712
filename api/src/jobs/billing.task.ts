import type { CronItem, Task } from 'graphile-worker';
import type { AppDeps } from '../context.js';
import { strandedReservations } from '../db/queries/credits.queries.js';
import {
  dueSubscriptions,
  insertEvent,
  lockSubscription,
  updateSubscription,
} from '../db/queries/subscriptions.queries.js';
import { creditSubscription, settleReservation } from '../services/credits.service.js';
import { nextAllocationAfter } from '../services/subscription.service.js';

/** The scheduled billing job: every 5 minutes on one worker (graphile-worker cron). */
export const BILLING_CRON: CronItem = {
  task: 'billing',
  match: '*/5 * * * *',
  identifier: 'nuage-billing',
  // A worker that was down does not run the missed ticks: the next tick catches up.
  options: { backfillPeriod: 0, maxAttempts: 3, jobKey: 'nuage-billing', queueName: 'nuage-billing' },
};

/** How old an open reservation of a finished (or deleted) job must be before the tick settles it. */
const STRANDED_AFTER_MS = 2 * 60_000;

/** What one tick did. */
export interface BillingTickResult {
  allocated: number;
  ended: number;
  suspended: number;
  settled: number;
}

/**
 * One run of the scheduled billing job, at `now`:
 * - cancelled subscriptions whose anniversary has come, and those past their
 *   end date, end (unsubscribed);
 * - subscriptions whose renewal payment failed and whose grace period is
 *   over are suspended;
 * - credits of the period for subscriptions whose allocation date has come
 *   (those billed by Stripe get theirs from the paid invoice instead): a
 *   FREEMIUM one is refilled up to its allowance, another adds it; keyed by
 *   the allocation date so a tick run twice allocates once;
 * - reservations left open by a job that ended or whose project was deleted
 *   are settled (released; charged when the job succeeded).
 * Every change is audited (actor: the system).
 */
export async function runBillingTick(deps: AppDeps, now = new Date()): Promise<BillingTickResult> {
  const db = deps.database.db;
  const due = await dueSubscriptions(db, now);
  const result: BillingTickResult = { allocated: 0, ended: 0, suspended: 0, settled: 0 };

  for (const id of due.endings) {
    await db.transaction().execute(async (trx) => {
      const sub = await lockSubscription(trx, id);
      if (!sub || sub.status === 'unsubscribed') return;
      const cancelled = sub.unsubscribe_pending && sub.valid_until && new Date(sub.valid_until) <= now;
      const expired = sub.end_date && new Date(sub.end_date) <= now;
      if (!cancelled && !expired) return;
      await updateSubscription(trx, sub.id, {
        status: 'unsubscribed',
        unsubscribe_pending: false,
        ended_at: now,
        next_allocation_date: null,
      });
      await insertEvent(trx, {
        subscriptionId: sub.id,
        actorId: null,
        action: 'ended',
        details: { source: 'schedule', reason: cancelled ? 'cancelled' : 'end-date', was: sub.status },
      });
      result.ended++;
    });
  }

  for (const id of due.graceOver) {
    await db.transaction().execute(async (trx) => {
      const sub = await lockSubscription(trx, id);
      if (sub?.status !== 'active' || !sub.grace_until || new Date(sub.grace_until) > now) return;
      await updateSubscription(trx, sub.id, { status: 'suspended', suspension_reason: 'payment' });
      await insertEvent(trx, {
        subscriptionId: sub.id,
        actorId: null,
        action: 'suspended',
        details: { source: 'schedule', reason: 'payment', graceUntil: new Date(sub.grace_until).toISOString() },
      });
      result.suspended++;
    });
  }

  // After the endings: a subscription that ends at its anniversary gets no credits for the next period.
  for (const id of due.allocations) {
    await db.transaction().execute(async (trx) => {
      const sub = await lockSubscription(trx, id);
      if (
        !sub?.is_current ||
        sub.status !== 'active' ||
        sub.allocation_period === 'NONE' ||
        sub.payment_subscription_id ||
        !sub.next_allocation_date ||
        new Date(sub.next_allocation_date) > now
      ) {
        return;
      }
      const at = new Date(sub.next_allocation_date);
      const topUp = sub.category === 'FREEMIUM';
      const delta = await creditSubscription(trx, sub, {
        key: `allocation:period:${sub.id}:${at.toISOString()}`,
        kind: 'allocation',
        hectares: sub.credits_allowance,
        mode: topUp ? 'topUp' : 'add',
        note: topUp ? 'monthly refill up to the allowance' : 'credits of the period',
      });
      const next = nextAllocationAfter(new Date(sub.start_date), sub.allocation_period, now);
      await updateSubscription(trx, sub.id, { last_allocation_date: now, next_allocation_date: next });
      if (delta !== null) {
        result.allocated++;
        await insertEvent(trx, {
          subscriptionId: sub.id,
          actorId: null,
          action: 'credits-allocated',
          details: { source: 'schedule', hectares: delta, allowance: sub.credits_allowance, next: next?.toISOString() },
        });
      }
    });
  }

  const stranded = await strandedReservations(db, new Date(now.getTime() - STRANDED_AFTER_MS));
  for (const r of stranded) {
    await db.transaction().execute(async (trx) => {
      const outcome = r.job_state === 'SUCCESS' ? 'charge' : 'release';
      const row = await settleReservation(trx, r, outcome, r.job_id ? `job ${r.job_state}` : 'project deleted');
      if (row) result.settled++;
    });
  }
  if (result.allocated + result.ended + result.suspended + result.settled > 0) {
    deps.log.info(result, 'billing tick');
  }
  return result;
}

/** The graphile-worker task of {@link runBillingTick}. */
export function billingTask(deps: AppDeps): Task {
  return async () => {
    await runBillingTick(deps);
  };
}
