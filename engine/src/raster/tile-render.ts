import proj4 from 'proj4';
import { InvalidInput } from '../core/errors.js';
import { crsFromEpsg } from '../crs/index.js';
import { encodePng } from '../writers/png.writer.js';
import type { ByteSource } from './byte-source.js';
import { type Cog, openCog } from './cog.reader.js';
import { colourer, type Rgba, type TileRamp } from './colour-ramps.js';

const EARTH = 6378137;
const HALF = Math.PI * EARTH;
/** Side of a map tile in pixels. */
export const TILE_PIXELS = 256;
/** Deepest zoom a tile is rendered at. */
export const MAX_TILE_ZOOM = 24;

/** A raster opened for rendering map tiles: its COG, CRS and value range. */
export interface RasterTileSource {
  cog: Cog;
  /** proj4 definition of the raster's CRS. */
  proj4: string;
  /** Value range of the elevation ramp: the file's statistics, else its smallest overview's range. */
  range: { min: number; max: number } | null;
  /** Longitude/latitude bounds `[west, south, east, north]`. */
  bounds: [number, number, number, number];
  /** Whether tile z/x/y overlaps the raster (tiles that do not are empty). */
  covers(z: number, x: number, y: number): boolean;
}

/**
 * Longitude/latitude bounds of a CRS rectangle, from points along its edges.
 *
 * @example
 * rasterLonLatBounds({ minX: 650000, minY: 6861700, maxX: 650400, maxY: 6862000 }, crs.proj4);
 */
export function rasterLonLatBounds(
  extent: { minX: number; minY: number; maxX: number; maxY: number },
  crsProj4: string,
): [number, number, number, number] {
  const toWgs = proj4(crsProj4, 'EPSG:4326');
  const { minX, minY, maxX, maxY } = extent;
  let west = 180;
  let east = -180;
  let south = 90;
  let north = -90;
  for (let k = 0; k <= 16; k++) {
    const t = k / 16;
    for (const [px, py] of [
      [minX + t * (maxX - minX), minY],
      [minX + t * (maxX - minX), maxY],
      [minX, minY + t * (maxY - minY)],
      [maxX, minY + t * (maxY - minY)],
    ] as [number, number][]) {
      const [lon, lat] = toWgs.forward([px, py]) as [number, number];
      if (!Number.isFinite(lon) || !Number.isFinite(lat)) {
        throw new InvalidInput('crs', 'cannot place the raster on the globe with its CRS');
      }
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  }
  return [west, south, east, north];
}

/** Web mercator metres of a longitude/latitude. */
export function toMercator(lon: number, lat: number): [number, number] {
  return [
    (lon * Math.PI * EARTH) / 180,
    EARTH * Math.log(Math.tan(Math.PI / 4 + (Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 360)),
  ];
}

/** Checks a tile address (zoom 0–24, x and y inside the zoom's matrix). */
export function checkTileAddress(z: number, x: number, y: number): void {
  if (!Number.isInteger(z) || z < 0 || z > MAX_TILE_ZOOM) {
    throw new InvalidInput('tile.z', `zoom must be a whole number from 0 to ${MAX_TILE_ZOOM}, got ${z}`);
  }
  const n = 2 ** z;
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= n || y >= n) {
    throw new InvalidInput('tile.xy', `tile ${x}/${y} is outside zoom ${z} (0 to ${n - 1})`);
  }
}

/**
 * Opens a GeoTIFF for rendering tiles. The CRS is the file's EPSG code unless
 * `proj4` is given; the elevation range comes from `range`, else the file's
 * band statistics, else its smallest overview (never a full read);
 * `cacheBytes` bounds the decoded blocks kept for the next tiles.
 *
 * @example
 * const src = await openRasterTileSource(await fileByteSource('dtm.tif'));
 */
export async function openRasterTileSource(
  bytes: ByteSource,
  options: { proj4?: string; range?: { min: number; max: number } | null; cacheBytes?: number } = {},
): Promise<RasterTileSource> {
  const cog = await openCog(bytes, options.cacheBytes === undefined ? {} : { cacheBytes: options.cacheBytes });
  let def = options.proj4;
  if (!def) {
    if (!cog.crs?.epsg) throw new InvalidInput('crs', 'the raster has no EPSG code: its tiles cannot be placed');
    def = crsFromEpsg(cog.crs.epsg).proj4;
  }
  let range = options.range ?? (cog.statistics ? { min: cog.statistics.min, max: cog.statistics.max } : null);
  if (!range) {
    const last = cog.levels.length - 1;
    const { width, height } = cog.levels[last]!;
    const cells = await cog.readWindow(last, 0, 0, width, height);
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const v of cells) {
      if (v === cog.nodata || Number.isNaN(v)) continue;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    range = min <= max ? { min, max } : null;
  }
  const level0 = cog.levels[0]!;
  const bounds = rasterLonLatBounds(
    {
      minX: cog.originX,
      maxX: cog.originX + level0.width * level0.resolution,
      minY: cog.originY - level0.height * level0.resolution,
      maxY: cog.originY,
    },
    def,
  );
  const [mx0, my0] = toMercator(bounds[0], bounds[1]);
  const [mx1, my1] = toMercator(bounds[2], bounds[3]);
  return {
    cog,
    proj4: def,
    range,
    bounds,
    covers(z, x, y) {
      const size = (2 * HALF) / 2 ** z;
      const left = -HALF + x * size;
      const top = HALF - y * size;
      return left < mx1 && left + size > mx0 && top > my0 && top - size < my1;
    },
  };
}

/** A rendered tile: RGBA pixels (row 0 at the top) and how many are opaque. */
export interface TilePixels {
  rgba: Uint8Array;
  visible: number;
}

/**
 * Renders tile z/x/y (web mercator, 256 px) of a raster as RGBA: reads only
 * the window of the level (full resolution or overview) whose cells are
 * just finer than the tile's pixels, samples it bilinearly between valid
 * cells (nearest for `shade`, already a picture) and colours it with the
 * ramp; nodata and the outside are transparent.
 */
export async function renderRasterTilePixels(
  source: RasterTileSource,
  ramp: TileRamp,
  z: number,
  x: number,
  y: number,
): Promise<TilePixels> {
  checkTileAddress(z, x, y);
  const rgba = new Uint8Array(TILE_PIXELS * TILE_PIXELS * 4);
  if (!source.covers(z, x, y)) return { rgba, visible: 0 };
  const { cog } = source;
  const size = (2 * HALF) / 2 ** z;
  const left = -HALF + x * size;
  const top = HALF - y * size;
  const fromMerc = proj4('EPSG:3857', source.proj4);
  const G = 16; // the CRS position is interpolated between a 17×17 grid of exact transforms
  const gx = new Float64Array((G + 1) * (G + 1));
  const gy = new Float64Array((G + 1) * (G + 1));
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let j = 0; j <= G; j++) {
    for (let i = 0; i <= G; i++) {
      const [cx, cy] = fromMerc.forward([left + (i / G) * size, top - (j / G) * size]) as [number, number];
      gx[j * (G + 1) + i] = cx;
      gy[j * (G + 1) + i] = cy;
      minX = Math.min(minX, cx);
      maxX = Math.max(maxX, cx);
      minY = Math.min(minY, cy);
      maxY = Math.max(maxY, cy);
    }
  }
  // The coarsest level whose cells are no larger than the tile's pixels.
  const pixel = Math.min(maxX - minX, maxY - minY) / TILE_PIXELS;
  let li = 0;
  while (li + 1 < cog.levels.length && cog.levels[li + 1]!.resolution <= pixel) li++;
  const level = cog.levels[li]!;
  const { width: W, height: H, resolution: res } = level;
  const x0 = cog.originX;
  const y0 = cog.originY;
  const wc0 = Math.max(0, Math.floor((minX - x0) / res - 0.5) - 1);
  const wr0 = Math.max(0, Math.floor((y0 - maxY) / res - 0.5) - 1);
  const wc1 = Math.min(W - 1, Math.floor((maxX - x0) / res - 0.5) + 2);
  const wr1 = Math.min(H - 1, Math.floor((y0 - minY) / res - 0.5) + 2);
  if (wc0 > wc1 || wr0 > wr1) return { rgba, visible: 0 };
  const ww = wc1 - wc0 + 1;
  const wh = wr1 - wr0 + 1;
  const data = await cog.readWindow(li, wc0, wr0, ww, wh);
  const nodata = cog.nodata;
  const colour = colourer(ramp, source.range);
  const nearest = ramp === 'shade';
  const px: Rgba = [0, 0, 0, 0];
  let visible = 0;
  for (let py = 0; py < TILE_PIXELS; py++) {
    const fj = ((py + 0.5) / TILE_PIXELS) * G;
    const j0 = Math.min(G - 1, Math.floor(fj));
    const tj = fj - j0;
    for (let pxi = 0; pxi < TILE_PIXELS; pxi++) {
      const fi = ((pxi + 0.5) / TILE_PIXELS) * G;
      const i0 = Math.min(G - 1, Math.floor(fi));
      const ti = fi - i0;
      const a = j0 * (G + 1) + i0;
      const b = a + G + 1;
      const cx = (gx[a]! * (1 - ti) + gx[a + 1]! * ti) * (1 - tj) + (gx[b]! * (1 - ti) + gx[b + 1]! * ti) * tj;
      const cy = (gy[a]! * (1 - ti) + gy[a + 1]! * ti) * (1 - tj) + (gy[b]! * (1 - ti) + gy[b + 1]! * ti) * tj;
      const fc = (cx - x0) / res - 0.5;
      const fr = (y0 - cy) / res - 0.5;
      if (!(fc >= -0.5 && fr >= -0.5 && fc < W - 0.5 && fr < H - 0.5)) continue;
      let v: number;
      if (nearest) {
        const c = Math.min(wc1, Math.max(wc0, Math.round(fc)));
        const r = Math.min(wr1, Math.max(wr0, Math.round(fr)));
        const d = data[(r - wr0) * ww + (c - wc0)]!;
        v = d === nodata ? Number.NaN : d;
      } else {
        v = bilinearValid(data, ww, wc0, wr0, wc1, wr1, nodata, fc, fr);
      }
      if (Number.isNaN(v)) continue;
      colour(v, px);
      const o4 = (py * TILE_PIXELS + pxi) * 4;
      rgba[o4] = px[0];
      rgba[o4 + 1] = px[1];
      rgba[o4 + 2] = px[2];
      rgba[o4 + 3] = px[3];
      visible++;
    }
  }
  return { rgba, visible };
}

/** Bilinear value between cell centres from valid cells only, in a window; NaN when none is valid. */
function bilinearValid(
  data: Float32Array,
  ww: number,
  wc0: number,
  wr0: number,
  wc1: number,
  wr1: number,
  nodata: number,
  fc: number,
  fr: number,
): number {
  const c0 = Math.max(wc0, Math.min(wc1, Math.floor(fc)));
  const r0 = Math.max(wr0, Math.min(wr1, Math.floor(fr)));
  const c1 = Math.min(wc1, c0 + 1);
  const r1 = Math.min(wr1, r0 + 1);
  const tx = Math.max(0, Math.min(1, fc - c0));
  const ty = Math.max(0, Math.min(1, fr - r0));
  let sum = 0;
  let wsum = 0;
  // No closure here: this runs for every pixel, and tsx wraps each closure it creates.
  const i0 = (r0 - wr0) * ww - wc0;
  const i1 = (r1 - wr0) * ww - wc0;
  const v00 = data[i0 + c0]!;
  const v10 = data[i0 + c1]!;
  const v01 = data[i1 + c0]!;
  const v11 = data[i1 + c1]!;
  const w00 = (1 - tx) * (1 - ty);
  const w10 = tx * (1 - ty);
  const w01 = (1 - tx) * ty;
  const w11 = tx * ty;
  if (v00 !== nodata && w00 > 0) {
    sum += v00 * w00;
    wsum += w00;
  }
  if (v10 !== nodata && w10 > 0) {
    sum += v10 * w10;
    wsum += w10;
  }
  if (v01 !== nodata && w01 > 0) {
    sum += v01 * w01;
    wsum += w01;
  }
  if (v11 !== nodata && w11 > 0) {
    sum += v11 * w11;
    wsum += w11;
  }
  return wsum > 0 ? sum / wsum : Number.NaN;
}

/** A fully transparent 256 px PNG: the answer for empty tiles. */
export const EMPTY_TILE_PNG: Buffer = encodePng(
  TILE_PIXELS,
  TILE_PIXELS,
  new Uint8Array(TILE_PIXELS * TILE_PIXELS * 4),
  9,
);

/**
 * Renders tile z/x/y of a raster as a 256 px PNG (see
 * {@link renderRasterTilePixels}); an empty tile is {@link EMPTY_TILE_PNG}.
 * `source` is the COG's bytes (a file, a buffer, an object store answering
 * range reads) or a source opened once with {@link openRasterTileSource}.
 *
 * @example
 * const png = await renderRasterTile(await fileByteSource('hillshade.tif'), 'shade', 17, 66_390, 45_090);
 */
export async function renderRasterTile(
  source: ByteSource | RasterTileSource,
  ramp: TileRamp,
  z: number,
  x: number,
  y: number,
): Promise<Buffer> {
  const opened = 'cog' in source ? source : await openRasterTileSource(source);
  const { rgba, visible } = await renderRasterTilePixels(opened, ramp, z, x, y);
  return visible === 0 ? EMPTY_TILE_PNG : encodePng(TILE_PIXELS, TILE_PIXELS, rgba);
}
