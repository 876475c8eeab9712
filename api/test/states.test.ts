import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tilingTask } from '../src/jobs/tiling.task.js';
import type { WorkerHandle } from '../src/worker/runner.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import {
  as,
  cloudAsset,
  getProject,
  type TestUser,
  testUser,
  testWorker,
  uploadRealFile,
  waitFor,
} from './projects.js';

/** Polls a project until `done` says so, recording every (project, asset) status pair seen on the way. */
async function follow(
  t: TestApp,
  user: TestUser,
  id: string,
  done: (p: { status: string; jobs: Record<string, { state: string }> }) => boolean,
) {
  const seen: string[] = [];
  const p = await waitFor(
    async () => {
      const p = await getProject(t, user, id);
      const pair = `${p.status}/${cloudAsset(p)?.status}`;
      if (seen.at(-1) !== pair) seen.push(pair);
      return done(p) ? p : null;
    },
    120_000,
    'project state',
  );
  return { p, seen };
}

describe('a file without a CRS: uploaded, then CRS_REQUIRED until the asset gets an EPSG code', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let ada: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    ada = await testUser(t, 'ada@example.com');
    worker = await testWorker(t);
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
  });

  it('extracts the metadata, stops at UPLOADED with CRS_REQUIRED, refuses processing, and tiles after PATCH epsgCode', async () => {
    // warsaw_small.las: the WKT VLR is present but empty.
    const { project, assetId } = await uploadRealFile(t, ada, 'Warsaw', 'warsaw_small.las');
    const started = await t.app.request(
      '/api/assets/start-tiling',
      as(ada, 'POST', { assetId, processingOptions: { dtmResolutionCm: 50 } }),
    );
    expect(started.status).toBe(200);
    const first = await follow(t, ada, project.id, (p) => p.jobs.metadata?.state === 'SUCCESS');
    expect(first.p.status).toBe('UPLOADED');
    expect(first.p.errorCode).toBe('CRS_REQUIRED');
    expect(cloudAsset(first.p)).toMatchObject({ status: 'UPLOADED', errorCode: 'CRS_REQUIRED' });
    expect(first.p.jobs.tiling).toBeUndefined();
    expect(first.p.lidarPointCount).toBe(3000);
    // The processing asked at start-tiling waits; asking again says why it cannot run.
    expect(first.p.jobs.processing.state).toBe('PENDING');
    const refused = await t.app.request(`/api/projects/${project.id}/processing`, as(ada, 'POST', { options: {} }));
    expect(refused.status).toBe(409);
    expect((await json(refused)).error.code).toBe('CRS_REQUIRED');

    const bad = await t.app.request('/api/assets', as(ada, 'PATCH', { id: assetId, epsgCode: 999_998 }));
    expect((await json(bad)).error.code).toBe('UNKNOWN_EPSG');
    const patched = await t.app.request('/api/assets', as(ada, 'PATCH', { id: assetId, epsgCode: 2180 }));
    expect(patched.status).toBe(200);
    expect(await json(patched)).toMatchObject({ epsgCode: 2180, status: 'EXTRACTING_METADATA' });

    const second = await follow(t, ada, project.id, (p) => p.jobs.processing?.state === 'SUCCESS');
    expect(second.p).toMatchObject({ status: 'READY', epsgCode: 2180, errorCode: null });
    expect(cloudAsset(second.p)).toMatchObject({ status: 'READY', errorCode: null, epsgCode: 2180 });
    // Every state seen is one of spec §4 and they come in order.
    const order = ['PROCESSING', 'READY'];
    const projectStates = second.seen.map((s) => s.split('/')[0]!);
    expect(projectStates.every((s) => order.includes(s))).toBe(true);
    expect(projectStates.at(-1)).toBe('READY');
    const jobs = await t.tdb.db
      .selectFrom('jobs')
      .select(['kind', 'state'])
      .where('project_id', '=', project.id)
      .orderBy('id')
      .execute();
    expect(jobs).toEqual([
      { kind: 'METADATA', state: 'SUCCESS' },
      { kind: 'PROCESSING', state: 'SUCCESS' },
      { kind: 'METADATA', state: 'SUCCESS' },
      { kind: 'TILING', state: 'SUCCESS' },
    ]);
  });

  it('records a tiling failure on the asset and the project, readable, and fails the processing waiting for it', async () => {
    const { project, assetId } = await uploadRealFile(t, ada, 'Missing input', 'warsaw_small.las', { epsgCode: 2180 });
    // Queue the jobs without a worker picking them, then lose the input before tiling runs.
    await worker.stop();
    await t.app.request('/api/assets/start-tiling', as(ada, 'POST', { assetId, processingOptions: {} }));
    const meta = await t.tdb.db
      .selectFrom('jobs')
      .selectAll()
      .where('project_id', '=', project.id)
      .where('kind', '=', 'METADATA')
      .executeTakeFirstOrThrow();
    const { metadataExtractionTask } = await import('../src/jobs/metadata-extraction.task.js');
    const helpers = (attempts: number) =>
      ({ job: { attempts, max_attempts: 5, locked_by: 'direct' }, abortSignal: new AbortController().signal }) as never;
    await metadataExtractionTask(t.deps, 'direct')({ jobId: meta.id }, helpers(1));
    const tiling = await t.tdb.db
      .selectFrom('jobs')
      .selectAll()
      .where('project_id', '=', project.id)
      .where('kind', '=', 'TILING')
      .executeTakeFirstOrThrow();
    expect(tiling.state).toBe('PENDING');
    const input = await t.tdb.db
      .selectFrom('asset_files')
      .select('key')
      .where('asset_id', '=', assetId)
      .executeTakeFirstOrThrow();
    await t.deps.storage.objects.delete(input.key);
    await tilingTask(t.deps, 'direct')({ jobId: tiling.id }, helpers(1));

    const p = await getProject(t, ada, project.id);
    expect(p).toMatchObject({ status: 'ERROR', errorCode: 'INPUT_MISSING' });
    expect(cloudAsset(p)).toMatchObject({ status: 'ERROR', errorCode: 'INPUT_MISSING' });
    expect(cloudAsset(p).errorMessage).toBe('the stored point cloud file is missing: upload it again');
    expect(p.jobs.tiling).toMatchObject({ state: 'FAILURE', step: 'error' });
    expect(p.jobs.processing).toMatchObject({ state: 'FAILURE', errorCode: 'PROJECT_NOT_READY' });
    worker = await testWorker(t);
  });

  it('deleting the point cloud asset leaves an empty project (NONE) with nothing stored', async () => {
    const { project, assetId } = await uploadRealFile(t, ada, 'Delete me', 'warsaw_small.las');
    const res = await t.app.request(`/api/assets?id=${assetId}`, as(ada, 'DELETE'));
    expect(res.status).toBe(204);
    const p = await getProject(t, ada, project.id);
    expect(p.status).toBe('NONE');
    expect(cloudAsset(p)).toBeUndefined();
    const keys: string[] = [];
    for await (const o of t.deps.storage.objects.list(`projects/${project.id}/`)) keys.push(o.key);
    expect(keys).toEqual([]);
  });
});

describe('viewer errors reachable from the API (spec §8 Viewer)', () => {
  let t: TestApp;
  let ada: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    ada = await testUser(t, 'ada@example.com');
  });
  afterAll(() => t.close());

  it('answers PROJECT_NOT_READY (with the status) before tiling, and ASSET_NOT_FOUND for a bad id', async () => {
    const { project, assetId } = await uploadRealFile(t, ada, 'Not ready', 'warsaw_small.las');
    const res = await t.app.request(`/api/assets/custom-tiler/tiles-supplier-url?id=${assetId}`, as(ada, 'GET'));
    expect(res.status).toBe(409);
    expect((await json(res)).error).toMatchObject({ code: 'PROJECT_NOT_READY', details: { status: 'UPLOADED' } });
    const none = await t.app.request('/api/assets/custom-tiler/tiles-supplier-url?id=99999', as(ada, 'GET'));
    expect((await json(none)).error.code).toBe('ASSET_NOT_FOUND');
    const p = await getProject(t, ada, project.id);
    expect(cloudAsset(p).accessUrl).toBeNull();
  });
});
