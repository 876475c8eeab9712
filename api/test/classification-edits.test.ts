/**
 * Classification editing (issue 23) through the API with a real worker: a
 * real file is processed (classified cloud, DTM, buildings, CHM…), then edits
 * drawn on the map reclassify known points; the stored classified LAS, its
 * tiles and the re-run products are checked, and undo/redo/revert/restore,
 * the exact preview count and access (another user: 404) too.
 */
import { loadCloud } from '@nuage/engine/edit/edit-file.js';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerHandle } from '../src/worker/runner.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, getProject, type TestUser, testUser, testWorker, uploadRealFile, waitFor } from './projects.js';

function inside(poly: Array<[number, number]>, x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

describe('classification edits: edit layer, apply job, re-run products, access', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let ada: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let projectId: string;
  let polygon: Array<[number, number]>;
  let lonLat: Array<[number, number]>;
  let baseClasses: Uint8Array;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
  let assetsBefore: Map<string, any>;
  let keysBefore: Map<string, string[]>;

  const edits = (suffix = '') => `/api/projects/${projectId}/classification-edits${suffix}`;
  const db = () => t.tdb.db;

  async function assetsByType() {
    const rows = await db().selectFrom('assets').selectAll().where('project_id', '=', projectId).execute();
    return new Map(rows.map((r) => [r.type, r]));
  }
  async function fileKeys() {
    const rows = await db()
      .selectFrom('asset_files')
      .innerJoin('assets', 'assets.id', 'asset_files.asset_id')
      .select(['assets.type', 'asset_files.key'])
      .where('assets.project_id', '=', projectId)
      .execute();
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.type, [...(out.get(r.type) ?? []), r.key].sort());
    return out;
  }
  async function features(type: string) {
    return db()
      .selectFrom('features')
      .innerJoin('assets', 'assets.id', 'features.asset_id')
      .select(['features.id', 'features.properties'])
      .where('assets.project_id', '=', projectId)
      .where('assets.type', '=', type)
      .orderBy('features.id')
      .execute();
  }
  async function storedClasses(): Promise<Uint8Array> {
    const classified = (await assetsByType()).get('CLASSIFIED_POINT_CLOUD')!;
    const file = await db()
      .selectFrom('asset_files')
      .selectAll()
      .where('asset_id', '=', classified.id)
      .where('extension', '=', 'las')
      .executeTakeFirstOrThrow();
    const local = t.deps.storage.localPath(file.key)!;
    const { cloud } = await loadCloud(local);
    return cloud.classification!.slice(0, cloud.count);
  }
  async function jobDone(jobId: string) {
    return waitFor(
      async () => {
        const j = await db().selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
        if (j.state === 'FAILURE') throw new Error(`edit job failed: ${j.error_code} ${j.error_message}`);
        return j.state === 'SUCCESS' ? j : null;
      },
      240_000,
      `edit job ${jobId}`,
    );
  }

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    [ada, bob, admin] = await Promise.all([
      testUser(t, 'ada@example.com'),
      testUser(t, 'bob@example.com'),
      testUser(t, 'root@example.com', ['admin', 'user']),
    ]);
    worker = await testWorker(t);
    const up = await uploadRealFile(t, ada, 'Conifers', 'MixedConifer.laz');
    projectId = up.project.id;
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
  });

  it('refuses edits before the classified cloud exists, and to another user (404)', async () => {
    const res = await t.app.request(edits(), as(ada, 'GET'));
    expect(res.status).toBe(409);
    expect((await json(res)).error.code).toBe('CLASSIFIED_CLOUD_REQUIRED');
    const bobs = await t.app.request(edits(), as(bob, 'GET'));
    expect(bobs.status).toBe(404);
    expect((await json(bobs)).error.code).toBe('PROJECT_NOT_FOUND');
  });

  it('processes the file (classified cloud, DTM, buildings, trees)', async () => {
    const res = await t.app.request(
      '/api/assets/start-tiling',
      as(ada, 'POST', {
        assetId: (await getProject(t, ada, projectId)).layers[0].assets[0].id,
        processingOptions: { dtmResolutionCm: 100, products: ['buildings', 'tree-tops', 'hillshade'] },
      }),
    );
    expect(res.status).toBe(200);
    await waitFor(
      async () => {
        const p = await getProject(t, ada, projectId);
        const state = p.jobs.processing?.state;
        if (state === 'FAILURE') throw new Error(`processing failed: ${p.jobs.processing.errorMessage}`);
        return state === 'SUCCESS' ? p : null;
      },
      300_000,
      'processing SUCCESS',
    );
    const assets = await assetsByType();
    for (const type of ['CLASSIFIED_POINT_CLOUD', 'DTM', 'BUILDINGS', 'TREE_TOPS', 'HILLSHADE_DTM']) {
      expect(assets.get(type)?.status, type).toBe('READY');
    }
  }, 320_000);

  it('lists no edit yet; refuses a class off the list (400 INVALID_CLASS) and an empty undo/redo (409)', async () => {
    const list = await json(await t.app.request(edits(), as(ada, 'GET')));
    expect(list).toEqual({ edits: [], job: null, canUndo: false, canRedo: false });
    const region = {
      kind: 'map',
      polygon: [
        [0, 0],
        [1, 0],
        [0, 1],
      ],
    };
    for (const body of [
      { region, toClass: 12 },
      { region, toClass: 300 },
      { region, toClass: 6, fromClasses: [29] },
    ]) {
      const res = await t.app.request(edits(), as(ada, 'POST', body));
      expect(res.status).toBe(400);
      expect((await json(res)).error.code).toBe('INVALID_CLASS');
    }
    const bad = await t.app.request(edits(), as(ada, 'POST', { region: { kind: 'screen', polygon: [] }, toClass: 6 }));
    expect([bad.status, (await json(bad)).error.code]).toEqual([400, 'FORM_INVALID']);
    const range = await t.app.request(edits('/preview'), as(ada, 'POST', { region, toClass: 6, minZ: 10, maxZ: 5 }));
    expect([range.status, (await json(range)).error.code]).toEqual([400, 'FORM_INVALID']);
    const undo = await t.app.request(edits('/undo'), as(ada, 'POST'));
    expect([undo.status, (await json(undo)).error.code]).toEqual([409, 'NOTHING_TO_UNDO']);
    const redo = await t.app.request(edits('/redo'), as(ada, 'POST'));
    expect([redo.status, (await json(redo)).error.code]).toEqual([409, 'NOTHING_TO_REDO']);
  });

  it('another user gets 404 on every edit route, an anonymous client 401; nothing is stored', async () => {
    const region = {
      kind: 'map',
      polygon: [
        [0, 0],
        [1, 0],
        [0, 1],
      ],
    };
    const calls: Array<[string, string, unknown?]> = [
      ['GET', edits()],
      ['POST', edits('/preview'), { region, toClass: 6 }],
      ['POST', edits(), { region, toClass: 6 }],
      ['POST', edits('/undo')],
      ['POST', edits('/redo')],
      ['POST', edits('/1/revert')],
      ['POST', edits('/1/restore')],
    ];
    // Bob holding Ada's share link is still another user.
    const share = await t.app.request(`/api/projects/${projectId}/share-token`, as(ada, 'POST'));
    expect(share.status).toBeLessThan(300);
    for (const [method, url, body] of calls) {
      const res = await t.app.request(url, as(bob, method, body));
      expect([url, res.status, (await json(res)).error?.code]).toEqual([url, 404, 'PROJECT_NOT_FOUND']);
      const anon = await t.app.request(url, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect([url, anon.status]).toEqual([url, 401]);
    }
    expect(await db().selectFrom('classification_edits').selectAll().execute()).toEqual([]);
  });

  it('vegetation → building in a map polygon: preview, the stored LAS, the tiles, buildings re-run, DTM not', async () => {
    const buildingsBefore = await features('BUILDINGS');
    const topsBefore = await features('TREE_TOPS');
    assetsBefore = await assetsByType();
    keysBefore = await fileKeys();
    const classifiedFile = keysBefore.get('CLASSIFIED_POINT_CLOUD')!.find((k) => k.endsWith('.las'))!;
    const { cloud, crs } = await loadCloud(t.deps.storage.localPath(classifiedFile)!);
    baseClasses = cloud.classification!.slice(0, cloud.count);
    const toLonLat = proj4(crs.proj4, 'EPSG:4326');
    lonLat = [];
    for (let i = 0; i < cloud.count; i++) lonLat.push(toLonLat.forward([cloud.x[i]!, cloud.y[i]!]) as [number, number]);
    const lons = lonLat.map((p) => p[0]).sort((a, b) => a - b);
    const lats = lonLat.map((p) => p[1]).sort((a, b) => a - b);
    // Quantiles of the points, moved off them (≈ 1 cm) so that no edge runs through a point.
    const q = (v: number[], f: number) => v[Math.floor(f * (v.length - 1))]! + 1.234e-7;
    polygon = [
      [q(lons, 0.3), q(lats, 0.3)],
      [q(lons, 0.6), q(lats, 0.35)],
      [q(lons, 0.55), q(lats, 0.65)],
      [q(lons, 0.35), q(lats, 0.6)],
    ];
    const vegetation = new Set([3, 4, 5]);
    const expected = lonLat.flatMap(([lon, lat], i) =>
      vegetation.has(baseClasses[i]!) && inside(polygon, lon, lat) ? [i] : [],
    );
    expect(expected.length).toBeGreaterThan(300);
    const byClass: Record<string, number> = {};
    for (const i of expected) byClass[String(baseClasses[i])] = (byClass[String(baseClasses[i])] ?? 0) + 1;
    const body = { region: { kind: 'map', polygon }, fromClasses: [3, 4, 5], toClass: 6 };

    const preview = await t.app.request(edits('/preview'), as(ada, 'POST', body));
    expect(preview.status).toBe(200);
    expect(await json(preview)).toEqual({ total: expected.length, byClass });

    const res = await t.app.request(edits(), as(ada, 'POST', body));
    expect(res.status).toBe(202);
    const created = await json(res);
    expect(created.edit).toMatchObject({
      userEmail: 'ada@example.com',
      status: 'ACTIVE',
      toClass: 6,
      fromClasses: [3, 4, 5],
      minZ: null,
      maxZ: null,
      changed: null,
    });
    const job = await jobDone(created.jobId);
    expect(job.kind).toBe('CLASSIFICATION_EDIT');
    expect(job.percentage).toBe(100);

    const classes = await storedClasses();
    const changed: number[] = [];
    for (let i = 0; i < classes.length; i++) if (classes[i] !== baseClasses[i]) changed.push(i);
    expect(changed).toEqual(expected);
    for (const i of expected) expect(classes[i]).toBe(6);

    const list = await json(await t.app.request(edits(), as(ada, 'GET')));
    expect(list.edits).toHaveLength(1);
    expect(list.edits[0].changed).toEqual({ total: expected.length, byClass });
    expect(list.job).toMatchObject({ id: created.jobId, state: 'SUCCESS', percentage: 100, errorCode: null });
    expect(list.canUndo).toBe(true);
    expect(list.canRedo).toBe(false);

    const after = await assetsByType();
    const keysAfter = await fileKeys();
    const classified = after.get('CLASSIFIED_POINT_CLOUD')!;
    // Same asset, new files and tiles (a new tileset URL), updated.
    expect(classified.id).toBe(assetsBefore.get('CLASSIFIED_POINT_CLOUD')!.id);
    expect(classified.tiles_prefix).not.toBe(assetsBefore.get('CLASSIFIED_POINT_CLOUD')!.tiles_prefix);
    expect(classified.tiles_prefix).toContain(created.jobId);
    expect(await t.deps.storage.objects.head(`${classified.tiles_prefix}tileset.json`)).not.toBeNull();
    expect(
      await t.deps.storage.objects.head(`${assetsBefore.get('CLASSIFIED_POINT_CLOUD')!.tiles_prefix}tileset.json`),
    ).toBeNull();
    expect(new Date(classified.updated_at).getTime()).toBeGreaterThan(
      new Date(assetsBefore.get('CLASSIFIED_POINT_CLOUD')!.updated_at).getTime(),
    );
    // Buildings and the trees (vegetation changed) re-ran: their files are this job's; the DTM and hillshade did not.
    for (const type of ['BUILDINGS', 'TREE_TOPS']) {
      expect(after.get(type)!.id).toBe(assetsBefore.get(type)!.id);
      expect(after.get(type)!.status).toBe('READY');
      expect(
        keysAfter.get(type)!.every((k) => k.includes(created.jobId)),
        type,
      ).toBe(true);
    }
    const buildingsAfter = await features('BUILDINGS');
    const topsAfter = await features('TREE_TOPS');
    // The forest had no building; the reclassified crowns are buildings now. The tree tops were made again.
    expect(buildingsBefore).toEqual([]);
    expect(buildingsAfter.length).toBeGreaterThan(0);
    expect(topsAfter.length).toBeGreaterThan(100);
    expect(topsAfter.map((f) => f.id).filter((id) => topsBefore.some((b) => b.id === id))).toEqual([]);
    for (const type of ['DTM', 'HILLSHADE_DTM']) {
      expect(keysAfter.get(type), type).toEqual(keysBefore.get(type));
      expect(after.get(type)!.updated_at).toEqual(assetsBefore.get(type)!.updated_at);
    }
    const result = job.result as { changedClasses: number[]; products: Array<{ id: string; status: string }> };
    expect(result.changedClasses).toEqual([...new Set([...expected.map((i) => baseClasses[i]!), 6])].sort());
    expect(result.products.map((p) => p.id)).toEqual(expect.arrayContaining(['buildings', 'tree-tops']));
    expect(result.products.map((p) => p.id)).not.toContain('dtm');
    // The admin's monitor lists the job.
    const monitor = await json(await t.app.request('/api/admin/classification-edits', as(admin, 'GET')));
    expect(monitor.results.map((j: { id: string }) => j.id)).toContain(created.jobId);
  }, 300_000);

  it('editing the same area twice then undoing once gives the first edit’s classes; redo, revert and restore', async () => {
    const body = { region: { kind: 'map', polygon }, fromClasses: [6], toClass: 1 };
    const second = await json(await t.app.request(edits(), as(ada, 'POST', body)));
    await jobDone(second.jobId);
    const afterSecond = await storedClasses();
    const selected = lonLat.flatMap(([lon, lat], i) =>
      [3, 4, 5].includes(baseClasses[i]!) && inside(polygon, lon, lat) ? [i] : [],
    );
    for (const i of selected) expect(afterSecond[i]).toBe(1);

    const undo = await t.app.request(edits('/undo'), as(ada, 'POST'));
    expect(undo.status).toBe(202);
    const undone = await json(undo);
    expect(undone.edit).toMatchObject({ id: second.edit.id, status: 'REVERTED' });
    await jobDone(undone.jobId);
    const afterUndo = await storedClasses();
    const expected = new Uint8Array(baseClasses);
    for (const i of selected) expected[i] = 6;
    expect(afterUndo).toEqual(expected);
    let list = await json(await t.app.request(edits(), as(ada, 'GET')));
    expect(list.edits.map((e: { status: string }) => e.status)).toEqual(['ACTIVE', 'REVERTED']);
    expect(list.edits[1].changed).toBeNull();
    expect([list.canUndo, list.canRedo]).toEqual([true, true]);

    // Redo brings it back; revert (history) the first edit: only the second applies (it finds no class 6 left).
    const redo = await json(await t.app.request(edits('/redo'), as(ada, 'POST')));
    expect(redo.edit).toMatchObject({ id: second.edit.id, status: 'ACTIVE' });
    const first = list.edits[0].id;
    const revert = await t.app.request(edits(`/${first}/revert`), as(ada, 'POST'));
    expect(revert.status).toBe(202);
    await jobDone((await json(revert)).jobId);
    expect(await storedClasses()).toEqual(baseClasses);
    list = await json(await t.app.request(edits(), as(ada, 'GET')));
    expect(list.edits[1].changed).toEqual({ total: 0, byClass: {} });
    const again = await t.app.request(edits(`/${first}/revert`), as(ada, 'POST'));
    expect([again.status, (await json(again)).error.code]).toEqual([409, 'CLASSIFICATION_EDIT_NOT_ACTIVE']);
    const restore = await t.app.request(edits(`/${first}/restore`), as(ada, 'POST'));
    expect(restore.status).toBe(202);
    await jobDone((await json(restore)).jobId);
    expect(await storedClasses()).toEqual(afterSecond);
    const missing = await t.app.request(edits('/999999/restore'), as(ada, 'POST'));
    expect([missing.status, (await json(missing)).error.code]).toEqual([404, 'CLASSIFICATION_EDIT_NOT_FOUND']);
    // A new edit clears the redo stack: the undone edit stays REVERTED for good.
    const undo2 = await json(await t.app.request(edits('/undo'), as(ada, 'POST')));
    expect(undo2.edit.id).toBe(second.edit.id);
    const third = await json(
      await t.app.request(edits(), as(ada, 'POST', { region: { kind: 'map', polygon }, fromClasses: [6], toClass: 6 })),
    );
    await jobDone(third.jobId);
    list = await json(await t.app.request(edits(), as(ada, 'GET')));
    expect(list.canRedo).toBe(false);
    expect(list.edits.map((e: { status: string }) => e.status)).toEqual(['ACTIVE', 'REVERTED', 'ACTIVE']);
  }, 600_000);
});
