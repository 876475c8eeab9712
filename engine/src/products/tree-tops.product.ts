import path from 'node:path';
import type { StepContext } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import { defineProduct } from '../core/product.js';
import type { Feature } from '../writers/geojson.writer.js';
import { productEntry } from './catalog.js';
import { type ChmValue, NOT_CANOPY } from './chm.product.js';
import { featuresToWgs84, writeWgs84GeoJson } from './product-values.js';

/** One detected tree top. */
export interface TreeTop {
  /** 1 for the tallest tree, then by decreasing height. */
  treeId: number;
  /** Position of the top in the project CRS. */
  x: number;
  y: number;
  /** Elevation of the top in the CRS's vertical unit. */
  z: number;
  /** Height above ground in metres. */
  height: number;
  /** CHM cell of the top. */
  cell: number;
}

/** Options of {@link findTreeTops}. */
export interface TreeTopOptions {
  /** Lowest tree, metres. */
  minHeight?: number;
}

/**
 * Search window diameter (metres) for a tree of height `h` metres: it grows
 * with height as crowns do (Popescu & Wynne 2004), `3 + 0.07 h` between 3 and
 * 10 m — the variable window of lidR's `lmf(ws = function(h) h * 0.07 + 3)`.
 */
export function windowDiameter(h: number): number {
  return Math.min(10, Math.max(3, 3 + 0.07 * h));
}

/**
 * Tree tops by variable-window local maxima on the returns themselves: a
 * return at least `minHeight` above ground is a top when no other return
 * within half the window of its height ({@link windowDiameter}) is higher
 * (ties go to the first). Returns are bucketed by CHM cell, highest first:
 * only the highest of a cell can be a top, and a neighbouring cell is left as
 * soon as its returns are lower, nearest cells first.
 *
 * @example
 * const tops = findTreeTops(chmValue);
 */
export function findTreeTops(value: ChmValue, options: TreeTopOptions = {}, context: StepContext = {}): TreeTop[] {
  const { chm, heights, cloud, units } = value;
  const minHeight = options.minHeight ?? 2;
  const { width: W, height: H } = chm;
  const x = cloud.x;
  const y = cloud.y;
  const hu = units.unitToMetre;
  const cellM = chm.resolution * hu;
  // Cell offsets sorted by distance, up to the widest window plus a cell diagonal.
  const span = Math.ceil(windowDiameter(1e9) / 2 / cellM) + 1;
  const offsets: Array<[number, number, number]> = [];
  for (let dr = -span; dr <= span; dr++) {
    for (let dc = -span; dc <= span; dc++) {
      if (dr || dc) offsets.push([dr, dc, Math.max(0, Math.hypot(dr, dc) - Math.SQRT2) * cellM]);
    }
  }
  offsets.sort((a, b) => a[2] - b[2]);
  // The sorted offsets as typed columns: the search below reads them for every candidate cell.
  const offsetRow = Int32Array.from(offsets, (o) => o[0]);
  const offsetCol = Int32Array.from(offsets, (o) => o[1]);
  const offsetNear = Float64Array.from(offsets, (o) => o[2]);
  const offsetCount = offsets.length;
  const notCanopy = new Uint8Array(256);
  for (const c of NOT_CANOPY) notCanopy[c] = 1;
  // Returns that could block a top (at least minHeight, canopy classes), by cell, highest first.
  const classes = cloud.classification;
  const start = new Int32Array(W * H + 1);
  const cellOf = new Int32Array(cloud.count).fill(-1);
  for (let i = 0; i < cloud.count; i++) {
    if (!(heights[i]! >= minHeight) || (classes && notCanopy[classes[i]!])) continue;
    const c = Math.floor((x[i]! - chm.originX) / chm.resolution);
    const r = Math.floor((chm.originY - y[i]!) / chm.resolution);
    if (c < 0 || r < 0 || c >= W || r >= H) continue;
    cellOf[i] = r * W + c;
    start[r * W + c + 1]!++;
  }
  for (let k = 0; k < W * H; k++) start[k + 1]! += start[k]!;
  const order = new Int32Array(start[W * H]!);
  const fill = start.slice(0, W * H);
  for (let i = 0; i < cloud.count; i++) if (cellOf[i]! >= 0) order[fill[cellOf[i]!]!++] = i;
  // Highest first, then by index (a total order: any sort gives the same cells). A cell holds a few
  // returns: sorted in place by insertion, a long one through Array#sort.
  const higherFirst = (a: number, b: number) => heights[b]! - heights[a]! || a - b;
  for (let k = 0; k < W * H; k++) {
    const from = start[k]!;
    const to = start[k + 1]!;
    if (to - from <= 1) continue;
    if (to - from > 24) {
      order.set(Array.from(order.subarray(from, to)).sort(higherFirst), from);
      continue;
    }
    for (let a = from + 1; a < to; a++) {
      const i = order[a]!;
      const h = heights[i]!;
      let b = a;
      while (b > from) {
        const j = order[b - 1]!;
        const hj = heights[j]!;
        if (hj > h || (hj === h && j < i)) break;
        order[b] = j;
        b--;
      }
      order[b] = i;
    }
  }
  const found: Omit<TreeTop, 'treeId'>[] = [];
  for (let r = 0; r < H; r++) {
    if (context.signal?.aborted) throw new Cancelled();
    for (let c = 0; c < W; c++) {
      const k = r * W + c;
      if (start[k + 1] === start[k]) continue;
      const i = order[start[k]!]!;
      const h = heights[i]!;
      const radius = windowDiameter(h) / 2;
      const radius2 = (radius / hu) ** 2;
      const xi = x[i]!;
      const yi = y[i]!;
      let top = true;
      for (let o = 0; o < offsetCount && top; o++) {
        if (offsetNear[o]! > radius) break;
        const rr = r + offsetRow[o]!;
        const cc = c + offsetCol[o]!;
        if (rr < 0 || rr >= H || cc < 0 || cc >= W) continue;
        const kk = rr * W + cc;
        for (let p = start[kk]!; p < start[kk + 1]!; p++) {
          const j = order[p]!;
          const hj = heights[j]!;
          if (hj < h || (hj === h && j > i)) break;
          const dx = x[j]! - xi;
          const dy = y[j]! - yi;
          if (dx * dx + dy * dy <= radius2) {
            top = false;
            break;
          }
        }
      }
      if (top) found.push({ x: x[i]!, y: y[i]!, z: cloud.z[i]!, height: h, cell: k });
    }
  }
  found.sort((a, b) => b.height - a.height || a.cell - b.cell);
  return found.map((t, i) => ({ treeId: i + 1, ...t }));
}

/** GeoJSON points of tree tops (project CRS) with `treeId`, `height` (m, 2 decimals), `x`, `y`, `z`. */
export function* treeTopFeatures(tops: readonly TreeTop[]): Generator<Feature> {
  for (const t of tops) {
    const z = Number.isNaN(t.z) ? null : Math.round(t.z * 100) / 100;
    yield {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: z === null ? [t.x, t.y] : [t.x, t.y, z] },
      properties: {
        treeId: t.treeId,
        height: Math.round(t.height * 100) / 100,
        x: Math.round(t.x * 100) / 100,
        y: Math.round(t.y * 100) / 100,
        z,
      },
    };
  }
}

/** What the tree-top product hands on. */
export interface TreeTopsValue {
  tops: TreeTop[];
  chm: ChmValue;
}

/** TREE_TOPS: one point per tree (variable-window local maxima on the CHM), with its height in metres. */
export const treeTopsProduct = defineProduct<TreeTopsValue>({
  ...productEntry('tree-tops'),
  async run(ctx) {
    const chm = ctx.need<ChmValue>('chm');
    const tops = findTreeTops(chm, {}, { signal: ctx.signal });
    const file = path.join(ctx.workDir, 'tree-tops.geojson');
    const written = await writeWgs84GeoJson(file, treeTopFeatures(tops), chm.crs);
    const tallest = tops[0]?.height ?? null;
    return {
      files: [{ path: file, format: 'GeoJSON', extension: 'geojson', epsg: 4326, count: written.features }],
      features: () => featuresToWgs84(treeTopFeatures(tops), chm.crs),
      value: { tops, chm },
      figures: { trees: tops.length, tallestM: tallest === null ? null : Math.round(tallest * 100) / 100 },
    };
  },
});
