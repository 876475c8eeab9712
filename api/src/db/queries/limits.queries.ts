import type { Kysely } from 'kysely';
import type { Database, SubscriptionStatus } from '../types.js';

type Db = Kysely<Database>;

/** A user's own limits and subscription standing; null fields (or no row) fall back to the configured defaults. */
export interface StoredLimits {
  maxProjects: number | null;
  maxInputFileBytes: number | null;
  maxStorageBytes: number | null;
  subscriptionStatus: SubscriptionStatus | null;
  /** Credits granted, hectares. */
  creditHectares: number | null;
}

export async function readUserLimits(db: Db, userId: string): Promise<StoredLimits> {
  const row = await db.selectFrom('user_limits').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const num = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return {
    maxProjects: num(row?.max_projects),
    maxInputFileBytes: num(row?.max_input_file_bytes),
    maxStorageBytes: num(row?.max_storage_bytes),
    subscriptionStatus: row?.subscription_status ?? null,
    creditHectares: num(row?.credit_hectares),
  };
}

/** Sets a user's limits (admins, billing and tests); fields left undefined keep their value, null resets to the default. */
export async function writeUserLimits(db: Db, userId: string, limits: Partial<StoredLimits>): Promise<void> {
  const values = {
    ...(limits.maxProjects !== undefined ? { max_projects: limits.maxProjects } : {}),
    ...(limits.maxInputFileBytes !== undefined ? { max_input_file_bytes: limits.maxInputFileBytes } : {}),
    ...(limits.maxStorageBytes !== undefined ? { max_storage_bytes: limits.maxStorageBytes } : {}),
    ...(limits.subscriptionStatus !== undefined ? { subscription_status: limits.subscriptionStatus } : {}),
    ...(limits.creditHectares !== undefined ? { credit_hectares: limits.creditHectares } : {}),
  };
  await db
    .insertInto('user_limits')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}

/** Hectares charged to a user (the charges ledger) and the credits granted to them (null: the default). */
export async function readCreditTotals(
  db: Db,
  userId: string,
): Promise<{ grantedHectares: number | null; chargedHectares: number }> {
  const row = await db
    .selectFrom('user_credit_totals')
    .select(['granted_hectares', 'charged_hectares'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return {
    grantedHectares: row?.granted_hectares === null || row === undefined ? null : Number(row.granted_hectares),
    chargedHectares: Number(row?.charged_hectares ?? 0),
  };
}
