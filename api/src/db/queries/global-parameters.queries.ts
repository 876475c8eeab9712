import { type Kysely, sql } from 'kysely';
import type { Database } from '../types.js';

type Db = Kysely<Database>;

/** A setting's value, or undefined when it was never set. */
export async function readSetting(db: Db, key: string): Promise<unknown> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Sets a setting (insert or replace). */
export async function writeSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: sql`now()` }))
    .execute();
}

/** Stores `candidate` under `key` unless a value is there already; returns the value that wins. */
export async function readOrCreateSetting(db: Db, key: string, candidate: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(candidate) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const value = await readSetting(db, key);
  if (typeof value !== 'string') throw new Error(`setting ${key} is not a string`);
  return value;
}
