import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EngineError } from '@nuage/engine/core/errors.js';
import { assetKey, StorageError } from '@nuage/tiles-cache';
import type { JobHelpers, Task } from 'graphile-worker';
import { type Kysely, sql } from 'kysely';
import { ZodError, z } from 'zod';
import type { AppDeps } from '../context.js';
import { findAsset } from '../db/queries/assets.queries.js';
import { findJob, type JobRow, updateJob } from '../db/queries/jobs.queries.js';
import { findProject } from '../db/queries/projects.queries.js';
import type { Database, JobKind } from '../db/types.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import { removeProjectFiles } from '../services/projects.service.js';

/** What a job body gets: its row, progress recording, a cancel signal and a scratch folder. */
export interface JobContext {
  deps: AppDeps;
  job: JobRow;
  /** Aborted when the worker shuts down (the job is then handed back) or gives up. */
  signal: AbortSignal;
  /** Scratch folder of this run, removed afterwards. */
  tmpDir: string;
  log: Logger;
  /** Records a progress step (spec §4) and optionally a percentage; written at once. */
  step(step: string, percentage?: number): Promise<void>;
  /** Records a percentage within the current step; written at most twice a second. */
  progress(percentage: number): void;
}

/** How a job ended well. */
export interface JobOutcome {
  /** Stored in the job row (figures for monitors). */
  result?: unknown;
  /** Runs in the transaction that marks the job SUCCESS (asset states, charges, follow-up jobs). */
  commit?: (trx: Kysely<Database>) => Promise<void>;
  /** Runs after that commit (mails); failures are logged, never fail the job. */
  after?: () => Promise<void>;
}

/** A failure as recorded: a stable code and a readable message. */
export interface JobFailure {
  code: string;
  message: string;
}

export interface JobDefinition {
  kind: JobKind;
  /** Step recorded when the job starts. */
  firstStep: string;
  /** Step recorded when the job succeeds. */
  finalStep: string;
  run(ctx: JobContext): Promise<JobOutcome>;
  /** Records the failure on the job's asset and project (in the FAILURE transaction). */
  onFailure?(trx: Kysely<Database>, job: JobRow, failure: JobFailure): Promise<void>;
  /** After the FAILURE commit (mails). */
  afterFailure?(job: JobRow, failure: JobFailure): Promise<void>;
}

/** An error that retrying cannot fix: the job fails at once with this code and message. */
export class PermanentJobError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'PermanentJobError';
    this.code = code;
  }
}

const payloadSchema = z.object({ jobId: z.string().regex(/^\d{1,18}$/) });

/** Sorts an error into permanent (bad input: fail now) or transient (retry), with its code and message. */
export function classifyError(err: unknown): JobFailure & { permanent: boolean; cancelled: boolean } {
  if (err instanceof PermanentJobError)
    return { code: err.code, message: err.message, permanent: true, cancelled: false };
  if (err instanceof EngineError) {
    const cancelled = err.code === 'CANCELLED';
    return { code: err.code, message: err.message, permanent: !cancelled, cancelled };
  }
  if (err instanceof StorageError) {
    return { code: err.code, message: err.message, permanent: err.code === 'INVALID_KEY', cancelled: false };
  }
  if (err instanceof AppError)
    return { code: err.code, message: err.message, permanent: err.status < 500, cancelled: false };
  if (err instanceof ZodError) {
    return {
      code: 'INVALID_PAYLOAD',
      message: err.issues.map((i) => i.message).join('; '),
      permanent: true,
      cancelled: false,
    };
  }
  const e = err as Error;
  return { code: 'INTERNAL', message: e?.message ?? String(err), permanent: false, cancelled: false };
}

/**
 * Wraps a job body as a graphile-worker task that records the job's state
 * (PENDING → PROGRESS → SUCCESS | FAILURE), step, percentage, timestamps,
 * attempts and retries in its `jobs` row.
 *
 * - A job already finished (a duplicate queue entry, a run after a crash that
 *   happened after the commit) is skipped: runs are idempotent.
 * - Bad input (engine InvalidInput, CrsRequired, 4xx) fails at once, never retried.
 * - Other errors are retried by graphile-worker up to max_attempts, then fail.
 * - At shutdown the body's signal aborts after the grace period; the job goes
 *   back to PENDING and graphile-worker runs it again later.
 * - A project deleted while its job ran has the files written meanwhile removed.
 */
export function defineJobTask(deps: AppDeps, workerId: string, def: JobDefinition): Task {
  return async (rawPayload: unknown, helpers: JobHelpers) => {
    const { jobId } = payloadSchema.parse(rawPayload);
    const db = deps.database.db;
    const job = await findJob(db, jobId);
    const log = deps.log.child({ job: jobId, kind: def.kind, attempt: helpers.job.attempts });
    if (!job) {
      log.info('job row is gone (project deleted): nothing to do');
      return;
    }
    if (job.kind !== def.kind) throw new PermanentJobError('INVALID_PAYLOAD', `job ${jobId} is a ${job.kind} job`);
    if (job.state !== 'PENDING' && job.state !== 'PROGRESS') {
      log.info({ state: job.state }, 'job is not pending: skipped');
      return;
    }
    await updateJob(db, jobId, {
      state: 'PROGRESS',
      step: def.firstStep,
      percentage: 0,
      attempts: helpers.job.attempts,
      worker_id: workerId,
      locked_by: helpers.job.locked_by,
      started_at: sql<Date>`now()` as unknown as Date,
      finished_at: null,
      error_code: null,
      error_message: null,
    });

    // Progress writes are chained so they land in order, and throttled.
    let writes: Promise<unknown> = Promise.resolve();
    let lastWrite = 0;
    let pending: number | null = null;
    // A percentage held back by the throttle is written when the throttle ends, so the bar does not stall.
    let trailing: ReturnType<typeof setTimeout> | null = null;
    const stopTrailing = () => {
      if (trailing) clearTimeout(trailing);
      trailing = null;
    };
    /** Writes the percentage held, if any. */
    const flushProgress = () => {
      if (pending === null) return;
      lastWrite = Date.now();
      const p = pending;
      pending = null;
      void write({ percentage: p });
    };
    const write = (patch: { step?: string; percentage?: number }) => {
      writes = writes
        .then(() => updateJob(db, jobId, patch, ['PROGRESS']))
        .catch((err) => log.warn({ err }, 'progress write failed'));
      return writes;
    };
    const clamp = (p: number) => Math.max(0, Math.min(100, Math.round(p * 10) / 10));
    const tmpDir = await mkdtemp(path.join(tmpdir(), `nuage-job-${jobId}-`));
    const ctx: JobContext = {
      deps,
      job: { ...job, state: 'PROGRESS' },
      signal: helpers.abortSignal,
      tmpDir,
      log,
      step(step, percentage) {
        pending = null;
        stopTrailing();
        lastWrite = Date.now();
        return write(percentage === undefined ? { step } : { step, percentage: clamp(percentage) }).then(() => {});
      },
      progress(percentage) {
        pending = clamp(percentage);
        const now = Date.now();
        if (now - lastWrite < 500) {
          trailing ??= setTimeout(
            () => {
              trailing = null;
              if (!helpers.abortSignal.aborted) flushProgress();
            },
            500 - (now - lastWrite),
          );
          return;
        }
        stopTrailing();
        flushProgress();
      },
    };

    try {
      const outcome = await def.run(ctx).finally(stopTrailing);
      await writes;
      const finished = await db.transaction().execute(async (trx) => {
        const changed = await updateJob(
          trx,
          jobId,
          {
            state: 'SUCCESS',
            step: def.finalStep,
            percentage: 100,
            finished_at: sql<Date>`now()` as unknown as Date,
            worker_id: null,
            locked_by: null,
            result: outcome.result ?? null,
          },
          ['PROGRESS'],
        );
        if (changed) await outcome.commit?.(trx);
        return changed;
      });
      if (!finished) {
        await cleanUpIfProjectGone(deps, job, log);
        return;
      }
      log.info('job succeeded');
      await outcome.after?.().catch((err) => log.error({ err }, 'after-success step failed'));
    } catch (err) {
      await writes;
      const failure = classifyError(err);
      if (failure.cancelled || helpers.abortSignal.aborted) {
        // Shutdown: hand the job back; graphile-worker runs it again.
        await updateJob(db, jobId, { state: 'PENDING', worker_id: null, locked_by: null }, ['PROGRESS']);
        log.warn('job handed back (worker shutting down)');
        throw err;
      }
      const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
      if (!failure.permanent && !lastAttempt) {
        await updateJob(
          db,
          jobId,
          {
            state: 'PENDING',
            worker_id: null,
            locked_by: null,
            retry_count: sql<number>`retry_count + 1` as unknown as number,
            error_code: failure.code,
            error_message: `attempt ${helpers.job.attempts} failed, retrying: ${failure.message}`,
          },
          ['PROGRESS'],
        );
        log.warn({ err }, 'job attempt failed; graphile-worker will retry');
        throw err;
      }
      log.error({ err, code: failure.code }, 'job failed');
      const recorded = await db.transaction().execute(async (trx) => {
        const changed = await updateJob(
          trx,
          jobId,
          {
            state: 'FAILURE',
            step: 'error',
            finished_at: sql<Date>`now()` as unknown as Date,
            worker_id: null,
            locked_by: null,
            error_code: failure.code,
            error_message: failure.message,
          },
          ['PROGRESS'],
        );
        if (changed) await def.onFailure?.(trx, job, failure);
        return changed;
      });
      if (!recorded) {
        await cleanUpIfProjectGone(deps, job, log);
        return;
      }
      await def.afterFailure?.(job, failure).catch((e) => log.error({ err: e }, 'after-failure step failed'));
      // Recorded as a failure: graphile-worker must not retry it.
    } finally {
      await rm(tmpDir, { recursive: true, force: true }).catch(() => {});
    }
  };
}

/** The job's row vanished while it ran: its project or asset was deleted; remove what the run wrote. */
async function cleanUpIfProjectGone(deps: AppDeps, job: JobRow, log: Logger): Promise<void> {
  if (!(await findProject(deps.database.db, job.project_id))) {
    const n = await removeProjectFiles(deps, job.project_id);
    log.info({ files: n }, 'project deleted while its job ran: removed the files written');
    return;
  }
  if (job.asset_id && !(await findAsset(deps.database.db, job.asset_id))) {
    const n = await deps.storage.tiles.deletePrefix(assetKey(job.project_id, job.asset_id)).catch(() => 0);
    log.info({ files: n }, 'asset deleted while its job ran: removed the files written');
  }
}
