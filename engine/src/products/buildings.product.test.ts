import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import type { ProductContext } from '../core/product.js';
import { crsFromEpsg } from '../crs/index.js';
import { classifyCloud } from '../filters/classify.filter.js';
import { gatherCloud } from '../filters/cloud.js';
import type { Raster } from '../raster/raster.js';
import { openPointCloud } from '../readers/index.js';
import type { Feature } from '../writers/geojson.writer.js';
import { footprintAgreement } from './buildings.metrics.js';
import { ringAngles } from './buildings.outline.js';
import {
  type Building,
  buildingClasses,
  buildingFeatures,
  buildingsProduct,
  extractBuildings,
  MIN_VENDOR_BUILDING_POINTS,
} from './buildings.product.js';
import { buildDtm } from './dtm.product.js';
import { DEFAULT_PROCESSING_OPTIONS } from './options.js';
import { INLINE_DECODE, rasterCrsOf, terrainUnits } from './product-values.js';
import { PRODUCTS } from './registry.js';
import { runProducts } from './run-products.js';
import { gdal, hasGdal } from './test-gdal.js';

type Pt = [number, number];

/** A synthetic building: footprint (outer ring, holes) and roof height above ground (m). */
interface Part {
  outer: Pt[];
  holes?: Pt[][];
  roof: (x: number, y: number) => number;
}

function insideRing(ring: Pt[], x: number, y: number): boolean {
  let odd = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
  }
  return odd;
}

const GROUND_Z = 100;

/**
 * Ground (class 2, z = 100) on a jittered grid over the extent, building
 * points (class 6) on roofs, `spacing` metres apart (16 points/m² at 0.25 m).
 */
function scene(parts: Part[], extent: [number, number, number, number], spacing = 0.25): PointChunk {
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const cls: number[] = [];
  const [x0, y0, x1, y1] = extent;
  for (let y = y0; y < y1; y += spacing) {
    for (let x = x0; x < x1; x += spacing) {
      const px = x + rand() * spacing;
      const py = y + rand() * spacing;
      const part = parts.find(
        (p) => insideRing(p.outer, px, py) && !(p.holes ?? []).some((h) => insideRing(h, px, py)),
      );
      xs.push(px);
      ys.push(py);
      zs.push(GROUND_Z + (part ? part.roof(px, py) : 0) + (rand() - 0.5) * 0.04);
      cls.push(part ? 6 : 2);
    }
  }
  return {
    count: xs.length,
    x: Float64Array.from(xs),
    y: Float64Array.from(ys),
    z: Float64Array.from(zs),
    classification: Uint8Array.from(cls),
  };
}

const METRES = { unitToMetre: 1, verticalUnitToMetre: 1 };

async function dtmOf(cloud: PointChunk): Promise<Raster> {
  return buildDtm({ chunks: [cloud], crs: null }, { resolutionCm: 50, workers: 0 });
}

const box = (x0: number, y0: number, x1: number, y1: number): Pt[] => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
];

function rotate(ring: Pt[], deg: number, cx = 0, cy = 0): Pt[] {
  const a = (deg * Math.PI) / 180;
  return ring.map(([x, y]) => [
    cx + (x - cx) * Math.cos(a) - (y - cy) * Math.sin(a),
    cy + (x - cx) * Math.sin(a) + (y - cy) * Math.cos(a),
  ]);
}

const flatRing = (ring: number[][]) => Float64Array.from(ring.slice(0, -1).flat());
/** Largest deviation of a ring's interior angles from 90° or 270°. */
const rightAngleDeviation = (ring: number[][]) =>
  Math.max(...ringAngles(flatRing(ring)).map((a) => Math.min(Math.abs(a - 90), Math.abs(a - 270))));

describe('building footprints on synthetic roofs', () => {
  it('splits two adjacent boxes at a roof-height step, and keeps them whole without one', async () => {
    const extent: [number, number, number, number] = [-10, -10, 30, 20];
    const stepped = scene(
      [
        { outer: box(0, 0, 10, 10), roof: () => 6 },
        { outer: box(10, 0, 20, 10), roof: () => 10 },
      ],
      extent,
    );
    const dtm = await dtmOf(stepped);
    const { buildings } = extractBuildings(stepped, stepped.classification!, dtm, METRES);
    expect(buildings).toHaveLength(2);
    const [low, high] = buildings as [Building, Building];
    expect(low.buildingId).toBe(1);
    expect(high.buildingId).toBe(2);
    expect(low.centroid[0]).toBeLessThan(high.centroid[0]);
    for (const b of buildings) {
      expect(b.area).toBeGreaterThan(92);
      expect(b.area).toBeLessThan(108);
      expect(b.groundZ).toBeCloseTo(GROUND_Z, 1);
      expect(b.roofType).toBe('flat');
      expect(b.pointCount).toBeGreaterThan(1400);
      expect(b.rings).toHaveLength(1);
    }
    expect(low.eaveHeight).toBeCloseTo(6, 0);
    expect(low.ridgeHeight).toBeCloseTo(6, 0);
    expect(high.eaveHeight).toBeCloseTo(10, 0);
    expect(high.ridgeHeight).toBeCloseTo(10, 0);

    // The same boxes at one height are one building; two metres apart, two again.
    const level = scene(
      [
        { outer: box(0, 0, 10, 10), roof: () => 6 },
        { outer: box(10, 0, 20, 10), roof: () => 6.3 },
      ],
      extent,
    );
    const one = extractBuildings(level, level.classification!, dtm, METRES).buildings;
    expect(one).toHaveLength(1);
    expect(one[0]!.area).toBeGreaterThan(190);
    const apart = scene(
      [
        { outer: box(0, 0, 9, 10), roof: () => 6 },
        { outer: box(11, 0, 20, 10), roof: () => 6 },
      ],
      extent,
    );
    expect(extractBuildings(apart, apart.classification!, dtm, METRES).buildings).toHaveLength(2);
  });

  it('tells a gable roof from a flat one and reads eave and ridge heights above the DTM', async () => {
    // Ridge along x at y = 5: 5 m at the eaves, 8 m at the ridge (31° pitch).
    const cloud = scene(
      [
        { outer: box(0, 0, 12, 10), roof: (_x, y) => 5 + 3 * (1 - Math.abs(y - 5) / 5) },
        { outer: box(20, 0, 30, 10), roof: () => 4 },
      ],
      [-8, -8, 38, 18],
    );
    const { buildings } = extractBuildings(cloud, cloud.classification!, await dtmOf(cloud), METRES);
    expect(buildings.map((b) => b.roofType)).toEqual(['pitched', 'flat']);
    const gable = buildings[0]!;
    expect(gable.eaveHeight!).toBeGreaterThan(5);
    expect(gable.eaveHeight!).toBeLessThan(5.8);
    expect(gable.ridgeHeight!).toBeGreaterThan(7.4);
    expect(gable.ridgeHeight!).toBeLessThan(8.1);
  });

  it('URBAN gives an L-shape right angles on its own axes; RURAL stays freer', async () => {
    // An L of 20 × 8 and 8 × 20 m (256 m²) turned by 30°.
    const L: Pt[] = rotate(
      [
        [0, 0],
        [20, 0],
        [20, 8],
        [8, 8],
        [8, 20],
        [0, 20],
      ],
      30,
      10,
      10,
    );
    const cloud = scene([{ outer: L, roof: () => 7 }], [-10, -10, 30, 30]);
    const dtm = await dtmOf(cloud);
    const urban = extractBuildings(cloud, cloud.classification!, dtm, METRES, { simplification: 'URBAN' }).buildings;
    const rural = extractBuildings(cloud, cloud.classification!, dtm, METRES, { simplification: 'RURAL' }).buildings;
    expect(urban).toHaveLength(1);
    expect(rural).toHaveLength(1);
    const u = urban[0]!.rings[0]!;
    const r = rural[0]!.rings[0]!;
    expect(u).toHaveLength(7); // 6 corners, closed
    expect(rightAngleDeviation(u)).toBeLessThan(1);
    // Edges along the building's own axes (30° and 120°).
    for (let i = 0; i + 1 < u.length; i++) {
      const a = (Math.atan2(u[i + 1]![1]! - u[i]![1]!, u[i + 1]![0]! - u[i]![0]!) * 180) / Math.PI;
      const rel = (((a - 30) % 90) + 90) % 90;
      expect(Math.min(rel, 90 - rel)).toBeLessThan(1);
    }
    // Footprints follow the occupancy of 0.5 m cells: up to a quarter of a cell outside oblique walls.
    for (const b of [urban[0]!, rural[0]!]) {
      expect(b.area).toBeGreaterThan(250);
      expect(b.area).toBeLessThan(256 + 80 * 0.25);
    }
    // RURAL: a larger tolerance, edges fitted in any direction, no right angles forced.
    expect(r.length).not.toBe(u.length);
    expect(rightAngleDeviation(r)).toBeGreaterThan(1);
  });

  it('RURAL draws an oblique wall through the staircase of its cells, not along their outer corners', async () => {
    // A 24 × 12 m box turned by 30°, 4 points/m² (about one point per 0.5 m cell: a ragged boundary).
    const rect: Pt[] = rotate(
      [
        [0, 0],
        [24, 0],
        [24, 12],
        [0, 12],
      ],
      30,
      10,
      10,
    );
    const cloud = scene([{ outer: rect, roof: () => 6 }], [-10, -10, 40, 40], 0.5);
    const [b] = extractBuildings(cloud, cloud.classification!, await dtmOf(cloud), METRES, {
      simplification: 'RURAL',
    }).buildings;
    const ring = b!.rings[0]!;
    // Mean distance, along the outline (every 0.1 m), to the true walls.
    const toWalls = (px: number, py: number) => {
      let best = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 4; i++) {
        const [ax, ay] = rect[i]!;
        const [bx, by] = rect[(i + 1) % 4]!;
        const dx = bx - ax;
        const dy = by - ay;
        const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
        best = Math.min(best, Math.hypot(ax + t * dx - px, ay + t * dy - py));
      }
      return best;
    };
    let sum = 0;
    let samples = 0;
    for (let i = 0; i + 1 < ring.length; i++) {
      const [ax, ay] = ring[i]! as Pt;
      const [bx, by] = ring[i + 1]! as Pt;
      const m = Math.max(1, Math.round(Math.hypot(bx - ax, by - ay) / 0.1));
      for (let s = 0; s < m; s++) {
        sum += toWalls(ax + ((s + 0.5) / m) * (bx - ax), ay + ((s + 0.5) / m) * (by - ay));
        samples++;
      }
    }
    // 0.04 m measured; 0.08 m with the Douglas–Peucker vertices alone.
    expect(sum / samples).toBeLessThan(0.06);
    expect(Math.abs(b!.area - 288)).toBeLessThan(0.02 * 288);
  });

  it('keeps a courtyard as a hole, fills gaps under the minimum hole area', async () => {
    const cloud = scene(
      [{ outer: box(0, 0, 30, 30), holes: [box(10, 10, 20, 20), box(3, 24, 4.5, 25.5)], roof: () => 9 }],
      [-10, -10, 40, 40],
    );
    const { buildings } = extractBuildings(cloud, cloud.classification!, await dtmOf(cloud), METRES, {
      simplification: 'URBAN',
    });
    expect(buildings).toHaveLength(1);
    const b = buildings[0]!;
    expect(b.rings).toHaveLength(2);
    expect(Math.abs(b.area - 800) / 800).toBeLessThan(0.04);
    // GeoJSON orientation: outer counterclockwise, hole clockwise.
    const signed = (ring: number[][]) => {
      let s = 0;
      for (let i = 0; i + 1 < ring.length; i++) s += ring[i]![0]! * ring[i + 1]![1]! - ring[i + 1]![0]! * ring[i]![1]!;
      return s / 2;
    };
    expect(signed(b.rings[0]!)).toBeGreaterThan(850);
    expect(signed(b.rings[1]!)).toBeLessThan(-90);
    expect(signed(b.rings[1]!)).toBeGreaterThan(-110);
    expect(rightAngleDeviation(b.rings[1]!)).toBeLessThan(1);
  });

  it('finds no building, and writes an empty layer, when there is none', async () => {
    const cloud = scene([], [0, 0, 20, 20]);
    const dtm = await dtmOf(cloud);
    expect(extractBuildings(cloud, cloud.classification!, dtm, METRES).buildings).toEqual([]);
    const crs = crsFromEpsg(2154);
    const workDir = mkdtempSync(path.join(tmpdir(), 'nuage-buildings-'));
    const values: Record<string, unknown> = {
      classify: { cloud, crs, units: METRES, vendor: new Uint8Array(cloud.count).fill(2) },
      dtm: { dtm, crs, units: METRES },
    };
    const ctx: ProductContext = {
      input: { path: 'none.laz', name: 'none.laz' },
      options: DEFAULT_PROCESSING_OPTIONS,
      need: <T>(id: string) => values[id] as T,
      use: () => undefined,
      language: 'en-US',
      artifacts: () => [],
      workDir,
      tmpDir: workDir,
      sourceName: 'none',
      tilerOptions: {},
      progress: () => {},
      log: () => {},
    };
    const result = await buildingsProduct.run(ctx);
    expect(result.files).toEqual([
      { path: path.join(workDir, 'buildings.geojson'), format: 'GeoJSON', extension: 'geojson', epsg: 4326, count: 0 },
    ]);
    expect(JSON.parse(readFileSync(result.files[0]!.path, 'utf8'))).toEqual({
      type: 'FeatureCollection',
      features: [],
    });
    expect([...result.features!()]).toEqual([]);
  });

  it('takes the input classes when they hold buildings, else the classification', () => {
    const cloud = scene([{ outer: box(0, 0, 5, 5), roof: () => 5 }], [-2, -2, 7, 7]);
    const crs = crsFromEpsg(2154);
    const ours = new Uint8Array(cloud.count).fill(1);
    const vendor = cloud.classification!;
    const value = { cloud: { ...cloud, classification: ours }, crs, units: METRES };
    expect(buildingClasses({ ...value, vendor }).source).toBe('vendor');
    expect(buildingClasses({ ...value, vendor: new Uint8Array(cloud.count) }).source).toBe('classified');
    expect(buildingClasses(value).classes).toBe(ours);
    const few = new Uint8Array(cloud.count);
    few.fill(6, 0, MIN_VENDOR_BUILDING_POINTS - 1);
    expect(buildingClasses({ ...value, vendor: few }).source).toBe('classified');
  });
});

/**
 * Footprints against the vendor's class 6 (one parameter set, the defaults):
 * the reference is the occupancy of the vendor building points at 0.5 m
 * closed by one cell. `vendor`: the run reads the input's class 6 (the
 * product's choice on these files; measures the outline step). `ours`: the
 * run reads our classification (measures classification and outline).
 * Figures measured 2026-11 (see the report of issue 16): IoU, count error,
 * outline error; floors below leave about 0.01–0.02 of margin. Measured
 * 2026-11-27 (RURAL edges refitted through the boundary), vendor / ours,
 * RURAL and URBAN IoU: AHN3 0.964 0.941 / 0.924 0.907; IGN (adapted) 0.912
 * 0.910 / 0.726 0.724; fusa 0.971 0.965 / 0.941 0.934; Williams 0.928
 * 0.923 / 0.850 0.843 (RURAL before: vendor 0.902 on Williams, 0.874 on IGN).
 * 2026-11-27, roof faces kept among more foliage pulses by `growRoofs`: IGN
 * ours 0.736 0.734 (the other files unchanged).
 * 2026-11-27, URBAN snapping within 15° of the axes and merging parallel
 * edges within 0.3 m (25° and 0.6 m before; RURAL unchanged), and
 * `growRoofs` continuing kept roof faces over points on their planes (IGN
 * ours only), URBAN vendor / ours: AHN3 0.949 / 0.916; IGN (adapted) 0.934
 * / 0.751 (ours RURAL 0.740); fusa 0.977 / 0.942; Williams 0.939 / 0.850.
 * Measured on our classes as they were before the wire changes of the same
 * day (which label some 3,000 IGN roof points as wire).
 *
 * The IGN file holds 0.2–0.5 points/m²: a 0.5 m cell holds a building point
 * about once in eight, so the one-cell closing leaves the vendor footprint a
 * speckle of single cells (IoU ~0.15, reference buildings a fifth of ours)
 * and the thresholds cannot be reached against it. Its figures are also
 * asserted against the vendor occupancy closed over the same 1.5 point
 * spacings (4 cells) the footprints use.
 */
interface Case {
  file: string;
  epsg?: number;
  vendor: { iou: number; countError: number; outline: number };
  ours: { iou: number; countError: number; outline: number };
  /** Against the vendor occupancy closed over the footprints' own closing (sparse clouds). */
  adapted?: { vendor: { iou: number; countError: number; outline: number }; ours: { iou: number; outline: number } };
}

const CASES: Case[] = [
  {
    file: 'ahn3_cropped_1.laz',
    epsg: 28992,
    vendor: { iou: 0.85, countError: 0.1, outline: 0.5 },
    ours: { iou: 0.89, countError: 0.1, outline: 0.45 },
  },
  {
    file: 'test_semis_2021_0382_6565_LA93_IGN69_cropped.laz',
    vendor: { iou: 0.13, countError: 4.2, outline: 0.5 },
    ours: { iou: 0.14, countError: 4.5, outline: 0.5 },
    adapted: { vendor: { iou: 0.85, countError: 0.1, outline: 0.5 }, ours: { iou: 0.72, outline: 0.6 } },
  },
  {
    file: 'fusa.laz',
    vendor: { iou: 0.85, countError: 0.1, outline: 0.5 },
    ours: { iou: 0.92, countError: 0.07, outline: 0.4 },
  },
  {
    file: 'building_WilliamsAZ_Urban_normalized.laz',
    vendor: { iou: 0.85, countError: 0.1, outline: 0.5 },
    ours: { iou: 0.83, countError: 0.05, outline: 0.42 },
  },
];

describe.runIf(hasRealData())('building footprints against vendor class 6 on real files', () => {
  for (const c of CASES) {
    it(`${c.file}: IoU, building count and outline error`, async () => {
      const reader = await openPointCloud(realFile(c.file), c.epsg ? { epsg: c.epsg } : {});
      const cloud = await gatherCloud(reader.read({ workers: INLINE_DECODE }));
      await reader.close();
      const units = terrainUnits(reader.crs);
      const vendor = cloud.classification!.slice();
      const { classification } = classifyCloud(cloud, units);
      const dtm = await buildDtm(
        { chunks: [{ ...cloud, classification }], crs: rasterCrsOf(reader.crs) },
        { resolutionCm: 50, unitToMetre: units.unitToMetre },
      );
      const value = { cloud: { ...cloud, classification }, crs: reader.crs!, units, vendor };
      expect(buildingClasses(value).source).toBe('vendor');
      const figures: Record<string, unknown> = {};
      for (const source of ['vendor', 'ours'] as const) {
        const classes = source === 'vendor' ? vendor : classification;
        for (const mode of ['RURAL', 'URBAN'] as const) {
          const res = extractBuildings(cloud, classes, dtm, units, { simplification: mode });
          const polygons = res.buildings.map((b) => b.rings);
          const q = footprintAgreement(cloud, vendor, polygons, units.unitToMetre);
          figures[`${source} ${mode}`] = {
            iou: q.iou.toFixed(3),
            count: `${q.footprintBuildings}/${q.referenceBuildings}`,
            outline: q.outlineErrorM.toFixed(2),
          };
          const want = c[source];
          expect(q.iou, `${source} ${mode} IoU`).toBeGreaterThanOrEqual(want.iou);
          expect(q.countError, `${source} ${mode} count error`).toBeLessThanOrEqual(want.countError);
          // Undefined (NaN) when no footprint lies half on the reference (the IGN speckle).
          if (Number.isFinite(q.outlineErrorM)) {
            expect(q.outlineErrorM, `${source} ${mode} outline`).toBeLessThanOrEqual(want.outline);
          }
          // Ids follow the centroids (x, then y); every attribute is set.
          res.buildings.forEach((b, i) => {
            expect(b.buildingId).toBe(i + 1);
            if (i > 0) expect(b.centroid[0]).toBeGreaterThanOrEqual(res.buildings[i - 1]!.centroid[0]);
            expect(b.groundZ).not.toBeNull();
            expect(b.ridgeHeight!).toBeGreaterThanOrEqual(b.eaveHeight!);
          });
          if (c.adapted) {
            const a = footprintAgreement(cloud, vendor, polygons, units.unitToMetre, res.closingCells);
            figures[`${source} ${mode} adapted`] = {
              iou: a.iou.toFixed(3),
              count: `${a.footprintBuildings}/${a.referenceBuildings}`,
              outline: a.outlineErrorM.toFixed(2),
            };
            if (source === 'vendor') {
              expect(a.iou).toBeGreaterThanOrEqual(c.adapted.vendor.iou);
              expect(a.countError).toBeLessThanOrEqual(c.adapted.vendor.countError);
              expect(a.outlineErrorM).toBeLessThanOrEqual(c.adapted.vendor.outline);
            } else {
              expect(a.iou).toBeGreaterThanOrEqual(c.adapted.ours.iou);
              expect(a.outlineErrorM).toBeLessThanOrEqual(c.adapted.ours.outline);
            }
          }
        }
      }
      console.log(c.file, JSON.stringify(figures));
    }, 300_000);
  }

  it('runs as a product of the registry on fusa.laz: GeoJSON in EPSG:4326 and PostGIS features', async () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'nuage-buildings-run-'));
    let features: Feature[] = [];
    const { manifest, runs } = await runProducts({
      input: { path: realFile('fusa.laz') },
      options: { ...DEFAULT_PROCESSING_OPTIONS, products: ['buildings'] },
      outDir,
      registry: [...PRODUCTS, buildingsProduct],
      hooks: {
        async finished(product, result) {
          if (product.id === 'buildings') features = [...result.features!()];
        },
      },
    });
    expect(runs.map((r) => [r.id, r.status])).toEqual([
      ['classify', 'READY'],
      ['dtm', 'READY'],
      ['buildings', 'READY'],
    ]);
    const artifact = manifest.artifacts.find((a) => a.type === 'BUILDINGS')!;
    expect(artifact).toMatchObject({ path: 'buildings/buildings.geojson', format: 'GeoJSON', epsg: 4326, count: 16 });
    expect(runs.at(-1)!.figures).toMatchObject({ buildings: 16, source: 'vendor' });
    const doc = JSON.parse(readFileSync(path.join(outDir, artifact.path), 'utf8'));
    expect(doc.features).toHaveLength(16);
    for (const f of doc.features) {
      expect(f.geometry.type).toBe('Polygon');
      const [lon, lat] = f.geometry.coordinates[0][0];
      // Fusa, UTM zone 54S (x 277 km: west of the 141° meridian), south Australia.
      expect(lon).toBeGreaterThan(138);
      expect(lon).toBeLessThan(139);
      expect(lat).toBeGreaterThan(-36);
      expect(lat).toBeLessThan(-34);
      expect(Object.keys(f.properties).sort()).toEqual(
        ['area', 'buildingId', 'eaveHeight', 'groundZ', 'pointCount', 'ridgeHeight', 'roofType'].sort(),
      );
    }
    expect(doc.features.map((f: { properties: { buildingId: number } }) => f.properties.buildingId)).toEqual(
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
    if (hasGdal()) {
      // GEOS (through OGR) finds every polygon valid.
      const out = gdal('ogrinfo', [
        '-q',
        '-dialect',
        'SQLite',
        '-sql',
        'SELECT SUM(ST_IsValid(geometry)) AS valid FROM buildings',
        path.join(outDir, artifact.path),
      ]);
      expect(out).toMatch(/valid \(Integer\) = 16/);
    }
    // PostGIS features: the same polygons in EPSG:4326.
    expect(features).toHaveLength(16);
    expect(features[0]!.properties).toEqual(doc.features[0].properties);
    const ring = (features[0]!.geometry.coordinates as number[][][])[0]!;
    expect(ring[0]![0]).toBeCloseTo(doc.features[0].geometry.coordinates[0][0][0], 6);
  }, 300_000);
});

describe('building features', () => {
  it('are GeoJSON Polygons with the attributes of the layer', () => {
    const b: Building = {
      buildingId: 1,
      rings: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
      area: 0.5,
      groundZ: 10,
      eaveHeight: 3,
      ridgeHeight: 6,
      pointCount: 12,
      roofType: 'pitched',
      centroid: [0.6, 0.3],
    };
    expect([...buildingFeatures([b])]).toEqual([
      {
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: b.rings },
        properties: {
          buildingId: 1,
          area: 0.5,
          groundZ: 10,
          eaveHeight: 3,
          ridgeHeight: 6,
          pointCount: 12,
          roofType: 'pitched',
        },
      },
    ]);
  });
});
