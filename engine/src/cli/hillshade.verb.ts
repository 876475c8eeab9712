import { InvalidInput } from '../core/errors.js';
import { assertDtm, hillshade } from '../products/hillshade.product.js';
import { readGeoTiff } from '../raster/geotiff.reader.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { type CliVerb, expectPositionals } from './verb.js';

function numberOption(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new InvalidInput(field, `"${value}" is not a number`);
  return n;
}

/** `nuage hillshade DTM.tif OUT.tif`: Horn hillshade, azimuth 315°, altitude 45° (gdaldem's defaults). */
export const hillshadeVerb: CliVerb = {
  name: 'hillshade',
  summary: "hillshade GeoTIFF (Byte, nodata 0) by Horn's method, azimuth 315, altitude 45, as gdaldem",
  usage: 'nuage hillshade DTM.tif OUT.tif [--azimuth DEG] [--altitude DEG] [--z-factor Z]',
  options: { azimuth: { type: 'string' }, altitude: { type: 'string' }, 'z-factor': { type: 'string' } },
  async run({ positionals, values, out }) {
    expectPositionals(hillshadeVerb, positionals, 2);
    const [input, output] = positionals as [string, string];
    const dtm = await readGeoTiff(input);
    assertDtm(dtm);
    const options = {
      azimuth: numberOption(values.azimuth, '--azimuth'),
      altitude: numberOption(values.altitude, '--altitude'),
      zFactor: numberOption(values['z-factor'], '--z-factor'),
    };
    const shade = hillshade(dtm, Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)));
    const record = await writeGeoTiff(output, shade, { sampleType: 'uint8' });
    out(`wrote ${shade.width}×${shade.height} hillshade to ${output} (${record.bytes} bytes)`);
    return 0;
  },
};
