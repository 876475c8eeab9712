import path from 'node:path';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { DisjointSets } from '../core/disjoint-sets.js';
import { Cancelled } from '../core/errors.js';
import { defineProduct } from '../core/product.js';
import type { CrsInfo } from '../crs/index.js';
import { type Raster, sampleBilinear } from '../raster/raster.js';
import type { Feature } from '../writers/geojson.writer.js';
import {
  dominantDirection,
  douglasPeuckerRing,
  dropDegenerate,
  pick,
  type RegularizeOptions,
  type Ring,
  regularizeRing,
  removeSaddles,
  ringArea,
  ringsAreSimple,
  traceRings,
} from './buildings.outline.js';
import { productEntry } from './catalog.js';
import {
  type ClassifiedCloud,
  type CrsUnits,
  type DtmValue,
  featuresToWgs84,
  inputClasses,
  writeWgs84GeoJson,
} from './product-values.js';

/** How outlines are simplified (processing option `buildingSimplification`). */
export type BuildingSimplification = 'RURAL' | 'URBAN';

// One parameter set for every cloud (lengths in metres), measured on the
// AHN3, IGN, fusa and Williams vendor buildings (see buildings.product.test.ts).
/** Cell of the occupancy raster the footprints are traced on. */
export const BUILDING_CELL_M = 0.5;
/** Smallest building kept, square metres. */
export const MIN_BUILDING_AREA_M2 = 10;
/** Smaller holes (missing returns, dark roof parts) are filled; larger ones are courtyards. */
export const MIN_HOLE_AREA_M2 = 10;
/** The input's own class 6 is used when it holds at least this many points. */
export const MIN_VENDOR_BUILDING_POINTS = 100;
/**
 * Gaps in the occupancy are closed over this many building-point spacings
 * (at least one cell): sparse clouds leave empty cells inside roofs.
 */
const CLOSING_SPACINGS = 1.5;
/** Neighbouring cells whose roof tops differ by more are a roof-height step (another building). */
const HEIGHT_STEP_M = 1.5;
/** Parts of a building split by height steps smaller than this join their neighbour (dormers, chimneys). */
const MIN_SPLIT_AREA_M2 = 25;
/** Roof points: within this of the highest point of their cell (not walls or points under eaves). */
const ROOF_BAND_M = 1;
/** Eave and ridge heights: these percentiles of the roof points' heights above ground. */
const EAVE_PERCENTILE = 0.1;
const RIDGE_PERCENTILE = 0.95;
/** A roof is flat when its fitted plane is gentler than this and its points lie close to it. */
const FLAT_SLOPE_DEG = 10;
const FLAT_SPREAD_M = 0.6;
/**
 * Simplification per option: Douglas–Peucker tolerance (the vertices kept),
 * each edge then refitted through the boundary it replaces; URBAN also snaps
 * edges to the building's axes. URBAN snaps edges within 15° of an axis and
 * merges parallel ones 0.3 m apart: at 25° and 0.6 m, edges set 15–25° off
 * the axes were turned onto them and steps of 0.3–0.6 m flattened, which
 * lost footprint on every file. Measured 2026-11-27, URBAN footprint IoU from our
 * classes (snap 25°/0.6 m → 15°/0.3 m): AHN3 0.907 → 0.916, IGN 0.739 →
 * 0.751, fusa 0.934 → 0.942, Williams 0.843 → 0.850 (RURAL's 0.850); 15°
 * alone: Williams 0.848, AHN3 0.914; 10°: Williams 0.850.
 */
const SIMPLIFY = {
  URBAN: { tolerance: 0.5, snapDeg: 15, shortEdge: 2, offset: 0.3, minEdge: 1 },
  RURAL: { tolerance: 1.0 },
} as const;

/**
 * Edges refitted through the traced boundary they replace (least squares),
 * in any direction: DP's vertices alone are corners of the outermost cells of
 * a ragged boundary, so its edges cut across the staircase of cells rather
 * than through it.
 */
const FREE: RegularizeOptions = { direction: 0, snapAngle: -1, shortEdge: 0, offsetTolerance: 0, minEdge: 0 };

/** One building: its footprint (rings in the cloud's CRS) and attributes. */
export interface Building {
  /** 1..n by centroid x, then y. */
  buildingId: number;
  /** Outer ring (counterclockwise), then holes (clockwise); closed GeoJSON rings [x, y]. */
  rings: number[][][];
  /** Footprint area, m², 1 decimal. */
  area: number;
  /** Median DTM elevation under the footprint (vertical CRS unit), null where the DTM has no value. */
  groundZ: number | null;
  /** Heights of the roof above ground, metres (10th and 95th percentiles of the roof points). */
  eaveHeight: number | null;
  ridgeHeight: number | null;
  /** Building points of this building. */
  pointCount: number;
  roofType: 'flat' | 'pitched';
  /** Centroid of the footprint in the CRS. */
  centroid: [number, number];
}

/** Options of {@link extractBuildings}. */
export interface BuildingsOptions {
  simplification?: BuildingSimplification;
}

/** What {@link extractBuildings} found. */
export interface BuildingsResult {
  buildings: Building[];
  /** Building points used (class 6). */
  buildingPoints: number;
  /** Size of the gap closing, in cells. */
  closingCells: number;
  /** Building-point spacing measured, metres. */
  spacingM: number;
}

/**
 * Which classes name the buildings: the input's own class 6 when it has at
 * least {@link MIN_VENDOR_BUILDING_POINTS} building points, else this run's.
 */
export function buildingClasses(value: ClassifiedCloud): {
  classes: Uint8Array;
  source: 'vendor' | 'classified';
} {
  const { vendor, cloud } = value;
  if (vendor) {
    let n = 0;
    for (let i = 0; i < cloud.count && n < MIN_VENDOR_BUILDING_POINTS; i++) if (vendor[i] === 6) n++;
    if (n >= MIN_VENDOR_BUILDING_POINTS) return { classes: vendor, source: 'vendor' };
  }
  return { classes: cloud.classification ?? new Uint8Array(cloud.count), source: 'classified' };
}

/** Occupancy raster of the building points, y up (row 0 at the south), padded. */
interface Grid {
  cols: number;
  rows: number;
  /** CRS coordinates of the south-west corner of cell (0, 0); multiples of the cell. */
  x0: number;
  y0: number;
  /** Cell size in CRS units. */
  cell: number;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const f = p * (sorted.length - 1);
  const lo = Math.floor(f);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (f - lo);
}

/** Cells within a disc of `r` cells (a 3×3 square for r = 1). */
function disc(r: number): number[] {
  const out: number[] = [];
  const rr = (r + 0.5) * (r + 0.5);
  for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) if (dx * dx + dy * dy <= rr) out.push(dx, dy);
  return out;
}

/** Binary dilation (grow) or erosion (shrink) by a structuring element of offsets. */
function morph(mask: Uint8Array, cols: number, rows: number, se: number[], grow: boolean): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const k = r * cols + c;
      if (grow) {
        if (!mask[k]) continue;
        for (let s = 0; s < se.length; s += 2) {
          const cc = c + se[s]!;
          const rr = r + se[s + 1]!;
          if (cc >= 0 && rr >= 0 && cc < cols && rr < rows) out[rr * cols + cc] = 1;
        }
      } else {
        if (!mask[k]) continue;
        let all = 1;
        for (let s = 0; s < se.length && all; s += 2) {
          const cc = c + se[s]!;
          const rr = r + se[s + 1]!;
          if (cc < 0 || rr < 0 || cc >= cols || rr >= rows || !mask[rr * cols + cc]) all = 0;
        }
        out[k] = all;
      }
    }
  }
  return out;
}

/** Fills empty regions (4-connected) not reaching the border and smaller than `maxCells`. */
function fillSmallHoles(mask: Uint8Array, cols: number, rows: number, maxCells: number): void {
  const seen = new Uint8Array(mask.length);
  const queue = new Int32Array(mask.length);
  for (let k0 = 0; k0 < mask.length; k0++) {
    if (mask[k0] || seen[k0]) continue;
    let head = 0;
    let tail = 0;
    queue[tail++] = k0;
    seen[k0] = 1;
    let border = false;
    while (head < tail) {
      const k = queue[head++]!;
      const c = k % cols;
      const r = (k - c) / cols;
      if (c === 0 || r === 0 || c === cols - 1 || r === rows - 1) {
        border = true;
        continue;
      }
      for (const n of [k - 1, k + 1, k - cols, k + cols]) {
        if (!mask[n] && !seen[n]) {
          seen[n] = 1;
          queue[tail++] = n;
        }
      }
    }
    if (!border && tail < maxCells) for (let q = 0; q < tail; q++) mask[queue[q]!] = 1;
  }
}

/** Key of a cell of a sparse grid of `size` CRS units. */
const cellKey = (c: number, r: number) => r * 134_217_728 + c;

/**
 * Median density of building points (points per square metre) over 2 m
 * cells surrounded by building cells (roof interiors), or over every
 * occupied one when there are too few such cells.
 */
function buildingDensity(x: Float64Array, y: Float64Array, idx: Int32Array, unitToMetre: number): number {
  const size = 2 / unitToMetre;
  const counts = new Map<number, number>();
  for (const i of idx) {
    const k = cellKey(Math.floor(x[i]! / size), Math.floor(y[i]! / size));
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const inner: number[] = [];
  const all: number[] = [];
  for (const [k, n] of counts) {
    all.push(n);
    let full = true;
    for (let dr = -1; dr <= 1 && full; dr++) {
      for (let dc = -1; dc <= 1; dc++) if (!counts.has(k + dr * 134_217_728 + dc)) full = false;
    }
    if (full) inner.push(n);
  }
  const use = inner.length >= 10 ? inner : all;
  return percentile(use, 0.5) / 4;
}

/**
 * Groups building points into clusters that no gap closing can join: points
 * in 8-connected occupied cells of `size` CRS units. Returns point index
 * lists (indices into `idx`).
 */
function clusters(x: Float64Array, y: Float64Array, idx: Int32Array, size: number): Int32Array[] {
  const cellOf = new Float64Array(idx.length);
  const slot = new Map<number, number>();
  for (let q = 0; q < idx.length; q++) {
    const i = idx[q]!;
    const k = cellKey(Math.floor(x[i]! / size), Math.floor(y[i]! / size));
    cellOf[q] = k;
    if (!slot.has(k)) slot.set(k, slot.size);
  }
  const sets = new DisjointSets(slot.size);
  const find = (a: number) => sets.find(a);
  for (const [k, s] of slot) {
    for (const d of [1, 134_217_727, 134_217_728, 134_217_729]) {
      const t = slot.get(k + d);
      if (t === undefined) continue;
      sets.union(s, t);
    }
  }
  const groups = new Map<number, number[]>();
  for (let q = 0; q < idx.length; q++) {
    const root = find(slot.get(cellOf[q]!)!);
    const list = groups.get(root);
    if (list) list.push(q);
    else groups.set(root, [q]);
  }
  return [...groups.values()].map((g) => Int32Array.from(g));
}

/** What one cluster hands back before ids are given. */
type Found = Omit<Building, 'buildingId'>;

/** Shared inputs of the cluster passes. */
interface Scene {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  dtm: Raster | null;
  hu: number;
  vu: number;
  closing: number;
  simplification: BuildingSimplification;
  signal?: AbortSignal;
}

/**
 * Building footprints of a classified cloud (`products.buildings`).
 *
 * 1. Building points (class 6 of `classes`) fill an occupancy raster of
 *    0.5 m cells; gaps are closed over 1.5 point spacings (one cell in
 *    dense clouds) and holes under {@link MIN_HOLE_AREA_M2} filled. Points
 *    too far apart for the closing to join are processed apart (memory
 *    follows the buildings, not the extent).
 * 2. Connected cells are split where neighbouring roof tops step by more than
 *    1.5 m; parts under 25 m² join the neighbour they share most edge with.
 * 3. Each building's boundary is traced along the cell edges, then
 *    simplified: URBAN by Douglas–Peucker (0.5 m) and orthogonal
 *    regularisation on the building's dominant direction; RURAL by
 *    Douglas–Peucker with a 1 m tolerance, each edge refitted (any
 *    direction) through the traced boundary it replaces.
 * 4. Attributes: area, ground elevation (DTM median), eave and ridge heights
 *    (10th and 95th percentiles of the roof points above the DTM), point
 *    count, flat or pitched roof (plane fit).
 *
 * Footprints follow the occupancy of the cells (the roof outline as the
 * cloud sees it, eaves included): on dense clouds an oblique wall lies up to
 * a quarter of a cell inside the outline.
 *
 * @example
 * const { buildings } = extractBuildings(cloud, classes, dtm, units, { simplification: 'URBAN' });
 */
export function extractBuildings(
  cloud: PointChunk,
  classes: Uint8Array,
  dtm: Raster | null,
  units: CrsUnits,
  options: BuildingsOptions = {},
  context: StepContext = {},
): BuildingsResult {
  const { x, y, z, count } = cloud;
  const hu = units.unitToMetre;
  const idxList: number[] = [];
  for (let i = 0; i < count; i++) if (classes[i] === 6) idxList.push(i);
  const empty: BuildingsResult = { buildings: [], buildingPoints: idxList.length, closingCells: 0, spacingM: 0 };
  if (idxList.length < 3) return empty;
  const idx = Int32Array.from(idxList);
  const density = buildingDensity(x, y, idx, hu);
  const spacingM = density > 0 ? 1 / Math.sqrt(density) : BUILDING_CELL_M;
  const closing = Math.max(1, Math.round((CLOSING_SPACINGS * spacingM) / BUILDING_CELL_M));
  const scene: Scene = {
    x,
    y,
    z,
    dtm,
    hu,
    vu: units.verticalUnitToMetre,
    closing,
    simplification: options.simplification ?? 'RURAL',
    ...(context.signal ? { signal: context.signal } : {}),
  };
  // A closing of `closing` cells bridges gaps under 2 × closing cells: clusters farther apart stay apart.
  const groups = clusters(x, y, idx, ((2 * closing + 2) * BUILDING_CELL_M) / hu);
  const found: Found[] = [];
  let done = 0;
  for (const g of groups) {
    if (context.signal?.aborted) throw new Cancelled();
    const members = new Int32Array(g.length);
    for (let q = 0; q < g.length; q++) members[q] = idx[g[q]!]!;
    found.push(...clusterBuildings(scene, members));
    done += g.length;
    context.progress?.(done / idx.length, 'buildings');
  }
  found.sort((a, b) => a.centroid[0] - b.centroid[0] || a.centroid[1] - b.centroid[1]);
  const buildings = found.map((f, i) => ({ buildingId: i + 1, ...f }));
  return { buildings, buildingPoints: idx.length, closingCells: closing, spacingM };
}

/** The buildings of one cluster of building points (indices into the cloud). */
function clusterBuildings(s: Scene, idx: Int32Array): Found[] {
  const { x, y, z, dtm, hu, vu, closing } = s;
  const cell = BUILDING_CELL_M / hu;
  const cellArea = BUILDING_CELL_M * BUILDING_CELL_M;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const i of idx) {
    if (x[i]! < minX) minX = x[i]!;
    if (x[i]! > maxX) maxX = x[i]!;
    if (y[i]! < minY) minY = y[i]!;
    if (y[i]! > maxY) maxY = y[i]!;
  }
  // Cells aligned on multiples of the cell; padding leaves room for the closing and an empty border.
  const pad = closing + 2;
  const c0 = Math.floor(minX / cell) - pad;
  const r0 = Math.floor(minY / cell) - pad;
  const cols = Math.floor(maxX / cell) + pad + 1 - c0;
  const rows = Math.floor(maxY / cell) + pad + 1 - r0;
  const g: Grid = { cols, rows, x0: c0 * cell, y0: r0 * cell, cell };
  const cells = cols * rows;
  const minCells = Math.ceil(MIN_BUILDING_AREA_M2 / cellArea);
  if (cells > 200_000_000) throw new Error(`buildings: a block of ${cells} cells of ${BUILDING_CELL_M} m is too large`);

  // 1. Occupancy and highest point (metres) per cell.
  const cellOf = new Int32Array(idx.length);
  const top = new Float32Array(cells).fill(Number.NaN);
  const occupied = new Uint8Array(cells);
  for (let q = 0; q < idx.length; q++) {
    const i = idx[q]!;
    const k = (Math.floor(y[i]! / cell) - r0) * cols + Math.floor(x[i]! / cell) - c0;
    cellOf[q] = k;
    occupied[k] = 1;
    const zm = z[i]! * vu;
    if (!(top[k]! >= zm)) top[k] = zm;
  }
  let occupiedCells = 0;
  for (let k = 0; k < cells; k++) occupiedCells += occupied[k]!;
  if (occupiedCells < minCells / 4) return [];
  const se = disc(closing);
  const mask = morph(morph(occupied, cols, rows, se, true), cols, rows, se, false);
  for (let k = 0; k < cells; k++) if (occupied[k]) mask[k] = 1;
  fillSmallHoles(mask, cols, rows, Math.ceil(MIN_HOLE_AREA_M2 / cellArea));
  // Heights of cells without points: the mean of their neighbours', ring by ring inwards.
  {
    let frontier: number[] = [];
    for (let k = 0; k < cells; k++) if (mask[k] && Number.isNaN(top[k]!)) frontier.push(k);
    for (let pass = 0; frontier.length > 0 && pass < 1000; pass++) {
      const next: number[] = [];
      const fill: [number, number][] = [];
      for (const k of frontier) {
        let sum = 0;
        let n = 0;
        for (const nb of [k - 1, k + 1, k - cols, k + cols]) {
          const v = top[nb]!;
          if (!Number.isNaN(v)) {
            sum += v;
            n++;
          }
        }
        if (n > 0) fill.push([k, sum / n]);
        else next.push(k);
      }
      if (fill.length === 0) break;
      for (const [k, v] of fill) top[k] = v;
      frontier = next;
    }
    for (const k of frontier) mask[k] = 0;
  }

  // 2. Buildings: connected cells without a roof-height step between them.
  const label = new Int32Array(cells).fill(-1);
  const queue = new Int32Array(cells);
  let labels = 0;
  for (let k0 = 0; k0 < cells; k0++) {
    if (!mask[k0] || label[k0]! >= 0) continue;
    let head = 0;
    let tail = 0;
    queue[tail++] = k0;
    label[k0] = labels;
    while (head < tail) {
      const k = queue[head++]!;
      const h = top[k]!;
      for (const n of [k - 1, k + 1, k - cols, k + cols]) {
        if (mask[n] && label[n]! < 0 && Math.abs(top[n]! - h) <= HEIGHT_STEP_M) {
          label[n] = labels;
          queue[tail++] = n;
        }
      }
    }
    labels++;
  }
  mergeSmallParts(label, labels, cols, rows, Math.ceil(MIN_SPLIT_AREA_M2 / cellArea));
  if (s.signal?.aborted) throw new Cancelled();

  // Cells of each building, by label.
  const area = new Int32Array(labels);
  for (let k = 0; k < cells; k++) if (label[k]! >= 0) area[label[k]!]!++;
  const building = new Int32Array(labels).fill(-1);
  let nb = 0;
  for (let l = 0; l < labels; l++) if (area[l]! >= minCells) building[l] = nb++;
  if (nb === 0) return [];
  const bbox = new Int32Array(4 * nb);
  for (let b = 0; b < nb; b++) {
    bbox[4 * b] = cols;
    bbox[4 * b + 1] = rows;
    bbox[4 * b + 2] = -1;
    bbox[4 * b + 3] = -1;
  }
  const cellBuilding = new Int32Array(cells).fill(-1);
  for (let k = 0; k < cells; k++) {
    const l = label[k]!;
    if (l < 0 || building[l]! < 0) continue;
    const b = building[l]!;
    cellBuilding[k] = b;
    const c = k % cols;
    const r = (k - c) / cols;
    if (c < bbox[4 * b]!) bbox[4 * b] = c;
    if (r < bbox[4 * b + 1]!) bbox[4 * b + 1] = r;
    if (c > bbox[4 * b + 2]!) bbox[4 * b + 2] = c;
    if (r > bbox[4 * b + 3]!) bbox[4 * b + 3] = r;
  }

  // Points per building: counts, roof heights above the DTM, plane-fit samples.
  const pointCount = new Int32Array(nb);
  const roofHag: number[][] = Array.from({ length: nb }, () => []);
  const roofPts: number[][] = Array.from({ length: nb }, () => []);
  for (let q = 0; q < idx.length; q++) {
    const b = cellBuilding[cellOf[q]!]!;
    if (b < 0) continue;
    pointCount[b]!++;
    const i = idx[q]!;
    const zm = z[i]! * vu;
    if (zm < top[cellOf[q]!]! - ROOF_BAND_M) continue;
    roofPts[b]!.push(x[i]! * hu, y[i]! * hu, zm);
    if (dtm) {
      const gz = sampleBilinear(dtm, x[i]!, y[i]!);
      if (!Number.isNaN(gz)) roofHag[b]!.push(zm - gz * vu);
    }
  }

  // 3. Outlines and attributes.
  const out: Found[] = [];
  const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;
  for (let b = 0; b < nb; b++) {
    if (s.signal?.aborted) throw new Cancelled();
    const bc = bbox[4 * b]! - 1;
    const br = bbox[4 * b + 1]! - 1;
    const w = bbox[4 * b + 2]! - bc + 2;
    const h = bbox[4 * b + 3]! - br + 2;
    const local = new Uint8Array(w * h);
    for (let r = 1; r < h - 1; r++) {
      for (let c = 1; c < w - 1; c++) if (cellBuilding[(br + r) * cols + bc + c] === b) local[r * w + c] = 1;
    }
    removeSaddles(local, w, h);
    const rings = outline(local, w, h, s.simplification);
    if (!rings) continue;
    // Local metres to the CRS.
    const ox = g.x0 + bc * cell;
    const oy = g.y0 + br * cell;
    const toCrs = (ring: Ring): number[][] => {
      const pts: number[][] = [];
      for (let i = 0; i < ring.length; i += 2) pts.push([ox + ring[i]! / hu, oy + ring[i + 1]! / hu]);
      pts.push([...pts[0]!]);
      return pts;
    };
    let areaM2 = 0;
    for (const ring of rings) areaM2 += ringArea(ring);
    const [cx, cy] = ringCentroid(rings[0]!);
    const ground: number[] = [];
    if (dtm) {
      const stride = Math.max(1, Math.floor((w * h) / 4000));
      for (let k = 0; k < w * h; k += stride) {
        if (!local[k]) continue;
        const c = k % w;
        const r = (k - c) / w;
        const v = sampleBilinear(dtm, g.x0 + (bc + c + 0.5) * cell, g.y0 + (br + r + 0.5) * cell);
        if (!Number.isNaN(v)) ground.push(v);
      }
    }
    const hag = roofHag[b]!;
    out.push({
      rings: rings.map(toCrs),
      area: round(areaM2, 1),
      groundZ: ground.length > 0 ? round(percentile(ground, 0.5), 2) : null,
      eaveHeight: hag.length > 0 ? round(percentile(hag, EAVE_PERCENTILE), 2) : null,
      ridgeHeight: hag.length > 0 ? round(percentile(hag, RIDGE_PERCENTILE), 2) : null,
      pointCount: pointCount[b]!,
      roofType: roofType(roofPts[b]!),
      centroid: [ox + cx / hu, oy + cy / hu],
    });
  }
  return out;
}

/** Centroid of a ring. */
function ringCentroid(ring: Ring): [number, number] {
  const n = ring.length / 2;
  let a2 = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const f = ring[2 * j]! * ring[2 * i + 1]! - ring[2 * i]! * ring[2 * j + 1]!;
    a2 += f;
    cx += (ring[2 * j]! + ring[2 * i]!) * f;
    cy += (ring[2 * j + 1]! + ring[2 * i + 1]!) * f;
  }
  return a2 === 0 ? [ring[0]!, ring[1]!] : [cx / (3 * a2), cy / (3 * a2)];
}

/**
 * Joins labelled parts smaller than `minCells` to the neighbouring part they
 * share the most cell edges with, smallest first, until none is left
 * (isolated small parts stay as they are).
 */
function mergeSmallParts(label: Int32Array, labels: number, cols: number, rows: number, minCells: number): void {
  const sets = new DisjointSets(labels);
  const find = (a: number) => sets.find(a);
  for (let pass = 0; pass < 50; pass++) {
    const area = new Int32Array(labels);
    for (let k = 0; k < label.length; k++) if (label[k]! >= 0) area[find(label[k]!)]!++;
    const shared = new Map<number, Map<number, number>>();
    const add = (a: number, b: number) => {
      if (area[a]! >= minCells) return;
      let m = shared.get(a);
      if (!m) {
        m = new Map();
        shared.set(a, m);
      }
      m.set(b, (m.get(b) ?? 0) + 1);
    };
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const k = r * cols + c;
        if (label[k]! < 0) continue;
        const a = find(label[k]!);
        for (const n of c + 1 < cols ? [k + 1, k + cols] : [k + cols]) {
          if (n >= label.length || label[n]! < 0) continue;
          const bb = find(label[n]!);
          if (bb === a) continue;
          add(a, bb);
          add(bb, a);
        }
      }
    }
    if (shared.size === 0) break;
    const small = [...shared.keys()].sort((a, b) => area[a]! - area[b]!);
    const merged = new Set<number>();
    for (const a of small) {
      if (merged.has(a)) continue;
      let best = -1;
      let bestN = 0;
      for (const [bb, n] of shared.get(a)!) {
        if (n > bestN || (n === bestN && area[bb]! > area[best]!)) {
          best = bb;
          bestN = n;
        }
      }
      if (best < 0 || merged.has(best)) continue;
      sets.parent[a] = best;
      merged.add(a);
      merged.add(best);
    }
    if (merged.size === 0) break;
  }
  for (let k = 0; k < label.length; k++) if (label[k]! >= 0) label[k] = find(label[k]!);
}

/** Point-in-ring test (even-odd). */
function inside(ring: Ring, px: number, py: number): boolean {
  let odd = false;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const yi = ring[2 * i + 1]!;
    const yj = ring[2 * j + 1]!;
    if (yi > py !== yj > py) {
      const xi = ring[2 * i]!;
      const xj = ring[2 * j]!;
      if (px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) odd = !odd;
    }
  }
  return odd;
}

/**
 * Outer ring then holes of one building's cells (local cell raster), in
 * local metres, simplified. Null when nothing usable is left.
 */
function outline(local: Uint8Array, w: number, h: number, mode: BuildingSimplification): Ring[] | null {
  const traced = traceRings(local, w, h).map((r) => r.map((v) => v * BUILDING_CELL_M));
  let outer: Ring | null = null;
  let outerArea = 0;
  const holes: Ring[] = [];
  for (const r of traced) {
    const a = ringArea(r);
    if (a > outerArea) {
      if (outer) holes.push(outer);
      outer = r;
      outerArea = a;
    } else if (a < 0) holes.push(r);
  }
  if (!outer) return null;
  const keptHoles = holes.filter((r) => ringArea(r) < 0 && -ringArea(r) >= MIN_HOLE_AREA_M2 * 0.999);
  const raw = [outer, ...keptHoles];
  const dp = (tol: number) => raw.map((r) => dropDegenerate(pick(r, douglasPeuckerRing(r, tol))));
  const usable = (rings: Ring[]) =>
    rings.length > 0 &&
    rings.every((r) => r.length >= 6) &&
    ringArea(rings[0]!) > 0 &&
    rings.slice(1).every((r) => ringArea(r) < 0 && inside(rings[0]!, r[0]!, r[1]!)) &&
    ringsAreSimple(rings);
  // Rings of DP's vertices with each edge refitted through the boundary it replaces (see `regularizeRing`);
  // null when unusable or when the area moves by more than a fifth.
  const fitted = (tolerance: number, o: RegularizeOptions): Ring[] | null => {
    const rings: Ring[] = [];
    for (const r of raw) {
      const reg = regularizeRing(r, douglasPeuckerRing(r, tolerance), o);
      if (!reg) return null;
      rings.push(reg);
    }
    const net = rings.reduce((sum, r) => sum + ringArea(r), 0);
    const rawNet = raw.reduce((sum, r) => sum + ringArea(r), 0);
    return usable(rings) && Math.abs(net - rawNet) <= 0.2 * rawNet ? rings : null;
  };
  let result: Ring[] | null = null;
  if (mode === 'URBAN') {
    const s = SIMPLIFY.URBAN;
    const direction = dominantDirection([pick(outer, douglasPeuckerRing(outer, s.tolerance))]);
    result = fitted(s.tolerance, {
      direction,
      snapAngle: (s.snapDeg * Math.PI) / 180,
      shortEdge: s.shortEdge,
      offsetTolerance: s.offset,
      minEdge: s.minEdge,
    });
    if (!result) result = fitted(s.tolerance, FREE);
    if (!result) {
      const simple = dp(s.tolerance);
      if (usable(simple)) result = simple;
    }
  } else {
    result = fitted(SIMPLIFY.RURAL.tolerance, FREE);
    for (let tol = SIMPLIFY.RURAL.tolerance; tol >= 0.2 && !result; tol /= 2) {
      const simple = dp(tol);
      if (usable(simple)) result = simple;
    }
  }
  if (!result) result = usable(raw) ? raw : [outer];
  // Keep holes that are still courtyards after simplification.
  return [result[0]!, ...result.slice(1).filter((r) => -ringArea(r) >= MIN_HOLE_AREA_M2 * 0.5)];
}

/**
 * Flat or pitched: a least-squares plane through the roof points (x, y, z
 * flat triples in metres), refitted without the points far off it (chimneys,
 * stairwells); flat when gentler than {@link FLAT_SLOPE_DEG} with most points
 * within {@link FLAT_SPREAD_M} of it.
 */
export function roofType(pts: number[]): 'flat' | 'pitched' {
  const m = pts.length / 3;
  if (m < 3) return 'flat';
  const stride = Math.max(1, Math.floor(m / 4000));
  let mx = 0;
  let my = 0;
  let mz = 0;
  let n = 0;
  for (let i = 0; i < m; i += stride) {
    mx += pts[3 * i]!;
    my += pts[3 * i + 1]!;
    mz += pts[3 * i + 2]!;
    n++;
  }
  mx /= n;
  my /= n;
  mz /= n;
  const fit = (keep: (i: number) => boolean): [number, number, number] => {
    let sxx = 0;
    let sxy = 0;
    let syy = 0;
    let sxz = 0;
    let syz = 0;
    let sz = 0;
    let k = 0;
    for (let i = 0; i < m; i += stride) {
      if (!keep(i)) continue;
      const dx = pts[3 * i]! - mx;
      const dy = pts[3 * i + 1]! - my;
      const dz = pts[3 * i + 2]! - mz;
      sxx += dx * dx;
      sxy += dx * dy;
      syy += dy * dy;
      sxz += dx * dz;
      syz += dy * dz;
      sz += dz;
      k++;
    }
    const det = sxx * syy - sxy * sxy;
    if (k < 3 || Math.abs(det) < 1e-12) return [0, 0, k > 0 ? sz / k : 0];
    const a = (sxz * syy - syz * sxy) / det;
    const b = (syz * sxx - sxz * sxy) / det;
    return [a, b, sz / k];
  };
  const residual = (p: [number, number, number], i: number) =>
    pts[3 * i + 2]! - mz - p[2] - p[0] * (pts[3 * i]! - mx) - p[1] * (pts[3 * i + 1]! - my);
  let plane = fit(() => true);
  const abs: number[] = [];
  for (let i = 0; i < m; i += stride) abs.push(Math.abs(residual(plane, i)));
  const cut = Math.max(0.3, 2 * percentile(abs, 0.5));
  const first = plane;
  plane = fit((i) => Math.abs(residual(first, i)) <= cut);
  const res: number[] = [];
  for (let i = 0; i < m; i += stride) res.push(residual(plane, i));
  const spread = percentile(res, 0.9) - percentile(res, 0.1);
  const slopeDeg = (Math.atan(Math.hypot(plane[0], plane[1])) * 180) / Math.PI;
  return slopeDeg <= FLAT_SLOPE_DEG && spread <= FLAT_SPREAD_M ? 'flat' : 'pitched';
}

/** Buildings as GeoJSON Polygon features in the cloud's CRS. */
export function* buildingFeatures(buildings: Iterable<Building>): Generator<Feature> {
  for (const b of buildings) {
    yield {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: b.rings },
      properties: {
        buildingId: b.buildingId,
        area: b.area,
        groundZ: b.groundZ,
        eaveHeight: b.eaveHeight,
        ridgeHeight: b.ridgeHeight,
        pointCount: b.pointCount,
        roofType: b.roofType,
      },
    };
  }
}

/** What the buildings product hands on (the PDF report draws the footprints). */
export interface BuildingsValue {
  /** Footprints in the cloud's CRS. */
  buildings: Building[];
  crs: CrsInfo;
}

/**
 * BUILDINGS: building footprints (GeoJSON Polygons in EPSG:4326, PostGIS
 * features) with area, ground elevation, eave and ridge heights, point count
 * and roof type, from the input's class 6 when it has buildings, else from
 * the classification; outlines simplified per `buildingSimplification`.
 */
export const buildingsProduct = defineProduct<BuildingsValue>({
  ...productEntry('buildings'),
  async run(ctx) {
    const need = ctx.need<ClassifiedCloud>('classify');
    const vendor = await inputClasses(need, ctx.input, ctx.signal);
    const classified = vendor ? { ...need, vendor } : need;
    const { dtm } = ctx.need<DtmValue>('dtm');
    const { classes, source } = buildingClasses(classified);
    const result = extractBuildings(
      classified.cloud,
      classes,
      dtm,
      classified.units,
      { simplification: ctx.options.buildingSimplification },
      { signal: ctx.signal, progress: (f) => ctx.progress(0.9 * f) },
    );
    const file = path.join(ctx.workDir, 'buildings.geojson');
    const { crs } = classified;
    const written = await writeWgs84GeoJson(file, buildingFeatures(result.buildings), crs);
    ctx.log('buildings', { buildings: written.features, source });
    return {
      files: [{ path: file, format: 'GeoJSON', extension: 'geojson', epsg: 4326, count: written.features }],
      features: () => featuresToWgs84(buildingFeatures(result.buildings), crs),
      value: { buildings: result.buildings, crs },
      figures: {
        buildings: written.features,
        source,
        buildingPoints: result.buildingPoints,
        spacingM: Math.round(result.spacingM * 100) / 100,
        closingCells: result.closingCells,
      },
    };
  },
});
