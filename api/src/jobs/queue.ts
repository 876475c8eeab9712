import { makeWorkerUtils } from 'graphile-worker';
import { sql } from 'kysely';
import type { AppDeps } from '../context.js';
import { queueInstalled } from '../db/queries/jobs.queries.js';

/** Runs of a job before it is recorded as failed (crash resumptions and shutdown hand-backs count too). */
export const MAX_ATTEMPTS = 5;

const installed = new WeakMap<AppDeps, Promise<void>>();

/**
 * Makes sure graphile-worker's schema exists, so that jobs can be queued with
 * `graphile_worker.add_job` inside our own transactions (an API process may
 * queue before any worker ever started). Once per process.
 */
export function ensureQueue(deps: AppDeps): Promise<void> {
  let p = installed.get(deps);
  if (!p) {
    p = (async () => {
      if (await queueInstalled(deps.database.db)) return;
      const utils = await makeWorkerUtils({ pgPool: deps.database.pool, noPreparedStatements: true });
      try {
        await utils.migrate();
      } finally {
        await utils.release();
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
