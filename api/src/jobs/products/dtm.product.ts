import path from 'node:path';
import { buildDtm } from '@nuage/engine/products/dtm.product.js';
import { rasterCrsOf } from '@nuage/engine/products/process.js';
import { rasterRange } from '@nuage/engine/raster/raster.js';
import { writeGeoTiff } from '@nuage/engine/writers/geotiff.writer.js';
import type { ProcessingProduct } from './product.js';
import { type ClassifiedCloud, type DtmValue, inputOf } from './terrain-values.js';

/** DTM: ground points → TIN → float32 GeoTIFF at the form's resolution (20–3000 cm). */
export const dtmProduct: ProcessingProduct = {
  id: 'dtm',
  assetType: 'DTM',
  name: 'Digital terrain model',
  needs: ['classification'],
  async run(ctx) {
    const { cloud, crs, units } = inputOf<ClassifiedCloud>(ctx.inputs, 'classification');
    const dtm = await buildDtm(
      { chunks: [cloud], crs: rasterCrsOf(crs) },
      { resolutionCm: ctx.options.dtmResolution, unitToMetre: units.unitToMetre },
      { signal: ctx.signal, progress: (f) => ctx.progress(0.8 * f) },
    );
    const file = path.join(ctx.workDir, 'dtm.tif');
    await writeGeoTiff(file, dtm, { deflate: true });
    const value: DtmValue = { dtm, crs, units };
    const range = rasterRange(dtm);
    return {
      files: [{ path: file, extension: 'tif', fileName: `${ctx.sourceName}-dtm.tif` }],
      value,
      figures: { width: dtm.width, height: dtm.height, min: range?.min ?? null, max: range?.max ?? null },
    };
  },
};
