import path from 'node:path';
import { hillshade } from '@nuage/engine/products/hillshade.product.js';
import { writeRasterTiles } from '@nuage/engine/products/raster-tiles.product.js';
import { writeGeoTiff } from '@nuage/engine/writers/geotiff.writer.js';
import type { ProcessingProduct } from './product.js';
import { type DtmValue, inputOf } from './terrain-values.js';

/** HILLSHADE_DTM: Horn hillshade (azimuth 315°, altitude 45°) as a GeoTIFF and XYZ PNG tiles. */
export const hillshadeProduct: ProcessingProduct = {
  id: 'hillshade',
  assetType: 'HILLSHADE_DTM',
  name: 'Shaded terrain',
  needs: ['dtm'],
  enabled: (o) => o.shadedDtm,
  async run(ctx) {
    const { dtm, crs } = inputOf<DtmValue>(ctx.inputs, 'dtm');
    const shade = hillshade(dtm, {}, { signal: ctx.signal });
    const file = path.join(ctx.workDir, 'hillshade.tif');
    await writeGeoTiff(file, shade, { sampleType: 'uint8', deflate: true });
    ctx.progress(0.3);
    const tiles = await writeRasterTiles(
      shade,
      crs,
      'HILLSHADE_DTM',
      ctx.workDir,
      {},
      {
        signal: ctx.signal,
        progress: (f) => ctx.progress(0.3 + 0.7 * f),
      },
    );
    return {
      files: [{ path: file, extension: 'tif', fileName: `${ctx.sourceName}-hillshade.tif` }],
      tilesDir: tiles.path,
      figures: { tiles: tiles.tiles, minZoom: tiles.minZoom, maxZoom: tiles.maxZoom },
    };
  },
};
