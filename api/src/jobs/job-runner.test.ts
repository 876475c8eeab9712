import { EngineError, InvalidInput } from '@nuage/engine/core/errors.js';
import type { JobHelpers } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { findJob, insertJob, recordCharge } from '../db/queries/jobs.queries.js';
import { insertProject } from '../db/queries/projects.queries.js';
import { defineJobTask, type JobContext, type JobDefinition } from './job-runner.js';

/** What graphile-worker hands a task, for driving a task directly. */
function helpers(attempts: number, maxAttempts = 5, abort?: AbortController): JobHelpers {
  const controller = abort ?? new AbortController();
  return {
    job: { attempts, max_attempts: maxAttempts, locked_by: 'gw-test-worker' },
    abortSignal: controller.signal,
  } as unknown as JobHelpers;
}

describe('job wrapper: states, steps, retries, idempotence', () => {
  let t: TestApp;
  let projectId: string;
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp();
    userId = await insertUser(t, { email: 'ada@example.com' });
    projectId = (await insertProject(t.tdb.db, { ownerId: userId, name: 'P' }))!.id;
  });
  afterAll(() => t.close());

  const newJob = () => insertJob(t.tdb.db, { kind: 'METADATA', projectId, assetId: null, userId, state: 'PENDING' });
  const task = (run: JobDefinition['run'], extra: Partial<JobDefinition> = {}) =>
    defineJobTask(t.deps, 'worker-under-test', {
      kind: 'METADATA',
      firstStep: 'initialization',
      finalStep: 'complete',
      run,
      ...extra,
    });

  it('goes PENDING → PROGRESS (steps, percentage, worker) → SUCCESS with timestamps and result', async () => {
    const job = await newJob();
    const seen: Array<{ state: string; step: string | null; percentage: number; worker: string | null }> = [];
    const run = task(async (ctx: JobContext) => {
      await ctx.step('downloading', 10);
      const row = (await findJob(t.tdb.db, job.id))!;
      seen.push({ state: row.state, step: row.step, percentage: row.percentage, worker: row.worker_id });
      await ctx.step('calculatingStatistics', 40);
      return { result: { points: 42 } };
    });
    await run({ jobId: job.id }, helpers(1));
    const done = (await findJob(t.tdb.db, job.id))!;
    expect(seen).toEqual([{ state: 'PROGRESS', step: 'downloading', percentage: 10, worker: 'worker-under-test' }]);
    expect(done).toMatchObject({
      state: 'SUCCESS',
      step: 'complete',
      percentage: 100,
      attempts: 1,
      retry_count: 0,
      worker_id: null,
      locked_by: null,
      result: { points: 42 },
      error_code: null,
    });
    expect(done.started_at).not.toBeNull();
    expect(new Date(done.finished_at!).getTime()).toBeGreaterThanOrEqual(new Date(done.started_at!).getTime());
  });

  it('writes a percentage the throttle held back once the throttle ends', async () => {
    const job = await newJob();
    const seen: number[] = [];
    const run = task(async (ctx: JobContext) => {
      await ctx.step('downloading', 10);
      // Within 500 ms of the step: held back, then written by itself.
      ctx.progress(35);
      ctx.progress(42);
      seen.push((await findJob(t.tdb.db, job.id))!.percentage);
      await new Promise((r) => setTimeout(r, 800));
      seen.push((await findJob(t.tdb.db, job.id))!.percentage);
      return { result: {} };
    });
    await run({ jobId: job.id }, helpers(1));
    expect(seen).toEqual([10, 42]);
  });

  it('records bad input as FAILURE at once (not retried), with the engine’s message, and calls onFailure', async () => {
    const job = await newJob();
    let failed: string | null = null;
    const run = task(
      async () => {
        throw new InvalidInput('header.pointDataOffset', 'points to byte 90, inside the header (375 bytes)', 96);
      },
      {
        async onFailure(_trx, _job, failure) {
          failed = failure.code;
        },
      },
    );
    // Resolves (does not throw): graphile-worker must not retry it.
    await expect(run({ jobId: job.id }, helpers(1))).resolves.toBeUndefined();
    expect(await findJob(t.tdb.db, job.id)).toMatchObject({
      state: 'FAILURE',
      step: 'error',
      attempts: 1,
      error_code: 'INVALID_INPUT',
      error_message: 'header.pointDataOffset (byte 96): points to byte 90, inside the header (375 bytes)',
    });
    expect(failed).toBe('INVALID_INPUT');
  });

  it('hands a transient error back to graphile-worker (PENDING, retry counted) until the last attempt fails it', async () => {
    const job = await newJob();
    const run = task(async () => {
      throw new Error('ECONNRESET talking to the store');
    });
    await expect(run({ jobId: job.id }, helpers(1, 3))).rejects.toThrow('ECONNRESET');
    expect(await findJob(t.tdb.db, job.id)).toMatchObject({ state: 'PENDING', retry_count: 1, error_code: 'INTERNAL' });
    await expect(run({ jobId: job.id }, helpers(2, 3))).rejects.toThrow('ECONNRESET');
    expect(await findJob(t.tdb.db, job.id)).toMatchObject({ state: 'PENDING', retry_count: 2 });
    await expect(run({ jobId: job.id }, helpers(3, 3))).resolves.toBeUndefined();
    expect(await findJob(t.tdb.db, job.id)).toMatchObject({
      state: 'FAILURE',
      attempts: 3,
      retry_count: 2,
      error_message: 'ECONNRESET talking to the store',
    });
  });

  it('hands the job back (PENDING) when the worker shuts down mid-step', async () => {
    const job = await newJob();
    const abort = new AbortController();
    const run = task(async (ctx) => {
      await ctx.step('calculatingStatistics', 50);
      abort.abort();
      if (ctx.signal.aborted) throw new EngineError('CANCELLED', 'the operation was cancelled');
      return {};
    });
    await expect(run({ jobId: job.id }, helpers(1, 5, abort))).rejects.toThrow('cancelled');
    expect(await findJob(t.tdb.db, job.id)).toMatchObject({
      state: 'PENDING',
      worker_id: null,
      step: 'calculatingStatistics',
    });
  });

  it('skips a job already finished: a second run never does (or charges) the work twice', async () => {
    const job = await newJob();
    let runs = 0;
    const run = task(async () => {
      runs++;
      return {
        async commit(trx) {
          await recordCharge(trx, { key: `processing:${job.id}`, userId, projectId, jobId: job.id, hectares: 6.25 });
        },
      };
    });
    await run({ jobId: job.id }, helpers(1));
    await run({ jobId: job.id }, helpers(2));
    expect(runs).toBe(1);
    const charges = await t.tdb.db.selectFrom('charges').selectAll().where('job_id', '=', job.id).execute();
    expect(charges).toHaveLength(1);
    // The ledger's key refuses a second charge even if something tried.
    expect(
      await recordCharge(t.tdb.db, { key: `processing:${job.id}`, userId, projectId, jobId: job.id, hectares: 6.25 }),
    ).toBe(false);
  });

  it('refuses a malformed payload and ignores a job whose project was deleted', async () => {
    const run = task(async () => ({}));
    await expect(run({ jobId: 'DROP TABLE' }, helpers(1))).rejects.toThrow();
    await expect(run({ jobId: '999999' }, helpers(1))).resolves.toBeUndefined();
  });
});
