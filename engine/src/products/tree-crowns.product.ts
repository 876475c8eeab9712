import path from 'node:path';
import type { StepContext } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import { defineProduct } from '../core/product.js';
import type { Raster } from '../raster/raster.js';
import type { Feature } from '../writers/geojson.writer.js';
import { productEntry } from './catalog.js';
import { featuresToWgs84, writeWgs84GeoJson } from './product-values.js';
import { traceOuterRings } from './tree-crowns.outline.js';
import type { TreeTop, TreeTopsValue } from './tree-tops.product.js';

/** Crown shapes of the processing form: conifers (narrow) or broadleaves (wide). */
export type CrownShape = 'NARROW' | 'WIDE';

/**
 * Growth rules of {@link growCrowns} (Dalponte & Coomes 2016): a cell joins a
 * crown when it is above `minHeight`, above `seedRatio` × the top's height and
 * above `crownRatio` × the crown's mean height so far, no higher than the top
 * (5 % slack), and within `radius(h)` metres of the top.
 */
export interface CrownRules {
  minHeight: number;
  seedRatio: number;
  crownRatio: number;
  /** Largest crown radius in metres for a tree of height h (m). */
  radius(h: number): number;
}

/** The rules of each crown shape: NARROW grows tighter crowns than WIDE. */
export const CROWN_RULES: Record<CrownShape, CrownRules> = {
  // Conifers: crowns hug the top (Popescu & Wynne 2004 conifer crown width).
  NARROW: {
    minHeight: 2,
    seedRatio: 0.5,
    crownRatio: 0.6,
    radius: (h) => Math.min(6, Math.max(1.5, 0.6 * (2.5 + 0.009 * h * h))),
  },
  // Broadleaves: flatter, wider crowns (deciduous crown width), laxer thresholds.
  WIDE: {
    minHeight: 2,
    seedRatio: 0.35,
    crownRatio: 0.45,
    radius: (h) => Math.min(10, Math.max(2, 0.75 * (3.1 + 0.009 * h * h))),
  },
};

/** Crowns as a label raster: `labels[k]` is the treeId owning CHM cell k (0: none). */
export interface CrownRaster {
  labels: Int32Array;
  /** Cells per tree (index treeId). */
  cells: Int32Array;
}

/**
 * Seeded region growing from the tops over the CHM (Dalponte & Coomes 2016),
 * highest cells first (a priority flood, so crowns meet where the canopy is
 * lowest between them).
 */
export function growCrowns(
  chm: Raster,
  tops: readonly TreeTop[],
  cellM: number,
  rules: CrownRules,
  context: StepContext = {},
): CrownRaster {
  const { width: W, height: H, data, nodata } = chm;
  const labels = new Int32Array(W * H);
  const n = tops.length;
  const cells = new Int32Array(n + 1);
  const sums = new Float64Array(n + 1);
  const seedH = new Float64Array(n + 1);
  const seedR = new Int32Array(n + 1);
  const seedC = new Int32Array(n + 1);
  const reach2 = new Float64Array(n + 1);
  // Binary max-heap of (height, cell, tree): heights apart (the comparisons), cell and tree side by side
  // in one array (one memory line per move).
  let size = 0;
  let heapH = new Float64Array(1024);
  let heapKT = new Int32Array(2048);
  const push = (h: number, k: number, t: number) => {
    if (size === heapH.length) {
      const moreH = new Float64Array(size * 2);
      moreH.set(heapH);
      heapH = moreH;
      const moreKT = new Int32Array(size * 4);
      moreKT.set(heapKT);
      heapKT = moreKT;
    }
    let i = size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heapH[p]! >= h) break;
      heapH[i] = heapH[p]!;
      heapKT[2 * i] = heapKT[2 * p]!;
      heapKT[2 * i + 1] = heapKT[2 * p + 1]!;
      i = p;
    }
    heapH[i] = h;
    heapKT[2 * i] = k;
    heapKT[2 * i + 1] = t;
  };
  // The popped cell's tree is left in `poppedTree`: no pair allocated per cell.
  let poppedTree = 0;
  const pop = (): number => {
    const k = heapKT[0]!;
    poppedTree = heapKT[1]!;
    const lastH = heapH[--size]!;
    const lastK = heapKT[2 * size]!;
    const lastT = heapKT[2 * size + 1]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      let childH = heapH[child]!;
      if (child + 1 < size) {
        const rightH = heapH[child + 1]!;
        if (rightH > childH) {
          child++;
          childH = rightH;
        }
      }
      if (childH <= lastH) break;
      heapH[i] = childH;
      heapKT[2 * i] = heapKT[2 * child]!;
      heapKT[2 * i + 1] = heapKT[2 * child + 1]!;
      i = child;
    }
    heapH[i] = lastH;
    heapKT[2 * i] = lastK;
    heapKT[2 * i + 1] = lastT;
    return k;
  };
  for (const t of tops) {
    const k = t.cell;
    if (labels[k]) continue;
    const id = t.treeId;
    labels[k] = id;
    cells[id] = 1;
    const h = data[k]!;
    sums[id] = h;
    seedH[id] = Math.max(h, t.height);
    seedR[id] = Math.floor(k / W);
    seedC[id] = k % W;
    const reach = rules.radius(t.height) / cellM;
    reach2[id] = reach * reach;
  }
  // Row r and column c of cell k, already known by the caller.
  const enqueueNeighbours = (k: number, r: number, c: number, id: number) => {
    if (c > 0 && !labels[k - 1]) push(data[k - 1]!, k - 1, id);
    if (c < W - 1 && !labels[k + 1]) push(data[k + 1]!, k + 1, id);
    if (r > 0 && !labels[k - W]) push(data[k - W]!, k - W, id);
    if (r < H - 1 && !labels[k + W]) push(data[k + W]!, k + W, id);
  };
  for (const t of tops) {
    if (labels[t.cell] === t.treeId) enqueueNeighbours(t.cell, seedR[t.treeId]!, seedC[t.treeId]!, t.treeId);
  }
  let steps = 0;
  while (size > 0) {
    if ((++steps & 0xffff) === 0 && context.signal?.aborted) throw new Cancelled();
    const k = pop();
    const id = poppedTree;
    if (labels[k]) continue;
    const h = data[k]!;
    if (h === nodata || h < rules.minHeight) continue;
    if (h < rules.seedRatio * seedH[id]! || h < rules.crownRatio * (sums[id]! / cells[id]!)) continue;
    if (h > seedH[id]! * 1.05) continue;
    const r = Math.floor(k / W);
    const c = k - r * W;
    const dr = r - seedR[id]!;
    const dc = c - seedC[id]!;
    if (dr * dr + dc * dc > reach2[id]!) continue;
    labels[k] = id;
    cells[id]!++;
    sums[id]! += h;
    enqueueNeighbours(k, r, c, id);
  }
  return { labels, cells };
}

/**
 * The outline of each crown: the outer boundary of its cells, simplified by
 * half a cell, in the CRS (as `traceRegions` traces it, see {@link traceOuterRings}). Index = treeId.
 */
export function crownOutlines(chm: Raster, crowns: CrownRaster, trees: number): Array<number[][] | null> {
  return traceOuterRings(crowns.labels, trees, chm);
}

/** One crown with its attributes. */
export interface TreeCrown {
  treeId: number;
  height: number;
  /** Crown area in m² (cells × cell area). */
  crownArea: number;
  ring: number[][] | null;
}

/** Crowns of every top (a top whose cell another crown took has a crown of its one cell). */
export function delineateCrowns(
  value: TreeTopsValue,
  shape: CrownShape,
  context: StepContext = {},
): { crowns: TreeCrown[]; raster: CrownRaster } {
  const { tops, chm } = value;
  const cellM = chm.chm.resolution * chm.units.unitToMetre;
  const raster = growCrowns(chm.chm, tops, cellM, CROWN_RULES[shape], context);
  const rings = crownOutlines(chm.chm, raster, tops.length);
  const crowns = tops.map((t) => ({
    treeId: t.treeId,
    height: t.height,
    crownArea: Math.max(1, raster.cells[t.treeId]!) * cellM * cellM,
    ring: rings[t.treeId] ?? null,
  }));
  return { crowns, raster };
}

/** GeoJSON polygons of crowns (project CRS) with `treeId`, `height` (m) and `crownArea` (m²). */
export function* crownFeatures(crowns: readonly TreeCrown[]): Generator<Feature> {
  for (const c of crowns) {
    if (!c.ring) continue;
    yield {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [c.ring] },
      properties: {
        treeId: c.treeId,
        height: Math.round(c.height * 100) / 100,
        crownArea: Math.round(c.crownArea * 10) / 10,
      },
    };
  }
}

/** What the crown product hands on. */
export interface TreeCrownsValue {
  crowns: TreeCrown[];
  tops: TreeTopsValue;
}

/** TREE_CROWNS: one polygon per tree by seeded region growing on the CHM, NARROW or WIDE (the form's crown shape). */
export const treeCrownsProduct = defineProduct<TreeCrownsValue>({
  ...productEntry('tree-crowns'),
  async run(ctx) {
    const tops = ctx.need<TreeTopsValue>('tree-tops');
    const { crowns } = delineateCrowns(tops, ctx.options.crownShape as CrownShape, { signal: ctx.signal });
    const crs = tops.chm.crs;
    const file = path.join(ctx.workDir, 'tree-crowns.geojson');
    const written = await writeWgs84GeoJson(file, crownFeatures(crowns), crs);
    return {
      files: [{ path: file, format: 'GeoJSON', extension: 'geojson', epsg: 4326, count: written.features }],
      features: () => featuresToWgs84(crownFeatures(crowns), crs),
      value: { crowns, tops },
      figures: { crowns: written.features, shape: ctx.options.crownShape },
    };
  },
});

/** CSV text of the forest inventory: `tree_id,x,y,height_m,crown_area_m2`, one row per tree. */
export function inventoryCsv(crowns: readonly TreeCrown[], tops: readonly TreeTop[]): string {
  const byId = new Map(tops.map((t) => [t.treeId, t]));
  const rows = ['tree_id,x,y,height_m,crown_area_m2'];
  for (const c of crowns) {
    const t = byId.get(c.treeId)!;
    rows.push(`${c.treeId},${t.x.toFixed(2)},${t.y.toFixed(2)},${c.height.toFixed(2)},${c.crownArea.toFixed(1)}`);
  }
  return `${rows.join('\n')}\n`;
}
