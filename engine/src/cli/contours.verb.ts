import { InvalidInput } from '../core/errors.js';
import { buildContours, contourFeatures } from '../products/contours.product.js';
import { contourIntervalCm, parseCmOption, rasterUnits } from '../products/terrain-options.js';
import { readGeoTiff } from '../raster/geotiff.reader.js';
import { writeGeoJson } from '../writers/geojson.writer.js';
import { type CliVerb, expectPositionals } from './verb.js';

/** `nuage contours DTM.tif OUT.geojson --minor CM --major CM`: smoothed contour lines. */
export const contoursVerb: CliVerb = {
  name: 'contours',
  summary: 'contour LineStrings (elevation, kind minor/major) as GeoJSON in the DTM CRS',
  usage: 'nuage contours DTM.tif OUT.geojson --minor CM --major CM',
  options: { minor: { type: 'string' }, major: { type: 'string' } },
  async run({ positionals, values, out }) {
    expectPositionals(contoursVerb, positionals, 2);
    const [input, output] = positionals as [string, string];
    const minorCm = parseCmOption(values.minor, '--minor', contourIntervalCm);
    const majorCm = parseCmOption(values.major, '--major', contourIntervalCm);
    if (majorCm <= minorCm) throw new InvalidInput('--major', `must be larger than --minor (${majorCm} <= ${minorCm})`);
    const dtm = await readGeoTiff(input);
    const units = rasterUnits(dtm.crs?.epsg ?? null);
    const lines = buildContours(dtm, { minorCm, majorCm, verticalUnitToMetre: units.verticalUnitToMetre });
    const record = await writeGeoJson(output, contourFeatures(lines), { epsg: dtm.crs?.epsg ?? null });
    out(`wrote ${record.features} contour lines to ${output} (${record.bytes} bytes)`);
    return 0;
  },
};
