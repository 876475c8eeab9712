import { InvalidInput } from '../core/errors.js';
import { classifyCloudTiled } from '../filters/classify.filter.js';
import { gatherCloud, splitCloud } from '../filters/cloud.js';
import { INLINE_DECODE, terrainUnits } from '../products/process.js';
import { openPointCloud } from '../readers/index.js';
import { writeLas } from '../writers/las.writer.js';
import { type CliVerb, EPSG_OPTION, expectPositionals, parseEpsgOption } from './verb.js';

/** `nuage classify IN OUT.las [--epsg N] [--keep-existing]`: noise, ground, vegetation, buildings. */
export const classifyVerb: CliVerb = {
  name: 'classify',
  summary: 'classify noise (7, 18), ground (2), vegetation (3, 4, 5), buildings (6) into a LAS file',
  usage: 'nuage classify IN OUT.las [--epsg N] [--keep-existing]',
  options: { ...EPSG_OPTION, 'keep-existing': { type: 'boolean' } },
  async run({ positionals, values, out }) {
    expectPositionals(classifyVerb, positionals, 2);
    const [input, output] = positionals as [string, string];
    if (!output.toLowerCase().endsWith('.las'))
      throw new InvalidInput('OUT', `output must be a .las file, got ${output}`);
    const epsg = parseEpsgOption(values.epsg);
    const reader = await openPointCloud(input, epsg === undefined ? {} : { epsg });
    try {
      const units = terrainUnits(reader.crs);
      const cloud = await gatherCloud(reader.read({ workers: INLINE_DECODE }));
      const result = await classifyCloudTiled(cloud, {
        ...units,
        existing: values['keep-existing'] ? 'keep' : 'replace',
      });
      const classified = { ...cloud, classification: result.classification };
      const record = await writeLas(
        output,
        (async function* () {
          yield* splitCloud(classified);
        })(),
        {
          crs: reader.crs,
          scale: reader.header.scale,
          offset: reader.header.offset,
          extraBytes: reader.header.extraBytes,
          generatingSoftware: 'Nuage engine',
        },
      );
      const counts = Object.entries(result.counts)
        .map(([c, n]) => `${c}: ${n}`)
        .join(', ');
      out(`wrote ${record.pointCount} classified points to ${output} (classes ${counts})`);
    } finally {
      await reader.close();
    }
    return 0;
  },
};
