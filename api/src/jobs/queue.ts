import { makeWorkerUtils } from 'graphile-worker';
import { sql } from 'kysely';
import type { AppDeps } from '../context.js';

/** Runs of a job before it is recorded as failed (crash resumptions and shutdown hand-backs count too). */
export const MAX_ATTEMPTS = 5;

const installed = new WeakMap<AppDeps, Promise<void>>();

/** Advisory lock key of graphile-worker's schema installation (a constant, not the migrations' key). */
const QUEUE_LOCK_KEY = 727_172_002;

/**
 * Makes sure graphile-worker's schema exists and is up to date, so that jobs
 * can be queued with `graphile_worker.add_job` inside our own transactions
 * (an API process may queue before any worker ever started). Once per
 * process, under a session advisory lock (polled, as the migrations take
 * theirs): graphile-worker survives two processes creating its schema at
 * once, not two running its migrations at once. An API process answering
 * its first request while its worker process started, on a new database,
 * failed that request with a duplicate-key error. The worker calls this
 * before starting its runner, whose own migration then finds nothing to do.
 */
export function ensureQueue(deps: AppDeps): Promise<void> {
  let p = installed.get(deps);
  if (!p) {
    p = (async () => {
      const client = await deps.database.pool.connect();
      try {
        const deadline = Date.now() + 120_000;
        for (;;) {
          const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
            QUEUE_LOCK_KEY,
          ]);
          if (rows[0]?.ok) break;
          if (Date.now() > deadline) throw new Error('timed out waiting for the job queue installation lock');
          await new Promise((r) => setTimeout(r, 200));
        }
        try {
          // Idempotent: runs the migrations the schema lacks (none when installed).
          const utils = await makeWorkerUtils({ pgPool: deps.database.pool, noPreparedStatements: true });
          try {
            await utils.migrate();
          } finally {
            await utils.release();
          }
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [QUEUE_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    })().catch((err) => {
      installed.delete(deps);
      throw err;
    });
    installed.set(deps, p);
  }
  return p;
}

/**
 * Releases graphile-worker's locks held by workers that are gone (killed,
 * crashed): their jobs become runnable again at once instead of after
 * graphile-worker's 4-hour lock timeout.
 */
export async function forceUnlockWorkers(deps: AppDeps, gwWorkerIds: readonly string[]): Promise<void> {
  if (gwWorkerIds.length === 0) return;
  await sql`SELECT graphile_worker.force_unlock_workers(${[...gwWorkerIds]}::text[])`.execute(deps.database.db);
}
