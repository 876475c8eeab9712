import { copyFile, link, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { CrsRequired } from '../core/errors.js';
import type { CrsInfo } from '../crs/index.js';
import { TILE_RAMPS, type TileRamp } from '../raster/colour-ramps.js';
import { type Raster, rasterRange } from '../raster/raster.js';
import { rasterLonLatBounds, TILE_PIXELS, toMercator } from '../raster/tile-render.js';

export type { TileRamp } from '../raster/colour-ramps.js';

const EARTH = 6378137;
const HALF = Math.PI * EARTH;

/** Options of {@link writeRasterTileSource}. */
export const rasterTilesOptionsSchema = z.object({
  /** Lowest zoom worth showing; default: the zoom where the project fits one tile. */
  minZoom: z.number().int().min(0).max(24).optional(),
  /** Zoom whose pixels match the raster cells; default computed from the cell size. */
  maxZoom: z.number().int().min(0).max(24).optional(),
});
export type RasterTilesOptions = z.input<typeof rasterTilesOptionsSchema>;

/** Name of the COG inside a raster tiles folder. */
export const RASTER_TILE_SOURCE = 'source.tif';
/** Name of the description of a raster tiles folder. */
export const RASTER_TILE_DESCRIPTION = 'raster.json';

/**
 * `raster.json` of a raster tiles folder: what the tile server needs to
 * render `{z}/{x}/{y}.png` from `source.tif` on demand, without reading the
 * whole raster.
 */
export const rasterTileDescriptionSchema = z.object({
  version: z.literal(1),
  /**
   * The Cloud-Optimized GeoTIFF: `source.tif` beside this file (as written
   * here), or the store key of the same file when the store that serves the
   * tiles holds it once, as the product's download (the API's processing job).
   */
  source: z.string().min(1),
  ramp: z.enum(TILE_RAMPS as [TileRamp, ...TileRamp[]]),
  /** Range of valid values (the elevation ramp spans it); null when every cell is nodata. */
  range: z.object({ min: z.number(), max: z.number() }).nullable(),
  epsg: z.number().int().nullable(),
  /** proj4 definition of the raster CRS. */
  proj4: z.string().min(1),
  /** Longitude/latitude bounds `[west, south, east, north]`. */
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  /** Zoom where the project fits one tile. */
  minZoom: z.number().int(),
  /** Zoom whose pixels match the raster cells. */
  maxZoom: z.number().int(),
});
export type RasterTileDescription = z.infer<typeof rasterTileDescriptionSchema>;

/** What {@link writeRasterTileSource} made: a folder served as XYZ tiles rendered on demand. */
export interface TilesArtifact {
  path: string;
  type: 'xyz-tiles';
  ramp: TileRamp;
  minZoom: number;
  maxZoom: number;
  /** Bytes of the folder (the COG and its description). */
  bytes: number;
  /** Longitude/latitude bounds. */
  bounds: [number, number, number, number];
}

/**
 * Makes the XYZ tiles folder of a raster product, `<outDir>/tiles/`: the
 * product's Cloud-Optimized GeoTIFF (`source.tif`, a hard link when the file
 * system allows) and `raster.json` (ramp, value range, CRS, bounds and zoom
 * range). No tile is drawn here: the tile server renders `{z}/{x}/{y}.png`
 * (web mercator, 256 px) from the COG when asked (raster/tile-render.ts).
 *
 * @example
 * await writeRasterTileSource('out/hillshade.tif', shade, crs, 'shade', 'out/');
 */
export async function writeRasterTileSource(
  cogPath: string,
  raster: Raster,
  crs: CrsInfo | null,
  ramp: TileRamp,
  outDir: string,
  options: RasterTilesOptions = {},
): Promise<TilesArtifact> {
  const o = rasterTilesOptionsSchema.parse(options);
  if (!crs) throw new CrsRequired('raster tiles need the project CRS: give one with --epsg');
  const minX = raster.originX;
  const maxY = raster.originY;
  const maxX = minX + raster.width * raster.resolution;
  const minY = maxY - raster.height * raster.resolution;
  const bounds = rasterLonLatBounds({ minX, minY, maxX, maxY }, crs.proj4);
  const [west, south, east, north] = bounds;
  const [mx0, my0] = toMercator(west, south);
  const [mx1, my1] = toMercator(east, north);
  const cellMetres = raster.resolution * (crs.horizontalUnitToMetre || 1);
  const latScale = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const fineZoom = Math.ceil(Math.log2((2 * HALF * latScale) / TILE_PIXELS / cellMetres));
  let maxZoom = o.maxZoom ?? Math.max(0, Math.min(22, fineZoom));
  const extent = Math.max(mx1 - mx0, my1 - my0, 1);
  const minZoom = o.minZoom ?? Math.max(0, Math.min(maxZoom, Math.floor(Math.log2((2 * HALF) / extent))));
  if (maxZoom < minZoom) maxZoom = minZoom;

  const dir = path.join(outDir, 'tiles');
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, RASTER_TILE_SOURCE);
  await rm(target, { force: true });
  await link(cogPath, target).catch(() => copyFile(cogPath, target));
  const description: RasterTileDescription = {
    version: 1,
    source: RASTER_TILE_SOURCE,
    ramp,
    range: rasterRange(raster),
    epsg: crs.epsg,
    proj4: crs.proj4,
    bounds,
    minZoom,
    maxZoom,
  };
  const json = `${JSON.stringify(description, null, 2)}\n`;
  await writeFile(path.join(dir, RASTER_TILE_DESCRIPTION), json);
  return {
    path: dir,
    type: 'xyz-tiles',
    ramp,
    minZoom,
    maxZoom,
    bytes: (await stat(target)).size + Buffer.byteLength(json),
    bounds,
  };
}
