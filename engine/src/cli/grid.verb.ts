import { buildGridPoints } from '../products/grid.product.js';
import { gridResolutionCm, parseCmOption, rasterUnits } from '../products/terrain-options.js';
import { readGeoTiff } from '../raster/geotiff.reader.js';
import { writeGeoJson } from '../writers/geojson.writer.js';
import { type CliVerb, expectPositionals } from './verb.js';

/** `nuage grid DTM.tif OUT.geojson --resolution CM`: one point per cell with the ground elevation. */
export const gridVerb: CliVerb = {
  name: 'grid',
  summary: 'point grid (one point per cell, ground elevation) as GeoJSON in the DTM CRS',
  usage: 'nuage grid DTM.tif OUT.geojson --resolution CM',
  options: { resolution: { type: 'string' } },
  async run({ positionals, values, out }) {
    expectPositionals(gridVerb, positionals, 2);
    const [input, output] = positionals as [string, string];
    const resolutionCm = parseCmOption(values.resolution, '--resolution', gridResolutionCm);
    const dtm = await readGeoTiff(input);
    const units = rasterUnits(dtm.crs?.epsg ?? null);
    const record = await writeGeoJson(output, buildGridPoints(dtm, { resolutionCm, unitToMetre: units.unitToMetre }), {
      epsg: dtm.crs?.epsg ?? null,
    });
    out(`wrote ${record.features} grid points to ${output} (${record.bytes} bytes)`);
    return 0;
  },
};
