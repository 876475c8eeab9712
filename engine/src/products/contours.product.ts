import path from 'node:path';
import { z } from 'zod';
import type { StepContext } from '../core/chunk.js';
import { Cancelled, InvalidInput } from '../core/errors.js';
import { defineProduct, type ProductContext, type ProductResult } from '../core/product.js';
import type { CrsInfo } from '../crs/index.js';
import { type Raster, rasterRange } from '../raster/raster.js';
import type { Feature } from '../writers/geojson.writer.js';
import { productEntry } from './catalog.js';
import { type DtmValue, featuresToWgs84, writeWgs84GeoJson } from './product-values.js';
import { contourIntervalCm } from './terrain-options.js';

/** Options of {@link buildContours}; intervals in centimetres (processing form: 10–1000 cm). */
export const contoursOptionsSchema = z
  .object({
    minorCm: contourIntervalCm.default(100),
    majorCm: contourIntervalCm.default(500),
    /** Chaikin corner-cutting passes (0 keeps the raw marching-squares lines). */
    smoothing: z.number().int().min(0).max(4).default(2),
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
 * smoothed by Chaikin corner cutting. A line whose smoothed form would cross
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
  if (o.smoothing === 0) return raw;
  const smooth = raw.map((line) => ({ ...line, coordinates: chaikin(line.coordinates, line.closed, o.smoothing) }));
  keepNonCrossing(raw, smooth, dtm.resolution);
  return smooth;
}

/** Marching squares for every level; segments chained by the grid edges they share. */
function traceLevels(dtm: Raster, levels: Level[], context: StepContext): ContourLine[] {
  const values = Float64Array.from(levels, (l) => l.value);
  /** Index of the first level >= v. */
  const lowerBound = (v: number) => {
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const { width: W, height: H, data, nodata, resolution: res } = dtm;
  // Per level: segment endpoints as edge ids and coordinates.
  const segEdges: number[][] = levels.map(() => []);
  const segCoords: number[][] = levels.map(() => []);
  const x0 = dtm.originX + res / 2;
  const y0 = dtm.originY - res / 2;
  // Edge ids: horizontal edge (r, c)-(r, c+1) is 2(rW+c); vertical (r, c)-(r+1, c) is 2(rW+c)+1.
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
        const top = 2 * (r * W + c);
        const bottom = 2 * ((r + 1) * W + c);
        const left = 2 * (r * W + c) + 1;
        const right = 2 * (r * W + c + 1) + 1;
        const px = (e: number): [number, number] => {
          // Interpolated crossing point on an edge of this quad.
          if (e === top) {
            const t = (L - tl) / (tr - tl);
            return [x0 + (c + t) * res, y0 - r * res];
          }
          if (e === bottom) {
            const t = (L - bl) / (br - bl);
            return [x0 + (c + t) * res, y0 - (r + 1) * res];
          }
          if (e === left) {
            const t = (L - tl) / (bl - tl);
            return [x0 + c * res, y0 - (r + t) * res];
          }
          const t = (L - tr) / (br - tr);
          return [x0 + (c + 1) * res, y0 - (r + t) * res];
        };
        const add = (a: number, b: number) => {
          const pa = px(a);
          const pb = px(b);
          segEdges[li]!.push(a, b);
          segCoords[li]!.push(pa[0], pa[1], pb[0], pb[1]);
        };
        switch (idx) {
          case 1:
          case 14:
            add(left, bottom);
            break;
          case 2:
          case 13:
            add(bottom, right);
            break;
          case 3:
          case 12:
            add(left, right);
            break;
          case 4:
          case 11:
            add(top, right);
            break;
          case 6:
          case 9:
            add(top, bottom);
            break;
          case 7:
          case 8:
            add(left, top);
            break;
          case 5:
          case 10: {
            const centreAbove = (tl + tr + br + bl) / 4 >= L;
            // 5: tr and bl above; 10: tl and br above.
            if ((idx === 5) === centreAbove) {
              add(left, top);
              add(bottom, right);
            } else {
              add(top, right);
              add(left, bottom);
            }
            break;
          }
        }
      }
    }
  }
  const lines: ContourLine[] = [];
  levels.forEach((level, li) => {
    for (const line of chain(segEdges[li]!, segCoords[li]!)) {
      lines.push({ elevation: level.value, kind: level.kind, coordinates: line.coords, closed: line.closed });
    }
  });
  return lines;
}

/** Joins segments sharing grid edges into polylines. */
function chain(edges: number[], coords: number[]): { coords: Float64Array; closed: boolean }[] {
  const n = edges.length / 2;
  const byEdge = new Map<number, number[]>();
  for (let s = 0; s < n; s++) {
    for (let end = 0; end < 2; end++) {
      const e = edges[2 * s + end]!;
      const list = byEdge.get(e);
      if (list) list.push(s);
      else byEdge.set(e, [s]);
    }
  }
  const used = new Uint8Array(n);
  const out: { coords: Float64Array; closed: boolean }[] = [];
  const other = (s: number, e: number) => {
    const list = byEdge.get(e)!;
    for (const t of list) if (t !== s && !used[t]) return t;
    return -1;
  };
  for (let s0 = 0; s0 < n; s0++) {
    if (used[s0]) continue;
    used[s0] = 1;
    // Walk forward from the segment's second end, then backward from its first.
    const forward: number[] = [coords[4 * s0]!, coords[4 * s0 + 1]!, coords[4 * s0 + 2]!, coords[4 * s0 + 3]!];
    let edge = edges[2 * s0 + 1]!;
    let closed = false;
    for (;;) {
      const t = other(-1, edge);
      if (t < 0) break;
      used[t] = 1;
      const flip = edges[2 * t]! !== edge;
      const nx = flip ? coords[4 * t]! : coords[4 * t + 2]!;
      const ny = flip ? coords[4 * t + 1]! : coords[4 * t + 3]!;
      edge = flip ? edges[2 * t]! : edges[2 * t + 1]!;
      forward.push(nx, ny);
    }
    if (edge === edges[2 * s0]!) closed = true;
    const backward: number[] = [];
    if (!closed) {
      edge = edges[2 * s0]!;
      for (;;) {
        const t = other(-1, edge);
        if (t < 0) break;
        used[t] = 1;
        const flip = edges[2 * t]! !== edge;
        const nx = flip ? coords[4 * t]! : coords[4 * t + 2]!;
        const ny = flip ? coords[4 * t + 1]! : coords[4 * t + 3]!;
        edge = flip ? edges[2 * t]! : edges[2 * t + 1]!;
        backward.push(ny, nx);
      }
    }
    // A ring's walk ends on its first point, so it is already closed.
    const all = backward.reverse().concat(forward);
    out.push({ coords: Float64Array.from(all), closed });
  }
  return out;
}

/** Chaikin corner cutting; open lines keep their end points, rings stay closed. */
export function chaikin(coords: Float64Array, closed: boolean, passes: number): Float64Array {
  let pts = coords;
  for (let p = 0; p < passes; p++) {
    const n = pts.length / 2;
    if (n < 3) return pts;
    const out: number[] = [];
    const segs = n - 1;
    if (!closed) out.push(pts[0]!, pts[1]!);
    for (let s = 0; s < segs; s++) {
      const ax = pts[2 * s]!;
      const ay = pts[2 * s + 1]!;
      const bx = pts[2 * s + 2]!;
      const by = pts[2 * s + 3]!;
      const firstOpen = !closed && s === 0;
      const lastOpen = !closed && s === segs - 1;
      if (!firstOpen) out.push(0.75 * ax + 0.25 * bx, 0.75 * ay + 0.25 * by);
      if (!lastOpen) out.push(0.25 * ax + 0.75 * bx, 0.25 * ay + 0.75 * by);
    }
    if (!closed) out.push(pts[2 * n - 2]!, pts[2 * n - 1]!);
    else out.push(out[0]!, out[1]!);
    pts = Float64Array.from(out);
  }
  return pts;
}

/** True when segments p1-p2 and p3-p4 properly intersect. */
function segmentsCross(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  x3: number,
  y3: number,
  x4: number,
  y4: number,
): boolean {
  const d1 = (x4 - x3) * (y1 - y3) - (y4 - y3) * (x1 - x3);
  const d2 = (x4 - x3) * (y2 - y3) - (y4 - y3) * (x2 - x3);
  const d3 = (x2 - x1) * (y3 - y1) - (y2 - y1) * (x3 - x1);
  const d4 = (x2 - x1) * (y4 - y1) - (y2 - y1) * (x4 - x1);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/**
 * Finds pairs of different lines whose current geometry crosses (segments
 * bucketed on a grid of `cell`) and puts the raw, never-crossing geometry
 * back on both, until no crossing is left.
 */
function keepNonCrossing(raw: ContourLine[], lines: ContourLine[], cell: number): void {
  // Buckets as one grid over every vertex (raw and smoothed), counted then filled (typed arrays, no per-cell objects).
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
  /** Calls `visit(cellIndex, line, segment)` for every grid cell each segment's box covers, in line and segment order. */
  const eachCell = (visit: (k: number, li: number, s: number) => void) => {
    lines.forEach((line, li) => {
      const c = line.coordinates;
      for (let s = 0; s + 3 < c.length; s += 2) {
        const minC = Math.floor(Math.min(c[s]!, c[s + 2]!) / cell) - c0;
        const maxC = Math.floor(Math.max(c[s]!, c[s + 2]!) / cell) - c0;
        const minR = Math.floor(Math.min(c[s + 1]!, c[s + 3]!) / cell) - r0;
        const maxR = Math.floor(Math.max(c[s + 1]!, c[s + 3]!) / cell) - r0;
        for (let bx = minC; bx <= maxC; bx++) {
          for (let by = minR; by <= maxR; by++) visit(by * cols + bx, li, s);
        }
      }
    });
  };
  for (let round = 0; round < 8; round++) {
    const start = new Int32Array(cols * rows + 1);
    eachCell((k) => {
      start[k + 1]!++;
    });
    for (let k = 0; k < cols * rows; k++) start[k + 1]! += start[k]!;
    const fill = start.slice(0, cols * rows);
    const entryLine = new Int32Array(start[cols * rows]!);
    const entrySegment = new Int32Array(start[cols * rows]!);
    eachCell((k, li, s) => {
      const at = fill[k]!++;
      entryLine[at] = li;
      entrySegment[at] = s;
    });
    const revert = new Set<number>();
    for (let k = 0; k < cols * rows; k++) {
      const end = start[k + 1]!;
      for (let a = start[k]!; a < end; a++) {
        const la = entryLine[a]!;
        const ca = lines[la]!.coordinates;
        const sa = entrySegment[a]!;
        for (let b = a + 1; b < end; b++) {
          const lb = entryLine[b]!;
          if (lb === la) continue;
          if (lines[la] === raw[la] && lines[lb] === raw[lb]) continue;
          const cb = lines[lb]!.coordinates;
          const sb = entrySegment[b]!;
          if (
            segmentsCross(
              ca[sa]!,
              ca[sa + 1]!,
              ca[sa + 2]!,
              ca[sa + 3]!,
              cb[sb]!,
              cb[sb + 1]!,
              cb[sb + 2]!,
              cb[sb + 3]!,
            )
          ) {
            revert.add(la);
            revert.add(lb);
          }
        }
      }
    }
    if (revert.size === 0) return;
    for (const li of revert) lines[li] = raw[li]!;
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

/** What the contour product hands to the major and minor ones. */
interface ContourValue {
  lines: ContourLine[];
  crs: CrsInfo;
}

/** Writes one contour GeoJSON (EPSG:4326) and hands its features to PostGIS. */
async function contourResult(
  ctx: ProductContext,
  lines: ContourLine[],
  crs: CrsInfo,
  name: string,
): Promise<ProductResult> {
  const file = path.join(ctx.workDir, `${name}.geojson`);
  const written = await writeWgs84GeoJson(file, contourFeatures(lines), crs);
  return {
    files: [{ path: file, format: 'GeoJSON', extension: 'geojson', epsg: 4326, count: written.features }],
    features: () => featuresToWgs84(contourFeatures(lines), crs),
    figures: { lines: written.features },
  };
}

/** CONTOUR_LINE: minor and major contours (`elevation`, `kind`), smoothed, never crossing. */
export const contoursProduct = defineProduct<ContourValue>({
  ...productEntry('contours'),
  async run(ctx) {
    const { dtm, crs, units } = ctx.need<DtmValue>('dtm');
    const lines = buildContours(
      dtm,
      {
        minorCm: ctx.options.contourMinorCm,
        majorCm: ctx.options.contourMajorCm,
        verticalUnitToMetre: units.verticalUnitToMetre,
      },
      { signal: ctx.signal },
    );
    return { ...(await contourResult(ctx, lines, crs, 'contours')), value: { lines, crs } };
  },
});

/** CONTOUR_LINE_MAJOR: the major contours only. */
export const majorContoursProduct = defineProduct({
  ...productEntry('contours-major'),
  async run(ctx) {
    const { lines, crs } = ctx.need<ContourValue>('contours');
    return contourResult(
      ctx,
      lines.filter((l) => l.kind === 'major'),
      crs,
      'contours-major',
    );
  },
});

/** CONTOUR_LINE_MINOR: the minor contours only (never repeating a major one). */
export const minorContoursProduct = defineProduct({
  ...productEntry('contours-minor'),
  async run(ctx) {
    const { lines, crs } = ctx.need<ContourValue>('contours');
    return contourResult(
      ctx,
      lines.filter((l) => l.kind === 'minor'),
      crs,
      'contours-minor',
    );
  },
});
