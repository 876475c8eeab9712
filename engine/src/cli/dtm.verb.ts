import { InvalidInput } from '../core/errors.js';
import { classifyCloud } from '../filters/classify.filter.js';
import { gatherCloud } from '../filters/cloud.js';
import { buildDtm } from '../products/dtm.product.js';
import { INLINE_DECODE, rasterCrsOf, terrainUnits } from '../products/process.js';
import { dtmResolutionCm, parseCmOption } from '../products/terrain-options.js';
import { openPointCloud } from '../readers/index.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { type CliVerb, EPSG_OPTION, expectPositionals, parseEpsgOption } from './verb.js';

/** `nuage dtm IN OUT.tif --resolution CM`: DTM GeoTIFF from the ground points (classified first when none). */
export const dtmVerb: CliVerb = {
  name: 'dtm',
  summary: 'DTM GeoTIFF (float32, nodata -9999) from ground points; unclassified input is classified first',
  usage: 'nuage dtm IN OUT.tif --resolution CM [--epsg N]',
  options: { ...EPSG_OPTION, resolution: { type: 'string' } },
  async run({ positionals, values, out }) {
    expectPositionals(dtmVerb, positionals, 2);
    const [input, output] = positionals as [string, string];
    if (!/\.tiff?$/i.test(output)) throw new InvalidInput('OUT', `output must be a .tif file, got ${output}`);
    const resolutionCm = parseCmOption(values.resolution, '--resolution', dtmResolutionCm);
    const epsg = parseEpsgOption(values.epsg);
    const reader = await openPointCloud(input, epsg === undefined ? {} : { epsg });
    try {
      const units = terrainUnits(reader.crs);
      const cloud = await gatherCloud(reader.read({ workers: INLINE_DECODE }));
      let ground = 0;
      const cls = cloud.classification;
      if (cls) for (let i = 0; i < cloud.count; i++) ground += cls[i] === 2 ? 1 : 0;
      if (ground < 3) {
        out('no ground class in the input: classifying first');
        cloud.classification = classifyCloud(cloud, units).classification;
      }
      const dtm = await buildDtm(
        { chunks: [cloud], crs: rasterCrsOf(reader.crs) },
        { resolutionCm, unitToMetre: units.unitToMetre },
      );
      const record = await writeGeoTiff(output, dtm, { deflate: true });
      out(`wrote ${dtm.width}×${dtm.height} DTM at ${resolutionCm} cm to ${output} (${record.bytes} bytes)`);
    } finally {
      await reader.close();
    }
    return 0;
  },
};
