import path from 'node:path';
import { z } from 'zod';
import type { StepContext } from '../core/chunk.js';
import { Cancelled, InvalidInput } from '../core/errors.js';
import { defineProduct, type ProductContext, type ProductResult } from '../core/product.js';
import { createGridTransformer } from '../crs/grid-transformer.js';
import type { CrsInfo } from '../crs/index.js';
import { type Raster, rasterRange } from '../raster/raster.js';
import { packFlatLines } from '../writers/ewkb.js';
import type { Feature } from '../writers/geojson.writer.js';
import { copyWgs84Lines, type FlatLine, writeWgs84Lines } from '../writers/wgs84-lines.writer.js';
import { productEntry } from './catalog.js';
import { type DtmValue, featuresToWgs84, WGS84_DECIMALS } from './product-values.js';
import { contourIntervalCm } from './terrain-options.js';

/**
 * Default simplification of smoothed contours, in DTM cells (2.5 cm at
 * 0.5 m): far below the DTM's own vertical error seen on a slope, and
 * invisible at any plan scale.
 */
export const SIMPLIFY_CELLS = 0.05;

/**
 * Longest segment a simplified contour keeps, in DTM cells (2 m at 0.5 m):
 * a vertex at least this often. 7.5 M vertices of Chaikin-smoothed lines
 * become 0.97 M on the pipeline bench's DTM (a forest and a corridor, 0.5 m),
 * and the crossing search stays as cheap as on the smoothed lines.
 */
export const SEGMENT_CELLS = 4;

/** Options of {@link buildContours}; intervals in centimetres (processing form: 10–1000 cm). */
export const contoursOptionsSchema = z
  .object({
    minorCm: contourIntervalCm.default(100),
    majorCm: contourIntervalCm.default(500),
    /** Chaikin corner-cutting passes (0 keeps the raw marching-squares lines). */
    smoothing: z.number().int().min(0).max(4).default(2),
    /**
     * Douglas–Peucker tolerance of the smoothed lines, in DTM cells: the
     * vertices a smoothed line does not need to stay within it (0 keeps them
     * all; Chaikin makes four a cell).
     */
    simplify: z.number().min(0).max(1).default(SIMPLIFY_CELLS),
    /** Vertical unit of the DTM in metres (0.3048 for feet). */
    verticalUnitToMetre: z.number().positive().default(1),
  })
  .refine((o) => o.majorCm > o.minorCm, { message: 'the major interval must be larger than the minor one' });
export type ContoursOptions = z.input<typeof contoursOptionsSchema>;

/** One contour line in the DTM's CRS. */
export interface ContourLine {
  /** Elevation in the DTM's vertical unit. */
  elevation: number;
  kind: 'minor' | 'major';
  /** Flat x, y pairs. */
  coordinates: Float64Array;
  closed: boolean;
}

interface Level {
  value: number;
  kind: 'minor' | 'major';
}

/**
 * Contour lines of a DTM (`products.contours`) at the minor and major
 * intervals: marching squares between cell centres (saddles resolved by the
 * mean of the four corners, as gdal_contour does), chained into LineStrings,
 * smoothed by Chaikin corner cutting, then simplified (Douglas–Peucker within
 * a twentieth of a cell by default, less where lines crowd, and a vertex at
 * least every four cells). A line whose simplified form would cross
 * another line falls back to its exact form, so lines never cross. Minor lines
 * skip the elevations of major ones.
 *
 * @example
 * const lines = buildContours(dtm, { minorCm: 100, majorCm: 500 });
 */
export function buildContours(dtm: Raster, options: ContoursOptions = {}, context: StepContext = {}): ContourLine[] {
  const o = contoursOptionsSchema.parse(options);
  const range = rasterRange(dtm);
  if (!range) return [];
  const minorStep = o.minorCm / 100 / o.verticalUnitToMetre;
  const majorStep = o.majorCm / 100 / o.verticalUnitToMetre;
  const count = (step: number) => Math.floor(range.max / step + 1e-9) - Math.ceil(range.min / step - 1e-9);
  if (count(minorStep) > 100_000) {
    throw new InvalidInput('contours.minorCm', `${count(minorStep)} levels: the interval is too small for this relief`);
  }
  // Levels in whole centimetres (then converted) so a minor level equal to a major one is seen as such.
  const levels: Level[] = [];
  const kMin = Math.ceil(range.min / minorStep - 1e-9);
  const kMax = Math.floor(range.max / minorStep + 1e-9);
  for (let k = kMin; k <= kMax; k++) {
    const cm = k * o.minorCm;
    if (cm % o.majorCm !== 0) levels.push({ value: k * minorStep, kind: 'minor' });
  }
  const mMin = Math.ceil(range.min / majorStep - 1e-9);
  const mMax = Math.floor(range.max / majorStep + 1e-9);
  for (let m = mMin; m <= mMax; m++) levels.push({ value: m * majorStep, kind: 'major' });
  levels.sort((a, b) => a.value - b.value);
  const raw = traceLevels(dtm, levels, context);
  chainScratch = NO_CHAIN_SCRATCH;
  if (o.smoothing === 0) return raw;
  const tolerance = o.simplify * dtm.resolution;
  const allowed = tolerance > 0 ? toleranceOfCells(dtm, tolerance, minorStep) : null;
  const smooth = raw.map((line) => {
    const smoothed = chaikin(line.coordinates, line.closed, o.smoothing);
    if (!allowed) return { ...line, coordinates: smoothed };
    const each = vertexTolerances(dtm, allowed, smoothed);
    return { ...line, coordinates: simplifyLine(smoothed, each, SEGMENT_CELLS * dtm.resolution) };
  });
  chaikinScratch = new Float64Array(0);
  simplifyScratch = { keep: new Uint8Array(0), stack: new Int32Array(0) };
  tolerancesScratch = new Float64Array(0);
  // Simplified segments reach SEGMENT_CELLS: the crossing search buckets them on cells as long.
  keepNonCrossing(raw, smooth, dtm.resolution * SEGMENT_CELLS);
  return smooth;
}

/** Sides of a marching-squares quad. */
const TOP = 0;
const BOTTOM = 1;
const LEFT = 2;
const RIGHT = 3;

/**
 * Grid edge id of a side of quad (r, c): horizontal edge (r, c)-(r, c+1) is
 * 2(rW+c); vertical (r, c)-(r+1, c) is 2(rW+c)+1.
 */
function edgeId(side: number, r: number, c: number, W: number): number {
  if (side === TOP) return 2 * (r * W + c);
  if (side === BOTTOM) return 2 * ((r + 1) * W + c);
  if (side === LEFT) return 2 * (r * W + c) + 1;
  return 2 * (r * W + c + 1) + 1;
}

/**
 * The segments of one level: their ends' grid edges and coordinates, in typed
 * arrays grown by doubling (not arrays of numbers grown a push at a time,
 * copied by each young-generation collection).
 */
class SegmentList {
  edges = new Int32Array(64);
  coords = new Float64Array(128);
  /** Segment ends so far. */
  ends = 0;

  /** Adds an end: its grid edge and point. */
  end(edge: number, x: number, y: number): void {
    if (this.ends === this.edges.length) {
      const edges = new Int32Array(2 * this.ends);
      edges.set(this.edges);
      this.edges = edges;
      const coords = new Float64Array(4 * this.ends);
      coords.set(this.coords);
      this.coords = coords;
    }
    this.edges[this.ends] = edge;
    this.coords[2 * this.ends] = x;
    this.coords[2 * this.ends + 1] = y;
    this.ends++;
  }
}

/** Adds the end of a segment on a side of quad (r, c): its grid edge and the interpolated crossing point of level `L`. */
function pushCrossing(
  out: SegmentList,
  side: number,
  L: number,
  tl: number,
  tr: number,
  br: number,
  bl: number,
  r: number,
  c: number,
  W: number,
  x0: number,
  y0: number,
  res: number,
): void {
  const edge = edgeId(side, r, c, W);
  if (side === TOP) {
    const t = (L - tl) / (tr - tl);
    out.end(edge, x0 + (c + t) * res, y0 - r * res);
  } else if (side === BOTTOM) {
    const t = (L - bl) / (br - bl);
    out.end(edge, x0 + (c + t) * res, y0 - (r + 1) * res);
  } else if (side === LEFT) {
    const t = (L - tl) / (bl - tl);
    out.end(edge, x0 + c * res, y0 - (r + t) * res);
  } else {
    const t = (L - tr) / (br - tr);
    out.end(edge, x0 + (c + 1) * res, y0 - (r + t) * res);
  }
}

/** Marching squares for every level; segments chained by the grid edges they share. */
function traceLevels(dtm: Raster, levels: Level[], context: StepContext): ContourLine[] {
  const values = Float64Array.from(levels, (l) => l.value);
  /** Index of the first level >= v (the last answer first: neighbouring quads mostly share it). */
  let last = 0;
  const lowerBound = (v: number) => {
    if ((last === 0 || values[last - 1]! < v) && (last === values.length || values[last]! >= v)) return last;
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    last = lo;
    return lo;
  };
  const { width: W, height: H, data, nodata, resolution: res } = dtm;
  // Per level: segment endpoints as edge ids and coordinates.
  const segments = levels.map(() => new SegmentList());
  const x0 = dtm.originX + res / 2;
  const y0 = dtm.originY - res / 2;
  for (let r = 0; r < H - 1; r++) {
    if (context.signal?.aborted) throw new Cancelled();
    for (let c = 0; c < W - 1; c++) {
      const tl = data[r * W + c]!;
      const tr = data[r * W + c + 1]!;
      const br = data[(r + 1) * W + c + 1]!;
      const bl = data[(r + 1) * W + c]!;
      if (tl === nodata || tr === nodata || br === nodata || bl === nodata) continue;
      if (Number.isNaN(tl + tr + br + bl)) continue;
      const lo = Math.min(tl, tr, br, bl);
      const hi = Math.max(tl, tr, br, bl);
      for (let li = lowerBound(lo); li < values.length && values[li]! <= hi; li++) {
        const L = values[li]!;
        // Corners at or above the level count as above (gdal_contour's convention).
        const idx = (tl >= L ? 8 : 0) | (tr >= L ? 4 : 0) | (br >= L ? 2 : 0) | (bl >= L ? 1 : 0);
        if (idx === 0 || idx === 15) continue;
        let a: number;
        let b: number;
        // A second segment (saddles only): its two sides, else -1.
        let a2 = -1;
        let b2 = -1;
        switch (idx) {
          case 1:
          case 14:
            a = LEFT;
            b = BOTTOM;
            break;
          case 2:
          case 13:
            a = BOTTOM;
            b = RIGHT;
            break;
          case 3:
          case 12:
            a = LEFT;
            b = RIGHT;
            break;
          case 4:
          case 11:
            a = TOP;
            b = RIGHT;
            break;
          case 6:
          case 9:
            a = TOP;
            b = BOTTOM;
            break;
          case 7:
          case 8:
            a = LEFT;
            b = TOP;
            break;
          default: {
            // 5: tr and bl above; 10: tl and br above.
            const centreAbove = (tl + tr + br + bl) / 4 >= L;
            if ((idx === 5) === centreAbove) {
              a = LEFT;
              b = TOP;
              a2 = BOTTOM;
              b2 = RIGHT;
            } else {
              a = TOP;
              b = RIGHT;
              a2 = LEFT;
              b2 = BOTTOM;
            }
          }
        }
        const list = segments[li]!;
        pushCrossing(list, a, L, tl, tr, br, bl, r, c, W, x0, y0, res);
        pushCrossing(list, b, L, tl, tr, br, bl, r, c, W, x0, y0, res);
        if (a2 >= 0) {
          pushCrossing(list, a2, L, tl, tr, br, bl, r, c, W, x0, y0, res);
          pushCrossing(list, b2, L, tl, tr, br, bl, r, c, W, x0, y0, res);
        }
      }
    }
  }
  const lines: ContourLine[] = [];
  levels.forEach((level, li) => {
    const { edges, coords, ends } = segments[li]!;
    for (const line of chain(edges.subarray(0, ends), coords.subarray(0, 2 * ends))) {
      lines.push({ elevation: level.value, kind: level.kind, coordinates: line.coords, closed: line.closed });
    }
  });
  return lines;
}

/**
 * Scratch of {@link chain} kept from level to level (sort keys, partners, used
 * segments): fewer large allocations, and fewer of the collections they bring.
 */
const NO_CHAIN_SCRATCH = { keys: new Float64Array(0), partner: new Int32Array(0), used: new Uint8Array(0) };
let chainScratch = NO_CHAIN_SCRATCH;

/**
 * Joins segments sharing grid edges into polylines. A grid edge is crossed
 * once per level, so it ends at most two segments: the segment ends are
 * sorted by edge and each is paired with the other end on its edge
 * (typed arrays and one sort instead of a map of lists per edge).
 * Exported for its test.
 */
export function chain(
  edges: ArrayLike<number>,
  coords: ArrayLike<number>,
): { coords: Float64Array; closed: boolean }[] {
  const n = edges.length / 2;
  const ends = 2 * n;
  if (chainScratch.partner.length < ends) {
    chainScratch = { keys: new Float64Array(2 * ends), partner: new Int32Array(2 * ends), used: new Uint8Array(ends) };
  }
  // Sort keys: edge × ends + end index (exact below 2^53: edges and ends stay under 2^26 each).
  const keys = chainScratch.keys.subarray(0, ends);
  for (let j = 0; j < ends; j++) keys[j] = edges[j]! * ends + j;
  keys.sort();
  /** The other segment end on the same grid edge, or -1. */
  const partner = chainScratch.partner.fill(-1, 0, ends);
  for (let k = 0; k + 1 < ends; k++) {
    const j = keys[k]! % ends;
    const next = keys[k + 1]! % ends;
    if (edges[j] === edges[next]) {
      partner[j] = next;
      partner[next] = j;
      k++;
    }
  }
  const used = chainScratch.used.fill(0, 0, n);
  const out: { coords: Float64Array; closed: boolean }[] = [];
  /**
   * Points of the line being joined, walking forward (x, y) and backward (y, x: reversed at the end), in
   * scratch arrays grown as needed (no array per line).
   */
  let forward = new Float64Array(1024);
  let backward = new Float64Array(1024);
  let forwardLength = 0;
  let backwardLength = 0;
  /** Walks from end `j` (entered through its edge) along unused segments; adds points; returns the last edge reached. */
  const walk = (j: number, ahead: boolean): number => {
    let edge = edges[j]!;
    for (;;) {
      const t2 = partner[j]!;
      if (t2 < 0) break;
      const t = t2 >> 1;
      if (used[t]) break;
      used[t] = 1;
      // Entered through end t2: leave through the segment's other end.
      const leave = t2 ^ 1;
      const x = coords[2 * leave]!;
      const y = coords[2 * leave + 1]!;
      if (ahead) {
        if (forwardLength + 2 > forward.length) forward = grown(forward);
        forward[forwardLength++] = x;
        forward[forwardLength++] = y;
      } else {
        if (backwardLength + 2 > backward.length) backward = grown(backward);
        backward[backwardLength++] = y;
        backward[backwardLength++] = x;
      }
      edge = edges[leave]!;
      j = leave;
    }
    return edge;
  };
  for (let s0 = 0; s0 < n; s0++) {
    if (used[s0]) continue;
    used[s0] = 1;
    // Walk forward from the segment's second end, then backward from its first.
    for (let k = 0; k < 4; k++) forward[k] = coords[4 * s0 + k]!;
    forwardLength = 4;
    backwardLength = 0;
    const last = walk(2 * s0 + 1, true);
    const closed = last === edges[2 * s0]!;
    if (!closed) walk(2 * s0, false);
    // A ring's walk ends on its first point, so it is already closed.
    const all = new Float64Array(backwardLength + forwardLength);
    for (let i = 0; i < backwardLength; i++) all[i] = backward[backwardLength - 1 - i]!;
    all.set(forward.subarray(0, forwardLength), backwardLength);
    out.push({ coords: all, closed });
  }
  return out;
}

/** A copy of `a` twice as long. */
function grown(a: Float64Array): Float64Array<ArrayBuffer> {
  const b = new Float64Array(2 * a.length);
  b.set(a);
  return b;
}

/**
 * Scratch of the passes of {@link chaikin} before the last, kept from line to
 * line: an array per pass and line was half the memory the contours allocate,
 * and the collections that many allocations bring.
 */
let chaikinScratch = new Float64Array(0);

/** Chaikin corner cutting; open lines keep their end points, rings stay closed. */
export function chaikin(coords: Float64Array, closed: boolean, passes: number): Float64Array {
  let pts = coords;
  /** Values of `pts` (the scratch is longer than the points it holds). */
  let length = coords.length;
  for (let p = 0; p < passes; p++) {
    const n = length / 2;
    if (n < 3) return pts === coords ? pts : pts.slice(0, length);
    const segs = n - 1;
    // Two points per segment (an open line's end points stand for its outer cuts); a ring repeats its first.
    const size = 4 * segs + (closed ? 2 : 0);
    let out: Float64Array;
    if (p === passes - 1) out = new Float64Array(size);
    else {
      // The scratch cannot be read and written by the same pass: a pass reads the one before it.
      if (pts === chaikinScratch || chaikinScratch.length < size) chaikinScratch = new Float64Array(2 * size);
      out = chaikinScratch;
    }
    let o = 0;
    if (!closed) {
      out[o++] = pts[0]!;
      out[o++] = pts[1]!;
    }
    for (let s = 0; s < segs; s++) {
      const ax = pts[2 * s]!;
      const ay = pts[2 * s + 1]!;
      const bx = pts[2 * s + 2]!;
      const by = pts[2 * s + 3]!;
      if (closed || s > 0) {
        out[o++] = 0.75 * ax + 0.25 * bx;
        out[o++] = 0.75 * ay + 0.25 * by;
      }
      if (closed || s < segs - 1) {
        out[o++] = 0.25 * ax + 0.75 * bx;
        out[o++] = 0.25 * ay + 0.75 * by;
      }
    }
    if (!closed) {
      out[o++] = pts[2 * n - 2]!;
      out[o++] = pts[2 * n - 1]!;
    } else {
      out[o++] = out[0]!;
      out[o++] = out[1]!;
    }
    pts = out;
    length = size;
  }
  return pts === chaikinScratch ? pts.slice(0, length) : pts;
}

/** Share of the local spacing of contour lines a simplified line may move by: neighbours keep half of it. */
const SPACING_SHARE = 0.25;

/**
 * How far a contour may be simplified in each DTM cell: `tolerance`, or less
 * where lines crowd, a quarter of their spacing there (the minor interval
 * over the steepest gradient of the cell and its eight neighbours), so
 * simplified neighbours keep apart and the crossing search has little to
 * put back (on the bench's DTM, lines 2.5 cm from each other on its steps).
 */
export function toleranceOfCells(dtm: Raster, tolerance: number, minorStep: number): Float32Array {
  const { width: W, height: H, data, nodata, resolution } = dtm;
  const gradient = new Float32Array(W * H);
  const at = (r: number, c: number) => {
    const v = data[r * W + c]!;
    return v === nodata ? Number.NaN : v;
  };
  for (let r = 0; r < H; r++) {
    for (let c = 0; c < W; c++) {
      const z = at(r, c);
      if (Number.isNaN(z)) continue;
      // Central differences, one-sided at an edge or beside nodata.
      const w = c > 0 ? at(r, c - 1) : Number.NaN;
      const e = c + 1 < W ? at(r, c + 1) : Number.NaN;
      const n = r > 0 ? at(r - 1, c) : Number.NaN;
      const s = r + 1 < H ? at(r + 1, c) : Number.NaN;
      const gx =
        !Number.isNaN(w) && !Number.isNaN(e) ? (e - w) / 2 : !Number.isNaN(e) ? e - z : !Number.isNaN(w) ? z - w : 0;
      const gy =
        !Number.isNaN(n) && !Number.isNaN(s) ? (s - n) / 2 : !Number.isNaN(s) ? s - z : !Number.isNaN(n) ? z - n : 0;
      gradient[r * W + c] = Math.hypot(gx, gy) / resolution;
    }
  }
  // The steepest of each cell's 3 × 3 (rows, then columns), as the limit of the cell.
  const rows = new Float32Array(W * H);
  for (let r = 0; r < H; r++) {
    for (let c = 0; c < W; c++) {
      let g = gradient[r * W + c]!;
      if (c > 0) g = Math.max(g, gradient[r * W + c - 1]!);
      if (c + 1 < W) g = Math.max(g, gradient[r * W + c + 1]!);
      rows[r * W + c] = g;
    }
  }
  const out = gradient;
  for (let r = 0; r < H; r++) {
    for (let c = 0; c < W; c++) {
      let g = rows[r * W + c]!;
      if (r > 0) g = Math.max(g, rows[(r - 1) * W + c]!);
      if (r + 1 < H) g = Math.max(g, rows[(r + 1) * W + c]!);
      const spacing = g > 0 ? minorStep / g : Number.POSITIVE_INFINITY;
      out[r * W + c] = Math.max(1e-6 * resolution, Math.min(tolerance, SPACING_SHARE * spacing));
    }
  }
  return out;
}

/** Scratch of {@link vertexTolerances}, kept from line to line. */
let tolerancesScratch = new Float64Array(0);

/** The tolerance of each vertex of a line: that of the DTM cell it lies in (the nearest cell off the grid). */
export function vertexTolerances(dtm: Raster, allowed: Float32Array, coords: Float64Array): Float64Array {
  const n = coords.length / 2;
  if (tolerancesScratch.length < n) tolerancesScratch = new Float64Array(2 * n);
  const out = tolerancesScratch;
  const { width: W, height: H, originX, originY, resolution } = dtm;
  for (let i = 0; i < n; i++) {
    const c = Math.min(W - 1, Math.max(0, Math.floor((coords[2 * i]! - originX) / resolution)));
    const r = Math.min(H - 1, Math.max(0, Math.floor((originY - coords[2 * i + 1]!) / resolution)));
    out[i] = allowed[r * W + c]!;
  }
  return out;
}

/** Squared distance from vertex `i` of a line to its segment from vertex `a` to vertex `b`. */
function distanceToSegment(coords: Float64Array, i: number, a: number, b: number): number {
  const ax = coords[2 * a]!;
  const ay = coords[2 * a + 1]!;
  const dx = coords[2 * b]! - ax;
  const dy = coords[2 * b + 1]! - ay;
  const px = coords[2 * i]! - ax;
  const py = coords[2 * i + 1]! - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
  const ex = px - t * dx;
  const ey = py - t * dy;
  return ex * ex + ey * ey;
}

/** Scratch of {@link simplifyLine}, kept from line to line. */
let simplifyScratch = { keep: new Uint8Array(0), stack: new Int32Array(0) };

/**
 * Douglas–Peucker: the vertices of a line (flat x, y pairs) that keep it
 * within `tolerance` of every vertex left out (one for all, or one per
 * vertex, each above 0), and no segment longer than
 * `maxSegment` (cut in the middle of its vertices); both end points stay (a
 * ring, which repeats its first point, stays closed and keeps a triangle at
 * least). Returns the line
 * itself when every vertex stays.
 */
export function simplifyLine(
  coords: Float64Array,
  tolerance: number | Float64Array,
  maxSegment = Number.POSITIVE_INFINITY,
): Float64Array {
  const n = coords.length / 2;
  if (n <= 2) return coords;
  const each = typeof tolerance === 'number' ? null : tolerance;
  const t2 = typeof tolerance === 'number' ? tolerance * tolerance : 0;
  if (simplifyScratch.keep.length < n) {
    simplifyScratch = { keep: new Uint8Array(2 * n), stack: new Int32Array(4 * n) };
  }
  const { keep, stack } = simplifyScratch;
  keep.fill(0, 0, n);
  keep[0] = 1;
  keep[n - 1] = 1;
  let top = 0;
  stack[top++] = 0;
  stack[top++] = n - 1;
  let kept = 2;
  while (top > 0) {
    const b = stack[--top]!;
    const a = stack[--top]!;
    if (b - a < 2) continue;
    const dx = coords[2 * b]! - coords[2 * a]!;
    const dy = coords[2 * b + 1]! - coords[2 * a + 1]!;
    const len2 = dx * dx + dy * dy;
    // The vertex farthest beyond its tolerance (the farthest of all with one tolerance), if any is beyond.
    let far = -1;
    let farD = each ? 1 : t2;
    for (let i = a + 1; i < b; i++) {
      // Distance to the segment (not the infinite line): a hairpin's tip is kept.
      let d2 = distanceToSegment(coords, i, a, b);
      if (each) d2 /= each[i]! * each[i]!;
      if (d2 > farD) {
        farD = d2;
        far = i;
      }
    }
    if (far < 0) {
      // Within the tolerance, but longer than a segment may be: cut in the middle.
      if (len2 <= maxSegment * maxSegment) continue;
      far = (a + b) >> 1;
    }
    keep[far] = 1;
    kept++;
    stack[top++] = a;
    stack[top++] = far;
    stack[top++] = far;
    stack[top++] = b;
  }
  // A ring (its last point its first) keeps a triangle at least: not a spike there and back.
  const ring = coords[0] === coords[2 * n - 2] && coords[1] === coords[2 * n - 1];
  while (ring && kept < 4 && n >= 4) {
    let far = -1;
    let farD = -1;
    let a = 0;
    for (let i = 1; i < n - 1; i++) {
      if (keep[i]) {
        a = i;
        continue;
      }
      let b = i + 1;
      while (!keep[b]) b++;
      const d = distanceToSegment(coords, i, a, b);
      if (d > farD) {
        farD = d;
        far = i;
      }
    }
    if (far < 0) break;
    keep[far] = 1;
    kept++;
  }
  if (kept === n) return coords;
  const out = new Float64Array(2 * kept);
  for (let i = 0, o = 0; i < n; i++) {
    if (!keep[i]) continue;
    out[o++] = coords[2 * i]!;
    out[o++] = coords[2 * i + 1]!;
  }
  return out;
}

/**
 * True when segments p1-p2 and p3-p4 properly intersect; `dx`, `dy` are
 * x2 - x1 and y2 - y1, taken once per segment of an inner loop. The sides of
 * p3 and p4 are tested first (both use the hoisted direction).
 */
function segmentsCross(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  dx: number,
  dy: number,
  x3: number,
  y3: number,
  x4: number,
  y4: number,
): boolean {
  const d3 = dx * (y3 - y1) - dy * (x3 - x1);
  const d4 = dx * (y4 - y1) - dy * (x4 - x1);
  if (!((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return false;
  const d1 = (x4 - x3) * (y1 - y3) - (y4 - y3) * (x1 - x3);
  const d2 = (x4 - x3) * (y2 - y3) - (y4 - y3) * (x2 - x3);
  return (d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0);
}

/**
 * Segments of a line bucketed and compared as one piece (its points' box): a
 * quarter of the entries to gather and bucket, the pairs of pieces whose
 * boxes meet then compared segment by segment. {@link PIECE_STRIDE} and
 * {@link PIECE_VALUES} are its offsets in flat coordinates and its values.
 */
const PIECE_SEGMENTS = 4;
const PIECE_STRIDE = 2 * PIECE_SEGMENTS;
const PIECE_VALUES = 2 * (PIECE_SEGMENTS + 1);

/** Piece entries above which a bucket cell is split into sub-cells before comparing pairs. */
const DENSE_CELL = 128;

/** Rows of bucket cells whose segments are gathered and compared together (a band's segments stay in cache). */
const BAND_ROWS = 8;

/** The line whose coordinates hold offset `at` of them laid end to end: the last li with lineBase[li] <= at. */
function lineOfOffset(lineBase: Float64Array, n: number, at: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineBase[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Finds pairs of different lines whose current geometry crosses (pieces of
 * {@link PIECE_SEGMENTS} segments bucketed on a grid of `cell` by their box)
 * and puts the raw, never-crossing geometry back on both, until no crossing
 * is left (at most 8 rounds). The grid is taken in bands of
 * {@link BAND_ROWS} rows: the pieces of a band are first copied side by side
 * (line by line, as they lie in memory), then bucketed in its cells and
 * compared there. Two crossing segments lie in pieces whose boxes both hold
 * the crossing point, so both cover its cell. Exported for its test.
 */
export function keepNonCrossing(raw: ContourLine[], lines: ContourLine[], cell: number): void {
  // Buckets as one grid over every vertex (raw and smoothed).
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const set of [raw, lines]) {
    for (const line of set) {
      const c = line.coordinates;
      for (let i = 0; i + 1 < c.length; i += 2) {
        minX = Math.min(minX, c[i]!);
        maxX = Math.max(maxX, c[i]!);
        minY = Math.min(minY, c[i + 1]!);
        maxY = Math.max(maxY, c[i + 1]!);
      }
    }
  }
  if (!(minX <= maxX)) return;
  const c0 = Math.floor(minX / cell);
  const r0 = Math.floor(minY / cell);
  const cols = Math.floor(maxX / cell) - c0 + 1;
  const rows = Math.floor(maxY / cell) - r0 + 1;
  const bands = Math.ceil(rows / BAND_ROWS);
  const bandCells = BAND_ROWS * cols;
  const n = lines.length;
  /** Lines whose geometry changed in the last round (every line before the first). */
  const changed = new Uint8Array(n).fill(1);
  /** Per line in this round: its coordinates, and 1 when they are the raw ones. */
  const coordsOf: Float64Array[] = new Array(n);
  const isRaw = new Uint8Array(n);
  /**
   * The pieces of the band being tested: points ({@link PIECE_VALUES} values per entry) and their count,
   * least and greatest x, least and greatest y, line, flags (1: changed, 2: raw), and the columns and rows
   * (of the band) of the cells it covers.
   */
  let entryXY = new Float64Array(0);
  let entryPoints = new Uint8Array(0);
  let entryBox = new Float64Array(0);
  let entryLine = new Int32Array(0);
  let entryFlags = new Uint8Array(0);
  let entryCells = new Int32Array(0);
  /** The band's cells: their entries, cell by cell (counted, then filled). */
  const cellStart = new Int32Array(bandCells + 1);
  const cellFill = new Int32Array(bandCells);
  let cellEntry = new Int32Array(0);
  /** Offset of each line's first x in the lines' coordinates laid end to end, and their total length last. */
  const lineBase = new Float64Array(n + 1);
  /** Scratch of the dense cells, grown as needed. */
  let range = new Int32Array(0);
  let subStart = new Int32Array(0);
  let subFill = new Int32Array(0);
  let subEntry = new Int32Array(0);
  for (let round = 0; round < 8; round++) {
    for (let li = 0; li < n; li++) {
      coordsOf[li] = lines[li]!.coordinates;
      isRaw[li] = lines[li] === raw[li] ? 1 : 0;
    }
    // Every band each piece's rows cover, in line and piece order: counted, then filled. The row of the
    // least y is the least row of the piece's points (the row of a coordinate is monotonic in it).
    const bandStart = new Int32Array(bands + 1);
    // Bands holding a piece of a line changed in the last round: in any other, every pair was tested as it is.
    const bandChanged = new Uint8Array(bands);
    for (let li = 0; li < n; li++) {
      const c = coordsOf[li]!;
      if (c.length < 4) continue;
      let rowA = Math.floor(c[1]! / cell) - r0;
      for (let s = 0; s + 3 < c.length; s += PIECE_STRIDE) {
        let least = rowA;
        let most = rowA;
        const end = Math.min(s + PIECE_STRIDE, c.length - 2);
        for (let t = s + 3; t <= end + 1; t += 2) {
          rowA = Math.floor(c[t]! / cell) - r0;
          if (rowA < least) least = rowA;
          else if (rowA > most) most = rowA;
        }
        const last = (most / BAND_ROWS) | 0;
        for (let b = (least / BAND_ROWS) | 0; b <= last; b++) {
          bandStart[b + 1]!++;
          bandChanged[b] |= changed[li]!;
        }
      }
    }
    for (let b = 0; b < bands; b++) bandStart[b + 1]! += bandStart[b]!;
    const bandFill = bandStart.slice(0, bands);
    // A piece as one number: the offset of its first x in the lines' coordinates laid end to end (lineBase[li]
    // is that of line li), not a line and an offset (one array of a band's pieces to scatter, not two).
    lineBase[0] = 0;
    for (let li = 0; li < n; li++) lineBase[li + 1] = lineBase[li]! + coordsOf[li]!.length;
    const pieceOf = new Int32Array(bandStart[bands]!);
    for (let li = 0; li < n; li++) {
      const c = coordsOf[li]!;
      if (c.length < 4) continue;
      const base = lineBase[li]!;
      let rowA = Math.floor(c[1]! / cell) - r0;
      for (let s = 0; s + 3 < c.length; s += PIECE_STRIDE) {
        let least = rowA;
        let most = rowA;
        const end = Math.min(s + PIECE_STRIDE, c.length - 2);
        for (let t = s + 3; t <= end + 1; t += 2) {
          rowA = Math.floor(c[t]! / cell) - r0;
          if (rowA < least) least = rowA;
          else if (rowA > most) most = rowA;
        }
        const last = (most / BAND_ROWS) | 0;
        for (let b = (least / BAND_ROWS) | 0; b <= last; b++) pieceOf[bandFill[b]!++] = base + s;
      }
    }
    const revert = new Set<number>();
    for (let b = 0; b < bands; b++) {
      const begin = bandStart[b]!;
      const m = bandStart[b + 1]! - begin;
      if (m < 2 || bandChanged[b] === 0) continue;
      if (entryLine.length < m) {
        entryXY = new Float64Array(2 * PIECE_VALUES * m);
        entryPoints = new Uint8Array(2 * m);
        entryBox = new Float64Array(8 * m);
        entryLine = new Int32Array(2 * m);
        entryFlags = new Uint8Array(2 * m);
        entryCells = new Int32Array(8 * m);
      }
      const rowBase = b * BAND_ROWS;
      cellStart.fill(0);
      let covered = 0;
      // The band's pieces are in line order: the line of the first is searched, the others' found going on.
      let li = lineOfOffset(lineBase, n, pieceOf[begin]!);
      for (let i = 0; i < m; i++) {
        const at = pieceOf[begin + i]!;
        while (lineBase[li + 1]! <= at) li++;
        const c = coordsOf[li]!;
        const s = at - lineBase[li]!;
        const end = Math.min(s + PIECE_STRIDE, c.length - 2);
        let boxMinX = c[s]!;
        let boxMaxX = boxMinX;
        let boxMinY = c[s + 1]!;
        let boxMaxY = boxMinY;
        let o = PIECE_VALUES * i;
        entryXY[o++] = boxMinX;
        entryXY[o++] = boxMinY;
        for (let t = s + 2; t <= end; t += 2) {
          const x = c[t]!;
          const y = c[t + 1]!;
          entryXY[o++] = x;
          entryXY[o++] = y;
          if (x < boxMinX) boxMinX = x;
          else if (x > boxMaxX) boxMaxX = x;
          if (y < boxMinY) boxMinY = y;
          else if (y > boxMaxY) boxMaxY = y;
        }
        entryPoints[i] = (end - s) / 2 + 1;
        entryBox[4 * i] = boxMinX;
        entryBox[4 * i + 1] = boxMaxX;
        entryBox[4 * i + 2] = boxMinY;
        entryBox[4 * i + 3] = boxMaxY;
        entryLine[i] = li;
        entryFlags[i] = changed[li]! | (isRaw[li]! << 1);
        const minC = Math.floor(boxMinX / cell) - c0;
        const maxC = Math.floor(boxMaxX / cell) - c0;
        const minR = Math.max(0, Math.floor(boxMinY / cell) - r0 - rowBase);
        const maxR = Math.min(BAND_ROWS - 1, Math.floor(boxMaxY / cell) - r0 - rowBase);
        entryCells[4 * i] = minC;
        entryCells[4 * i + 1] = maxC;
        entryCells[4 * i + 2] = minR;
        entryCells[4 * i + 3] = maxR;
        for (let by = minR; by <= maxR; by++) {
          for (let bx = minC; bx <= maxC; bx++) cellStart[by * cols + bx + 1]!++;
        }
        covered += (maxC - minC + 1) * (maxR - minR + 1);
      }
      for (let k = 0; k < bandCells; k++) cellStart[k + 1]! += cellStart[k]!;
      cellFill.set(cellStart.subarray(0, bandCells));
      if (cellEntry.length < covered) cellEntry = new Int32Array(2 * covered);
      for (let i = 0; i < m; i++) {
        for (let by = entryCells[4 * i + 2]!; by <= entryCells[4 * i + 3]!; by++) {
          for (let bx = entryCells[4 * i]!; bx <= entryCells[4 * i + 1]!; bx++) {
            cellEntry[cellFill[by * cols + bx]!++] = i;
          }
        }
      }
      for (let k = 0; k < bandCells; k++) {
        const from = cellStart[k]!;
        const to = cellStart[k + 1]!;
        // A cell's entries are in line order: the first and the last of one line are a cell of that line alone.
        if (to - from < 2 || entryLine[cellEntry[from]!] === entryLine[cellEntry[to - 1]!]) continue;
        if (to - from > DENSE_CELL) denseCell(k, rowBase, from, to);
        else sweep(cellEntry, from, to);
      }
    }
    /**
     * Entries list[from..to) of the band compared with each other, swept along
     * x or y, the axis along which their boxes are the shortest in total (fewer
     * pairs to look at): sorted there in order of their least coordinate on
     * that axis, each is compared only with the next ones whose least
     * coordinate is at most its greatest and whose range on the other axis
     * meets its own (pieces with disjoint boxes cannot cross, and pieces
     * whose boxes meet share a cell), then segment by segment. The test of a
     * pair is the same either way round ({@link segmentsCross} computes the
     * same four products).
     */
    function sweep(list: Int32Array, from: number, to: number): void {
      // The band's arrays as constants here (not reloaded from the closure at each step of the loops).
      const box = entryBox;
      const xy = entryXY;
      const lineOf = entryLine;
      const flags = entryFlags;
      const points = entryPoints;
      let spanX = 0;
      let spanY = 0;
      for (let i = from; i < to; i++) {
        const e = 4 * list[i]!;
        spanX += box[e + 1]! - box[e]!;
        spanY += box[e + 3]! - box[e + 2]!;
      }
      // Offsets in a box of the least coordinate on the sweep axis (`along`) and on the other one (`across`).
      const along = spanY < spanX ? 2 : 0;
      const across = 2 - along;
      for (let i = from + 1; i < to; i++) {
        const e = list[i]!;
        const v = box[4 * e + along]!;
        let j = i;
        for (; j > from && box[4 * list[j - 1]! + along]! > v; j--) list[j] = list[j - 1]!;
        list[j] = e;
      }
      for (let ai = from; ai + 1 < to; ai++) {
        const a = list[ai]!;
        const la = lineOf[a]!;
        const flagsA = flags[a]!;
        const firstA = PIECE_VALUES * a;
        const lastA = firstA + 2 * points[a]! - 2;
        const maxAlong = box[4 * a + along + 1]!;
        const minAcross = box[4 * a + across]!;
        const maxAcross = box[4 * a + across + 1]!;
        for (let bi = ai + 1; bi < to; bi++) {
          const b = list[bi]!;
          if (box[4 * b + along]! > maxAlong) break;
          const lb = lineOf[b]!;
          if (lb === la) continue;
          const flagsB = flags[b]!;
          if (!((flagsA | flagsB) & 1) || flagsA & flagsB & 2) continue;
          if (box[4 * b + across]! > maxAcross || box[4 * b + across + 1]! < minAcross) continue;
          const firstB = PIECE_VALUES * b;
          const lastB = firstB + 2 * points[b]! - 2;
          // Every segment of one piece against every segment of the other (their boxes meet).
          pair: for (let sa = firstA; sa < lastA; sa += 2) {
            const x1 = xy[sa]!;
            const y1 = xy[sa + 1]!;
            const x2 = xy[sa + 2]!;
            const y2 = xy[sa + 3]!;
            const dx = x2 - x1;
            const dy = y2 - y1;
            for (let at = firstB; at < lastB; at += 2) {
              if (segmentsCross(x1, y1, x2, y2, dx, dy, xy[at]!, xy[at + 1]!, xy[at + 2]!, xy[at + 3]!)) {
                revert.add(la);
                revert.add(lb);
                break pair;
              }
            }
          }
        }
      }
    }
    /**
     * A cell crossed by many lines (a steep slope), cell `k` of the band of
     * rows from `rowBase`, its entries cellEntry[from..to): they are bucketed
     * again on a finer grid of s × s sub-cells, so only pieces sharing a
     * sub-cell are compared. The boxes of two pieces with crossing segments
     * both cover the sub-cell of the crossing point (the sub-cell of a
     * coordinate is monotonic in it).
     */
    function denseCell(k: number, rowBase: number, from: number, to: number): void {
      const m = to - from;
      const s = Math.min(64, Math.ceil(Math.sqrt(m / 4)));
      const bx = (k % cols) + c0;
      const by = Math.floor(k / cols) + rowBase + r0;
      const sub = (v: number, base: number) => Math.min(s - 1, Math.max(0, Math.floor((v / cell - base) * s)));
      if (range.length < 4 * m) range = new Int32Array(8 * m);
      if (subStart.length < s * s + 1) {
        subStart = new Int32Array(s * s + 1);
        subFill = new Int32Array(s * s);
      } else subStart.fill(0, 0, s * s + 1);
      let total = 0;
      for (let i = 0; i < m; i++) {
        const e = cellEntry[from + i]!;
        const minC = sub(entryBox[4 * e]!, bx);
        const maxC = sub(entryBox[4 * e + 1]!, bx);
        const minR = sub(entryBox[4 * e + 2]!, by);
        const maxR = sub(entryBox[4 * e + 3]!, by);
        range[4 * i] = minC;
        range[4 * i + 1] = maxC;
        range[4 * i + 2] = minR;
        range[4 * i + 3] = maxR;
        for (let x = minC; x <= maxC; x++) for (let y = minR; y <= maxR; y++) subStart[y * s + x + 1]!++;
        total += (maxC - minC + 1) * (maxR - minR + 1);
      }
      for (let q = 0; q < s * s; q++) subStart[q + 1]! += subStart[q]!;
      subFill.set(subStart.subarray(0, s * s));
      if (subEntry.length < total) subEntry = new Int32Array(2 * total);
      for (let i = 0; i < m; i++) {
        const e = cellEntry[from + i]!;
        for (let x = range[4 * i]!; x <= range[4 * i + 1]!; x++) {
          for (let y = range[4 * i + 2]!; y <= range[4 * i + 3]!; y++) subEntry[subFill[y * s + x]!++] = e;
        }
      }
      for (let q = 0; q < s * s; q++) {
        const first = subStart[q]!;
        const end = subStart[q + 1]!;
        // In line order there too: a sub-cell of one line is skipped.
        if (end - first >= 2 && entryLine[subEntry[first]!] !== entryLine[subEntry[end - 1]!]) {
          sweep(subEntry, first, end);
        }
      }
    }
    if (revert.size === 0) return;
    // Only pairs with a line changed in this round can cross in the next: any other pair was tested as it is.
    changed.fill(0);
    for (const li of revert) {
      lines[li] = raw[li]!;
      changed[li] = 1;
    }
  }
}

/** Contour lines as GeoJSON features in the DTM's CRS (`elevation`, `kind` properties). */
export function* contourFeatures(lines: ContourLine[]): Generator<Feature> {
  for (const line of lines) {
    const c = line.coordinates;
    const coordinates: number[][] = [];
    for (let i = 0; i < c.length; i += 2) coordinates.push([c[i]!, c[i + 1]!]);
    if (coordinates.length < 2) continue;
    yield {
      type: 'Feature',
      geometry: { type: 'LineString', coordinates },
      properties: { elevation: Math.round(line.elevation * 1000) / 1000, kind: line.kind },
    };
  }
}

/** Contour lines as flat lines with the properties of {@link contourFeatures}. */
function* contourFlatLines(lines: ContourLine[]): Generator<FlatLine> {
  for (const line of lines) {
    yield {
      coordinates: line.coordinates,
      properties: { elevation: Math.round(line.elevation * 1000) / 1000, kind: line.kind },
    };
  }
}

/** What the contour product hands to the major and minor ones. */
interface ContourValue {
  lines: ContourLine[];
  crs: CrsInfo;
  /** The contours' GeoJSON and where each line's feature lies in it (see `writeWgs84Lines`), to copy from. */
  written?: { file: string; ranges: Float64Array };
}

/** A contour product's result: its GeoJSON file, and its features for PostGIS. */
function resultOf(lines: ContourLine[], crs: CrsInfo, file: string, features: number): ProductResult {
  return {
    files: [{ path: file, format: 'GeoJSON', extension: 'geojson', epsg: 4326, count: features }],
    features: () => featuresToWgs84(contourFeatures(lines), crs),
    packFeatures: () => {
      const toWgs84 = createGridTransformer(crs);
      return packFlatLines([...contourFlatLines(lines)], (x, y, z, n) => toWgs84.forward(x, y, z, n));
    },
    figures: { lines: features },
  };
}

/** Writes one contour GeoJSON (EPSG:4326) and hands its features to PostGIS; also where each line's feature lies. */
async function contourResult(
  ctx: ProductContext,
  lines: ContourLine[],
  crs: CrsInfo,
  name: string,
): Promise<ProductResult & { ranges: Float64Array; file: string }> {
  const file = path.join(ctx.workDir, `${name}.geojson`);
  // The bytes writeWgs84GeoJson(file, contourFeatures(lines), crs) writes, from the flat coordinates.
  const written = await writeWgs84Lines(file, contourFlatLines(lines), crs, WGS84_DECIMALS);
  return { ...resultOf(lines, crs, file, written.features), ranges: written.ranges, file };
}

/**
 * The major or the minor contours: their features' bytes copied from the
 * contours' GeoJSON (the same lines, already transformed and printed), or
 * written again when that file cannot be read.
 */
async function contourKindResult(ctx: ProductContext, kind: ContourLine['kind'], name: string): Promise<ProductResult> {
  const { lines, crs, written } = ctx.need<ContourValue>('contours');
  const picked: number[] = [];
  for (let i = 0; i < lines.length; i++) if (lines[i]!.kind === kind) picked.push(i);
  const kept = picked.map((i) => lines[i]!);
  if (written) {
    const file = path.join(ctx.workDir, `${name}.geojson`);
    try {
      const copied = await copyWgs84Lines(written.file, written.ranges, picked, file);
      return resultOf(kept, crs, file, copied.features);
    } catch (error) {
      ctx.log(`${name}: writing the lines again, the contours' file could not be copied from`, {
        error: (error as Error).message,
      });
    }
  }
  const { ranges: _, file: __, ...result } = await contourResult(ctx, kept, crs, name);
  return result;
}

/**
 * The lines with their coordinates moved into one shared buffer, end to end (each line's a view of it): the
 * products that read them (major and minor contours, the topographic map, the report) get that buffer, not a
 * copy of every coordinate made to cross threads beside the lines (about 1 GB each for a 1 GB survey).
 */
function shareCoordinates(lines: ContourLine[]): ContourLine[] {
  let total = 0;
  for (const line of lines) total += line.coordinates.length;
  const all = new Float64Array(new SharedArrayBuffer(total * Float64Array.BYTES_PER_ELEMENT));
  let at = 0;
  return lines.map((line) => {
    const coordinates = all.subarray(at, at + line.coordinates.length);
    coordinates.set(line.coordinates);
    at += line.coordinates.length;
    return { ...line, coordinates };
  });
}

/** CONTOUR_LINE: minor and major contours (`elevation`, `kind`), smoothed, never crossing. */
export const contoursProduct = defineProduct<ContourValue>({
  ...productEntry('contours'),
  async run(ctx) {
    const { dtm, crs, units } = ctx.need<DtmValue>('dtm');
    const lines = shareCoordinates(
      buildContours(
        dtm,
        {
          minorCm: ctx.options.contourMinorCm,
          majorCm: ctx.options.contourMajorCm,
          verticalUnitToMetre: units.verticalUnitToMetre,
        },
        { signal: ctx.signal },
      ),
    );
    const { ranges, file, ...result } = await contourResult(ctx, lines, crs, 'contours');
    return { ...result, value: { lines, crs, written: { file, ranges } } };
  },
});

/** CONTOUR_LINE_MAJOR: the major contours only. */
export const majorContoursProduct = defineProduct({
  ...productEntry('contours-major'),
  run: (ctx) => contourKindResult(ctx, 'major', 'contours-major'),
});

/** CONTOUR_LINE_MINOR: the minor contours only (never repeating a major one). */
export const minorContoursProduct = defineProduct({
  ...productEntry('contours-minor'),
  run: (ctx) => contourKindResult(ctx, 'minor', 'contours-minor'),
});
