import { defineProduct } from '../core/product.js';
import type { DtmValue } from './product-values.js';
import { writeRasterTiles } from './raster-tiles.product.js';

/** IMAGERY_DTM: the DTM as hypsometric-coloured XYZ PNG tiles (its GeoTIFF is the DTM asset's file). */
export const imageryDtmProduct = defineProduct({
  id: 'imagery-dtm',
  assetType: 'IMAGERY_DTM',
  title: 'Terrain model imagery',
  summary: 'the DTM coloured by elevation as XYZ PNG tiles',
  layer: 'RASTER',
  display: 'raster',
  needs: ['dtm'],
  options: [],
  weight: 1,
  async run(ctx) {
    const { dtm, crs } = ctx.need<DtmValue>('dtm');
    const tiles = await writeRasterTiles(
      dtm,
      crs,
      'elevation',
      ctx.workDir,
      {},
      {
        signal: ctx.signal,
        progress: (f) => ctx.progress(f),
      },
    );
    return {
      files: [],
      tiles: { dir: tiles.path, format: 'XYZ', epsg: 3857, count: tiles.tiles },
      figures: { tiles: tiles.tiles, minZoom: tiles.minZoom, maxZoom: tiles.maxZoom },
    };
  },
});
