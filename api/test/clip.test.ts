import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import { sql } from 'kysely';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerHandle } from '../src/worker/runner.js';
import { json, send } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, type TestUser, testUser, testWorker, uploadRealFile, waitFor } from './projects.js';

const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** fusa.laz: WGS 84 / UTM zone 54S. A polygon with a hole, vertices off the 1 cm grid. */
const UTM = '+proj=utm +zone=54 +south +datum=WGS84 +units=m +no_defs';
const OUTER: Array<[number, number]> = [
  [277800.3037, 6122300.7011],
  [277950.1013, 6122280.2029],
  [277960.9041, 6122450.4053],
  [277820.6007, 6122470.1071],
  [277800.3037, 6122300.7011],
];
const HOLE: Array<[number, number]> = [
  [277850.2003, 6122350.3097],
  [277900.7051, 6122350.9031],
  [277880.4077, 6122400.2089],
  [277850.2003, 6122350.3097],
];
const toLonLat = (ring: Array<[number, number]>) => ring.map((p) => proj4(UTM, 'EPSG:4326').forward(p) as number[]);

function pnpoly(ring: number[][], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi! > y !== yj! > y && x < ((xj! - xi!) * (y - yi!)) / (yj! - yi!) + xi!) c = !c;
  }
  return c;
}

async function points(file: string): Promise<Array<{ x: number; y: number; z: number; c: number }>> {
  const reader = await openPointCloud(file);
  const out: Array<{ x: number; y: number; z: number; c: number }> = [];
  try {
    for await (const ch of reader.read({ workers: 0 })) {
      for (let k = 0; k < ch.count; k++) out.push({ x: ch.x[k]!, y: ch.y[k]!, z: ch.z[k]!, c: ch.classification![k]! });
    }
  } finally {
    await reader.close();
  }
  return out;
}

async function pointsWithReturns(file: string): Promise<Array<{ x: number; y: number; r: number }>> {
  const reader = await openPointCloud(file);
  const out: Array<{ x: number; y: number; r: number }> = [];
  try {
    for await (const ch of reader.read({ workers: 0 })) {
      for (let k = 0; k < ch.count; k++) out.push({ x: ch.x[k]!, y: ch.y[k]!, r: ch.returnNumber![k]! });
    }
  } finally {
    await reader.close();
  }
  return out;
}

describe('clip and download: /api/projects/{id}/clip (real PostGIS, real worker)', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let ada: TestUser;
  let bob: TestUser;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
  let project: any;
  let scratch: string;
  const polygon = () => ({
    source: 'original',
    kind: 'polygon',
    area: { type: 'Polygon', coordinates: [toLonLat(OUTER), toLonLat(HOLE)] },
    classes: [2, 6],
    format: 'las',
  });

  beforeAll(async () => {
    t = await createTestApp();
    [ada, bob] = await Promise.all([testUser(t, 'ada@example.com'), testUser(t, 'bob@example.com')]);
    worker = await testWorker(t);
    scratch = await mkdtemp(path.join(tmpdir(), 'nuage-clip-test-'));
    project = (await uploadRealFile(t, ada, 'Fusa clip', 'fusa.laz')).project;
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  async function runClip(url: string, body: unknown, init: (m: string, b?: unknown) => RequestInit) {
    const res = await t.app.request(url, init('POST', body));
    expect(res.status, await res.clone().text()).toBe(202);
    const started = await json(res);
    expect(started.state).toBe('PENDING');
    expect(started.id).toMatch(/^[a-f0-9]{24}$/);
    const seen = new Set<string>();
    const statusUrl = url.replace(/clip(-from-shared-token)?(\?token=(.*))?$/, (_m, shared, _q, token) =>
      shared ? `clip/${started.id}/from-shared-token?token=${token}` : `clip/${started.id}`,
    );
    const done = await waitFor(
      async () => {
        const r = await t.app.request(statusUrl, init('GET'));
        expect(r.status).toBe(200);
        const s = await json(r);
        seen.add(s.state);
        return s.state === 'SUCCESS' || s.state === 'FAILURE' ? s : null;
      },
      120_000,
      'clip done',
    );
    return { started, done, seen };
  }

  it('estimates, clips in a job and serves exactly the points inside the polygon, in the project CRS', async () => {
    const est = await t.app.request(`/api/projects/${project.id}/clip/estimate`, as(ada, 'POST', polygon()));
    expect(est.status, await est.clone().text()).toBe(200);
    const estimate = await json(est);
    const all = await points(realFile('fusa.laz'));
    const back = [OUTER, HOLE].map((ring) => toLonLat(ring).map((p) => proj4(UTM, 'EPSG:4326').inverse(p) as number[]));
    const inside = (p: { x: number; y: number }) => back.reduce((s, ring) => (pnpoly(ring, p.x, p.y) ? !s : s), false);
    const expected = all.filter((p) => (p.c === 2 || p.c === 6) && inside(p));
    const insideAny = all.filter(inside).length;
    // The estimate ignores the class filter: it is about the points inside.
    expect(estimate.points / insideAny).toBeGreaterThan(0.66);
    expect(estimate.points / insideAny).toBeLessThan(1.5);
    expect(estimate.formats).toEqual(['las', 'laz']);
    expect(estimate.crs.epsg).toBe(32754);
    expect(estimate.areaSquareMetres).toBeGreaterThan(20_000);

    const { done } = await runClip(`/api/projects/${project.id}/clip`, polygon(), (m, b) => as(ada, m, b));
    expect(done.state, done.errorMessage).toBe('SUCCESS');
    expect(done.percentage).toBe(100);
    expect(done.pointCount).toBe(expected.length);
    expect(done.fileName).toBe('Fusa-clip-clip.las');
    const download = await t.app.request(local(done.url));
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.byteLength).toBe(done.bytes);
    const file = path.join(scratch, 'clip.las');
    await writeFile(file, bytes);
    const got = await points(file);
    expect(got.length).toBe(expected.length);
    for (let k = 0; k < got.length; k++) {
      const a = got[k]!;
      const b = expected[k]!;
      if (Math.abs(a.x - b.x) > 1e-6 || Math.abs(a.y - b.y) > 1e-6 || Math.abs(a.z - b.z) > 1e-6 || a.c !== b.c) {
        expect({ k, a }).toEqual({ k, a: b });
      }
    }
    const reader = await openPointCloud(file);
    expect(reader.crs?.epsg).toBe(32754);
    expect(reader.header.lasVersion).toBe('1.4');
    await reader.close();
  });

  it('a corridor with no point inside fails with CLIP_EMPTY', async () => {
    const body = {
      source: 'original',
      kind: 'corridor',
      area: {
        type: 'LineString',
        coordinates: toLonLat([
          [278100.5, 6122600.5],
          [278200.5, 6122650.5],
        ]),
      },
      width: 10,
      format: 'las',
    };
    const { done } = await runClip(`/api/projects/${project.id}/clip`, body, (m, b) => as(ada, m, b));
    expect(done.state).toBe('FAILURE');
    expect(done.errorCode).toBe('CLIP_EMPTY');
    expect(done.url).toBeNull();
  });

  it('a share-token holder clips the original cloud (box), never the classified one', async () => {
    const { token } = await json(await t.app.request(`/api/projects/${project.id}/share-token`, as(ada, 'POST')));
    const box = {
      source: 'original',
      kind: 'box',
      area: {
        type: 'Polygon',
        coordinates: [
          toLonLat([
            [277810.005, 6122310.005],
            [277905.005, 6122310.005],
            [277905.005, 6122420.005],
            [277810.005, 6122420.005],
            [277810.005, 6122310.005],
          ]),
        ],
      },
      returns: 'first',
      format: 'laz',
    };
    const { done } = await runClip(`/api/projects/${project.id}/clip-from-shared-token?token=${token}`, box, (m, b) =>
      send(m, b),
    );
    expect(done.state, done.errorMessage).toBe('SUCCESS');
    expect(done.fileName).toBe('Fusa-clip-clip.laz');
    const download = await t.app.request(local(done.url));
    expect(download.status).toBe(200);
    const file = path.join(scratch, 'share.laz');
    await writeFile(file, new Uint8Array(await download.arrayBuffer()));
    const reader = await openPointCloud(file);
    expect(reader.kind).toBe('laz');
    expect(reader.header.pointFormat).toBe(1);
    expect(reader.crs?.epsg).toBe(32754);
    await reader.close();
    const got = await points(file);
    // First returns inside the box: the same count as the reference over the whole file.
    const back = box.area.coordinates[0]!.map((p) => proj4(UTM, 'EPSG:4326').inverse(p) as number[]);
    const xs = back.map((p) => p[0]!);
    const ys = back.map((p) => p[1]!);
    const all = await pointsWithReturns(realFile('fusa.laz'));
    const expected = all.filter(
      (p) =>
        p.r === 1 &&
        p.x >= Math.min(...xs) &&
        p.x <= Math.max(...xs) &&
        p.y >= Math.min(...ys) &&
        p.y <= Math.max(...ys),
    );
    expect(expected.length).toBeGreaterThan(1000);
    expect(got.length).toBe(expected.length);
    expect(done.pointCount).toBe(expected.length);

    const classified = await t.app.request(
      `/api/projects/${project.id}/clip/estimate-from-shared-token?token=${token}`,
      send('POST', { ...box, source: 'classified' }),
    );
    expect(classified.status).toBe(403);
    expect((await json(classified)).error.code).toBe('PREMIUM_REQUIRED');
    // Another user never sees the clip.
    const other = await t.app.request(`/api/projects/${project.id}/clip/${done.id}`, as(bob, 'GET'));
    expect(other.status).toBe(404);
  });

  it('refuses: other users (404), bad fields (400), LAZ (400), too large (413), classified without premium (403)', async () => {
    const url = `/api/projects/${project.id}/clip/estimate`;
    const post = (user: TestUser, body: unknown) => t.app.request(url, as(user, 'POST', body));
    const code = async (res: Response) => (await json(res)).error;

    const bobs = await post(bob, polygon());
    expect(bobs.status).toBe(404);
    expect((await code(bobs)).code).toBe('PROJECT_NOT_FOUND');
    const bobStart = await t.app.request(`/api/projects/${project.id}/clip`, as(bob, 'POST', polygon()));
    expect(bobStart.status).toBe(404);

    const noKind = await post(ada, { ...polygon(), kind: 'circle' });
    expect(noKind.status).toBe(400);
    expect((await code(noKind)).details.fields[0].field).toBe('kind');

    const badRing = await post(ada, {
      ...polygon(),
      area: {
        type: 'Polygon',
        coordinates: [
          [
            [138.56, -35.01],
            [138.57, -35.01],
          ],
        ],
      },
    });
    expect(badRing.status).toBe(400);
    const badRingError = await code(badRing);
    expect(badRingError.details.fields[0].field).toBe('area');
    expect(badRingError.message).toMatch(/^area: .*at least 3 distinct vertices/);

    const noWidth = await post(ada, {
      ...polygon(),
      kind: 'corridor',
      area: { type: 'LineString', coordinates: toLonLat(OUTER) },
    });
    expect(noWidth.status).toBe(400);
    expect((await code(noWidth)).details.fields[0].field).toBe('width');

    // LAZ is offered for point formats 0-3 only: not for this LAS 1.4 format 7 cloud (EPSG:2154).
    const semis = (await uploadRealFile(t, ada, 'Semis', 'test_semis_2021_0382_6565_LA93_IGN69_cropped.laz')).project;
    const l93 = {
      ...polygon(),
      area: {
        type: 'Polygon',
        coordinates: [
          [
            [2.1, 48.9],
            [2.101, 48.9],
            [2.101, 48.901],
            [2.1, 48.9],
          ],
        ],
      },
    };
    const lazEstimate = await t.app.request(
      `/api/projects/${semis.id}/clip/estimate`,
      as(ada, 'POST', { ...l93, format: 'las' }),
    );
    expect(lazEstimate.status, await lazEstimate.clone().text()).toBe(200);
    expect((await json(lazEstimate)).formats).toEqual(['las']);
    const laz = await t.app.request(`/api/projects/${semis.id}/clip`, as(ada, 'POST', { ...l93, format: 'laz' }));
    expect(laz.status).toBe(400);
    const lazError = await code(laz);
    expect(lazError.code).toBe('CLIP_FORMAT_UNAVAILABLE');
    expect(lazError.details.fields[0].field).toBe('format');

    const huge = await post(ada, {
      ...polygon(),
      area: {
        type: 'Polygon',
        coordinates: [
          [
            [138.0, -35.5],
            [139.0, -35.5],
            [139.0, -34.5],
            [138.0, -35.5],
          ],
        ],
      },
    });
    expect(huge.status).toBe(413);
    expect((await code(huge)).code).toBe('CLIP_AREA_TOO_LARGE');

    const classified = await post(ada, { ...polygon(), source: 'classified' });
    expect(classified.status).toBe(403);
    expect((await code(classified)).code).toBe('PREMIUM_REQUIRED');
    await sql`UPDATE users SET premium = true WHERE id = ${ada.id}`.execute(t.deps.database.db);
    const premium = await post(ada, { ...polygon(), source: 'classified' });
    expect(premium.status).toBe(404);
    expect((await code(premium)).message).toMatch(/no classified point cloud/);
    await sql`UPDATE users SET premium = false WHERE id = ${ada.id}`.execute(t.deps.database.db);

    const unknownClip = await t.app.request(`/api/projects/${project.id}/clip/${'0'.repeat(24)}`, as(ada, 'GET'));
    expect(unknownClip.status).toBe(404);
    expect((await code(unknownClip)).code).toBe('CLIP_NOT_FOUND');
  });
});
