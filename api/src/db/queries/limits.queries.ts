import type { Kysely } from 'kysely';
import type { Database } from '../types.js';

type Db = Kysely<Database>;

/** A user's own limits; null fields (or no row) fall back to the configured defaults. */
export interface StoredLimits {
  maxProjects: number | null;
  maxInputFileBytes: number | null;
  maxStorageBytes: number | null;
}

export async function readUserLimits(db: Db, userId: string): Promise<StoredLimits> {
  const row = await db.selectFrom('user_limits').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const num = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return {
    maxProjects: num(row?.max_projects),
    maxInputFileBytes: num(row?.max_input_file_bytes),
    maxStorageBytes: num(row?.max_storage_bytes),
  };
}

/** Sets a user's limits (billing and tests); fields left undefined keep their value. */
export async function writeUserLimits(db: Db, userId: string, limits: Partial<StoredLimits>): Promise<void> {
  const values = {
    ...(limits.maxProjects !== undefined ? { max_projects: limits.maxProjects } : {}),
    ...(limits.maxInputFileBytes !== undefined ? { max_input_file_bytes: limits.maxInputFileBytes } : {}),
    ...(limits.maxStorageBytes !== undefined ? { max_storage_bytes: limits.maxStorageBytes } : {}),
  };
  await db
    .insertInto('user_limits')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}
