import { readFile } from 'node:fs/promises';
import { InvalidInput } from '../core/errors.js';
import { type CliVerb, EPSG_OPTION, expectPositionals, parseEpsgOption } from './verb.js';

/** `nuage edit-classes IN OUT.las --edits edits.json [--json] [--epsg N]`. */
export const editClassesVerb: CliVerb = {
  name: 'edit-classes',
  summary:
    'applies classification edits (regions drawn on the 3D view or the map, class and height filters, a new class; JSON as the API stores them) to a cloud, writing LAS 1.4',
  usage: 'nuage edit-classes IN OUT.las --edits edits.json [--json] [--epsg N]',
  options: { edits: { type: 'string' }, json: { type: 'boolean' }, ...EPSG_OPTION },
  async run({ positionals, values, out }) {
    expectPositionals(editClassesVerb, positionals, 2);
    const [input, output] = positionals as [string, string];
    if (!/\.las$/i.test(output)) throw new InvalidInput('OUT', `output must be a .las file, got ${output}`);
    if (values.edits === undefined) throw new InvalidInput('--edits', 'give the edits file (JSON)');
    const file = String(values.edits);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new InvalidInput('--edits', code === 'ENOENT' ? `no such file: ${file}` : `cannot read ${file} (${code})`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new InvalidInput('--edits', `${file} is not JSON: ${(error as Error).message}`);
    }
    const { parseClassEdits } = await import('../edit/class-edits.js');
    const { editClassesFile } = await import('../edit/edit-file.js');
    const edits = parseClassEdits(json, '--edits');
    const epsg = parseEpsgOption(values.epsg);
    const t0 = performance.now();
    const r = await editClassesFile(input, output, edits, { epsg });
    const ms = Math.round(performance.now() - t0);
    if (values.json) {
      out(JSON.stringify({ points: r.pointCount, edits: r.changed }));
      return 0;
    }
    r.changed.forEach((c, i) => {
      const by = c
        ? Object.entries(c.byClass)
            .map(([k, v]) => `${v} from ${k}`)
            .join(', ')
        : '';
      out(c ? `edit ${i + 1}: ${c.total} points changed${by ? ` (${by})` : ''}` : `edit ${i + 1}: reverted, skipped`);
    });
    out(`wrote ${r.pointCount} points to ${output} (${ms} ms)`);
    return 0;
  },
};
