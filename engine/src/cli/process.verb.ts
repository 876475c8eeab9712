import { readFile } from 'node:fs/promises';
import { InvalidInput } from '../core/errors.js';
import { processOptionsSchema, processPointCloud } from '../products/process.js';
import { type CliVerb, EPSG_OPTION, expectPositionals, parseEpsgOption } from './verb.js';

/** `nuage process IN OUTDIR [--options FILE.json]`: every terrain product, as a processing job does. */
export const processVerb: CliVerb = {
  name: 'process',
  summary: 'every terrain product (classified LAS, DTM, hillshade, slope, contours, grid, tiles, quality report)',
  usage: 'nuage process IN OUTDIR [--options FILE.json] [--epsg N]',
  options: { ...EPSG_OPTION, options: { type: 'string' } },
  async run({ positionals, values, out }) {
    expectPositionals(processVerb, positionals, 2);
    const [input, outDir] = positionals as [string, string];
    let raw: Record<string, unknown> = {};
    if (typeof values.options === 'string') {
      let text: string;
      try {
        text = await readFile(values.options, 'utf8');
      } catch (cause) {
        throw new InvalidInput('--options', `cannot read ${values.options}: ${(cause as Error).message}`);
      }
      try {
        raw = JSON.parse(text) as Record<string, unknown>;
      } catch (cause) {
        throw new InvalidInput('--options', `${values.options} is not JSON: ${(cause as Error).message}`);
      }
    }
    const epsg = parseEpsgOption(values.epsg);
    if (epsg !== undefined) raw.epsg = epsg;
    const parsed = processOptionsSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new InvalidInput(`options.${issue.path.join('.')}`, issue.message);
    }
    const result = await processPointCloud(input, outDir, parsed.data, {
      progress: (f, step) => out(`${Math.round(f * 100)}% ${step ?? ''}`.trim()),
    });
    for (const a of result.artifacts) out(`${a.type.padEnd(24)} ${a.path} (${a.bytes} bytes)`);
    const g = result.quality.ground;
    if (g) out(`ground vs input: kappa ${g.kappa.toFixed(3)}, total error ${(g.totalError * 100).toFixed(2)} %`);
    return 0;
  },
};
