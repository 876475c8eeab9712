import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { warmTilerPool } from '@nuage/engine/tiler/tiler-warm-up.js';
import { parseCronItems, type Runner, run, Logger as WorkerLogger } from 'graphile-worker';
import pg from 'pg';
import type { AppDeps } from '../context.js';
import { recordHeartbeat, removeHeartbeat } from '../db/queries/health.queries.js';
import { BILLING_CRON } from '../jobs/billing.task.js';
import { createTaskList } from '../jobs/index.js';
import { ensureQueue } from '../jobs/queue.js';
import { processTable, startRecovery } from '../jobs/recovery.js';
import { tilerOptionsForJobs } from '../services/global-parameters.service.js';

/** A running job worker; `stop()` stops taking jobs and lets running ones finish or hands them back. */
export interface WorkerHandle {
  id: string;
  runner: Runner;
  /** The worker's own connections (graphile-worker's queries and LISTEN); stop() ends them. */
  pool: pg.Pool;
  stop(): Promise<void>;
}

const HEARTBEAT_MS = 5_000;

/**
 * Starts graphile-worker on the app database with Nuage's tasks, and a
 * heartbeat row that `/api/health` reads. Prepared statements are off so the
 * same code runs on the embedded database, which multiplexes connections.
 */
export async function startWorker(deps: AppDeps, options: { databaseUrl: string }): Promise<WorkerHandle> {
  // graphile-worker's schema first, under the lock an API process takes too: run() below then has nothing to migrate.
  await ensureQueue(deps);
  const id = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  // The worker's own pool, ended (and awaited) by stop(). Given a connection
  // string, graphile-worker makes a pool, takes its error handlers off on stop
  // and ends it without waiting: a client closed by the server meanwhile (a
  // restart, a dropped database) then raised an unhandled 'error' event.
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: Math.max(10, deps.config.WORKER_CONCURRENCY + 2),
    application_name: 'nuage-worker',
  });
  const onError = (err: Error) => deps.log.warn({ err }, 'worker database connection lost');
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  const runner = await run({
    pgPool: pool,
    concurrency: deps.config.WORKER_CONCURRENCY,
    noHandleSignals: true,
    noPreparedStatements: true,
    // The billing tick (allocations, cancellations at the anniversary, grace periods).
    parsedCronItems: parseCronItems([BILLING_CRON]),
    // The embedded database does not deliver LISTEN/NOTIFY reliably across its
    // multiplexed connections, so poll often enough that a job starts within 2 s.
    pollInterval: deps.config.databaseKind === 'embedded' ? 500 : 1_000,
    taskList: createTaskList(deps, { workerId: id }),
    // SIGTERM: a running job gets this long to finish its step, then is aborted and handed back.
    gracefulShutdownAbortTimeout: 20_000,
    logger: new WorkerLogger((scope) => (level, message, meta) => {
      const l = level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'debug' ? 'debug' : 'info';
      deps.log[l]({ gw: scope, ...(meta ?? {}) }, message);
    }),
  }).catch(async (err: unknown) => {
    await pool.end();
    throw err;
  });
  const beat = () =>
    // `hostname` holds the process table (hostname, PID namespace, boot) the pid belongs to.
    recordHeartbeat(deps.database.db, { workerId: id, hostname: processTable(), pid: process.pid }).catch((err) =>
      deps.log.warn({ err }, 'worker heartbeat failed'),
    );
  await beat();
  const timer = setInterval(beat, HEARTBEAT_MS);
  timer.unref();
  // Jobs of workers that died (SIGKILL, crash) run again now, not after the 4-hour lock timeout.
  const stopRecovery = await startRecovery(deps, id);
  deps.log.info({ workerId: id }, 'worker started');
  // Start and warm the tiler's threads now, in the background, so that the
  // first tiling of this process does not pay their start-up (~1 CPU-second).
  if (deps.config.TILER_WARM_UP) {
    void tilerOptionsForJobs(deps)
      .then((options) => warmTilerPool(options.workers))
      .then(() => deps.log.info({ workerId: id }, 'tiler threads warmed up'))
      .catch((err) => deps.log.warn({ err }, 'tiler warm-up failed: the first tiling starts its threads'));
  }
  return {
    id,
    runner,
    pool,
    async stop() {
      clearInterval(timer);
      stopRecovery();
      await runner.stop();
      await pool.end();
      await removeHeartbeat(deps.database.db, id).catch(() => {});
      deps.log.info({ workerId: id }, 'worker stopped');
    },
  };
}
