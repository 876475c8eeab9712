import { InvalidInput } from '../core/errors.js';
import { type CliVerb, EPSG_OPTION, expectPositionals, parseEpsgOption } from './verb.js';

const VALUE_FLAGS = ['max-points', 'min-node-size', 'workers', 'grid', 'quantize'] as const;

/**
 * `nuage tile IN OUTDIR [--max-points N] [--min-node-size M] [--epsg N] [--workers N] [--grid G] [--quantize true|false] [--options=TEXT] [--json]`:
 * LAS/LAZ/COPC to a 3D Tiles 1.1 tileset (tileset.json + GLB point contents).
 * `--options=TEXT` takes the admin "tiling parameters" text (write it with `=`, it starts with --); explicit flags win over it.
 */
export const tileVerb: CliVerb = {
  name: 'tile',
  summary: '3D Tiles 1.1 tileset (GLB points, ADD refinement) for Cesium',
  usage:
    'nuage tile IN OUTDIR [--max-points N] [--min-node-size M] [--epsg N] [--workers N] [--grid G] [--quantize true|false] [--options=TEXT] [--json]',
  options: {
    ...EPSG_OPTION,
    'max-points': { type: 'string' },
    'min-node-size': { type: 'string' },
    workers: { type: 'string' },
    grid: { type: 'string' },
    quantize: { type: 'string' },
    options: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ positionals, values, out }) {
    expectPositionals(tileVerb, positionals, 2);
    const [input, outDir] = positionals as [string, string];
    const parts: string[] = [];
    if (values.options !== undefined) parts.push(String(values.options));
    for (const flag of VALUE_FLAGS) {
      if (values[flag] !== undefined) parts.push(`--${flag}`, String(values[flag]));
    }
    const { parseTilerOptions } = await import('../tiler/tiler-options.js');
    const { tilePointCloud } = await import('../tiler/tile-point-cloud.js');
    const options = parseTilerOptions(parts.join(' '));
    const epsg = parseEpsgOption(values.epsg);
    if (epsg !== undefined) options.epsg = epsg;
    if (options.epsg !== undefined && (options.epsg < 1024 || options.epsg > 999_999)) {
      throw new InvalidInput('--epsg', `${options.epsg} is not an EPSG code`);
    }
    let last = -1;
    const result = await tilePointCloud(input, outDir, options, {
      progress: (f) => {
        const pct = Math.floor(f * 10) * 10;
        if (!values.json && pct > last) {
          last = pct;
          process.stderr.write(`\r${pct}%`);
        }
      },
    });
    if (!values.json) process.stderr.write('\n');
    if (values.json) {
      out(JSON.stringify(result, null, 2));
    } else {
      const b = result.bboxWgs84;
      out(
        `wrote ${result.pointCount.toLocaleString('en-US')} points in ${result.tileCount} tiles (depth ${result.maxDepth}) to ${result.tilesetPath}`,
      );
      out(
        `bbox WGS84 lon ${b.west.toFixed(6)} .. ${b.east.toFixed(6)}, lat ${b.south.toFixed(6)} .. ${b.north.toFixed(6)}, h ${b.minHeight.toFixed(2)} .. ${b.maxHeight.toFixed(2)} m; ${(result.durationMs / 1000).toFixed(1)} s`,
      );
    }
    return 0;
  },
};
