import { currentSubscription } from '../src/db/queries/subscriptions.queries.js';
import type { SubscriptionStatus } from '../src/db/types.js';
import { ensureSubscription } from '../src/services/subscription.service.js';
import { grantCredits } from '../src/services/subscription-admin.service.js';
import type { TestApp } from './app.js';

/**
 * Puts a user's current subscription in a standing for a test: its status
 * (`none`: no current subscription at all; `active` also lifts a
 * deactivation) and/or the hectares available (through the ledger, as an
 * admin's grant or adjustment would).
 */
export async function setStanding(
  t: TestApp,
  userId: string,
  s: { status?: SubscriptionStatus; credits?: number },
): Promise<void> {
  const db = t.tdb.db;
  let sub = await ensureSubscription(t.deps, userId);
  if (!sub) {
    // A user left without one (none): the latest becomes current again.
    const last = await db
      .selectFrom('subscriptions')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    await db.updateTable('subscriptions').set({ is_current: true }).where('id', '=', last.id).execute();
    sub = (await currentSubscription(db, userId))!;
  }
  if (s.credits !== undefined) {
    const delta = Math.round((s.credits - sub.credits) * 1e9) / 1e9;
    if (delta !== 0) await grantCredits(t.deps, null, sub.id, { hectares: delta, note: 'test' });
  }
  if (s.status !== undefined) {
    if (s.status === 'none') {
      await db.updateTable('subscriptions').set({ is_current: false }).where('id', '=', sub.id).execute();
    } else {
      await db
        .updateTable('subscriptions')
        .set({ status: s.status, enabled: true, suspension_reason: s.status === 'suspended' ? 'admin' : null })
        .where('id', '=', sub.id)
        .execute();
    }
  }
}

/** The credits available to a user now (their current subscription's balance). */
export async function creditsOf(t: TestApp, userId: string): Promise<number> {
  return (await currentSubscription(t.tdb.db, userId))?.credits ?? 0;
}
