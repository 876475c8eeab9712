import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findJob, type JobRow } from '../src/db/queries/jobs.queries.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, getProject, type TestUser, testUser, uploadRealFile, waitFor } from './projects.js';
import { exited, spawnWorker } from './worker-process.js';

async function jobOf(t: TestApp, projectId: string, kind: JobRow['kind']): Promise<JobRow | undefined> {
  return t.tdb.db
    .selectFrom('jobs')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('kind', '=', kind)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

describe('killing the worker mid-job (SIGKILL) leaves nothing stuck; SIGTERM hands the job back', () => {
  let t: TestApp;
  let ada: TestUser;
  const children: ChildProcess[] = [];
  const start = (name: string) => {
    const c = spawnWorker(t, name);
    children.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    ada = await testUser(t, 'ada@example.com');
  });
  // A failed test leaves no worker behind to take the next test's jobs.
  afterEach(async () => {
    const live = children.filter((c) => c.exitCode === null && c.signalCode === null);
    for (const c of live) c.kill('SIGKILL');
    await Promise.all(live.map((c) => exited(c)));
  });
  afterAll(async () => {
    await t.close();
  });

  it('resumes tiling and processing after SIGKILLs, each job done once and charged once', async () => {
    const { project, assetId } = await uploadRealFile(t, ada, 'Wires', 'wires.laz');
    const res = await t.app.request(
      '/api/assets/start-tiling',
      as(ada, 'POST', { assetId, processingOptions: { dtmResolutionCm: 200, gridResolutionCm: 2000 } }),
    );
    expect(res.status).toBe(200);

    // Worker A takes the tiling job; kill it while the tiler runs. The tiler of
    // this small file runs well under a second and its progress is throttled, so
    // the window is the step, not a percentage, and the poll is tight.
    const a = start('A');
    const tiler = new Set(['startGo', 'optimizing', 'uploadingToBucket', 'done', 'tilingUploadDone']);
    const running = await waitFor(
      async () => {
        const j = await jobOf(t, project.id, 'TILING');
        return j?.state === 'PROGRESS' && j.step && tiler.has(j.step) ? j : null;
      },
      180_000,
      'tiling in progress on worker A',
      10,
    ).catch(async (err: Error) => {
      // What the worker said (and whether it still runs), for a failure that happens only under load.
      const j = await jobOf(t, project.id, 'TILING');
      throw new Error(
        `${err.message}; job ${j?.state} ${j?.percentage}%; worker A exit ${a.exitCode} ${a.signalCode}\n${a.output.join('')}`,
      );
    });
    a.kill('SIGKILL');
    expect((await exited(a)).signal).toBe('SIGKILL');
    // Nothing moves while no worker lives: the job is stuck in PROGRESS, locked by the dead worker.
    await new Promise((r) => setTimeout(r, 1500));
    const stuck = (await findJob(t.tdb.db, running.id))!;
    expect(stuck.state).toBe('PROGRESS');
    expect(stuck.worker_id).toBe(running.worker_id);
    const lock = await t.tdb.db
      .selectFrom('graphile_worker.jobs' as never)
      .select(['locked_by' as never])
      .where('key' as never, '=', `job-${running.id}` as never)
      .executeTakeFirst();
    expect((lock as { locked_by: string | null } | undefined)?.locked_by).toBe(running.locked_by);

    // Worker B releases the dead worker's lock at start and runs the job again, then the processing.
    const b = start('B');
    const retiled = await waitFor(
      async () => {
        const j = (await findJob(t.tdb.db, running.id))!;
        if (j.state === 'FAILURE') throw new Error(`tiling failed: ${j.error_message}\n${b.output.join('')}`);
        return j.state === 'SUCCESS' ? j : null;
      },
      240_000,
      'tiling done by worker B',
    );
    expect(retiled.attempts).toBe(2);

    // Kill B during the processing too, once the classified cloud and the DTM are stored.
    const early = new Set(['starting', 'startLasDownload', 'classify', 'classify:storing', 'dtm', 'dtm:storing']);
    const processing = await waitFor(
      async () => {
        const j = await jobOf(t, project.id, 'PROCESSING');
        return j?.state === 'PROGRESS' && j.step && !early.has(j.step) ? j : null;
      },
      240_000,
      'processing past the DTM on worker B',
    );
    b.kill('SIGKILL');
    await exited(b);
    const c = start('C');
    const processed = await waitFor(
      async () => {
        const j = (await findJob(t.tdb.db, processing.id))!;
        if (j.state === 'FAILURE') throw new Error(`processing failed: ${j.error_message}\n${c.output.join('')}`);
        return j.state === 'SUCCESS' ? j : null;
      },
      600_000,
      'processing done by worker C',
    );
    expect(processed.attempts).toBe(2);
    // Worker C resumed: what B stored was read back, not made again.
    const products = (processed.result as { products: Array<{ id: string; status: string }> }).products;
    const status = Object.fromEntries(products.map((r) => [r.id, r.status]));
    expect(status).toMatchObject({ classify: 'DONE', dtm: 'DONE', slope: 'READY', quality: 'READY' });
    const p = await getProject(t, ada, project.id);
    expect(p.status).toBe('READY');
    const charges = await t.tdb.db
      .selectFrom('charges')
      .selectAll()
      .where('project_id', '=', project.id)
      .where('kind', '=', 'charge')
      .execute();
    expect(charges).toHaveLength(1);
    expect(charges[0]!.charge_key).toBe(`charge:reserve:processing:${processing.id}:1`);
    // No job of any kind stays in PROGRESS, and no graphile-worker lock is held by a dead worker.
    const progress = await t.tdb.db.selectFrom('jobs').select('id').where('state', '=', 'PROGRESS').execute();
    expect(progress).toEqual([]);
    c.kill('SIGTERM');
    expect((await exited(c)).code).toBe(0);
  }, 900_000);

  it('SIGTERM lets the step finish or hands the job back; the next worker completes it', async () => {
    const { project, assetId } = await uploadRealFile(t, ada, 'Fusa', 'fusa.laz');
    await t.app.request('/api/assets/start-tiling', as(ada, 'POST', { assetId, processingOptions: {} }));
    const d = start('D');
    const processing = await waitFor(
      async () => {
        const j = await jobOf(t, project.id, 'PROCESSING');
        return j?.state === 'PROGRESS' ? j : null;
      },
      240_000,
      'processing in progress on worker D',
    );
    const t0 = Date.now();
    d.kill('SIGTERM');
    const { code, signal } = await exited(d);
    expect(code, `worker D ended by ${signal}:\n${d.output.join('')}`).toBe(0);
    expect(Date.now() - t0).toBeLessThan(30_000);
    const after = (await findJob(t.tdb.db, processing.id))!;
    expect(['SUCCESS', 'PENDING']).toContain(after.state);
    const e = start('E');
    const done = await waitFor(
      async () => {
        const j = (await findJob(t.tdb.db, processing.id))!;
        if (j.state === 'FAILURE') throw new Error(`processing failed: ${j.error_message}\n${e.output.join('')}`);
        return j.state === 'SUCCESS' ? j : null;
      },
      300_000,
      'processing done after SIGTERM',
    );
    expect(done.state).toBe('SUCCESS');
    const charges = await t.tdb.db
      .selectFrom('charges')
      .selectAll()
      .where('project_id', '=', project.id)
      .where('kind', '=', 'charge')
      .execute();
    expect(charges).toHaveLength(1);
    expect((await json(await t.app.request(`/api/projects/${project.id}`, as(ada, 'GET')))).status).toBe('READY');
    e.kill('SIGTERM');
    await exited(e);
  }, 600_000);
});
