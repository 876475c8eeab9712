import { z } from 'zod';
import type { StepContext } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import { createRaster, FLOAT_NODATA, type Raster } from '../raster/raster.js';
import { unitScale } from './terrain-options.js';

/** Options of {@link slope}; defaults are `gdaldem slope`'s. */
export const slopeOptionsSchema = z.object({
  /** Ratio of horizontal to vertical units (gdaldem `-s`); derived from the raster CRS when absent. */
  scale: z.number().positive().optional(),
});
export type SlopeOptions = z.input<typeof slopeOptionsSchema>;

/**
 * Slope in degrees of a DTM by Horn's method, equal to `gdaldem slope`: float
 * raster with nodata -9999 on edge cells and next to nodata cells.
 *
 * @example
 * await writeGeoTiff('slope.tif', slope(dtm));
 */
export function slope(dtm: Raster, options: SlopeOptions = {}, context: StepContext = {}): Raster {
  const opts = slopeOptionsSchema.parse(options);
  const { width, height, data, nodata } = dtm;
  const out = createRaster(width, height, dtm.originX, dtm.originY, dtm.resolution, dtm.crs, FLOAT_NODATA);
  const scale = opts.scale ?? unitScale(dtm.crs);
  const inv = 1 / (8 * scale);
  const ewres = dtm.resolution;
  const nsres = dtm.resolution;
  const r2d = 180 / Math.PI;
  const o = out.data;
  for (let r = 1; r < height - 1; r++) {
    if (context.signal?.aborted) throw new Cancelled();
    const up = (r - 1) * width;
    const mid = r * width;
    const dn = (r + 1) * width;
    for (let c = 1; c < width - 1; c++) {
      const a = data[up + c - 1]!;
      const b = data[up + c]!;
      const cc = data[up + c + 1]!;
      const d = data[mid + c - 1]!;
      const e = data[mid + c]!;
      const f = data[mid + c + 1]!;
      const g = data[dn + c - 1]!;
      const h = data[dn + c]!;
      const i = data[dn + c + 1]!;
      if (
        a === nodata ||
        b === nodata ||
        cc === nodata ||
        d === nodata ||
        e === nodata ||
        f === nodata ||
        g === nodata ||
        h === nodata ||
        i === nodata
      ) {
        continue;
      }
      const dx = (a + d + d + g - (cc + f + f + i)) / ewres;
      const dy = (g + h + h + i - (a + b + b + cc)) / nsres;
      o[mid + c] = Math.atan(Math.sqrt(dx * dx + dy * dy) * inv) * r2d;
    }
  }
  return out;
}
