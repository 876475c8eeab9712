import path from 'node:path';
import { z } from 'zod';
import { InvalidInput } from '../core/errors.js';
import { defineProduct } from '../core/product.js';
import type { Raster } from '../raster/raster.js';
import { sampleBilinear } from '../raster/raster.js';
import type { Feature } from '../writers/geojson.writer.js';
import { productEntry } from './catalog.js';
import { type DtmValue, featuresToWgs84, writeWgs84GeoJson } from './product-values.js';
import { gridResolutionCm } from './terrain-options.js';

/** Options of {@link buildPointGrid}; resolution in centimetres (processing form: 100–10000 cm). */
export const gridOptionsSchema = z.object({
  resolutionCm: gridResolutionCm.default(1000),
  /** Horizontal CRS unit in metres. */
  unitToMetre: z.number().positive().default(1),
});
export type GridOptions = z.input<typeof gridOptionsSchema>;

/**
 * A regular point grid (`products.grid`): one point per cell of the given
 * resolution at the cell centre, carrying the ground elevation interpolated
 * (bilinear) on the DTM; cells where the DTM has no value are skipped.
 * Cells are aligned on multiples of the resolution.
 *
 * @example
 * const points = [...buildGridPoints(dtm, { resolutionCm: 1000 })];
 */
export function* buildGridPoints(dtm: Raster, options: GridOptions = {}): Generator<Feature> {
  const o = gridOptionsSchema.parse(options);
  const step = o.resolutionCm / 100 / o.unitToMetre;
  const minX = dtm.originX;
  const maxX = dtm.originX + dtm.width * dtm.resolution;
  const maxY = dtm.originY;
  const minY = dtm.originY - dtm.height * dtm.resolution;
  const cols = Math.ceil((maxX - Math.floor(minX / step) * step) / step);
  const rows = Math.ceil((Math.ceil(maxY / step) * step - minY) / step);
  if (cols * rows > 50_000_000) {
    throw new InvalidInput('grid.resolutionCm', `${cols * rows} points: choose a coarser grid`);
  }
  const x0 = Math.floor(minX / step) * step;
  const y0 = Math.ceil(maxY / step) * step;
  let id = 0;
  for (let r = 0; r < rows; r++) {
    const y = y0 - (r + 0.5) * step;
    if (y < minY || y > maxY) continue;
    for (let c = 0; c < cols; c++) {
      const x = x0 + (c + 0.5) * step;
      if (x < minX || x > maxX) continue;
      const z = sampleBilinear(dtm, x, y);
      if (Number.isNaN(z)) continue;
      id++;
      yield {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [x, y, Math.round(z * 1000) / 1000] },
        properties: { id, elevation: Math.round(z * 1000) / 1000 },
      };
    }
  }
}

/** GRID: one point per cell with the ground elevation (GeoJSON in EPSG:4326, PostGIS features). */
export const gridProduct = defineProduct({
  ...productEntry('grid'),
  async run(ctx) {
    const { dtm, crs, units } = ctx.need<DtmValue>('dtm');
    const options = { resolutionCm: ctx.options.gridResolutionCm, unitToMetre: units.unitToMetre };
    const file = path.join(ctx.workDir, 'grid.geojson');
    const written = await writeWgs84GeoJson(file, buildGridPoints(dtm, options), crs);
    return {
      files: [{ path: file, format: 'GeoJSON', extension: 'geojson', epsg: 4326, count: written.features }],
      features: () => featuresToWgs84(buildGridPoints(dtm, options), crs),
      figures: { points: written.features },
    };
  },
});
