import { writeRasterTiles } from '@nuage/engine/products/raster-tiles.product.js';
import type { ProcessingProduct } from './product.js';
import { type DtmValue, inputOf } from './terrain-values.js';

/** IMAGERY_DTM: the DTM as colour-ramped XYZ PNG tiles (the GeoTIFF is the DTM asset's file). */
export const imageryDtmProduct: ProcessingProduct = {
  id: 'imagery-dtm',
  assetType: 'IMAGERY_DTM',
  name: 'Terrain model imagery',
  needs: ['dtm'],
  async run(ctx) {
    const { dtm, crs } = inputOf<DtmValue>(ctx.inputs, 'dtm');
    const tiles = await writeRasterTiles(
      dtm,
      crs,
      'IMAGERY_DTM',
      ctx.workDir,
      {},
      {
        signal: ctx.signal,
        progress: (f) => ctx.progress(f),
      },
    );
    return {
      files: [],
      tilesDir: tiles.path,
      figures: { tiles: tiles.tiles, minZoom: tiles.minZoom, maxZoom: tiles.maxZoom },
    };
  },
};
