import path from 'node:path';
import { buildGridPoints } from '@nuage/engine/products/grid.product.js';
import { writeGeoJson } from '@nuage/engine/writers/geojson.writer.js';
import type { ProcessingProduct } from './product.js';
import { type DtmValue, featuresToWgs84, inputOf } from './terrain-values.js';

/** GRID: one point per cell (100–10000 cm) with the ground elevation; GeoJSON and PostGIS features. */
export const gridProduct: ProcessingProduct = {
  id: 'grid',
  assetType: 'GRID',
  name: 'Point grid',
  needs: ['dtm'],
  async run(ctx) {
    const { dtm, crs, units } = inputOf<DtmValue>(ctx.inputs, 'dtm');
    const options = { resolutionCm: ctx.options.gridResolution, unitToMetre: units.unitToMetre };
    const file = path.join(ctx.workDir, 'grid.geojson');
    const written = await writeGeoJson(file, buildGridPoints(dtm, options), { epsg: crs.epsg });
    return {
      files: [{ path: file, extension: 'geojson', fileName: `${ctx.sourceName}-grid.geojson` }],
      features: featuresToWgs84(buildGridPoints(dtm, options), crs),
      figures: { points: written.features },
    };
  },
};
