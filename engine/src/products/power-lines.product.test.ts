import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CorridorScene, corridorScene } from '@nuage/fixtures/synthetic/corridor-scene.js';
import { mulberry32 } from '@nuage/fixtures/synthetic/random.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import type { PointChunk } from '../core/chunk.js';
import { InvalidInput } from '../core/errors.js';
import { defineProduct } from '../core/product.js';
import { crsFromEpsg } from '../crs/index.js';
import { sampleBilinear } from '../raster/raster.js';
import { writeLas } from '../writers/las.writer.js';
import { classifiedCloudProduct } from './classified-cloud.product.js';
import { processingOptionsSchema } from './options.js';
import type { PowerLineBuffersValue } from './power-line-buffers.product.js';
import { inFootprint } from './power-lines.conductors.js';
import { isVegetation } from './power-lines.geometry.js';
import { type PowerLinesValue, powerLinesProduct } from './power-lines.product.js';
import type { ClassifiedCloud, DtmValue } from './product-values.js';
import { runProducts } from './run-products.js';
import type { TreeFallRiskValue } from './tree-fall-risk.product.js';
import type { VegetationRiskValue } from './vegetation-risk.product.js';

const CRS = crsFromEpsg(32631);
const POWER_PRODUCTS = ['power-lines', 'power-line-buffers', 'vegetation-risk', 'tree-fall-risk'];

/** Trees added under and beside the line (offset across from its centre line, metres). */
const EXTRA_TREES = [
  // Right under the outer phase at mid-span (24.7 m up): its top 1.7 m below the conductor, zone 1.
  { along: 75, offset: 6, h: 23 },
  // 3.5 m beside the other outer phase (23.9 m up), its top 2.4 m lower: 4.2 m away, zone 2.
  { along: 225, offset: -9.5, h: 21.5 },
  // 7 m beside it and lower: in no zone, but tall enough to fall on it.
  { along: 120, offset: 13, h: 17 },
];

interface Tree {
  x: number;
  y: number;
  height: number;
  radius: number;
  /** Horizontal distance to the nearest conductor. */
  distance: number;
}

/** The corridor scene with the extra trees, its truth classes as the input's classes (wires and towers kept). */
function corridorWithTrees(): { scene: CorridorScene; chunk: PointChunk; trees: Tree[] } {
  const scene = corridorScene();
  const rnd = mulberry32(5);
  const lineY = scene.towers[0]!.y;
  const ox = scene.towers[0]!.x;
  const extra = EXTRA_TREES.map((t) => ({
    x: ox + t.along,
    y: lineY + t.offset,
    height: t.h,
    radius: Math.max(2, t.h * 0.15),
    distance: Math.min(...[-6, 0, 6].map((p) => Math.abs(t.offset - p))),
  }));
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  for (const t of extra) {
    const n = Math.round(Math.PI * t.radius * t.radius * 6);
    for (let i = 0; i < n; i++) {
      const r = t.radius * Math.sqrt(rnd());
      const a = 2 * Math.PI * rnd();
      xs.push(t.x + r * Math.cos(a));
      ys.push(t.y + r * Math.sin(a));
      zs.push(scene.groundZ(t.x, t.y) + t.height * (1 - r / t.radius));
    }
    xs.push(t.x);
    ys.push(t.y);
    zs.push(scene.groundZ(t.x, t.y) + t.height);
  }
  const base = scene.chunk;
  const count = base.count + xs.length;
  const cat = (a: Float64Array, b: number[]) => {
    const out = new Float64Array(count);
    out.set(a.subarray(0, base.count));
    out.set(b, base.count);
    return out;
  };
  const classification = new Uint8Array(count).fill(5);
  classification.set(scene.truth);
  const chunk: PointChunk = {
    count,
    x: cat(base.x, xs),
    y: cat(base.y, ys),
    z: cat(base.z, zs),
    classification,
    returnNumber: new Uint8Array(count).fill(1),
  };
  return { scene, chunk, trees: [...scene.trees, ...extra] };
}

/** Largest distance between the chord of a truth conductor and its curve (dense sampling). */
function truthSag(c: CorridorScene['conductors'][number]): number {
  const L = c.to[0] - c.from[0];
  let sag = 0;
  for (let s = 0; s <= L; s += 0.01) sag = Math.max(sag, c.from[2] + ((c.to[2] - c.from[2]) * s) / L - c.zAt(s));
  return sag;
}

/** Squared 3D distance from a point to a segment. */
function segment2(p: number[], a: number[], b: number[]): number {
  const d = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
  const len2 = d[0]! ** 2 + d[1]! ** 2 + d[2]! ** 2;
  let t = len2 > 0 ? ((p[0]! - a[0]!) * d[0]! + (p[1]! - a[1]!) * d[1]! + (p[2]! - a[2]!) * d[2]!) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  return (a[0]! + t * d[0]! - p[0]!) ** 2 + (a[1]! + t * d[1]! - p[1]!) ** 2 + (a[2]! + t * d[2]! - p[2]!) ** 2;
}

describe('power-line products on the synthetic corridor (exact truth)', () => {
  let dir: string;
  let file: string;
  let scene: CorridorScene;
  let trees: Tree[];
  const values = new Map<string, unknown>();
  let runs: Awaited<ReturnType<typeof runProducts>>['runs'];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'nuage-corridor-'));
    file = path.join(dir, 'corridor.las');
    const made = corridorWithTrees();
    scene = made.scene;
    trees = made.trees;
    async function* one() {
      yield made.chunk;
    }
    await writeLas(file, one(), { crs: CRS });
    ({ runs } = await runProducts({
      input: { path: file },
      // A clearance of 18 m: the conductors hang 24–27 m up, so some vegetation within 9 m is lower.
      options: processingOptionsSchema.parse({ products: POWER_PRODUCTS, clearanceHeightCm: 1800 }),
      outDir: path.join(dir, 'out'),
      hooks: { finished: async (p, r) => void values.set(p.id, r.value) },
    }));
  }, 120_000);

  it('runs the four products', () => {
    expect(runs.map((r) => [r.id, r.status, r.error?.message])).toEqual(
      expect.arrayContaining(POWER_PRODUCTS.map((id) => [id, 'READY', undefined])),
    );
  });

  it('finds one conductor per phase per span, its catenary within 5 cm RMS and its sag within 10 cm of the truth', () => {
    const lines = values.get('power-lines') as PowerLinesValue;
    expect(lines.conductors).toHaveLength(6);
    expect(lines.spans).toBe(2);
    expect(
      lines.towers.map((t) => [Math.round(t.x - scene.towers[0]!.x) + 0, Math.round(t.y - scene.towers[0]!.y) + 0]),
    ).toEqual([
      [0, 0],
      [150, 0],
      [300, 0],
    ]);
    for (const t of lines.towers) {
      expect(t.inferred).toBe(false);
      expect(t.height).toBeGreaterThan(29);
      expect(t.height).toBeLessThan(30.5);
    }
    const dtm = (values.get('dtm') as DtmValue).dtm;
    for (const truth of scene.conductors) {
      const midX = (truth.from[0] + truth.to[0]) / 2;
      const midY = (truth.from[1] + truth.to[1]) / 2;
      const found = lines.conductors.filter((c) => {
        const m = c.coordinates[Math.floor(c.coordinates.length / 2)]!;
        return Math.hypot(m[0]! - midX, m[1]! - midY) < 2;
      });
      expect(found, `span ${truth.spanId} conductor ${truth.conductorId}`).toHaveLength(1);
      const c = found[0]!;
      expect([c.spanId, c.conductorId]).toEqual([truth.spanId, truth.conductorId]);
      expect(c.ends).toEqual(['tower', 'tower']);
      expect(c.fit.model).toBe('catenary');
      expect(c.fitRmse).toBeLessThan(0.05);
      expect(Math.abs(c.sag - truthSag(truth))).toBeLessThan(0.1);
      // The sampled catenary follows the truth from tower to tower.
      expect(c.coordinates[0]![0]).toBeCloseTo(truth.from[0], 0);
      expect(c.coordinates.at(-1)![0]).toBeCloseTo(truth.to[0], 0);
      let worst = 0;
      let lowest = Number.POSITIVE_INFINITY;
      for (const [x, y, z] of c.coordinates as Array<[number, number, number]>) {
        worst = Math.max(worst, Math.abs(z - truth.zAt(x - truth.from[0])));
        lowest = Math.min(lowest, truth.zAt(x - truth.from[0]) - scene.groundZ(x, y));
      }
      expect(worst).toBeLessThan(0.05);
      let arc = 0;
      for (let s = 0.01; s <= 150 + 1e-9; s += 0.01) arc += Math.hypot(0.01, truth.zAt(s) - truth.zAt(s - 0.01));
      // Ends at the towers' centres, which the returns give to a decimetre.
      expect(Math.abs(c.length - arc)).toBeLessThan(0.3);
      expect(Math.abs(c.minHeightAboveGround! - lowest)).toBeLessThan(0.15);
      // The DTM the heights came from is the value handed on.
      expect(sampleBilinear(dtm, midX, midY)).toBeCloseTo(scene.groundZ(midX, midY), 1);
    }
    expect(lines.figures).toMatchObject({ conductors: 6, spans: 2, towers: 3 });
    expect(lines.figures.totalLengthM).toBeGreaterThan(900);
  });

  it('counts the vegetation within each zone exactly as a brute force over the catenaries does', () => {
    const lines = values.get('power-lines') as PowerLinesValue;
    const { cloud } = values.get('classify') as ClassifiedCloud;
    const { dtm } = values.get('dtm') as DtmValue;
    const { zones } = values.get('power-line-buffers') as PowerLineBuffersValue;
    expect(zones.map((z) => [z.zone, z.radiusM])).toEqual([
      [1, 3],
      [2, 6],
      [3, 9],
    ]);
    const brute = [0, 0, 0];
    for (let i = 0; i < cloud.count; i++) {
      const g = sampleBilinear(dtm, cloud.x[i]!, cloud.y[i]!);
      const h = cloud.z[i]! - g;
      if (Number.isNaN(g) || !isVegetation(cloud.classification![i]!, h)) continue;
      const X = cloud.x[i]! - lines.frame.ox;
      const Y = cloud.y[i]! - lines.frame.oy;
      if (lines.towers.some((t) => inFootprint(t, lines.frame, X, Y))) continue;
      let best = Number.POSITIVE_INFINITY;
      for (const c of lines.conductors) {
        const v = c.coordinates;
        for (let k = 1; k < v.length; k++)
          best = Math.min(best, segment2([cloud.x[i]!, cloud.y[i]!, cloud.z[i]!], v[k - 1]!, v[k]!));
      }
      zones.forEach((z, k) => {
        if (Math.sqrt(best) <= z.radiusM) brute[k]!++;
      });
    }
    expect(zones.map((z) => z.pointCount)).toEqual(brute);
    expect(brute[0]).toBeGreaterThan(0);
    expect(brute[2]).toBeGreaterThan(brute[0]!);
    for (const z of zones) {
      expect(z.parts.reduce((s, p) => s + p.pointCount, 0)).toBe(z.pointCount);
      // One corridor: one part, of the area of the exact buffer of three 300 m lines 6 m apart.
      expect(z.parts).toHaveLength(1);
      const r = z.radiusM;
      let cap = 0;
      for (let y = -6 - r; y <= 6 + r; y += 0.001) {
        cap += 0.001 * Math.max(...[-6, 0, 6].map((c) => Math.sqrt(Math.max(0, r * r - (y - c) ** 2))));
      }
      const exact = 300 * (12 + 2 * r) + 2 * cap;
      expect(Math.abs(z.areaM2 - exact) / exact).toBeLessThan(0.01);
    }
  });

  it('clusters only vegetation at or above the clearance height, with the zone of its nearest return', () => {
    const { clusters } = values.get('vegetation-risk') as VegetationRiskValue;
    const { cloud } = values.get('classify') as ClassifiedCloud;
    const { dtm } = values.get('dtm') as DtmValue;
    const { zones } = values.get('power-line-buffers') as PowerLineBuffersValue;
    expect(clusters.length).toBeGreaterThanOrEqual(2);
    let total = 0;
    for (const c of clusters) {
      for (const i of c.points)
        expect(cloud.z[i]! - sampleBilinear(dtm, cloud.x[i]!, cloud.y[i]!)).toBeGreaterThanOrEqual(18);
      expect(c.maxHeight).toBeGreaterThanOrEqual(18);
      expect(c.severity).toBe(['high', 'medium', 'low'][c.zone - 1]);
      expect(c.minDistance).toBeLessThanOrEqual(zones[c.zone - 1]!.radiusM);
      if (c.zone > 1) expect(c.minDistance).toBeGreaterThan(zones[c.zone - 2]!.radiusM);
      expect(c.ring.length).toBeGreaterThanOrEqual(4);
      total += c.pointCount;
    }
    // The tree under the outer phase reaches zone 1; the one 3.5 m beside the line zone 2.
    expect(clusters[0]!.zone).toBe(1);
    expect(clusters.some((c) => c.zone === 2)).toBe(true);
    // Every return within 9 m and 18 m up is in a cluster (none hugs a conductor here).
    const lines = values.get('power-lines') as PowerLinesValue;
    let expected = 0;
    for (let i = 0; i < cloud.count; i++) {
      const h = cloud.z[i]! - sampleBilinear(dtm, cloud.x[i]!, cloud.y[i]!);
      if (!(h >= 18) || !isVegetation(cloud.classification![i]!, h)) continue;
      let best = Number.POSITIVE_INFINITY;
      for (const c of lines.conductors) {
        const v = c.coordinates;
        for (let k = 1; k < v.length; k++)
          best = Math.min(best, segment2([cloud.x[i]!, cloud.y[i]!, cloud.z[i]!], v[k - 1]!, v[k]!));
      }
      if (Math.sqrt(best) <= 9) expected++;
    }
    expect(total).toBe(expected);
  });

  it('flags every tree that can fall on a conductor with the 1 m buffer, and no other', () => {
    const { trees: flagged, figures } = values.get('tree-fall-risk') as TreeFallRiskValue;
    const buffer = 1;
    const conductors = scene.conductors;
    const expected = trees.filter((t) => t.height + buffer >= t.distance);
    // Reaching: some conductor point within height + buffer of the base, in 3D.
    const reaches = (t: Tree) => {
      const base = scene.groundZ(t.x, t.y);
      let best = Number.POSITIVE_INFINITY;
      for (const c of conductors) {
        for (let s = 0; s <= 150; s += 0.05) {
          best = Math.min(best, Math.hypot(c.from[0] + s - t.x, c.from[1] - t.y, c.zAt(s) - base));
        }
      }
      return best <= t.height + buffer;
    };
    // The scene keeps every tree well clear of the thresholds, so detection errors cannot flip them.
    for (const t of trees) expect(Math.abs(t.height + buffer - t.distance)).toBeGreaterThan(1);
    expect(expected.length).toBeGreaterThanOrEqual(5);
    expect(expected.length).toBeLessThan(trees.length);
    for (const f of flagged) {
      const t = trees.find((o) => Math.hypot(o.x - f.x, o.y - f.y) < 1);
      expect(t, `flagged top at ${f.x} ${f.y}`).toBeDefined();
      expect(expected).toContain(t);
      expect(f.height).toBeCloseTo(t!.height, 0);
      expect(Math.abs(f.distance - t!.distance)).toBeLessThan(0.2);
      expect(f.margin).toBeCloseTo(f.height + buffer - f.distance, 6);
      expect(f.reachesConductor).toBe(reaches(t!));
    }
    for (const t of expected)
      expect(
        flagged.some((f) => Math.hypot(t.x - f.x, t.y - f.y) < 1),
        `tree at ${t.x} ${t.y}`,
      ).toBe(true);
    expect(flagged.some((f) => f.reachesConductor)).toBe(true);
    expect(figures.treesAtRisk).toBe(expected.length);
  });

  it('makes the four products with `nuage powerlines`', async () => {
    const out = path.join(dir, 'cli');
    const lines: string[] = [];
    const code = await runCli(['powerlines', file, out, '--power-line-buffers-cm', '300,600'], {
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    });
    expect(code, lines.join('\n')).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    const types = manifest.artifacts
      .filter((a: { format: string }) => a.format === 'GeoJSON')
      .map((a: { type: string }) => a.type);
    expect(types).toEqual(
      expect.arrayContaining(['POWER_LINE', 'POWER_LINE_BUFFERS', 'VEGETATION_RISK', 'TREE_FALL_RISK']),
    );
    const geojson = JSON.parse(readFileSync(path.join(out, 'power-lines', 'power-lines.geojson'), 'utf8'));
    const conductor = geojson.features.find((f: { properties: { kind: string } }) => f.properties.kind === 'conductor');
    // EPSG:4326 with the elevation as Z.
    expect(conductor.geometry.coordinates[0]).toHaveLength(3);
    expect(conductor.geometry.coordinates[0][0]).toBeGreaterThan(0);
    expect(conductor.geometry.coordinates[0][0]).toBeLessThan(6);
    expect(conductor.properties).toMatchObject({ kind: 'conductor', spanId: 1 });
    expect(Object.keys(conductor.properties)).toEqual(
      expect.arrayContaining(['spanId', 'conductorId', 'length', 'minHeightAboveGround', 'sag', 'fitRmse']),
    );
    const buffers = JSON.parse(
      readFileSync(path.join(out, 'power-line-buffers', 'power-line-buffers.geojson'), 'utf8'),
    );
    expect(buffers.features.map((f: { properties: { zone: number } }) => f.properties.zone).sort()).toEqual([1, 2]);
  }, 120_000);
});

describe('power lines of the synthetic corridor from the classifier’s own wires', () => {
  it('finds the same six conductors when the input carries no classes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-corridor-raw-'));
    const scene = corridorScene();
    const file = path.join(dir, 'raw.las');
    async function* one() {
      yield { ...scene.chunk, classification: new Uint8Array(scene.chunk.count) };
    }
    await writeLas(file, one(), { crs: CRS });
    let lines: PowerLinesValue | undefined;
    await runProducts({
      input: { path: file },
      options: processingOptionsSchema.parse({ products: ['power-lines'] }),
      outDir: path.join(dir, 'out'),
      hooks: {
        finished: async (p, r) => {
          if (p.id === 'power-lines') lines = r.value as PowerLinesValue;
        },
      },
    });
    expect(lines!.conductors).toHaveLength(6);
    expect(lines!.towers).toHaveLength(3);
    for (const c of lines!.conductors) {
      const truth = scene.conductors.find((k) => k.spanId === c.spanId && k.conductorId === c.conductorId)!;
      expect(c.fitRmse).toBeLessThan(0.05);
      expect(Math.abs(c.sag - truthSag(truth))).toBeLessThan(0.1);
    }
  }, 120_000);
});

describe('power-line products without wires or without ground', () => {
  it('gives empty power-line layers, not failures, for a cloud without wires', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-nowires-'));
    const scene = corridorScene();
    // The same corridor with its wires and towers taken away.
    const keep: number[] = [];
    for (let i = 0; i < scene.chunk.count; i++) if (scene.truth[i] !== 14 && scene.truth[i] !== 15) keep.push(i);
    const pick = (a: Float64Array) => Float64Array.from(keep, (i) => a[i]!);
    const chunk: PointChunk = {
      count: keep.length,
      x: pick(scene.chunk.x),
      y: pick(scene.chunk.y),
      z: pick(scene.chunk.z),
      classification: new Uint8Array(keep.length),
      returnNumber: new Uint8Array(keep.length).fill(1),
    };
    const file = path.join(dir, 'nowires.las');
    async function* one() {
      yield chunk;
    }
    await writeLas(file, one(), { crs: CRS });
    const { runs, manifest } = await runProducts({
      input: { path: file },
      options: processingOptionsSchema.parse({ products: POWER_PRODUCTS }),
      outDir: path.join(dir, 'out'),
    });
    for (const id of POWER_PRODUCTS) expect(runs.find((r) => r.id === id)?.status, id).toBe('READY');
    const counts = Object.fromEntries(manifest.artifacts.map((a) => [a.type, a.count]));
    expect(counts).toMatchObject({ POWER_LINE: 0, POWER_LINE_BUFFERS: 0, VEGETATION_RISK: 0, TREE_FALL_RISK: 0 });
    expect(runs.find((r) => r.id === 'power-lines')!.figures).toMatchObject({
      conductors: 0,
      message: 'no wire returns (class 14) in the cloud: no power lines',
    });
  }, 120_000);

  it('reports "no terrain model" for the power lines when the DTM failed', async () => {
    const failingDtm = defineProduct({
      id: 'dtm',
      assetType: 'DTM',
      title: 'DTM',
      summary: '',
      layer: 'RASTER',
      display: 'download',
      needs: ['classify'],
      options: [],
      weight: 1,
      async run() {
        throw new InvalidInput('classification', 'a DTM needs at least 3 ground points');
      },
    });
    const noop = defineProduct({ ...classifiedCloudProduct, run: async () => ({ files: [], value: {} }) });
    const { runs } = await runProducts({
      input: { path: 'in.las' },
      options: processingOptionsSchema.parse({ products: ['power-lines'] }),
      outDir: mkdtempSync(path.join(tmpdir(), 'nuage-pl-noground-')),
      registry: [noop, failingDtm, powerLinesProduct],
    });
    expect(runs.map((r) => [r.id, r.status, r.error?.code])).toEqual([
      ['classify', 'READY', undefined],
      ['dtm', 'ERROR', 'INVALID_INPUT'],
      ['power-lines', 'ERROR', 'NO_GROUND_FOR_POWER_LINES'],
    ]);
  });
});
