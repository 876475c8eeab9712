import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import proj4 from 'proj4';
import { z } from 'zod';
import type { StepContext } from '../core/chunk.js';
import { Cancelled, CrsRequired, InvalidInput } from '../core/errors.js';
import type { CrsInfo } from '../crs/index.js';
import { type Raster, rasterRange } from '../raster/raster.js';
import { encodePng } from '../writers/png.writer.js';

/**
 * Colour ramps of XYZ tiles: grey shading (hillshade), the slope ramp in
 * degrees, or a hypsometric ramp over the raster's own range (DTM, DSM).
 */
export type TileRamp = 'shade' | 'slope' | 'elevation';

/** Options of {@link writeRasterTiles}. */
export const rasterTilesOptionsSchema = z.object({
  /** Lowest zoom; default: the zoom where the project fits one tile. */
  minZoom: z.number().int().min(0).max(24).optional(),
  /** Highest zoom; default: the zoom whose pixels match the raster cells. */
  maxZoom: z.number().int().min(0).max(24).optional(),
  /** Most zoom levels written (the coarsest are dropped first). */
  maxLevels: z.number().int().min(1).max(25).default(8),
});
export type RasterTilesOptions = z.input<typeof rasterTilesOptionsSchema>;

/** What the tiler wrote. */
export interface TilesArtifact {
  path: string;
  type: 'xyz-tiles';
  ramp: TileRamp;
  minZoom: number;
  maxZoom: number;
  tiles: number;
  bytes: number;
  /** Longitude/latitude bounds. */
  bounds: [number, number, number, number];
}

const EARTH = 6378137;
const HALF = Math.PI * EARTH;
const TILE = 256;

type Rgba = [number, number, number, number];

/** Linear colour ramp through stops `[value, r, g, b]`. */
function ramp(stops: number[][], v: number, out: Rgba): void {
  if (v <= stops[0]![0]!) {
    const s = stops[0]!;
    out[0] = s[1]!;
    out[1] = s[2]!;
    out[2] = s[3]!;
  } else if (v >= stops[stops.length - 1]![0]!) {
    const s = stops[stops.length - 1]!;
    out[0] = s[1]!;
    out[1] = s[2]!;
    out[2] = s[3]!;
  } else {
    let k = 1;
    while (stops[k]![0]! < v) k++;
    const a = stops[k - 1]!;
    const b = stops[k]!;
    const t = (v - a[0]!) / (b[0]! - a[0]!);
    out[0] = a[1]! + (b[1]! - a[1]!) * t;
    out[1] = a[2]! + (b[2]! - a[2]!) * t;
    out[2] = a[3]! + (b[3]! - a[3]!) * t;
  }
  out[3] = 255;
}

/** Slope ramp in degrees: flat green, yellow at 15°, orange at 30°, red from 45°. */
const SLOPE_STOPS = [
  [0, 26, 150, 65],
  [15, 255, 255, 140],
  [30, 253, 174, 97],
  [45, 215, 25, 28],
  [90, 120, 0, 0],
];

/** Hypsometric ramp over the DTM's own range (0 = lowest, 1 = highest). */
const DTM_STOPS = [
  [0, 0, 97, 71],
  [0.25, 16, 122, 47],
  [0.5, 232, 215, 125],
  [0.75, 161, 67, 0],
  [1, 245, 245, 245],
];

/** The colour function of a layer; returns false for transparent pixels. */
function colourer(layer: TileRamp, raster: Raster): (v: number, out: Rgba) => void {
  if (layer === 'shade') {
    return (v, out) => {
      const g = Math.max(0, Math.min(255, Math.round(v)));
      out[0] = g;
      out[1] = g;
      out[2] = g;
      out[3] = 255;
    };
  }
  if (layer === 'slope') return (v, out) => ramp(SLOPE_STOPS, v, out);
  const range = rasterRange(raster) ?? { min: 0, max: 1 };
  const span = Math.max(1e-9, range.max - range.min);
  return (v, out) => ramp(DTM_STOPS, (v - range.min) / span, out);
}

/**
 * Renders a raster (hillshade, slope or DTM) as XYZ PNG tiles in web mercator
 * (EPSG:3857, 256 px) into `<outDir>/tiles/{z}/{x}/{y}.png`, for
 * every zoom from the one where the project fits a tile to the one whose
 * pixels match the raster cells. Pixels are resampled bilinearly (nearest for
 * hillshade, which is already a picture); nodata is transparent; empty tiles
 * are not written.
 *
 * @example
 * await writeRasterTiles(shade, crs, 'HILLSHADE_DTM', 'out/');
 */
export async function writeRasterTiles(
  raster: Raster,
  crs: CrsInfo | null,
  layer: TileRamp,
  outDir: string,
  options: RasterTilesOptions = {},
  context: StepContext = {},
): Promise<TilesArtifact> {
  const o = rasterTilesOptionsSchema.parse(options);
  if (!crs) throw new CrsRequired('raster tiles need the project CRS: give one with --epsg');
  const toWgs = proj4(crs.proj4, 'EPSG:4326');
  // Project bounds in lon/lat from points along the raster edges.
  const minX = raster.originX;
  const maxY = raster.originY;
  const maxX = minX + raster.width * raster.resolution;
  const minY = maxY - raster.height * raster.resolution;
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
        throw new InvalidInput('crs', `cannot place the raster on the globe with ${crs.name}`);
      }
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  }
  const merc = (lon: number, lat: number): [number, number] => [
    (lon * Math.PI * EARTH) / 180,
    EARTH * Math.log(Math.tan(Math.PI / 4 + (Math.max(-85.05, Math.min(85.05, lat)) * Math.PI) / 360)),
  ];
  const [mx0, my0] = merc(west, south);
  const [mx1, my1] = merc(east, north);
  const cellMetres = raster.resolution * (crs.horizontalUnitToMetre || 1);
  const latScale = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const fineZoom = Math.ceil(Math.log2((2 * HALF * latScale) / TILE / cellMetres));
  let maxZoom = o.maxZoom ?? Math.max(0, Math.min(22, fineZoom));
  const extent = Math.max(mx1 - mx0, my1 - my0, 1);
  let minZoom = o.minZoom ?? Math.max(0, Math.min(maxZoom, Math.floor(Math.log2((2 * HALF) / extent))));
  if (maxZoom < minZoom) maxZoom = minZoom;
  if (maxZoom - minZoom + 1 > o.maxLevels) minZoom = maxZoom - o.maxLevels + 1;

  const fromMerc = proj4('EPSG:3857', crs.proj4);
  const colour = colourer(layer, raster);
  const nearest = layer === 'shade';
  const { width: W, height: H, data, nodata, resolution: res } = raster;
  const rgba = new Uint8Array(TILE * TILE * 4);
  const px: Rgba = [0, 0, 0, 0];
  const G = 16; // the CRS position is interpolated between a 17×17 grid of exact transforms
  const gx = new Float64Array((G + 1) * (G + 1));
  const gy = new Float64Array((G + 1) * (G + 1));
  let tiles = 0;
  let bytes = 0;
  const totalLevels = maxZoom - minZoom + 1;
  for (let zoom = minZoom; zoom <= maxZoom; zoom++) {
    const n = 2 ** zoom;
    const size = (2 * HALF) / n;
    const tx0 = Math.max(0, Math.floor((mx0 + HALF) / size));
    const tx1 = Math.min(n - 1, Math.floor((mx1 + HALF) / size));
    const ty0 = Math.max(0, Math.floor((HALF - my1) / size));
    const ty1 = Math.min(n - 1, Math.floor((HALF - my0) / size));
    for (let tx = tx0; tx <= tx1; tx++) {
      for (let ty = ty0; ty <= ty1; ty++) {
        if (context.signal?.aborted) throw new Cancelled();
        const left = -HALF + tx * size;
        const top = HALF - ty * size;
        for (let j = 0; j <= G; j++) {
          for (let i = 0; i <= G; i++) {
            const [cx, cy] = fromMerc.forward([left + (i / G) * size, top - (j / G) * size]) as [number, number];
            gx[j * (G + 1) + i] = cx;
            gy[j * (G + 1) + i] = cy;
          }
        }
        let visible = 0;
        for (let py = 0; py < TILE; py++) {
          const fj = ((py + 0.5) / TILE) * G;
          const j0 = Math.min(G - 1, Math.floor(fj));
          const tj = fj - j0;
          for (let pxi = 0; pxi < TILE; pxi++) {
            const fi = ((pxi + 0.5) / TILE) * G;
            const i0 = Math.min(G - 1, Math.floor(fi));
            const ti = fi - i0;
            const a = j0 * (G + 1) + i0;
            const b = a + G + 1;
            const cx = (gx[a]! * (1 - ti) + gx[a + 1]! * ti) * (1 - tj) + (gx[b]! * (1 - ti) + gx[b + 1]! * ti) * tj;
            const cy = (gy[a]! * (1 - ti) + gy[a + 1]! * ti) * (1 - tj) + (gy[b]! * (1 - ti) + gy[b + 1]! * ti) * tj;
            const o4 = (py * TILE + pxi) * 4;
            const fc = (cx - minX) / res - 0.5;
            const fr = (maxY - cy) / res - 0.5;
            let v = Number.NaN;
            if (fc >= -0.5 && fr >= -0.5 && fc < W - 0.5 && fr < H - 0.5) {
              if (nearest) {
                const c = Math.min(W - 1, Math.max(0, Math.round(fc)));
                const r = Math.min(H - 1, Math.max(0, Math.round(fr)));
                const d = data[r * W + c]!;
                if (d !== nodata) v = d;
              } else {
                v = bilinearValid(data, W, H, nodata, fc, fr);
              }
            }
            if (Number.isNaN(v)) {
              rgba[o4] = 0;
              rgba[o4 + 1] = 0;
              rgba[o4 + 2] = 0;
              rgba[o4 + 3] = 0;
              continue;
            }
            colour(v, px);
            rgba[o4] = px[0];
            rgba[o4 + 1] = px[1];
            rgba[o4 + 2] = px[2];
            rgba[o4 + 3] = px[3];
            visible++;
          }
        }
        if (visible === 0) continue;
        const dir = path.join(outDir, 'tiles', String(zoom), String(tx));
        await mkdir(dir, { recursive: true });
        const png = encodePng(TILE, TILE, rgba);
        await writeFile(path.join(dir, `${ty}.png`), png);
        tiles++;
        bytes += png.length;
      }
    }
    context.progress?.((zoom - minZoom + 1) / totalLevels, `tiles ${layer}`);
  }
  return {
    path: path.join(outDir, 'tiles'),
    type: 'xyz-tiles',
    ramp: layer,
    minZoom,
    maxZoom,
    tiles,
    bytes,
    bounds: [west, south, east, north],
  };
}

/** Bilinear value between cell centres from valid cells only; NaN when none is valid. */
function bilinearValid(data: Float32Array, W: number, H: number, nodata: number, fc: number, fr: number): number {
  const c0 = Math.max(0, Math.min(W - 1, Math.floor(fc)));
  const r0 = Math.max(0, Math.min(H - 1, Math.floor(fr)));
  const c1 = Math.min(W - 1, c0 + 1);
  const r1 = Math.min(H - 1, r0 + 1);
  const tx = Math.max(0, Math.min(1, fc - c0));
  const ty = Math.max(0, Math.min(1, fr - r0));
  let sum = 0;
  let wsum = 0;
  const add = (v: number, w: number) => {
    if (v !== nodata && w > 0) {
      sum += v * w;
      wsum += w;
    }
  };
  add(data[r0 * W + c0]!, (1 - tx) * (1 - ty));
  add(data[r0 * W + c1]!, tx * (1 - ty));
  add(data[r1 * W + c0]!, (1 - tx) * ty);
  add(data[r1 * W + c1]!, tx * ty);
  return wsum > 0 ? sum / wsum : Number.NaN;
}
