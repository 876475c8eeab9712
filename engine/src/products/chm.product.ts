import path from 'node:path';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled, InvalidInput } from '../core/errors.js';
import { defineProduct } from '../core/product.js';
import type { CrsInfo } from '../crs/index.js';
import { createRaster, fillFromNeighbours, type Raster, sampleBilinear } from '../raster/raster.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { productEntry } from './catalog.js';
import type { ClassifiedCloud, CrsUnits, DtmValue } from './product-values.js';
import { writeRasterTileSource } from './raster-tiles.product.js';

/** Classes left out of the canopy: low point (7), high noise (18), wires and towers (13–16). */
export const NOT_CANOPY = new Set([7, 13, 14, 15, 16, 18]);

/** Points per CHM cell the automatic resolution aims at. */
const POINTS_PER_CELL = 3;

/** Options of {@link buildChm}; lengths in metres. */
export interface ChmOptions {
  /** Cell size in metres; default: about {@link POINTS_PER_CELL} first returns per cell, 0.25–2 m. */
  resolution?: number;
  /** Each return also counts on a circle of this radius (lidR's `p2r(subcircle)`): closes pits between returns. */
  subcircle?: number;
  /** A cell this much lower than the median of its 8 neighbours is a pit and takes that median. */
  pitDepth?: number;
}

/** The canopy height model and the per-point heights above ground it was made from. */
export interface Chm {
  /** Heights above ground in metres (0 on bare ground), nodata outside the terrain model. */
  chm: Raster;
  /** Height above ground of every point in metres (NaN where the DTM has no value). */
  heights: Float32Array;
  /** Index of the highest return in each cell (-1 when none fell in it). */
  highest: Int32Array;
  /** First returns per square metre over the terrain. */
  density: number;
}

/** The resolution {@link buildChm} picks for a density (points/m²): about 3 points per cell. */
export function chmResolutionFor(density: number): number {
  if (!(density > 0)) return 1;
  const cell = Math.sqrt(POINTS_PER_CELL / density);
  return Math.min(2, Math.max(0.25, Math.round(cell * 20) / 20));
}

/**
 * A pit-free canopy height model: heights above the terrain model (the TIN
 * DTM sampled bilinearly at each return, not a plane), highest hit per cell
 * with each return also spread on a small circle, empty cells filled from their
 * neighbours, then pits (a cell well below the median of its neighbours, from
 * returns that went deep into a crown) raised to that median.
 *
 * @example
 * const { chm } = buildChm(cloud, dtm, units);
 */
export function buildChm(
  cloud: PointChunk,
  dtm: Raster,
  units: CrsUnits,
  options: ChmOptions = {},
  context: StepContext = {},
): Chm {
  const { x, y, z, count } = cloud;
  const hu = units.unitToMetre;
  const vu = units.verticalUnitToMetre;
  const heights = new Float32Array(count);
  const classes = cloud.classification;
  const returns = cloud.returnNumber;
  let firsts = 0;
  for (let i = 0; i < count; i++) {
    const g = sampleBilinear(dtm, x[i]!, y[i]!);
    heights[i] = Number.isNaN(g) || g === dtm.nodata ? Number.NaN : (z[i]! - g) * vu;
    if (!returns || returns[i] === 1) firsts++;
  }
  let validCells = 0;
  for (let k = 0; k < dtm.data.length; k++) if (dtm.data[k] !== dtm.nodata) validCells++;
  const area = validCells * (dtm.resolution * hu) ** 2;
  const density = area > 0 ? firsts / area : 0;
  const resM = options.resolution ?? chmResolutionFor(density);
  const res = resM / hu;
  const W = Math.max(1, Math.ceil((dtm.width * dtm.resolution) / res - 1e-9));
  const H = Math.max(1, Math.ceil((dtm.height * dtm.resolution) / res - 1e-9));
  const chm = createRaster(W, H, dtm.originX, dtm.originY, res, dtm.crs);
  const top = chm.data;
  const nodata = chm.nodata;
  const highest = new Int32Array(W * H).fill(-1);
  const r = (options.subcircle ?? 0.15) / hu;
  const offsets: Array<[number, number]> = [[0, 0]];
  if (r > 0) {
    for (let a = 0; a < 8; a++) offsets.push([r * Math.cos((a * Math.PI) / 4), r * Math.sin((a * Math.PI) / 4)]);
  }
  // Typed copies of the offsets and a table of the classes left out: this loop runs 9 times a point.
  const offsetX = Float64Array.from(offsets, (o) => o[0]);
  const offsetY = Float64Array.from(offsets, (o) => o[1]);
  const notCanopy = new Uint8Array(256);
  for (const c of NOT_CANOPY) notCanopy[c] = 1;
  const { originX, originY } = chm;
  const offsetCount = offsetX.length;
  for (let i = 0; i < count; i++) {
    const h = heights[i]!;
    if (Number.isNaN(h) || (classes && notCanopy[classes[i]!])) continue;
    const xi = x[i]!;
    const yi = y[i]!;
    // The return itself (offset 0: exactly +0, the same sums as below) also records the highest return.
    const c0 = Math.floor((xi + 0 - originX) / res);
    const row0 = Math.floor((originY - yi - 0) / res);
    if (c0 >= 0 && row0 >= 0 && c0 < W && row0 < H) {
      const k = row0 * W + c0;
      const t = top[k]!;
      if (t === nodata || h > t) top[k] = h;
      const was = highest[k]!;
      if (was === -1 || h > heights[was]!) highest[k] = i;
    }
    for (let o = 1; o < offsetCount; o++) {
      const c = Math.floor((xi + offsetX[o]! - originX) / res);
      const row = Math.floor((originY - yi - offsetY[o]!) / res);
      if (c < 0 || row < 0 || c >= W || row >= H) continue;
      const k = row * W + c;
      const t = top[k]!;
      if (t === nodata || h > t) top[k] = h;
    }
  }
  if (context.signal?.aborted) throw new Cancelled();
  // Cells outside the terrain model stay empty; empty cells inside take their neighbours' mean, then the ground.
  const inside = new Uint8Array(W * H);
  for (let row = 0; row < H; row++) {
    const ny = chm.originY - (row + 0.5) * res;
    for (let c = 0; c < W; c++) {
      const g = sampleBilinear(dtm, chm.originX + (c + 0.5) * res, ny);
      inside[row * W + c] = Number.isNaN(g) || g === dtm.nodata ? 0 : 1;
    }
  }
  fillFromNeighbours(top, W, H, nodata, 3, (k) => inside[k] === 1);
  for (let k = 0; k < top.length; k++) {
    if (!inside[k]) top[k] = nodata;
    else if (top[k] === nodata || top[k]! < 0) top[k] = 0;
  }
  // Pits: a cell well below the median of its 8 neighbours takes that median.
  const pitDepth = options.pitDepth ?? 1;
  const source = top.slice();
  const ring = new Float64Array(8);
  for (let row = 1; row < H - 1; row++) {
    for (let c = 1; c < W - 1; c++) {
      const k = row * W + c;
      const v = source[k]!;
      if (v === nodata) continue;
      let n = 0;
      let highestAround = Number.NEGATIVE_INFINITY;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          if (dr === 0 && dc === 0) continue;
          const u = source[k + dr * W + dc]!;
          if (u !== nodata) {
            ring[n++] = u;
            if (u > highestAround) highestAround = u;
          }
        }
      }
      // The median is at most the highest neighbour: a cell within pitDepth of it is no pit (most cells).
      if (n < 6 || !(highestAround - v > pitDepth)) continue;
      // Insertion sort of at most 8 values in place (stable, as Array#sort): no array made per cell.
      for (let a = 1; a < n; a++) {
        const u = ring[a]!;
        let b = a;
        while (b > 0 && ring[b - 1]! > u) {
          ring[b] = ring[b - 1]!;
          b--;
        }
        ring[b] = u;
      }
      const median = n % 2 ? ring[(n - 1) / 2]! : (ring[n / 2 - 1]! + ring[n / 2]!) / 2;
      if (median - v > Math.max(pitDepth, 0.15 * median)) top[k] = median;
    }
  }
  return { chm, heights, highest, density };
}

/** What the CHM product hands on. */
export interface ChmValue extends Chm {
  crs: CrsInfo;
  units: CrsUnits;
  cloud: PointChunk;
}

/** CHM: pit-free canopy height model (m above the DTM) at about 3 points per cell, GeoTIFF and XYZ tiles. */
export const chmProduct = defineProduct<ChmValue>({
  ...productEntry('chm'),
  needFailed: { code: 'NO_GROUND_FOR_CANOPY', message: 'no ground points: the canopy height needs a terrain model' },
  async run(ctx) {
    const { cloud, units } = ctx.need<ClassifiedCloud>('classify');
    const { dtm, crs } = ctx.need<DtmValue>('dtm');
    if (cloud.count === 0) throw new InvalidInput('points', 'the point cloud is empty');
    const cm = ctx.options.chmResolutionCm;
    // Below 10 cm a CHM holds more cells than returns: 0 (and anything that small) means automatic.
    const made = buildChm(cloud, dtm, units, cm >= 10 ? { resolution: cm / 100 } : {}, { signal: ctx.signal });
    const file = path.join(ctx.workDir, 'chm.tif');
    const { chm } = made;
    await writeGeoTiff(file, chm, { deflate: true });
    ctx.progress(0.9);
    const tiles = await writeRasterTileSource(file, chm, crs, 'elevation', ctx.workDir);
    return {
      files: [{ path: file, format: 'GTiff', extension: 'tif', epsg: crs.epsg, count: chm.width * chm.height }],
      tiles: { dir: tiles.path, format: 'XYZ', epsg: 3857, count: 0 },
      value: { ...made, crs, units, cloud },
      figures: {
        resolutionM: Math.round(chm.resolution * units.unitToMetre * 1000) / 1000,
        density: Math.round(made.density * 100) / 100,
      },
    };
  },
});
