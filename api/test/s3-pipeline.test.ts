import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { openStorage } from '../src/storage.js';
import { startWorker, type WorkerHandle } from '../src/worker/runner.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, cloudAsset, getProject, type TestUser, testUser, uploadRealFile, waitFor } from './projects.js';

describe('with STORAGE_URL=s3://… (s3rver): upload, header read by ranges, tiling, tiles served from the bucket', () => {
  let t: TestApp;
  let s3: S3rver;
  let s3Dir: string;
  let worker: WorkerHandle;
  let ada: TestUser;
  beforeAll(async () => {
    s3Dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-s3-'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: 'nuage-files', configs: [] }],
    });
    const address = (await s3.run()) as AddressInfo;
    // s3rver's fixed credentials, through the AWS SDK's own chain (as a deployment would set them).
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    const storageUrl = `s3://nuage-files/prod?endpoint=http://127.0.0.1:${address.port}&region=us-east-1`;
    t = await createTestApp({ TRUST_PROXY: 'true', STORAGE_URL: storageUrl });
    // The harness opens a local store; this file runs on the bucket the configuration names.
    t.deps.storage = await openStorage(t.deps.config);
    t.app = createApp(t.deps);
    expect(t.deps.storage.location).toBe('s3://nuage-files/prod');
    ada = await testUser(t, 'ada@example.com');
    worker = await startWorker(t.deps, { databaseUrl: t.tdb.url });
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    await s3?.close();
    await rm(s3Dir, { recursive: true, force: true });
  });

  it('runs the pipeline to READY and serves tileset.json and a ranged download from the bucket', async () => {
    const { project, assetId } = await uploadRealFile(t, ada, 'Fusa on S3', 'fusa.laz');
    expect(t.deps.storage.localPath('anything')).toBeNull();
    expect((await t.app.request('/api/assets/start-tiling', as(ada, 'POST', { assetId }))).status).toBe(200);
    const ready = await waitFor(
      async () => {
        const p = await getProject(t, ada, project.id);
        if (p.status === 'ERROR') throw new Error(JSON.stringify(p.jobs));
        return p.status === 'READY' ? p : null;
      },
      120_000,
      'READY',
    );
    const u = new URL(cloudAsset(ready).accessUrl);
    const tileset = await t.app.request(`${u.pathname}${u.search}`);
    expect(tileset.status).toBe(200);
    expect((await json(tileset)).asset.version).toBe('1.1');
    const keys: string[] = [];
    for await (const o of t.deps.storage.objects.list(`projects/${project.id}/`)) keys.push(o.key);
    expect(keys.some((k) => k.endsWith('/tileset.json'))).toBe(true);
    expect(keys.some((k) => k.endsWith('/input.laz'))).toBe(true);

    const file = await json(
      await t.app.request(`/api/assets/custom-tiler/file-supplier-url?id=${assetId}&extension=laz`, as(ada, 'GET')),
    );
    const f = new URL(file.url);
    const head = await t.app.request(`${f.pathname}${f.search}`, { headers: { range: 'bytes=0-3' } });
    expect(head.status).toBe(206);
    expect(Buffer.from(await head.arrayBuffer()).toString('latin1')).toBe('LASF');

    expect((await t.app.request(`/api/projects/${project.id}`, as(ada, 'DELETE'))).status).toBe(204);
    const left: string[] = [];
    for await (const o of t.deps.storage.objects.list(`projects/${project.id}/`)) left.push(o.key);
    expect(left).toEqual([]);
  });
});
