import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasGdal } from '@nuage/engine/products/test-gdal.js';
import { orthophoto } from '@nuage/engine/raster/test-orthophoto.js';
import { hasRealData } from '@nuage/fixtures/real-data.js';
import { readAll } from '@nuage/tiles-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerHandle } from '../src/worker/runner.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import {
  as,
  cloudLayerId,
  getProject,
  putBytes,
  type TestUser,
  testUser,
  testWorker,
  uploadRealFile,
  waitFor,
} from './projects.js';

/** Uploads a GeoTIFF as the project's ORTHOPHOTO asset (signed URL then PUT); answers both responses. */
async function uploadOrthophoto(t: TestApp, user: TestUser, layerId: string, file: string, name = 'ortho.tif') {
  const bytes = new Uint8Array(await readFile(file));
  const urlRes = await t.app.request(
    '/api/assets/upload-signed-url',
    as(user, 'POST', { layerId, type: 'ORTHOPHOTO', filename: name, fileSize: bytes.byteLength }),
  );
  if (urlRes.status !== 200) return { urlRes, put: null };
  const { signedUrl } = await json(urlRes);
  return { urlRes, put: await putBytes(t, signedUrl, bytes) };
}

describe.runIf(hasGdal() && hasRealData())('processing coloured from an uploaded orthophoto', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let ada: TestUser;
  let dir: string;
  const west = 138.5639;
  const north = -35.0156;

  beforeAll(async () => {
    t = await createTestApp();
    ada = await testUser(t, 'ada@example.com');
    worker = await testWorker(t);
    dir = await mkdtemp(path.join(tmpdir(), 'nuage-api-ortho-'));
  });
  afterAll(async () => {
    await worker?.stop();
    await t.close();
  });

  it('stores an ORTHOPHOTO upload in the raster layer, refuses a non-TIFF, leaves the project status alone', async () => {
    const { project } = await uploadRealFile(t, ada, 'Ortho upload', 'fusa.laz');
    const layerId = cloudLayerId(project);
    const wrongName = await uploadOrthophoto(t, ada, layerId, orthophoto(dir, 'a', west, north, 40, 40), 'ortho.png');
    expect([wrongName.urlRes.status, (await json(wrongName.urlRes)).error.code]).toEqual([400, 'INVALID_FILE']);

    const notTiff = path.join(dir, 'text.tif');
    await writeFile(notTiff, 'not a tiff at all');
    const bad = await uploadOrthophoto(t, ada, layerId, notTiff);
    expect([bad.put!.status, (await json(bad.put!)).error.code]).toEqual([400, 'INVALID_FILE']);

    const good = await uploadOrthophoto(t, ada, layerId, orthophoto(dir, 'b', west, north, 740, 560));
    expect(good.put!.status).toBe(200);
    const body = await json(good.put!);
    expect(body.header).toBeUndefined();
    expect(body.asset).toMatchObject({ type: 'ORTHOPHOTO', status: 'UPLOADED' });
    const p = await getProject(t, ada, project.id);
    expect(p.status).toBe('UPLOADED');
    const raster = p.layers.find((l: { type: string }) => l.type === 'RASTER');
    expect(raster.assets.map((a: { type: string }) => a.type)).toEqual(['ORTHOPHOTO']);
  });

  it('colours the classified cloud (PDRF 7) from the orthophoto a processing names', async () => {
    const { project, assetId } = await uploadRealFile(t, ada, 'Ortho colours', 'fusa.laz');
    const { put } = await uploadOrthophoto(t, ada, cloudLayerId(project), orthophoto(dir, 'c', west, north, 740, 560));
    const ortho = (await json(put!)).asset.id as string;

    // Not an orthophoto of this project: refused with the request, naming the field.
    for (const id of ['999999', assetId]) {
      const refused = await t.app.request(
        '/api/assets/start-tiling',
        as(ada, 'POST', { assetId, processingOptions: { products: ['classify'], orthophotoAssetId: id } }),
      );
      const err = (await json(refused)).error;
      expect([refused.status, err.code, err.details.field]).toEqual([
        400,
        'INVALID_PROCESSING_OPTIONS',
        'orthophotoAssetId',
      ]);
    }

    const res = await t.app.request(
      '/api/assets/start-tiling',
      as(ada, 'POST', { assetId, processingOptions: { products: ['classify'], orthophotoAssetId: ortho } }),
    );
    expect(res.status).toBe(200);
    await waitFor(
      async () => {
        const p = await getProject(t, ada, project.id);
        const state = p.jobs.processing?.state;
        if (state === 'FAILURE') throw new Error(`processing failed: ${p.jobs.processing.errorMessage}`);
        return state === 'SUCCESS' ? p : null;
      },
      300_000,
      'processing SUCCESS',
    );
    const las = await t.tdb.db
      .selectFrom('asset_files')
      .innerJoin('assets', 'assets.id', 'asset_files.asset_id')
      .select(['asset_files.key'])
      .where('assets.project_id', '=', project.id)
      .where('assets.type', '=', 'CLASSIFIED_POINT_CLOUD')
      .where('asset_files.extension', '=', 'las')
      .executeTakeFirstOrThrow();
    const bytes = await readAll((await t.deps.storage.objects.get(las.key)).body);
    // LAS 1.4 point data record format 7 (RGB), 36-byte records.
    expect([bytes[104], bytes.readUInt16LE(105)]).toEqual([7, 36]);
    const job = await t.tdb.db
      .selectFrom('jobs')
      .select('result')
      .where('project_id', '=', project.id)
      .where('kind', '=', 'PROCESSING')
      .executeTakeFirstOrThrow();
    const runs = (job.result as { products: Array<{ id: string; figures: Record<string, unknown> }> }).products;
    expect(runs.find((r) => r.id === 'classify')?.figures.colourised).toEqual({
      coloured: 277573,
      outside: 0,
      imageEpsg: 4326,
      bits: 8,
    });
  });

  it('an orthophoto that does not cover the cloud fails the classified cloud with ORTHOPHOTO_NOT_COVERING', async () => {
    const { project, assetId } = await uploadRealFile(t, ada, 'Ortho away', 'fusa.laz');
    const { put } = await uploadOrthophoto(
      t,
      ada,
      cloudLayerId(project),
      orthophoto(dir, 'd', west + 0.01, north, 100, 100),
    );
    const ortho = (await json(put!)).asset.id as string;
    const res = await t.app.request(
      '/api/assets/start-tiling',
      as(ada, 'POST', { assetId, processingOptions: { products: ['classify'], orthophotoAssetId: ortho } }),
    );
    expect(res.status).toBe(200);
    await waitFor(
      async () => ((await getProject(t, ada, project.id)).jobs.processing?.state === 'FAILURE' ? true : null),
      300_000,
      'processing FAILURE',
    );
    const classified = await t.tdb.db
      .selectFrom('assets')
      .select(['status', 'error_code', 'error_message'])
      .where('project_id', '=', project.id)
      .where('type', '=', 'CLASSIFIED_POINT_CLOUD')
      .executeTakeFirstOrThrow();
    expect(classified).toMatchObject({ status: 'ERROR', error_code: 'ORTHOPHOTO_NOT_COVERING' });
    expect(classified.error_message).toMatch(
      /orthophoto: the orthophoto \(EPSG:4326\) does not overlap the point cloud/,
    );
  });
});
