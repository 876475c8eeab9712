import { type Kysely, sql } from 'kysely';
import type { Database } from '../types.js';

/** A tile row as the jobs read it. */
export interface TileRow {
  job_id: string;
  tile: number;
  status: 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED';
  spec: unknown;
  points: string;
  owned: string | null;
  worker_id: string | null;
  attempts: number;
  error_message: string | null;
}

/** The tiles of a job, in order. */
export async function listTiles(db: Kysely<Database>, jobId: string): Promise<TileRow[]> {
  return (await db
    .selectFrom('processing_tiles')
    .select(['job_id', 'tile', 'status', 'spec', 'points', 'owned', 'worker_id', 'attempts', 'error_message'])
    .where('job_id', '=', jobId)
    .orderBy('tile')
    .execute()) as TileRow[];
}

/**
 * Records the tiles of a job and queues one 'processing-tile' graphile-worker
 * job per tile, in one transaction (a crash leaves either all or none).
 */
export async function insertTiles(
  db: Kysely<Database>,
  jobId: string,
  tiles: ReadonlyArray<{ tile: number; spec: unknown; points: number }>,
  maxAttempts: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('processing_tiles')
      .values(
        tiles.map((t) => ({ job_id: jobId, tile: t.tile, spec: JSON.stringify(t.spec), points: String(t.points) })),
      )
      .onConflict((oc) => oc.columns(['job_id', 'tile']).doNothing())
      .execute();
    for (const t of tiles) {
      await sql`SELECT graphile_worker.add_job(
          'processing-tile',
          json_build_object('jobId', ${jobId}::text, 'tile', ${t.tile}::int),
          job_key := ${`processing-tile:${jobId}:${t.tile}`},
          max_attempts := ${maxAttempts}::int
        )`.execute(trx);
    }
  });
}

/**
 * Takes a tile to run: `tile` (or any of the job's) that is PENDING, or
 * RUNNING with a heartbeat older than `staleSeconds` (its worker died).
 * Returns the row, now RUNNING for `workerId`, or null.
 */
export async function claimTile(
  db: Kysely<Database>,
  jobId: string,
  tile: number | null,
  workerId: string,
  staleSeconds: number,
): Promise<TileRow | null> {
  const r = await sql<TileRow>`
    UPDATE processing_tiles t
       SET status = 'RUNNING', worker_id = ${workerId}, heartbeat_at = now(), started_at = now(),
           attempts = t.attempts + 1
     WHERE (t.job_id, t.tile) = (
       SELECT job_id, tile FROM processing_tiles
        WHERE job_id = ${jobId}
          AND (${tile}::int IS NULL OR tile = ${tile}::int)
          AND (status = 'PENDING'
               OR (status = 'RUNNING' AND heartbeat_at < now() - make_interval(secs => ${staleSeconds}::float8)))
        ORDER BY tile
        LIMIT 1
        FOR UPDATE SKIP LOCKED)
    RETURNING t.job_id, t.tile, t.status, t.spec, t.points, t.owned, t.worker_id, t.attempts, t.error_message`.execute(
    db,
  );
  return r.rows[0] ?? null;
}

/** A running tile's heartbeat (only while this worker holds it). */
export async function beatTile(db: Kysely<Database>, jobId: string, tile: number, workerId: string): Promise<boolean> {
  const r = await db
    .updateTable('processing_tiles')
    .set({ heartbeat_at: sql`now()` })
    .where('job_id', '=', jobId)
    .where('tile', '=', tile)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'RUNNING')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A tile done: its owned points (a second worker that ran a stolen tile writes the same). */
export async function finishTile(db: Kysely<Database>, jobId: string, tile: number, owned: number): Promise<void> {
  await db
    .updateTable('processing_tiles')
    .set({
      status: 'DONE',
      owned: String(owned),
      finished_at: sql`now()`,
      heartbeat_at: sql`now()`,
      error_message: null,
    })
    .where('job_id', '=', jobId)
    .where('tile', '=', tile)
    .where('status', '<>', 'DONE')
    .execute();
}

/** A tile that failed: PENDING again (another try), or FAILED after `maxAttempts`. */
export async function failTile(
  db: Kysely<Database>,
  jobId: string,
  tile: number,
  workerId: string,
  message: string,
  maxAttempts: number,
): Promise<void> {
  await db
    .updateTable('processing_tiles')
    .set({
      status: sql`CASE WHEN attempts >= ${maxAttempts}::int THEN 'FAILED' ELSE 'PENDING' END`,
      worker_id: null,
      error_message: message.slice(0, 2000),
    })
    .where('job_id', '=', jobId)
    .where('tile', '=', tile)
    .where('worker_id', '=', workerId)
    .where('status', '=', 'RUNNING')
    .execute();
}

/** Tiles of a job by status. */
export async function tileCounts(
  db: Kysely<Database>,
  jobId: string,
): Promise<{ total: number; done: number; running: number; failed: number; failure: string | null }> {
  const r = await sql<{ total: number; done: number; running: number; failed: number; failure: string | null }>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE status = 'DONE')::int AS done,
           count(*) FILTER (WHERE status = 'RUNNING')::int AS running,
           count(*) FILTER (WHERE status = 'FAILED')::int AS failed,
           min(error_message) FILTER (WHERE status = 'FAILED') AS failure
      FROM processing_tiles WHERE job_id = ${jobId}`.execute(db);
  return r.rows[0]!;
}

/** Forgets a job's tiles (once merged, or when the processing starts over). */
export async function deleteTiles(db: Kysely<Database>, jobId: string): Promise<void> {
  await db.deleteFrom('processing_tiles').where('job_id', '=', jobId).execute();
}

/** The running tiles of a job with their worker's heartbeat row (host, pid), if any. */
export async function runningTiles(
  db: Kysely<Database>,
  jobId: string,
): Promise<Array<{ tile: number; worker_id: string | null; hostname: string | null; pid: number | null }>> {
  const r = await sql<{ tile: number; worker_id: string | null; hostname: string | null; pid: number | null }>`
    SELECT t.tile, t.worker_id, h.hostname, h.pid
      FROM processing_tiles t LEFT JOIN worker_heartbeats h ON h.worker_id = t.worker_id
     WHERE t.job_id = ${jobId} AND t.status = 'RUNNING'`.execute(db);
  return r.rows;
}

/** A running tile whose worker is gone goes back to PENDING (only if that worker still holds it). */
export async function releaseTile(
  db: Kysely<Database>,
  jobId: string,
  tile: number,
  workerId: string | null,
): Promise<void> {
  let q = db
    .updateTable('processing_tiles')
    .set({ status: 'PENDING', worker_id: null, error_message: 'its worker stopped' })
    .where('job_id', '=', jobId)
    .where('tile', '=', tile)
    .where('status', '=', 'RUNNING');
  q = workerId === null ? q.where('worker_id', 'is', null) : q.where('worker_id', '=', workerId);
  await q.execute();
}
