import { InvalidInput } from '../core/errors.js';
import { type CliVerb, EPSG_OPTION, expectPositionals, parseEpsgOption } from './verb.js';

/** `nuage convert IN OUT.las [--epsg N]`: LAS/LAZ/COPC to LAS 1.4 (formats 6/7/8). */
export const convertVerb: CliVerb = {
  name: 'convert',
  summary: 'LAS/LAZ/COPC to LAS 1.4 (format 6, 7 with RGB, 8 with NIR), every attribute kept',
  usage: 'nuage convert IN OUT.las [--epsg N]',
  options: { ...EPSG_OPTION },
  async run({ positionals, values, out }) {
    expectPositionals(convertVerb, positionals, 2);
    const [input, output] = positionals as [string, string];
    if (!output.toLowerCase().endsWith('.las'))
      throw new InvalidInput('OUT', `output must be a .las file, got ${output}`);
    const epsg = parseEpsgOption(values.epsg);
    const { openPointCloud } = await import('../readers/index.js');
    const { writeLas } = await import('../writers/las.writer.js');
    const reader = await openPointCloud(input, epsg === undefined ? {} : { epsg });
    try {
      const { header } = reader;
      const record = await writeLas(output, reader.read(), {
        crs: reader.crs,
        scale: header.scale,
        offset: header.offset,
        extraBytes: header.extraBytes,
        systemId: header.systemId,
        generatingSoftware: 'Nuage engine',
        fileSourceId: header.fileSourceId,
        adjustedGpsTime: (header.globalEncoding & 1) !== 0,
      });
      out(`wrote ${record.pointCount} points to ${output} (${record.bytes} bytes)`);
    } finally {
      await reader.close();
    }
    return 0;
  },
};
