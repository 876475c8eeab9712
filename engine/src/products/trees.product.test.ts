import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { mulberry32 } from '@nuage/fixtures/synthetic/random.js';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import type { PointChunk } from '../core/chunk.js';
import { InvalidInput } from '../core/errors.js';
import { defineProduct } from '../core/product.js';
import { crsFromEpsg } from '../crs/index.js';
import { gatherCloud } from '../filters/cloud.js';
import { openPointCloud } from '../readers/index.js';
import { writeLas } from '../writers/las.writer.js';
import { buildChm, type ChmValue, chmProduct } from './chm.product.js';
import { classifiedCloudProduct } from './classified-cloud.product.js';
import { buildDtm } from './dtm.product.js';
import { DEFAULT_PROCESSING_OPTIONS, processingOptionsSchema } from './options.js';
import { runProducts } from './run-products.js';
import { delineateCrowns, inventoryCsv } from './tree-crowns.product.js';
import { crownIous, matchTops, median, referenceTrees } from './tree-metrics.js';
import { findTreeTops, type TreeTopsValue, treeTopsProduct } from './tree-tops.product.js';

const crs = crsFromEpsg(2154);
const units = { unitToMetre: 1, verticalUnitToMetre: 1 };

/** Ground on a 5 % slope with conical trees of known top; 12 points/m² of first returns. */
function forest(trees: Array<{ x: number; y: number; h: number; r: number }>, size = 60): PointChunk {
  const rnd = mulberry32(7);
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const cls: number[] = [];
  const ground = (_x: number, y: number) => 200 + 0.05 * (y - 6_000_000);
  const n = size * size * 12;
  for (let i = 0; i < n; i++) {
    const x = 500_000 + rnd() * size;
    const y = 6_000_000 + rnd() * size;
    let z = ground(x, y);
    let c = 2;
    for (const t of trees) {
      const d = Math.hypot(x - t.x, y - t.y);
      if (d < t.r) {
        const canopy = ground(t.x, t.y) + t.h * (1 - d / t.r);
        if (canopy > z) {
          z = canopy;
          c = 5;
        }
      }
    }
    xs.push(x);
    ys.push(y);
    zs.push(z);
    cls.push(c);
  }
  // The exact top of every tree, as a scanner hitting the apex would.
  for (const t of trees) {
    xs.push(t.x);
    ys.push(t.y);
    zs.push(ground(t.x, t.y) + t.h);
    cls.push(5);
  }
  return {
    count: xs.length,
    x: Float64Array.from(xs),
    y: Float64Array.from(ys),
    z: Float64Array.from(zs),
    classification: Uint8Array.from(cls),
    returnNumber: new Uint8Array(xs.length).fill(1),
  };
}

const TREES = [
  { x: 500_012, y: 6_000_012, h: 18, r: 3.5 },
  { x: 500_030, y: 6_000_015, h: 24, r: 4 },
  { x: 500_045, y: 6_000_040, h: 12, r: 2.5 },
  { x: 500_020, y: 6_000_045, h: 30, r: 4.5 },
  { x: 500_048, y: 6_000_012, h: 8, r: 2 },
  // Two trees whose crowns touch.
  { x: 500_030, y: 6_000_030, h: 20, r: 3.5 },
  { x: 500_036, y: 6_000_031, h: 16, r: 3 },
];

async function chmOf(cloud: PointChunk): Promise<ChmValue> {
  const dtm = await buildDtm({ chunks: [cloud], crs: { epsg: 2154 } }, { resolutionCm: 100, workers: 0 });
  return { ...buildChm(cloud, dtm, units), crs, units, cloud };
}

describe('forestry products on a synthetic forest', () => {
  it('finds every top at its apex with its height, and grows one crown per tree', async () => {
    const chm = await chmOf(forest(TREES));
    expect(chm.chm.resolution).toBeLessThanOrEqual(0.55);
    const tops = findTreeTops(chm);
    expect(tops).toHaveLength(TREES.length);
    for (const t of TREES) {
      const found = tops.find((o) => Math.hypot(o.x - t.x, o.y - t.y) < 0.3);
      expect(found, `tree at ${t.x} ${t.y}`).toBeDefined();
      expect(found!.height).toBeCloseTo(t.h, 1);
    }
    // Tallest first.
    expect(tops[0]!.height).toBeCloseTo(30, 1);
    expect(tops.map((t) => t.treeId)).toEqual(tops.map((_, i) => i + 1));
    const value: TreeTopsValue = { tops, chm };
    const narrow = delineateCrowns(value, 'NARROW').crowns;
    const wide = delineateCrowns(value, 'WIDE').crowns;
    for (const c of narrow) {
      const tree = TREES.find((t) => Math.abs(t.h - c.height) < 0.1)!;
      const truth = Math.PI * tree.r * tree.r;
      // Cells above half the top height: a NARROW crown stays within the cone, about a quarter to the whole of it.
      expect(c.crownArea, `tree ${c.treeId}`).toBeLessThan(truth * 1.15);
      expect(c.crownArea, `tree ${c.treeId}`).toBeGreaterThan(truth * 0.2);
      expect(c.ring!.length).toBeGreaterThanOrEqual(5);
    }
    const total = (cs: typeof narrow) => cs.reduce((s, c) => s + c.crownArea, 0);
    // The crown shape visibly changes the result: wide crowns reach lower on the cones.
    expect(total(wide)).toBeGreaterThan(total(narrow) * 1.15);
    const csv = inventoryCsv(narrow, tops).trim().split('\n');
    expect(csv[0]).toBe('tree_id,x,y,height_m,crown_area_m2');
    expect(csv).toHaveLength(TREES.length + 1);
    expect(csv[1]).toMatch(/^1,500020\.00,6000045\.00,30\.00,\d+\.\d$/);
  });

  it('gives empty layers and a header-only inventory on a parking lot', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-lot-'));
    const lot = forest([], 40);
    const file = path.join(dir, 'lot.las');
    async function* one() {
      yield lot;
    }
    await writeLas(file, one(), { crs });
    const out = path.join(dir, 'out');
    const lines: string[] = [];
    const code = await runCli(['trees', file, out], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(code, lines.join('\n')).toBe(0);
    expect(readFileSync(path.join(out, 'forest-inventory', 'forest-inventory.csv'), 'utf8')).toBe(
      'tree_id,x,y,height_m,crown_area_m2\n',
    );
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    const counts = Object.fromEntries(
      manifest.artifacts
        .filter((a: { format: string }) => a.format !== 'XYZ')
        .map((a: { type: string; count: number }) => [a.type, a.count]),
    );
    expect(counts).toMatchObject({ TREE_TOPS: 0, TREE_CROWNS: 0, FOREST_INVENTORY: 0 });
  });

  it('reports "no ground points" for the canopy height when the terrain model failed', async () => {
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
      options: processingOptionsSchema.parse({ products: ['tree-tops'] }),
      outDir: mkdtempSync(path.join(tmpdir(), 'nuage-noground-')),
      registry: [noop, failingDtm, chmProduct, treeTopsProduct],
    });
    expect(runs.map((r) => [r.id, r.status, r.error?.code])).toEqual([
      ['classify', 'READY', undefined],
      ['dtm', 'ERROR', 'INVALID_INPUT'],
      ['chm', 'ERROR', 'NO_GROUND_FOR_CANOPY'],
      ['tree-tops', 'ERROR', 'DEPENDENCY_FAILED'],
    ]);
    expect(runs[2]!.error!.message).toBe('no ground points: the canopy height needs a terrain model');
    expect(DEFAULT_PROCESSING_OPTIONS.crownShape).toBe('NARROW');
  });
});

describe.runIf(hasRealData())('forestry on MixedConifer.laz against lidR’s segmentation', () => {
  it('detects the trees (F ≥ 0.85) and their crowns (median IoU ≥ 0.6), NARROW and WIDE differing', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'nuage-mixedconifer-'));
    let chm: ChmValue | undefined;
    let tops: TreeTopsValue | undefined;
    await runProducts({
      input: { path: realFile('MixedConifer.laz') },
      options: processingOptionsSchema.parse({ products: ['tree-tops'] }),
      outDir: out,
      hooks: {
        finished: async (p, r) => {
          if (p.id === 'chm') chm = r.value as ChmValue;
          if (p.id === 'tree-tops') tops = r.value as TreeTopsValue;
        },
      },
    });
    const reader = await openPointCloud(realFile('MixedConifer.laz'));
    const ids = (await gatherCloud(reader.read({ workers: 0 }))).extra!.treeID!;
    await reader.close();
    const references = referenceTrees(chm!.cloud, ids, chm!.heights);
    expect(references).toHaveLength(206);
    const m = matchTops(tops!.tops, references);
    // Measured: 181 of 206 trees, 25 extra tops: F 0.879; heights equal lidR's to the centimetre.
    expect(m.fScore).toBeGreaterThanOrEqual(0.85);
    expect(m.heightRmse).toBeLessThan(0.1);
    const iou: Record<string, number> = {};
    const area: Record<string, number> = {};
    for (const shape of ['NARROW', 'WIDE'] as const) {
      const { raster, crowns } = delineateCrowns(tops!, shape);
      iou[shape] = median(crownIous(chm!.chm, chm!.highest, ids, raster, m.pairs));
      area[shape] = crowns.reduce((s, c) => s + c.crownArea, 0);
    }
    // Measured: NARROW 0.676, WIDE 0.634.
    expect(iou.NARROW).toBeGreaterThanOrEqual(0.6);
    expect(iou.WIDE).toBeGreaterThanOrEqual(0.6);
    expect(area.WIDE!).toBeGreaterThan(area.NARROW! * 1.1);
  });
});
