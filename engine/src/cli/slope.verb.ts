import { assertDtm } from '../products/hillshade.product.js';
import { slope } from '../products/slope.product.js';
import { readGeoTiff } from '../raster/geotiff.reader.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { type CliVerb, expectPositionals } from './verb.js';

/** `nuage slope DTM.tif OUT.tif`: slope in degrees (Horn), as `gdaldem slope`. */
export const slopeVerb: CliVerb = {
  name: 'slope',
  summary: "slope GeoTIFF in degrees (float32, nodata -9999) by Horn's method, as gdaldem",
  usage: 'nuage slope DTM.tif OUT.tif',
  options: {},
  async run({ positionals, out }) {
    expectPositionals(slopeVerb, positionals, 2);
    const [input, output] = positionals as [string, string];
    const dtm = await readGeoTiff(input);
    assertDtm(dtm);
    const result = slope(dtm);
    const record = await writeGeoTiff(output, result);
    out(`wrote ${result.width}×${result.height} slope map to ${output} (${record.bytes} bytes)`);
    return 0;
  },
};
