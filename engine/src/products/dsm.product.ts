import path from 'node:path';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled, InvalidInput } from '../core/errors.js';
import { defineProduct } from '../core/product.js';
import { createRaster, fillFromNeighbours, type Raster, rasterRange } from '../raster/raster.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { productEntry } from './catalog.js';
import type { ClassifiedCloud, DtmValue } from './product-values.js';
import { writeRasterTileSource } from './raster-tiles.product.js';

/** Classes never part of a surface: low point (7) and high noise (18). */
const NOISE = new Set([7, 18]);

/** Passes of hole filling; holes wider than about twice this many cells take the DTM. */
const FILL_PASSES = 8;

/**
 * A digital surface model on the grid of `dtm`: in each cell the highest
 * first return (noise classes left out). Cells without a first return inside
 * the DTM are filled from their neighbours (mean of the valid ones, a few
 * passes), then from the DTM itself (bare ground: water, shadows); cells where
 * the DTM is nodata stay nodata.
 *
 * @example
 * const dsm = buildDsm(cloud, dtm);
 */
export function buildDsm(cloud: PointChunk, dtm: Raster, context: StepContext = {}): { dsm: Raster; filled: number } {
  const { width: W, height: H, originX, originY, resolution: res } = dtm;
  const dsm = createRaster(W, H, originX, originY, res, dtm.crs);
  const top = dsm.data;
  const nodata = dsm.nodata;
  const { x, y, z, count } = cloud;
  const returns = cloud.returnNumber;
  const classes = cloud.classification;
  for (let i = 0; i < count; i++) {
    if (returns && returns[i]! > 1) continue;
    if (classes && NOISE.has(classes[i]!)) continue;
    const c = Math.floor((x[i]! - originX) / res);
    const r = Math.floor((originY - y[i]!) / res);
    if (c < 0 || r < 0 || c >= W || r >= H) continue;
    const k = r * W + c;
    const zi = z[i]!;
    if (top[k] === nodata || zi > top[k]!) top[k] = zi;
  }
  if (context.signal?.aborted) throw new Cancelled();
  // Holes inside the DTM: neighbours' mean, a few passes, then the ground itself.
  const ground = dtm.data;
  let filled = fillFromNeighbours(top, W, H, nodata, FILL_PASSES, (k) => ground[k] !== dtm.nodata);
  for (let k = 0; k < top.length; k++) {
    if (top[k] === nodata && ground[k] !== dtm.nodata) {
      top[k] = ground[k]!;
      filled++;
    }
  }
  return { dsm, filled };
}

/** DSM: the highest first-return surface on the DTM's grid, as a COG and XYZ PNG tiles rendered from it on demand. */
export const dsmProduct = defineProduct<Raster>({
  ...productEntry('dsm'),
  async run(ctx) {
    const { cloud } = ctx.need<ClassifiedCloud>('classify');
    const { dtm, crs } = ctx.need<DtmValue>('dtm');
    if (cloud.count === 0) throw new InvalidInput('points', 'the point cloud is empty');
    const { dsm, filled } = buildDsm(cloud, dtm, { signal: ctx.signal });
    const file = path.join(ctx.workDir, 'dsm.tif');
    await writeGeoTiff(file, dsm, { deflate: true });
    ctx.progress(0.9);
    const tiles = await writeRasterTileSource(file, dsm, crs, 'elevation', ctx.workDir);
    const range = rasterRange(dsm);
    return {
      files: [{ path: file, format: 'GTiff', extension: 'tif', epsg: crs.epsg, count: dsm.width * dsm.height }],
      tiles: { dir: tiles.path, format: 'XYZ', epsg: 3857, count: 0 },
      value: dsm,
      figures: { filledCells: filled, min: range?.min ?? null, max: range?.max ?? null },
    };
  },
});
