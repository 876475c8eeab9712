import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type ServerType, serve } from '@hono/node-server';
import { PRODUCTS } from '@nuage/engine/products/registry.js';
import { hasGdal } from '@nuage/engine/products/test-gdal.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionFor } from '../src/services/ogc.service.js';
import { makeVectorTile } from '../src/services/ogc-tiles.service.js';
import type { WorkerHandle } from '../src/worker/runner.js';
import { bearer, json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { decodeMvt, tileBounds, tileOf } from './mvt.js';
import { as, getProject, type TestUser, testUser, testWorker, uploadRealFile, waitFor } from './projects.js';

const run = promisify(execFile);
/** Runs a command without blocking the event loop (the server under test lives in this process). */
async function tool(cmd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run(cmd, args, { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}
async function has(cmd: string): Promise<boolean> {
  return run(cmd, ['--version']).then(
    () => true,
    () => false,
  );
}

const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
const EPSG = (n: number) => `http://www.opengis.net/def/crs/EPSG/0/${n}`;

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Json = any;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('OGC API - Features, CRS, filters, vector tiles and access tokens on a processed project', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let server: ServerType;
  let base: string;
  let ada: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let project: Json;
  /** Collections of ada's project by asset type. */
  const byType = new Map<string, Json>();
  let grid: Json;
  let major: Json;
  /** URLs the loopback server was asked for (what GDAL sends). */
  const requests: string[] = [];

  const get = (url: string, init: RequestInit = {}) => fetch(url.startsWith('http') ? url : `${base}${url}`, init);
  const asAda = (url: string, headers: Record<string, string> = {}) =>
    get(url, { headers: { ...ada.auth, ...headers } });
  const projectEpsg = async () =>
    (await t.tdb.db.selectFrom('projects').select('epsg_code').where('id', '=', project.id).executeTakeFirstOrThrow())
      .epsg_code!;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: base });
    server = serve({
      fetch: (req: Request) => {
        requests.push(req.url);
        return t.app.fetch(req);
      },
      port,
      hostname: '127.0.0.1',
    });
    [ada, bob, admin] = await Promise.all([
      testUser(t, 'ada@example.com'),
      testUser(t, 'bob@example.com'),
      testUser(t, 'root@example.com', ['admin', 'user']),
    ]);
    worker = await testWorker(t);
    const up = await uploadRealFile(t, ada, 'Fusa', 'fusa.laz');
    const res = await t.app.request(
      '/api/assets/start-tiling',
      as(ada, 'POST', {
        assetId: up.assetId,
        processingOptions: { dtmResolutionCm: 100, contourMinorCm: 100, contourMajorCm: 500, gridResolutionCm: 1000 },
      }),
    );
    expect(res.status).toBe(200);
    project = await waitFor(
      async () => {
        const p = await getProject(t, ada, up.project.id);
        if (p.jobs.processing?.state === 'FAILURE') throw new Error(p.jobs.processing.errorMessage);
        return p.jobs.processing?.state === 'SUCCESS' ? p : null;
      },
      300_000,
      'processing SUCCESS',
    );
    const list = await json(await asAda('/ogc/collections'));
    for (const c of list.collections) byType.set(c.description.split(' ')[0], c);
    grid = byType.get('GRID');
    major = byType.get('CONTOUR_LINE_MAJOR');
  }, 400_000);

  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await worker?.stop();
    await t?.close();
  });

  it('serves the landing page at /ogc and /ogc/, as JSON and HTML', async () => {
    for (const p of ['/ogc', '/ogc/']) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      const doc = await json(res);
      const rels = Object.fromEntries(doc.links.map((l: Json) => [l.rel, l]));
      for (const rel of ['self', 'alternate', 'service-desc', 'service-doc', 'conformance', 'data']) {
        expect(rels[rel], rel).toBeDefined();
      }
      expect(rels['service-desc'].type).toBe('application/vnd.oai.openapi+json;version=3.0');
      expect(rels.data.href).toBe(`${base}/ogc/collections`);
    }
    const page = await get('/ogc', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<a href="http://127.0.0.1');
    expect((await get('/ogc?f=html')).headers.get('content-type')).toContain('text/html');
    const bad = await get('/ogc?f=xml');
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({ code: 'INVALID_PARAMETER', parameter: 'f' });
  });

  it('lists the conformance classes and describes the API in OpenAPI 3.0', async () => {
    const conf = await json(await get('/ogc/conformance'));
    for (const c of [
      'ogcapi-features-1/1.0/conf/core',
      'ogcapi-features-1/1.0/conf/geojson',
      'ogcapi-features-1/1.0/conf/html',
      'ogcapi-features-1/1.0/conf/oas30',
      'ogcapi-features-2/1.0/conf/crs',
      'ogcapi-features-3/1.0/conf/queryables',
      'ogcapi-features-3/1.0/conf/filter',
      'cql2/1.0/conf/cql2-text',
      'ogcapi-tiles-1/1.0/conf/mvt',
    ]) {
      expect(conf.conformsTo).toContain(`http://www.opengis.net/spec/${c}`);
    }
    const api = await get('/ogc/api');
    expect(api.headers.get('content-type')).toBe('application/vnd.oai.openapi+json;version=3.0');
    const doc = await json(api);
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.servers[0].url).toBe(`${base}/ogc`);
    const items = doc.paths['/collections/{collectionId}/items'].get;
    const names = items.parameters.map((p: Json) => doc.components.parameters[p.$ref.split('/').pop()].name);
    expect(names).toEqual(
      expect.arrayContaining(['limit', 'bbox', 'bbox-crs', 'crs', 'datetime', 'filter', 'filter-lang']),
    );
    expect(doc.components.parameters.limit.schema).toMatchObject({ default: 100, maximum: 10000 });
    expect(await (await get('/ogc/api?f=html')).text()).toContain('/ogc/collections/{collectionId}/items');
  });

  it('asks for credentials (401, OGC exception) and shows a stranger nothing of a private project (404)', async () => {
    for (const p of ['/ogc/collections', `/ogc/collections/${grid.id}`, `/ogc/collections/${grid.id}/items`]) {
      const res = await get(p);
      expect(res.status, p).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
      const body = await json(res);
      expect(body).toMatchObject({ code: 'UNAUTHORIZED', description: expect.stringContaining('token') });
      expect(body.error.code).toBe('UNAUTHORIZED');
    }
    expect((await json(await get('/ogc/collections', { headers: bob.auth }))).collections).toEqual([]);
    for (const p of [
      `/ogc/collections/${grid.id}`,
      `/ogc/collections/${grid.id}/items`,
      `/ogc/collections/${grid.id}/queryables`,
      `/ogc/collections/${grid.id}/tiles/WebMercatorQuad/0/0/0`,
    ]) {
      const res = await get(p, { headers: bob.auth });
      expect(res.status, p).toBe(404);
      expect((await json(res)).code).toBe('NOT_FOUND');
    }
    // Unknown collection, unknown feature, feature of another collection.
    expect((await asAda('/ogc/collections/999999999')).status).toBe(404);
    expect((await asAda('/ogc/collections/abc')).status).toBe(404);
    expect((await asAda(`/ogc/collections/${grid.id}/items/999999999`)).status).toBe(404);
    const one = await json(await asAda(`/ogc/collections/${major.id}/items?limit=1`));
    const wrong = await asAda(`/ogc/collections/${grid.id}/items/${one.features[0].id}`);
    expect(wrong.status).toBe(404);
    expect(await json(wrong)).toMatchObject({ code: 'NOT_FOUND', description: expect.any(String) });
    // A broken session is a 401 too, never an anonymous visit.
    expect((await get('/ogc/collections', { headers: bearer('not-a-jwt') })).status).toBe(401);
    // The admin sees every collection.
    expect((await json(await get('/ogc/collections', { headers: admin.auth }))).collections.length).toBe(byType.size);
  });

  it('has one collection per vector asset with features, each with extent, CRSs and links', async () => {
    const list = await json(await asAda('/ogc/collections'));
    const withFeatures = await t.tdb.db.selectFrom('features').select('asset_id').distinct().execute();
    expect(list.collections.map((c: Json) => c.id).sort()).toEqual(withFeatures.map((r) => r.asset_id).sort());
    // Every product with PostGIS features that found something on fusa (vectors, the forest inventory's points).
    const served = [...byType.keys()];
    expect(served.every((type) => PRODUCTS.some((p) => p.assetType === type))).toBe(true);
    expect(served).toHaveLength(new Set(served).size);
    expect(served).toEqual(
      expect.arrayContaining(['GRID', 'CONTOUR_LINE', 'CONTOUR_LINE_MAJOR', 'CONTOUR_LINE_MINOR']),
    );
    const epsg = await projectEpsg();
    for (const c of list.collections) {
      expect(c.itemType).toBe('feature');
      expect(c.storageCrs).toBe(CRS84);
      expect(c.crs).toEqual([CRS84, EPSG(4326), EPSG(3857), EPSG(epsg)]);
      const [w, s, e, n] = c.extent.spatial.bbox[0];
      // fusa: UTM 54S, about 138.6°E 35°S.
      expect(w).toBeGreaterThan(138.5);
      expect(e).toBeLessThan(138.7);
      expect(s).toBeGreaterThan(-36);
      expect(n).toBeLessThan(-34);
      expect(c.extent.spatial.crs).toBe(CRS84);
      expect(c.extent.temporal.interval[0]).toHaveLength(2);
      expect(Date.parse(c.extent.temporal.interval[0][0])).toBeLessThan(Date.parse(c.extent.temporal.interval[0][1]));
      const rels = c.links.map((l: Json) => `${l.rel} ${l.type}`);
      expect(rels).toEqual(
        expect.arrayContaining([
          'self application/json',
          'items application/geo+json',
          'http://www.opengis.net/def/rel/ogc/1.0/queryables application/schema+json',
          'http://www.opengis.net/def/rel/ogc/1.0/tilesets-vector application/json',
        ]),
      );
      const one = await json(await asAda(`/ogc/collections/${c.id}`));
      expect(one).toEqual(c);
    }
    const html = await (await asAda(`/ogc/collections/${grid.id}?f=html`)).text();
    expect(html).toContain('Fusa');
    expect(html).toContain(EPSG(3857));
  });

  it('pages items (default 100, next and prev links, numberMatched), and refuses bad limits naming them', async () => {
    const first = await asAda(`/ogc/collections/${grid.id}/items`);
    expect(first.headers.get('content-type')).toBe('application/geo+json');
    expect(first.headers.get('content-crs')).toBe(`<${CRS84}>`);
    const page = await json(first);
    expect(page.type).toBe('FeatureCollection');
    expect(page.numberMatched).toBeGreaterThan(100);
    expect(page.numberReturned).toBe(100);
    expect(page.features).toHaveLength(100);
    expect(typeof page.features[0].id).toBe('number');
    expect(page.features[0].geometry.type).toBe('Point');
    expect(Number.isFinite(page.timeStamp ? Date.parse(page.timeStamp) : Number.NaN)).toBe(true);
    expect(page.links.map((l: Json) => l.rel)).toEqual(
      expect.arrayContaining(['self', 'alternate', 'next', 'collection']),
    );
    // Every page of a small collection, through the next links: each feature once.
    const total = (await json(await asAda(`/ogc/collections/${major.id}/items?limit=1`))).numberMatched;
    const ids: number[] = [];
    let next: string | null = `/ogc/collections/${major.id}/items?limit=7`;
    let pages = 0;
    while (next) {
      const p: Json = await json(await asAda(next));
      if (pages === 1) expect(p.links.find((l: Json) => l.rel === 'prev')).toBeDefined();
      ids.push(...p.features.map((f: Json) => f.id));
      expect(p.numberMatched).toBe(total);
      next = p.links.find((l: Json) => l.rel === 'next')?.href ?? null;
      pages++;
    }
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(pages).toBe(Math.ceil(total / 7));
    // Above 10 000, 10 000 (OGC API: not an error); not a positive whole number: 400 naming limit.
    const big = await json(await asAda(`/ogc/collections/${grid.id}/items?limit=20000`));
    expect(big.numberReturned).toBe(Math.min(10_000, big.numberMatched));
    for (const limit of ['0', '-1', 'abc', '1.5']) {
      const res = await asAda(`/ogc/collections/${grid.id}/items?limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(await json(res), limit).toMatchObject({ code: 'INVALID_PARAMETER', parameter: 'limit' });
    }
    // One item, as GeoJSON and HTML.
    const item = await asAda(`/ogc/collections/${grid.id}/items/${page.features[0].id}`);
    expect(item.headers.get('content-type')).toBe('application/geo+json');
    const feature = await json(item);
    expect(feature).toMatchObject({
      type: 'Feature',
      id: page.features[0].id,
      properties: page.features[0].properties,
    });
    expect(feature.links.map((l: Json) => l.rel)).toEqual(expect.arrayContaining(['self', 'alternate', 'collection']));
    const html = await (await asAda(`/ogc/collections/${grid.id}/items?limit=5`, { accept: 'text/html' })).text();
    expect(html).toContain('<table>');
    expect(html).toContain(String(page.features[0].id));
  });

  it('filters by bbox (CRS84, EPSG:4326 lat/lon, EPSG:3857) and datetime, refusing bad ones', async () => {
    const [w, s, e, n] = grid.extent.spatial.bbox[0];
    const box = [w, s, (w + e) / 2, (s + n) / 2];
    const inBox = await json(await asAda(`/ogc/collections/${grid.id}/items?bbox=${box.join(',')}&limit=10000`));
    expect(inBox.numberMatched).toBeGreaterThan(0);
    expect(inBox.numberMatched).toBeLessThan(Number(/\((\d+) features/.exec(grid.description)![1]));
    for (const f of inBox.features) {
      const [lon, lat] = f.geometry.coordinates;
      expect(lon).toBeGreaterThanOrEqual(box[0]!);
      expect(lon).toBeLessThanOrEqual(box[2]!);
      expect(lat).toBeGreaterThanOrEqual(box[1]!);
      expect(lat).toBeLessThanOrEqual(box[3]!);
    }
    const idsOf = (p: Json) => p.features.map((f: Json) => f.id).sort();
    // The same box in EPSG:4326 (latitude first) and in EPSG:3857 selects the same points.
    const latLon = await json(
      await asAda(
        `/ogc/collections/${grid.id}/items?bbox=${[s, w, (s + n) / 2, (w + e) / 2].join(',')}&bbox-crs=${EPSG(4326)}&limit=10000`,
      ),
    );
    expect(idsOf(latLon)).toEqual(idsOf(inBox));
    const merc = (lon: number, lat: number) => [
      (lon * 20037508.342789244) / 180,
      Math.log(Math.tan(((90 + lat) * Math.PI) / 360)) * 6378137,
    ];
    const [x0, y0] = merc(box[0]!, box[1]!);
    const [x1, y1] = merc(box[2]!, box[3]!);
    const m = await json(
      await asAda(
        `/ogc/collections/${grid.id}/items?bbox=${[x0, y0, x1, y1].join(',')}&bbox-crs=EPSG:3857&limit=10000`,
      ),
    );
    expect(idsOf(m)).toEqual(idsOf(inBox));
    const cases: Array<[string, string]> = [
      ['bbox=1,2,3', 'bbox'],
      ['bbox=1,2,3,a', 'bbox'],
      ['bbox=0,95,1,96', 'bbox'],
      ['bbox=10,10,5,5&bbox-crs=EPSG:3857', 'bbox'],
      ['bbox=1,2,3,4&bbox-crs=EPSG:2154', 'bbox-crs'],
      ['crs=EPSG:9999', 'crs'],
      ['crs=nonsense', 'crs'],
      ['datetime=yesterday', 'datetime'],
      ['datetime=2024-02-01/2024-01-01', 'datetime'],
      ['offset=-3', 'offset'],
    ];
    for (const [q, parameter] of cases) {
      const res = await asAda(`/ogc/collections/${grid.id}/items?${q}`);
      expect(res.status, q).toBe(400);
      const body = await json(res);
      expect(body.parameter, q).toBe(parameter);
      expect(body.description, q).toMatch(new RegExp(`^${parameter}:`));
    }
    // Features carry their survey day: an interval holding it keeps them all, one before it none.
    const [start] = grid.extent.temporal.interval[0];
    const all = await json(await asAda(`/ogc/collections/${grid.id}/items?datetime=${start}/..&limit=1`));
    expect(all.numberMatched).toBe(Number(/\((\d+) features/.exec(grid.description)![1]));
    const day = await json(await asAda(`/ogc/collections/${grid.id}/items?datetime=${start.slice(0, 10)}&limit=1`));
    expect(day.numberMatched).toBe(all.numberMatched);
    const none = await json(await asAda(`/ogc/collections/${grid.id}/items?datetime=../1990-01-01T00:00:00Z`));
    expect(none).toMatchObject({ numberMatched: 0, numberReturned: 0, features: [] });
  });

  it('selects the same features in a bbox as ST_Intersects, edges included, for points (features.pt) and lines', async () => {
    const stats = (await collectionFor(t.deps, { kind: 'user', id: ada.id, admin: false }, grid.id)).stats;
    expect(stats.points).toBe(true);
    const lines = (await collectionFor(t.deps, { kind: 'user', id: ada.id, admin: false }, major.id)).stats;
    expect(lines.points).toBe(false);
    // Boxes whose edges are points' own coordinates (float8, as stored), and boxes a hair inside them.
    const { rows: corners } = await sql<{ x0: number; y0: number; x1: number; y1: number }>`
      SELECT ST_X(a.geom) AS x0, ST_Y(a.geom) AS y0, ST_X(b.geom) AS x1, ST_Y(b.geom) AS y1
      FROM (SELECT geom, row_number() OVER (ORDER BY id) AS n, count(*) OVER () AS total
            FROM features WHERE asset_id = ${grid.id}) a
      CROSS JOIN LATERAL (
        SELECT geom FROM features
        WHERE asset_id = ${grid.id} AND ST_X(geom) > ST_X(a.geom) AND ST_Y(geom) > ST_Y(a.geom)
        ORDER BY ST_Distance(geom, a.geom) OFFSET 30 LIMIT 1) b
      WHERE a.n % (a.total / 8 + 1) = 1
      LIMIT 6`.execute(t.tdb.db);
    expect(corners.length).toBeGreaterThan(2);
    const boxes = corners.flatMap((c) => [
      [c.x0, c.y0, c.x1, c.y1],
      [c.x0 + 1e-9, c.y0 + 1e-9, c.x1 - 1e-9, c.y1 - 1e-9],
    ]);
    let matched = 0;
    for (const [collection, box] of [
      ...boxes.map((b) => [grid, b] as const),
      ...boxes.map((b) => [major, b] as const),
    ]) {
      const page = await json(await asAda(`/ogc/collections/${collection.id}/items?bbox=${box.join(',')}&limit=10000`));
      const { rows } = await sql<{ id: string }>`
        SELECT id::text FROM features
        WHERE asset_id = ${collection.id} AND ST_Intersects(geom, ST_MakeEnvelope(${box[0]}::float8, ${box[1]}::float8,
          ${box[2]}::float8, ${box[3]}::float8, 4326))
        ORDER BY id`.execute(t.tdb.db);
      expect(
        page.features.map((f: Json) => String(f.id)),
        box.join(','),
      ).toEqual(rows.map((r) => r.id));
      expect(page.numberMatched).toBe(rows.length);
      matched += rows.length;
    }
    expect(matched).toBeGreaterThan(0);
  });

  it('answers in EPSG:4326, EPSG:3857 and the project CRS, agreeing with PROJ', async () => {
    const epsg = await projectEpsg();
    const first = await json(await asAda(`/ogc/collections/${grid.id}/items?limit=1`));
    const id = first.features[0].id;
    const at = async (crs: string) => {
      const res = await asAda(`/ogc/collections/${grid.id}/items/${id}?crs=${encodeURIComponent(crs)}`);
      expect(res.status, crs).toBe(200);
      expect(res.headers.get('content-crs')).toBe(`<${crs}>`);
      return (await json(res)).geometry.coordinates as number[];
    };
    const [lon, lat, z] = await at(CRS84);
    const [lat2, lon2, z2] = await at(EPSG(4326));
    expect([lon2, lat2]).toEqual([lon, lat]);
    const [x, y, z3] = await at(EPSG(3857));
    const [easting, northing, z4] = await at(EPSG(epsg));
    // Grid points are stored with their height (Point Z): every CRS keeps it as it is (heights are not reprojected).
    expect(typeof z).toBe('number');
    expect([z2, z3, z4]).toEqual([z, z, z]);
    // The page in a CRS says so, and its features agree with the single item.
    const page = await asAda(`/ogc/collections/${grid.id}/items?limit=1&crs=${EPSG(3857)}`);
    expect(page.headers.get('content-crs')).toBe(`<${EPSG(3857)}>`);
    expect((await json(page)).features[0].geometry.coordinates).toEqual([x, y, z]);
    if (await has('cs2cs')) {
      // cs2cs takes EPSG:4326 in its own axis order: latitude, longitude.
      const proj = async (to: number) =>
        (await tool('sh', ['-c', `echo "${lat} ${lon}" | cs2cs -f %.4f EPSG:4326 EPSG:${to}`]))
          .trim()
          .split(/\s+/)
          .map(Number);
      const [px, py] = await proj(3857);
      expect(Math.abs(x! - px!)).toBeLessThan(0.01);
      expect(Math.abs(y! - py!)).toBeLessThan(0.01);
      const [pe, pn] = await proj(epsg);
      expect(Math.abs(easting! - pe!)).toBeLessThan(0.01);
      expect(Math.abs(northing! - pn!)).toBeLessThan(0.01);
    } else {
      expect(x).toBeCloseTo((lon! * 20037508.342789244) / 180, 1);
    }
  });

  it('describes queryables from the features and filters with CQL2 text, building SQL safely', async () => {
    const q = await asAda(`/ogc/collections/${grid.id}/queryables`);
    expect(q.headers.get('content-type')).toBe('application/schema+json');
    const schema = await json(q);
    expect(schema.type).toBe('object');
    expect(schema.$schema).toContain('json-schema.org');
    expect(schema.properties.elevation.type).toBe('number');
    const all: Json = await json(await asAda(`/ogc/collections/${grid.id}/items?limit=10000`));
    const elevations = all.features
      .map((f: Json) => f.properties.elevation as number)
      .sort((a: number, b: number) => a - b);
    const mid = elevations[Math.floor(elevations.length / 2)];
    const above = await json(await asAda(`/ogc/collections/${grid.id}/items?filter=elevation>${mid}&limit=10000`));
    expect(above.numberMatched).toBe(elevations.filter((v: number) => v > mid).length);
    expect(above.features.every((f: Json) => f.properties.elevation > mid)).toBe(true);
    const lo = elevations[Math.floor(elevations.length / 4)];
    const filter = encodeURIComponent(`elevation >= ${lo} AND elevation < ${mid}`);
    const band = await json(
      await asAda(`/ogc/collections/${grid.id}/items?filter=${filter}&filter-lang=cql2-text&limit=10000`),
    );
    expect(band.numberMatched).toBe(elevations.filter((v: number) => v >= lo && v < mid).length);
    // Filter links keep the filter.
    if (band.numberMatched > 0) {
      const small = await json(await asAda(`/ogc/collections/${grid.id}/items?filter=${filter}&limit=1`));
      if (small.numberMatched > 1) expect(small.links.find((l: Json) => l.rel === 'next').href).toContain('filter=');
    }
    // Strings (the contours' kind), with bbox and filter together.
    const majors = await json(
      await asAda(
        `/ogc/collections/${byType.get('CONTOUR_LINE').id}/items?filter=${encodeURIComponent("kind='major'")}&limit=10000`,
      ),
    );
    expect(majors.numberMatched).toBe(Number(/\((\d+) features/.exec(major.description)![1]));
    const cases: Array<[string, string]> = [
      ['filter=elevation>', 'filter'],
      ['filter=height>20', 'filter'],
      ["filter=elevation='high'", 'filter'],
      [`filter=${encodeURIComponent('elevation>1; DROP TABLE features')}`, 'filter'],
      [`filter=${encodeURIComponent('S_INTERSECTS(geom, POINT(1 2))')}`, 'filter'],
      ['filter=elevation>1&filter-lang=cql2-json', 'filter-lang'],
    ];
    for (const [query, parameter] of cases) {
      const res = await asAda(`/ogc/collections/${grid.id}/items?${query}`);
      expect(res.status, query).toBe(400);
      expect(await json(res), query).toMatchObject({ code: 'INVALID_FILTER', parameter });
    }
    expect(await t.tdb.db.selectFrom('features').select('id').limit(1).execute()).toHaveLength(1);
    const html = await (await asAda(`/ogc/collections/${grid.id}/queryables?f=html`)).text();
    expect(html).toContain('elevation');
  });

  it('makes, lists and revokes personal access tokens (shown once, hashed at rest) that open /ogc only', async () => {
    const anon = await t.app.request('/api/users/current/access-tokens');
    expect(anon.status).toBe(401);
    const made = await t.app.request('/api/users/current/access-tokens', as(ada, 'POST', { name: 'QGIS laptop' }));
    expect(made.status).toBe(201);
    const created = await json(made);
    expect(created.token).toMatch(/^nuage_pat_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({ name: 'QGIS laptop', scope: 'read', expiresAt: null, lastUsedAt: null });
    expect(created.token.startsWith(created.prefix.replace('…', ''))).toBe(true);
    const listed = await json(await t.app.request('/api/users/current/access-tokens', as(ada, 'GET')));
    expect(listed.results).toHaveLength(1);
    expect(listed.results[0].id).toBe(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const row = await t.tdb.db
      .selectFrom('access_tokens')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token);
    // As a bearer token and as ?token=, on collections, items and tiles; links keep ?token=.
    const viaHeader = await json(await get('/ogc/collections', { headers: bearer(created.token) }));
    expect(viaHeader.collections).toHaveLength(byType.size);
    const viaQuery = await json(await get(`/ogc/collections?token=${created.token}`));
    expect(viaQuery.collections).toHaveLength(byType.size);
    expect(viaQuery.collections[0].links[0].href).toContain(`token=${created.token}`);
    expect((await get(`/ogc/collections/${grid.id}/items?limit=1&token=${created.token}`)).status).toBe(200);
    const used = await json(await t.app.request('/api/users/current/access-tokens', as(ada, 'GET')));
    expect(used.results[0].lastUsedAt).not.toBeNull();
    // Never the API, never a token to make tokens.
    expect((await t.app.request('/api/users/current', { headers: bearer(created.token) })).status).toBe(401);
    expect(
      (
        await t.app.request('/api/users/current/access-tokens', {
          method: 'POST',
          headers: { ...bearer(created.token), 'content-type': 'application/json' },
          body: '{"name":"x"}',
        })
      ).status,
    ).toBe(401);
    // Bob's token opens bob's projects only; bob cannot revoke ada's token.
    const bobs = await json(
      await t.app.request('/api/users/current/access-tokens', as(bob, 'POST', { name: 'b', expiresInDays: 30 })),
    );
    expect(bobs.expiresAt).not.toBeNull();
    expect((await get(`/ogc/collections/${grid.id}?token=${bobs.token}`)).status).toBe(404);
    expect((await t.app.request(`/api/users/current/access-tokens/${created.id}`, as(bob, 'DELETE'))).status).toBe(404);
    // Revoked, expired or unknown: 401 at once.
    expect((await t.app.request(`/api/users/current/access-tokens/${created.id}`, as(ada, 'DELETE'))).status).toBe(204);
    const revoked = await get('/ogc/collections', { headers: bearer(created.token) });
    expect(revoked.status).toBe(401);
    expect((await json(revoked)).code).toBe('ACCESS_TOKEN_INVALID');
    expect((await get(`/ogc/collections?token=${created.token}`)).status).toBe(401);
    expect((await t.app.request(`/api/users/current/access-tokens/${created.id}`, as(ada, 'DELETE'))).status).toBe(404);
    expect((await json(await t.app.request('/api/users/current/access-tokens', as(ada, 'GET')))).results).toEqual([]);
    await t.tdb.db
      .updateTable('access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', bobs.id)
      .execute();
    expect((await get(`/ogc/collections?token=${bobs.token}`)).status).toBe(401);
    expect((await get(`/ogc/collections?token=nuage_pat_${'x'.repeat(43)}`)).status).toBe(401);
    // Bad requests and the limit.
    const invalid = await t.app.request('/api/users/current/access-tokens', as(ada, 'POST', { name: '' }));
    expect(invalid.status).toBe(400);
    await t.tdb.db
      .insertInto('access_tokens')
      .values(
        Array.from({ length: 50 }, (_, i) => ({
          user_id: bob.id,
          name: `t${i}`,
          token_hash: createHash('sha256').update(`f${i}`).digest('hex'),
          token_prefix: 'nuage_pat_xxxxxx',
        })),
      )
      .execute();
    const full = await t.app.request('/api/users/current/access-tokens', as(bob, 'POST', { name: 'one more' }));
    expect(full.status).toBe(409);
    expect((await json(full)).error.code).toBe('ACCESS_TOKEN_LIMIT');
    // The OpenAPI document of /api describes them.
    const doc = await json(await t.app.request('/api/openapi.json'));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/users/current/access-tokens', '/users/current/access-tokens/{id}']),
    );
  });

  it('opens a shared project with its share token (?token=), and stops when the share is revoked', async () => {
    const { token } = await json(await t.app.request(`/api/projects/${project.id}/share-token`, as(ada, 'POST')));
    const list = await json(await get(`/ogc/collections?token=${token}`));
    expect(list.collections).toHaveLength(byType.size);
    expect((await get(`/ogc/collections/${grid.id}/items?limit=1&token=${token}`)).status).toBe(200);
    await t.app.request(`/api/projects/${project.id}/share-token`, as(ada, 'DELETE'));
    const res = await get(`/ogc/collections?token=${token}`);
    expect(res.status).toBe(401);
    expect((await json(res)).code).toBe('ACCESS_TOKEN_INVALID');
  });

  const count = (out: string) => Number(/Feature Count: (\d+)/.exec(out)?.[1]);
  /** A personal access token of ada's for the GIS tools. */
  const toolToken = async () =>
    (await json(await t.app.request('/api/users/current/access-tokens', as(ada, 'POST', { name: 'GDAL' }))))
      .token as string;

  it.runIf(hasGdal())(
    'GDAL (OAPIF driver): ogrinfo lists every collection, with ?token= and with an Authorization header',
    async () => {
      const token = await toolToken();
      const out = await tool('ogrinfo', ['-ro', '-q', `OAPIF:${base}/ogc?token=${token}`]);
      for (const c of byType.values()) expect(out).toMatch(new RegExp(`^\\d+: ${c.id}\\b`, 'm'));
      expect(out.trim().split('\n')).toHaveLength(byType.size);
      const viaHeader = await tool('ogrinfo', ['-ro', '-q', `OAPIF:${base}/ogc`], {
        GDAL_HTTP_HEADERS: `Authorization: Bearer ${token}`,
      });
      expect(viaHeader.trim().split('\n')).toHaveLength(byType.size);
    },
    120_000,
  );

  it.runIf(hasGdal())(
    'GDAL (OAPIF driver): reads a collection with the right count and CRS, honours -spat and -where, copies it to a GeoPackage',
    async () => {
      const token = await toolToken();
      const oapif = `OAPIF:${base}/ogc/collections/${grid.id}?token=${token}`;
      const total = Number(/\((\d+) features/.exec(grid.description)![1]);
      const info = await tool('ogrinfo', ['-ro', '-so', oapif, grid.id]);
      expect(count(info)).toBe(total);
      expect(info).toMatch(/WGS 84|WGS84/);
      expect(info).toMatch(/Geometry: 3D Point/);
      const [w, s, e, n] = grid.extent.spatial.bbox[0];
      const spat = [w, s, (w + e) / 2, (s + n) / 2];
      const expected = (await json(await asAda(`/ogc/collections/${grid.id}/items?limit=1&bbox=${spat.join(',')}`)))
        .numberMatched;
      expect(expected).toBeLessThan(total);
      requests.length = 0;
      const spatial = await tool('ogrinfo', ['-ro', '-so', '-spat', ...spat.map(String), oapif, grid.id]);
      expect(count(spatial)).toBe(expected);
      expect(
        requests.some((u) => new URL(u).searchParams.has('bbox')),
        'bbox sent to the server',
      ).toBe(true);
      const all = await json(await asAda(`/ogc/collections/${grid.id}/items?limit=10000`));
      const elevations = all.features
        .map((f: Json) => f.properties.elevation as number)
        .sort((a: number, b: number) => a - b);
      const mid = elevations[Math.floor(elevations.length / 2)];
      requests.length = 0;
      const where = await tool('ogrinfo', ['-ro', '-so', '-where', `elevation > ${mid}`, oapif, grid.id]);
      expect(count(where)).toBe(elevations.filter((v: number) => v > mid).length);
      // Evaluated by the server: GDAL found the queryables and sent the filter as CQL text.
      const sent = requests.map((u) => new URL(u).searchParams.get('filter')).find(Boolean);
      expect(sent).toBe(`elevation > ${mid}`);
      const dir = await mkdtemp(path.join(tmpdir(), 'nuage-oapif-'));
      try {
        const gpkg = path.join(dir, 'out.gpkg');
        requests.length = 0;
        await tool('ogr2ogr', ['-f', 'GPKG', '-oo', 'PAGE_SIZE=1000', gpkg, oapif, grid.id]);
        expect(requests.filter((u) => u.includes('/items?')).length).toBeLessThanOrEqual(Math.ceil(total / 1000) + 2);
        const copied = await tool('ogrinfo', ['-ro', '-so', gpkg, grid.id]);
        expect(count(copied)).toBe(total);
        expect(copied).toContain('elevation');
        expect((await readFile(gpkg)).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    180_000,
  );

  it('serves vector tiles (TileJSON, MVT with properties, ETag, cache) that a new run invalidates', async () => {
    const tj = await json(await asAda(`/ogc/collections/${grid.id}/tiles/WebMercatorQuad`));
    expect(tj.tilejson).toBe('3.0.0');
    expect(tj.vector_layers[0]).toMatchObject({ id: 'grid', fields: { elevation: 'Number' } });
    expect(tj.tiles[0]).toMatch(/\/tiles\/WebMercatorQuad\/\{z\}\/\{y\}\/\{x\}\?v=m\d+$/);
    expect(tj.tileMatrixSetURI).toBe('http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad');
    const sets = await json(await asAda(`/ogc/collections/${grid.id}/tiles`));
    expect(sets.tilesets[0].links.find((l: Json) => l.rel === 'item').href).toContain(
      '{tileMatrix}/{tileRow}/{tileCol}',
    );

    const [w, s, e, n] = grid.extent.spatial.bbox[0];
    const z = 16;
    const { x, y } = tileOf((w + e) / 2, (s + n) / 2, z);
    const url = tj.tiles[0].replace('{z}', z).replace('{x}', x).replace('{y}', y);
    const res = await asAda(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    expect(res.headers.get('cache-control')).toBe('private, max-age=86400, immutable');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const layers = decodeMvt(bytes);
    expect(layers.map((l) => l.name)).toEqual(['grid']);
    const features = layers[0]!.features;
    expect(features.length).toBeGreaterThan(0);
    expect(features.every((f) => f.type === 1 && typeof f.properties.elevation === 'number')).toBe(true);
    // The same points as the items inside the tile and its 64/4096 buffer.
    const [tw, ts, te, tn] = tileBounds(z, x, y);
    const mx = ((te - tw) * 64) / 4096;
    const my = ((tn - ts) * 64) / 4096;
    const items = await json(
      await asAda(
        `/ogc/collections/${grid.id}/items?bbox=${[tw - mx, ts - my, te + mx, tn + my].join(',')}&limit=10000`,
      ),
    );
    expect(features.map((f) => f.id).sort()).toEqual(items.features.map((f: Json) => f.id).sort());
    const byId = new Map(items.features.map((f: Json) => [f.id, f.properties]));
    for (const f of features) expect(f.properties.elevation).toBeCloseTo((byId.get(f.id) as Json).elevation, 6);

    // Held in the tiles store's memory under the asset's run, never written to the store; revalidation answers 304.
    const col = await t.tdb.db
      .selectFrom('assets')
      .select(['project_id'])
      .where('id', '=', grid.id)
      .executeTakeFirstOrThrow();
    const run = new URL(url).searchParams.get('v');
    const key = `projects/${col.project_id}/assets/${grid.id}/${run}/WebMercatorQuad/${z}/${x}/${y}.mvt`;
    const held = t.deps.storage.tiles.recall(key);
    expect(held?.bytes.equals(bytes)).toBe(true);
    expect(held?.info.etag).toBe(etag);
    expect(await t.deps.storage.objects.head(key)).toBeNull();
    expect((await asAda(url, { 'if-none-match': etag })).status).toBe(304);
    const again = await asAda(url.replace(/\?v=.*/, ''));
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('private, max-age=60');

    // GDAL's MVT driver reads the tile too.
    if (hasGdal()) {
      const dir = await mkdtemp(path.join(tmpdir(), 'nuage-mvt-'));
      try {
        const file = path.join(dir, `${z}-${x}-${y}.mvt`);
        await writeFile(file, bytes);
        const out = await tool('ogrinfo', [
          '-ro',
          '-so',
          '-al',
          '-oo',
          `X=${x}`,
          '-oo',
          `Y=${y}`,
          '-oo',
          `Z=${z}`,
          file,
        ]);
        expect(out).toContain('Layer name: grid');
        expect(out).toContain(`Feature Count: ${features.length}`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }

    // The API's own encoder (PostGIS without protobuf: the embedded database) writes the same tiles.
    const polygons = byType.get('BUILDINGS') ?? byType.get('TREE_CROWNS');
    expect(polygons, 'a collection of polygons').toBeDefined();
    for (const c of [grid, major, polygons].filter(Boolean)) {
      const col = await collectionFor(t.deps, { kind: 'user', id: ada.id, admin: false }, c.id);
      // The tile holding the collection's first feature (its first vertex).
      const f0 = (await json(await asAda(`/ogc/collections/${c.id}/items?limit=1`))).features[0];
      const [lon0, lat0] = [f0.geometry.coordinates].flat(3) as number[];
      const at = { z: 15, ...tileOf(lon0!, lat0!, 15) };
      const [pg] = decodeMvt(await makeVectorTile(t.deps, col, at, 'postgis'));
      const [js] = decodeMvt(await makeVectorTile(t.deps, col, at, 'js'));
      expect(js?.name, c.id).toBe(pg?.name);
      const sorted = (l: typeof pg) => [...(l?.features ?? [])].sort((a, b) => a.id! - b.id!);
      const [a, b] = [sorted(pg), sorted(js)];
      expect(a.length, c.description).toBeGreaterThan(0);
      expect(
        b.map((f) => [f.id, f.type]),
        c.description,
      ).toEqual(a.map((f) => [f.id, f.type]));
      for (let i = 0; i < a.length; i++) {
        expect(b[i]!.properties, c.description).toEqual(a[i]!.properties);
        if (a[i]!.type === 1) expect(b[i]!.geometry, c.description).toEqual(a[i]!.geometry);
        else {
          // Every vertex PostGIS wrote is one of ours, within rounding (it may drop collinear ones or start rings elsewhere).
          const ours = b[i]!.geometry.flat();
          for (const [x, y] of a[i]!.geometry.flat()) {
            const near = ours.some(([u, v]) => Math.abs(u - x) <= 1 && Math.abs(v - y) <= 1);
            expect(near, `${c.description}: vertex ${x},${y} of feature ${a[i]!.id}`).toBe(true);
          }
        }
      }
    }

    // Empty, outside and malformed tiles.
    expect((await asAda(`/ogc/collections/${grid.id}/tiles/WebMercatorQuad/${z}/0/0`)).status).toBe(204);
    expect((await asAda(`/ogc/collections/${grid.id}/tiles/WebMercatorQuad/2/9/0`)).status).toBe(404);
    const bad = await asAda(`/ogc/collections/${grid.id}/tiles/WebMercatorQuad/x/0/0`);
    expect(bad.status).toBe(400);
    expect((await json(bad)).parameter).toBe('tileMatrix');
    expect((await asAda(`/ogc/collections/${grid.id}/tiles/WorldCRS84Quad/0/0/0`)).status).toBe(404);
    expect((await get(url)).status).toBe(401);

    // A new processing run replaces the features (same transaction as its files): new key, new tile, old run gone.
    const before = await t.tdb.db
      .selectFrom('asset_files')
      .select(['id', 'key'])
      .where('asset_id', '=', grid.id)
      .execute();
    await t.tdb.db.transaction().execute(async (trx) => {
      for (const f of before) {
        await trx
          .updateTable('asset_files')
          .set({ key: f.key.replace(/\/r\d+\//, '/r987654/') })
          .where('id', '=', f.id)
          .execute();
      }
      const keep = features.slice(0, 1).map((f) => String(f.id));
      await trx.deleteFrom('features').where('asset_id', '=', grid.id).where('id', 'not in', keep).execute();
      await trx.updateTable('assets').set({ updated_at: new Date() }).where('id', '=', grid.id).execute();
    });
    const tj2 = await json(await asAda(`/ogc/collections/${grid.id}/tiles/WebMercatorQuad`));
    expect(tj2.tiles[0]).toContain('?v=m987654');
    const fresh = await asAda(tj2.tiles[0].replace('{z}', z).replace('{x}', x).replace('{y}', y));
    expect(fresh.headers.get('etag')).not.toBe(etag);
    expect(decodeMvt(new Uint8Array(await fresh.arrayBuffer()))[0]!.features).toHaveLength(1);
    expect((await json(await asAda(`/ogc/collections/${grid.id}`))).description).toContain('(1 features)');
  });
});
