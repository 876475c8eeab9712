import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readZip } from '@nuage/engine/writers/zip.reader.js';
import { sql } from 'kysely';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerHandle } from '../src/worker/runner.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, getProject, type TestUser, testUser, testWorker, uploadRealFile, waitFor } from './projects.js';

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
const AREA = { type: 'Polygon', coordinates: [toLonLat(OUTER), toLonLat(HOLE)] };

function pnpoly(ring: number[][], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi! > y !== yj! > y && x < ((xj! - xi!) * (y - yi!)) / (yj! - yi!) + xi!) c = !c;
  }
  return c;
}

/** Distance (m) from (x, y) to the nearest edge of the rings. */
function edgeDistance(rings: number[][][], x: number, y: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (const ring of rings) {
    for (let i = 0; i + 1 < ring.length; i++) {
      const [ax, ay] = ring[i]!;
      const [bx, by] = ring[i + 1]!;
      const dx = bx! - ax!;
      const dy = by! - ay!;
      const t = Math.max(0, Math.min(1, ((x - ax!) * dx + (y - ay!) * dy) / (dx * dx + dy * dy)));
      best = Math.min(best, Math.hypot(x - (ax! + t * dx), y - (ay! + t * dy)));
    }
  }
  return best;
}

const PRODUCTS = ['classify', 'grid', 'contours', 'buildings', 'tree-tops'];

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
const assetsOf = (p: any): any[] => p.layers.flatMap((l: { assets: unknown[] }) => l.assets);

describe('clip and download: the area’s vector products in one zip (real PostGIS, real worker, processed fusa.laz)', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let ada: TestUser;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
  let project: any;
  let scratch: string;

  beforeAll(async () => {
    t = await createTestApp();
    ada = await testUser(t, 'ada@example.com');
    worker = await testWorker(t);
    scratch = await mkdtemp(path.join(tmpdir(), 'nuage-clip-vectors-test-'));
    const up = await uploadRealFile(t, ada, 'Fusa vectors', 'fusa.laz');
    const res = await t.app.request(
      '/api/assets/start-tiling',
      as(ada, 'POST', { assetId: up.assetId, processingOptions: { products: PRODUCTS, gridResolutionCm: 1000 } }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    project = await waitFor(
      async () => {
        const p = await getProject(t, ada, up.project.id);
        const job = p.jobs.processing;
        if (job?.state === 'FAILURE') throw new Error(`processing failed: ${job.errorMessage}`);
        return job?.state === 'SUCCESS' ? p : null;
      },
      400_000,
      'processing SUCCESS',
    );
  }, 500_000);

  afterAll(async () => {
    await worker?.stop();
    await t?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const body = (format: unknown) => ({
    source: 'original',
    kind: 'polygon',
    area: AREA,
    format: 'las',
    vectors: { format },
  });

  async function runClip(b: unknown) {
    const res = await t.app.request(`/api/projects/${project.id}/clip`, as(ada, 'POST', b));
    expect(res.status, await res.clone().text()).toBe(202);
    const started = await json(res);
    return waitFor(
      async () => {
        const r = await t.app.request(`/api/projects/${project.id}/clip/${started.id}`, as(ada, 'GET'));
        expect(r.status).toBe(200);
        const s = await json(r);
        return s.state === 'SUCCESS' || s.state === 'FAILURE' ? s : null;
      },
      180_000,
      'clip done',
    );
  }

  async function downloadZip(url: string, name: string) {
    const res = await t.app.request(local(url));
    expect(res.status).toBe(200);
    const file = path.join(scratch, name);
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    return readZip(file);
  }

  /** Independent count of each READY asset's features intersecting the area, by asset type. */
  async function expectedCounts(): Promise<Record<string, number>> {
    const r = await sql<{ type: string; n: number }>`
      SELECT a.type, count(*)::int AS n
      FROM features f JOIN assets a ON a.id = f.asset_id
      WHERE a.project_id = ${project.id} AND a.status = 'READY'
        AND ST_Intersects(f.geom, ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(AREA)}), 4326))
      GROUP BY a.type`.execute(t.tdb.db);
    return Object.fromEntries(r.rows.map((row) => [row.type, row.n]));
  }

  it('refuses an unknown vector format with 400 naming the field', async () => {
    const res = await t.app.request(`/api/projects/${project.id}/clip`, as(ada, 'POST', body('kml')));
    expect(res.status).toBe(400);
    const err = (await json(res)).error;
    expect(err.code).toBe('FORM_INVALID');
    expect(err.details.fields[0].field).toMatch(/^vectors/);
  });

  it('zips, per READY vector asset, exactly the features intersecting the polygon, cut to it, with Z (GeoJSON)', async () => {
    const types = assetsOf(project).map((a) => a.type);
    expect(types).toEqual(expect.arrayContaining(['TREE_TOPS', 'CONTOUR_LINE', 'GRID']));
    const expected = await expectedCounts();
    expect(Object.keys(expected)).toEqual(expect.arrayContaining(['TREE_TOPS', 'CONTOUR_LINE', 'GRID']));
    console.log('features intersecting the polygon, by asset type:', JSON.stringify(expected));
    const done = await runClip(body('geojson'));
    expect(done.state, JSON.stringify(done)).toBe('SUCCESS');
    expect(done.url).toMatch(/^https?:\/\//);
    expect(done.vectors.format).toBe('geojson');
    expect(done.vectors.url).toMatch(/^https?:\/\//);
    expect(done.vectors.fileName).toMatch(/-clip-vectors\.zip$/);
    const zip = await downloadZip(done.vectors.url, 'geojson.zip');
    expect([...zip.values()].every((m) => m.crcOk)).toBe(true);
    const readme = zip.get('README.txt')!.data.toString('utf8');

    const counted = Object.fromEntries(
      done.vectors.files.map((f: { assetType: string; features: number }) => [f.assetType, f.features]),
    );
    expect(counted).toEqual(expected);
    const names = [...zip.keys()].sort();
    expect(names).toEqual(
      [...Object.keys(expected).map((type) => `${type.toLowerCase()}.geojson`), 'README.txt'].sort(),
    );

    const rings = [OUTER, HOLE];
    const toUtm = proj4('EPSG:4326', UTM);
    for (const f of done.vectors.files) {
      expect(readme).toContain(`${f.assetType}\t${f.features}\t${f.parts}`);
      const doc = JSON.parse(zip.get(`${f.assetType.toLowerCase()}.geojson`)!.data.toString('utf8'));
      expect(doc.features.length).toBe(f.parts);
      expect(f.parts).toBeGreaterThanOrEqual(f.features);
      let worst = 0;
      const visit = (c: unknown): void => {
        if (typeof (c as number[])[0] !== 'number') {
          for (const inner of c as unknown[]) visit(inner);
          return;
        }
        const [x, y] = toUtm.forward((c as number[]).slice(0, 2)) as [number, number];
        const inside = rings.reduce((s, ring) => (pnpoly(ring, x, y) ? !s : s), false);
        if (!inside) worst = Math.max(worst, edgeDistance(rings, x, y));
      };
      for (const feature of doc.features) visit(feature.geometry.coordinates);
      expect(worst, `${f.assetType}: a vertex outside the area`).toBeLessThanOrEqual(0.01);
    }

    // Tree tops are points: the very features inside, with their Z and attributes.
    const tops = JSON.parse(zip.get('tree_tops.geojson')!.data.toString('utf8'));
    const stored = await sql<{ z: number; tree_id: number }>`
      SELECT ST_Z(f.geom) AS z, (f.properties->>'treeId')::int AS tree_id
      FROM features f JOIN assets a ON a.id = f.asset_id
      WHERE a.project_id = ${project.id} AND a.type = 'TREE_TOPS'
        AND ST_Intersects(f.geom, ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(AREA)}), 4326))`.execute(t.tdb.db);
    expect(stored.rows.length).toBeGreaterThan(0);
    const zOf = new Map(stored.rows.map((r) => [r.tree_id, r.z]));
    expect(tops.features.length).toBe(stored.rows.length);
    for (const top of tops.features) {
      expect(top.geometry.coordinates).toHaveLength(3);
      expect(top.geometry.coordinates[2]).toBeCloseTo(zOf.get(top.properties.treeId)!, 3);
    }
  }, 300_000);

  it('writes a Shapefile set per asset, with its .prj, in the project CRS', async () => {
    const expected = await expectedCounts();
    const done = await runClip(body('shapefile'));
    expect(done.state, JSON.stringify(done)).toBe('SUCCESS');
    const zip = await downloadZip(done.vectors.url, 'shapefile.zip');
    for (const type of Object.keys(expected)) {
      const base = type.toLowerCase();
      const file = done.vectors.files.find((f: { assetType: string }) => f.assetType === type);
      expect(file.features).toBe(expected[type]);
      for (const ext of ['shp', 'shx', 'dbf', 'prj', 'cpg']) {
        expect(file.files.some((n: string) => n.startsWith(base) && n.endsWith(`.${ext}`))).toBe(true);
      }
      const prj = file.files.find((n: string) => n.endsWith('.prj'));
      expect(zip.get(prj)!.data.toString('utf8')).toMatch(/UTM zone 54S/);
    }
    // Tree-top points in the project CRS, inside the polygon.
    const shp = zip.get('tree_tops.shp')!.data;
    const count = (shp.length - 100) / (8 + 36); // PointZ records: header 8 + 36 bytes (type, x, y, z, m)
    expect(count).toBe(expected.TREE_TOPS);
    const rings = [OUTER, HOLE];
    for (let at = 100; at < shp.length; at += 44) {
      const x = shp.readDoubleLE(at + 12);
      const y = shp.readDoubleLE(at + 20);
      expect(rings.reduce((s, ring) => (pnpoly(ring, x, y) ? !s : s), false)).toBe(true);
    }
  }, 300_000);

  it('cuts to a box built in the project CRS (DXF with its .prj), counts checked against PostGIS in UTM', async () => {
    const xs = OUTER.map((p) => p[0]);
    const ys = OUTER.map((p) => p[1]);
    const [minX, minY, maxX, maxY] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    const r = await sql<{ type: string; n: number }>`
      SELECT a.type, count(*)::int AS n
      FROM features f JOIN assets a ON a.id = f.asset_id
      WHERE a.project_id = ${project.id} AND a.status = 'READY'
        AND ST_Intersects(ST_Transform(f.geom, 32754), ST_MakeEnvelope(${minX}, ${minY}, ${maxX}, ${maxY}, 32754))
      GROUP BY a.type`.execute(t.tdb.db);
    const expected = Object.fromEntries(r.rows.map((row) => [row.type, row.n]));
    expect(expected.TREE_TOPS).toBeGreaterThan(0);
    const done = await runClip({ ...body('dxf'), kind: 'box' });
    expect(done.state, JSON.stringify(done)).toBe('SUCCESS');
    const counted = Object.fromEntries(
      done.vectors.files.map((f: { assetType: string; features: number }) => [f.assetType, f.features]),
    );
    expect(counted).toEqual(expected);
    const zip = await downloadZip(done.vectors.url, 'dxf.zip');
    for (const type of Object.keys(expected)) {
      const base = type.toLowerCase();
      const dxf = zip.get(`${base}.dxf`)!.data.toString('latin1');
      expect(dxf).toMatch(/ENTITIES/);
      expect(zip.get(`${base}.prj`)!.data.toString('utf8')).toMatch(/UTM zone 54S/);
      // Every vertex (group codes 10/20; label texts, placed beside their feature, left out) lies in the box, within 1 cm.
      const lines = dxf.split(/\r?\n/).map((l) => l.trim());
      let inEntities = false;
      let entity = '';
      let vertices = 0;
      for (let i = 0; i + 3 < lines.length; i += 2) {
        if (lines[i] === '2' && lines[i + 1] === 'ENTITIES') inEntities = true;
        if (lines[i] === '0' && lines[i + 1] === 'ENDSEC') inEntities = false;
        if (lines[i] === '0') entity = lines[i + 1]!;
        if (inEntities && entity !== 'TEXT' && lines[i] === '10' && lines[i + 2] === '20') {
          vertices++;
          const x = Number(lines[i + 1]);
          const y = Number(lines[i + 3]);
          expect(x).toBeGreaterThanOrEqual(minX - 0.01);
          expect(x).toBeLessThanOrEqual(maxX + 0.01);
          expect(y).toBeGreaterThanOrEqual(minY - 0.01);
          expect(y).toBeLessThanOrEqual(maxY + 0.01);
        }
      }
      expect(vertices, type).toBeGreaterThanOrEqual(expected[type]!);
    }
  }, 300_000);

  it('cuts to a corridor (a line buffered by half its width), counts checked against ST_DWithin in UTM', async () => {
    const line: Array<[number, number]> = [
      [277810.5, 6122310.5],
      [277900.25, 6122400.75],
      [277950.5, 6122330.25],
    ];
    const width = 20;
    const r = await sql<{ type: string; n: number }>`
      SELECT a.type, count(*)::int AS n
      FROM features f JOIN assets a ON a.id = f.asset_id
      WHERE a.project_id = ${project.id} AND a.status = 'READY'
        AND ST_DWithin(ST_Transform(f.geom, 32754),
                       ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify({ type: 'LineString', coordinates: line })}), 32754),
                       ${width / 2})
      GROUP BY a.type`.execute(t.tdb.db);
    const expected = Object.fromEntries(r.rows.map((row) => [row.type, row.n]));
    expect(expected.TREE_TOPS).toBeGreaterThan(0);
    const done = await runClip({
      source: 'original',
      kind: 'corridor',
      width,
      area: { type: 'LineString', coordinates: toLonLat(line) },
      format: 'las',
      vectors: { format: 'geojson' },
    });
    expect(done.state, JSON.stringify(done)).toBe('SUCCESS');
    const counted = Object.fromEntries(
      done.vectors.files.map((f: { assetType: string; features: number }) => [f.assetType, f.features]),
    );
    expect(counted).toEqual(expected);
    // Every vertex written lies within width/2 of the line (1 cm).
    const zip = await downloadZip(done.vectors.url, 'corridor.zip');
    const toUtm = proj4('EPSG:4326', UTM);
    for (const type of Object.keys(expected)) {
      const doc = JSON.parse(zip.get(`${type.toLowerCase()}.geojson`)!.data.toString('utf8'));
      let worst = 0;
      const visit = (c: unknown): void => {
        if (typeof (c as number[])[0] !== 'number') {
          for (const inner of c as unknown[]) visit(inner);
          return;
        }
        const [x, y] = toUtm.forward((c as number[]).slice(0, 2)) as [number, number];
        worst = Math.max(worst, edgeDistance([line], x, y) - width / 2);
      };
      for (const feature of doc.features) visit(feature.geometry.coordinates);
      expect(worst, type).toBeLessThanOrEqual(0.01);
    }
  }, 300_000);
});
