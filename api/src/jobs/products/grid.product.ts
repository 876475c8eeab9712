import path from 'node:path';
import { buildGridPoints } from '@nuage/engine/products/grid.product.js';
import type { ProcessingProduct } from './product.js';
import { type DtmValue, featuresToWgs84, inputOf, writeWgs84GeoJson } from './terrain-values.js';

/** GRID: one point per cell (100–10000 cm) with the ground elevation; GeoJSON in EPSG:4326 and PostGIS features. */
export const gridProduct: ProcessingProduct = {
  id: 'grid',
  assetType: 'GRID',
  name: 'Point grid',
  needs: ['dtm'],
  async run(ctx) {
    const { dtm, crs, units } = inputOf<DtmValue>(ctx.inputs, 'dtm');
    const options = { resolutionCm: ctx.options.gridResolution, unitToMetre: units.unitToMetre };
    const file = path.join(ctx.workDir, 'grid.geojson');
    const written = await writeWgs84GeoJson(file, buildGridPoints(dtm, options), crs);
    return {
      files: [{ path: file, extension: 'geojson', fileName: `${ctx.sourceName}-grid.geojson` }],
      features: featuresToWgs84(buildGridPoints(dtm, options), crs),
      figures: { points: written.features },
    };
  },
};
