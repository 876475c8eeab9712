import { type Kysely, sql } from 'kysely';
import type { Database } from '../types.js';

/** PostGIS version string (e.g. "3.6.2"), straight from the database. */
export async function postgisVersion(db: Kysely<Database>): Promise<string> {
  const r = await sql<{ v: string }>`SELECT postgis_lib_version() AS v`.execute(db);
  return r.rows[0]!.v;
}

/** Highest applied migration version. */
export async function migrationVersion(db: Kysely<Database>): Promise<number> {
  const r = await sql<{ v: number | null }>`SELECT max(version) AS v FROM schema_migrations`.execute(db);
  return r.rows[0]?.v ?? 0;
}

/** Seconds since the freshest worker heartbeat, and how many workers beat in the last minute. */
export async function workerHeartbeat(db: Kysely<Database>): Promise<{ ageSeconds: number | null; live: number }> {
  const r = await sql<{ age: number | null; live: number }>`
    SELECT extract(epoch FROM now() - max(beat_at))::float8 AS age,
           count(*) FILTER (WHERE beat_at > now() - interval '1 minute')::int AS live
    FROM worker_heartbeats`.execute(db);
  const row = r.rows[0];
  return { ageSeconds: row?.age ?? null, live: row?.live ?? 0 };
}

/** Records a beat of one worker process. */
export async function recordHeartbeat(
  db: Kysely<Database>,
  beat: { workerId: string; hostname: string; pid: number },
): Promise<void> {
  await db
    .insertInto('worker_heartbeats')
    .values({ worker_id: beat.workerId, hostname: beat.hostname, pid: beat.pid })
    .onConflict((oc) => oc.column('worker_id').doUpdateSet({ beat_at: sql`now()` }))
    .execute();
}

/** Removes a worker's heartbeat row when it stops cleanly. */
export async function removeHeartbeat(db: Kysely<Database>, workerId: string): Promise<void> {
  await db.deleteFrom('worker_heartbeats').where('worker_id', '=', workerId).execute();
}
