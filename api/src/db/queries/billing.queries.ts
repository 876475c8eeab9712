import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, PurchasesTable } from '../types.js';

type Db = Kysely<Database>;

export type PurchaseRow = Selectable<PurchasesTable>;

export async function customerOf(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('payment_customers')
    .select('customer_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.customer_id ?? null;
}

/** Records the provider's customer of a user (the first one recorded wins). */
export async function saveCustomer(db: Db, userId: string, customerId: string): Promise<string> {
  await db
    .insertInto('payment_customers')
    .values({ user_id: userId, customer_id: customerId })
    .onConflict((oc) => oc.doNothing())
    .execute();
  return (await customerOf(db, userId)) ?? customerId;
}

export function insertPurchase(
  db: Db,
  p: { userId: string; templateId: string; mode: 'subscription' | 'payment' },
): Promise<PurchaseRow> {
  return db
    .insertInto('purchases')
    .values({ user_id: p.userId, template_id: p.templateId, mode: p.mode })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findPurchaseBySession(db: Db, sessionId: string): Promise<PurchaseRow | undefined> {
  return db.selectFrom('purchases').selectAll().where('checkout_session_id', '=', sessionId).executeTakeFirst();
}

export async function updatePurchase(
  db: Db,
  id: string,
  patch: Partial<Pick<PurchaseRow, 'checkout_session_id' | 'status' | 'subscription_id' | 'hectares' | 'completed_at'>>,
): Promise<void> {
  await db.updateTable('purchases').set(patch).where('id', '=', id).execute();
}

/** Records money received under the provider's reference (once). */
export async function recordPayment(
  db: Db,
  p: {
    ref: string;
    userId: string | null;
    subscriptionId: string | null;
    templateId: string | null;
    amount: number;
    currency: string;
  },
): Promise<boolean> {
  const row = await db
    .insertInto('payments')
    .values({
      provider_ref: p.ref,
      user_id: p.userId,
      subscription_id: p.subscriptionId,
      template_id: p.templateId,
      amount: p.amount,
      currency: p.currency.toLowerCase(),
    })
    .onConflict((oc) => oc.column('provider_ref').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims a webhook event for processing: true for the one delivery that gets
 * it; false when it was applied already or another delivery is applying it
 * now. A claim left by a process that died (processing for 5 minutes) is taken over.
 */
export async function claimEvent(db: Db, e: { id: string; type: string; created: Date }): Promise<boolean> {
  const inserted = await db
    .insertInto('payment_events')
    .values({ event_id: e.id, type: e.type, provider_created_at: e.created, outcome: 'processing' })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('event_id')
    .executeTakeFirst();
  if (inserted) return true;
  const stale = await db
    .updateTable('payment_events')
    .set({ received_at: sql<Date>`now()` })
    .where('event_id', '=', e.id)
    .where('outcome', '=', 'processing')
    .where('received_at', '<', sql<Date>`now() - interval '5 minutes'`)
    .returning('event_id')
    .executeTakeFirst();
  return stale !== undefined;
}

export async function finishEvent(db: Db, id: string, outcome: 'applied' | 'ignored'): Promise<void> {
  await db.updateTable('payment_events').set({ outcome }).where('event_id', '=', id).execute();
}

/** Gives a claim back (the processing failed: the provider's retry will apply it). */
export async function releaseEvent(db: Db, id: string): Promise<void> {
  await db.deleteFrom('payment_events').where('event_id', '=', id).where('outcome', '=', 'processing').execute();
}
