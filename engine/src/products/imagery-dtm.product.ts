import path from 'node:path';
import { defineProduct } from '../core/product.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { productEntry } from './catalog.js';
import type { DtmValue } from './product-values.js';
import { writeRasterTileSource } from './raster-tiles.product.js';

/**
 * IMAGERY_DTM: the DTM coloured by elevation as XYZ PNG tiles, rendered on
 * demand from the DTM's COG (its GeoTIFF download is the DTM asset's file).
 */
export const imageryDtmProduct = defineProduct({
  ...productEntry('imagery-dtm'),
  async run(ctx) {
    const { dtm, crs } = ctx.need<DtmValue>('dtm');
    // The DTM product's COG when this run wrote it; else (a resumed run) the same DTM written again.
    const outDir = path.dirname(ctx.workDir);
    const written = ctx.artifacts().find((a) => a.type === 'DTM' && a.format === 'GTiff');
    let cog = written ? path.join(outDir, written.path) : null;
    if (!cog) {
      cog = path.join(ctx.tmpDir, `imagery-dtm-${process.pid}-${Date.now()}.tif`);
      await writeGeoTiff(cog, dtm, { deflate: true });
    }
    ctx.progress(0.8);
    const tiles = await writeRasterTileSource(cog, dtm, crs, 'elevation', ctx.workDir);
    return {
      files: [],
      tiles: { dir: tiles.path, format: 'XYZ', epsg: 3857, count: 0 },
      figures: { minZoom: tiles.minZoom, maxZoom: tiles.maxZoom },
    };
  },
});
