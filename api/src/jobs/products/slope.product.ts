import path from 'node:path';
import { writeRasterTiles } from '@nuage/engine/products/raster-tiles.product.js';
import { slope } from '@nuage/engine/products/slope.product.js';
import { writeGeoTiff } from '@nuage/engine/writers/geotiff.writer.js';
import type { ProcessingProduct } from './product.js';
import { type DtmValue, inputOf } from './terrain-values.js';

/** SLOPE_MAP: slope in degrees as a GeoTIFF and colour-ramped XYZ PNG tiles. */
export const slopeProduct: ProcessingProduct = {
  id: 'slope',
  assetType: 'SLOPE_MAP',
  name: 'Slope map',
  needs: ['dtm'],
  enabled: (o) => o.shadedDtm,
  async run(ctx) {
    const { dtm, crs } = inputOf<DtmValue>(ctx.inputs, 'dtm');
    const raster = slope(dtm, {}, { signal: ctx.signal });
    const file = path.join(ctx.workDir, 'slope.tif');
    await writeGeoTiff(file, raster, { deflate: true });
    ctx.progress(0.3);
    const tiles = await writeRasterTiles(
      raster,
      crs,
      'SLOPE_MAP',
      ctx.workDir,
      {},
      {
        signal: ctx.signal,
        progress: (f) => ctx.progress(0.3 + 0.7 * f),
      },
    );
    return {
      files: [{ path: file, extension: 'tif', fileName: `${ctx.sourceName}-slope.tif` }],
      tilesDir: tiles.path,
      figures: { tiles: tiles.tiles, minZoom: tiles.minZoom, maxZoom: tiles.maxZoom },
    };
  },
};
