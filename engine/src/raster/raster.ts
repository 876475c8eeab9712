import { InvalidInput } from '../core/errors.js';

/**
 * The coordinate reference system a raster carries. `epsg` is the horizontal
 * CRS code (null when unknown); `geographic` tells GeoKeys writers whether the
 * code is a geographic (lon/lat) or projected CRS.
 */
export interface RasterCrs {
  epsg: number | null;
  geographic?: boolean;
  /** Horizontal unit in metres (1 for metres, 0.3048 for feet). */
  horizontalUnitToMetre?: number;
  /** Vertical unit in metres. */
  verticalUnitToMetre?: number;
  /** Human readable name, written as the GeoTIFF citation. */
  name?: string;
}

/**
 * A single-band north-up raster in a projected CRS, pixel-is-area.
 * Row 0 is the northern row; cell (col, row) covers
 * `[originX + col*resolution, originX + (col+1)*resolution]` ×
 * `[originY - (row+1)*resolution, originY - row*resolution]`.
 */
export interface Raster {
  width: number;
  height: number;
  /** X of the west edge of column 0, in CRS units. */
  originX: number;
  /** Y of the north edge of row 0, in CRS units. */
  originY: number;
  /** Cell size in CRS units (square cells). */
  resolution: number;
  /** Row-major values; `nodata` marks empty cells. */
  data: Float32Array;
  nodata: number;
  crs: RasterCrs | null;
}

/** Nodata value used for every float raster the engine writes (same as gdaldem). */
export const FLOAT_NODATA = -9999;

/** A raster filled with nodata. */
export function createRaster(
  width: number,
  height: number,
  originX: number,
  originY: number,
  resolution: number,
  crs: RasterCrs | null,
  nodata = FLOAT_NODATA,
): Raster {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new InvalidInput('raster.size', `width and height must be positive integers, got ${width}×${height}`);
  }
  if (width * height > 400_000_000) {
    throw new InvalidInput('raster.size', `${width}×${height} cells is too large (limit 400 M cells)`);
  }
  if (!(resolution > 0)) throw new InvalidInput('raster.resolution', `must be > 0, got ${resolution}`);
  const data = new Float32Array(width * height);
  data.fill(nodata);
  return { width, height, originX, originY, resolution, data, nodata, crs };
}

/**
 * A raster grid covering the given bounds, snapped outward to a multiple of
 * the resolution so rasters of the same project align.
 */
export function rasterForBounds(
  bounds: { minX: number; minY: number; maxX: number; maxY: number },
  resolution: number,
  crs: RasterCrs | null,
): Raster {
  const minX = Math.floor(bounds.minX / resolution) * resolution;
  const maxY = Math.ceil(bounds.maxY / resolution) * resolution;
  const width = Math.max(1, Math.ceil((bounds.maxX - minX) / resolution - 1e-9));
  const height = Math.max(1, Math.ceil((maxY - bounds.minY) / resolution - 1e-9));
  return createRaster(width, height, minX, maxY, resolution, crs);
}

/** True when the value is the raster's nodata (or NaN). */
export function isNodata(raster: Raster, value: number): boolean {
  return value === raster.nodata || Number.isNaN(value);
}

/**
 * Bilinear sample at (x, y) between cell centres, using only valid cells;
 * returns NaN outside the raster or when all four neighbours are nodata.
 */
export function sampleBilinear(raster: Raster, x: number, y: number): number {
  const { width, height, resolution, data, nodata } = raster;
  const fc = (x - raster.originX) / resolution - 0.5;
  const fr = (raster.originY - y) / resolution - 0.5;
  if (fc < -0.5 || fr < -0.5 || fc > width - 0.5 || fr > height - 0.5) return Number.NaN;
  let c0 = Math.floor(fc);
  let r0 = Math.floor(fr);
  let tx = fc - c0;
  let ty = fr - r0;
  if (c0 < 0) {
    c0 = 0;
    tx = 0;
  } else if (c0 >= width - 1) {
    c0 = Math.max(0, width - 2);
    tx = width === 1 ? 0 : 1;
  }
  if (r0 < 0) {
    r0 = 0;
    ty = 0;
  } else if (r0 >= height - 1) {
    r0 = Math.max(0, height - 2);
    ty = height === 1 ? 0 : 1;
  }
  const c1 = Math.min(width - 1, c0 + 1);
  const r1 = Math.min(height - 1, r0 + 1);
  const v00 = data[r0 * width + c0]!;
  const v10 = data[r0 * width + c1]!;
  const v01 = data[r1 * width + c0]!;
  const v11 = data[r1 * width + c1]!;
  let sum = 0;
  let wsum = 0;
  const w00 = (1 - tx) * (1 - ty);
  const w10 = tx * (1 - ty);
  const w01 = (1 - tx) * ty;
  const w11 = tx * ty;
  if (v00 !== nodata && !Number.isNaN(v00)) {
    sum += v00 * w00;
    wsum += w00;
  }
  if (v10 !== nodata && !Number.isNaN(v10)) {
    sum += v10 * w10;
    wsum += w10;
  }
  if (v01 !== nodata && !Number.isNaN(v01)) {
    sum += v01 * w01;
    wsum += w01;
  }
  if (v11 !== nodata && !Number.isNaN(v11)) {
    sum += v11 * w11;
    wsum += w11;
  }
  if (wsum <= 1e-12) {
    const nc = Math.min(width - 1, Math.max(0, Math.round(fc)));
    const nr = Math.min(height - 1, Math.max(0, Math.round(fr)));
    const v = data[nr * width + nc]!;
    return v === nodata ? Number.NaN : v;
  }
  return sum / wsum;
}

/** Minimum and maximum of the valid cells, or null when every cell is nodata. */
export function rasterRange(raster: Raster): { min: number; max: number } | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const { data, nodata } = raster;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v === nodata || Number.isNaN(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? { min, max } : null;
}

/**
 * Fills empty cells (`nodata`) of `data` (a `width` × `height` grid) where
 * `fillable(k)` holds, in passes: each pass gives every such cell with a
 * non-empty 8-neighbour (or itself) the mean of those values as they were
 * before the pass, until a pass fills none or after `passes` passes. Returns
 * the cells filled. Only the cells still empty are visited in each pass (not
 * the whole grid).
 *
 * @example
 * fillFromNeighbours(dsm.data, W, H, dsm.nodata, 8, (k) => dtm.data[k] !== dtm.nodata);
 */
export function fillFromNeighbours(
  data: Float32Array,
  width: number,
  height: number,
  nodata: number,
  passes: number,
  fillable: (k: number) => boolean,
): number {
  let holes = 0;
  for (let k = 0; k < data.length; k++) if (data[k] === nodata && fillable(k)) holes++;
  let todo = new Int32Array(holes);
  let at = 0;
  for (let k = 0; k < data.length; k++) if (data[k] === nodata && fillable(k)) todo[at++] = k;
  const doneCell = new Int32Array(holes);
  const doneValue = new Float64Array(holes);
  let filled = 0;
  for (let pass = 0; pass < passes && todo.length > 0; pass++) {
    let changed = 0;
    let kept = 0;
    for (let t = 0; t < todo.length; t++) {
      const k = todo[t]!;
      const row = Math.floor(k / width);
      const c = k - row * width;
      let sum = 0;
      let n = 0;
      for (let dr = -1; dr <= 1; dr++) {
        const rr = row + dr;
        if (rr < 0 || rr >= height) continue;
        for (let dc = -1; dc <= 1; dc++) {
          const cc = c + dc;
          if (cc < 0 || cc >= width) continue;
          const v = data[rr * width + cc]!;
          if (v !== nodata) {
            sum += v;
            n++;
          }
        }
      }
      if (n > 0) {
        doneCell[changed] = k;
        doneValue[changed++] = sum / n;
      } else todo[kept++] = k;
    }
    for (let d = 0; d < changed; d++) data[doneCell[d]!] = doneValue[d]!;
    todo = todo.subarray(0, kept);
    filled += changed;
    if (changed === 0) break;
  }
  return filled;
}
