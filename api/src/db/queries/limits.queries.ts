import type { Kysely } from 'kysely';
import type { Database, SubscriptionStatus } from '../types.js';

type Db = Kysely<Database>;

/**
 * A user's limits and standing as migration 0004 kept them (user_limits); null
 * fields (or no row) meant the configured defaults. Since 0006 the limits live
 * on the subscription; this row only matters for a user not converted yet.
 */
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

/**
 * Sets a user's limits (admins and tests): those of the current subscription,
 * and those of the 0004 row a user without a subscription yet is converted
 * from. Fields left undefined keep their value; null means the configured default.
 */
export async function writeUserLimits(
  db: Db,
  userId: string,
  limits: Partial<Pick<StoredLimits, 'maxProjects' | 'maxInputFileBytes' | 'maxStorageBytes'>>,
): Promise<void> {
  const values = {
    ...(limits.maxProjects !== undefined ? { max_projects: limits.maxProjects } : {}),
    ...(limits.maxInputFileBytes !== undefined ? { max_input_file_bytes: limits.maxInputFileBytes } : {}),
    ...(limits.maxStorageBytes !== undefined ? { max_storage_bytes: limits.maxStorageBytes } : {}),
  };
  if (Object.keys(values).length === 0) return;
  await db
    .updateTable('subscriptions')
    .set({ ...values, updated_at: new Date() })
    .where('user_id', '=', userId)
    .where('is_current', '=', true)
    .execute();
  await db
    .insertInto('user_limits')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}
