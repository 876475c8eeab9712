import { readFile } from 'node:fs/promises';
import type { ClipArea, ClipKind, ReturnsFilter } from '../clip/index.js';
import { InvalidInput } from '../core/errors.js';
import { type CliVerb, EPSG_OPTION, expectPositionals, parseEpsgOption } from './verb.js';

async function readGeoJson(file: string, option: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InvalidInput(option, code === 'ENOENT' ? `no such file: ${file}` : `cannot read ${file} (${code})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidInput(option, `${file} is not JSON: ${(error as Error).message}`);
  }
}

function parseBbox(value: string): ClipArea {
  const parts = value.split(',').map((s) => s.trim());
  const numbers = parts.map(Number);
  if (parts.length !== 4 || parts.some((p) => p === '') || numbers.some((n) => !Number.isFinite(n))) {
    throw new InvalidInput('--bbox', `"${value}" is not minX,minY,maxX,maxY`);
  }
  const [minX, minY, maxX, maxY] = numbers as [number, number, number, number];
  return { kind: 'box', minX, minY, maxX, maxY };
}

function parseClasses(
  value: unknown,
  checkClasses: (classes: number[], field: string) => number[],
): number[] | undefined {
  if (value === undefined) return undefined;
  const parts = String(value)
    .split(',')
    .map((s) => s.trim());
  if (parts.some((p) => !/^\d{1,3}$/.test(p))) {
    throw new InvalidInput('--classes', `"${value}" is not a list of class codes such as 2,6`);
  }
  return checkClasses(parts.map(Number), '--classes');
}

/** `nuage clip IN OUT.las --polygon FILE | --bbox … | --corridor FILE --width M [--classes 2,6] [--returns …]`. */
export const clipVerb: CliVerb = {
  name: 'clip',
  summary:
    'the points inside a polygon (with holes), a box or a corridor (a line and a width in metres) to LAS 1.4, or to LAZ for clouds of point formats 0-3 without extra bytes (others: .las only); GeoJSON in the cloud CRS or EPSG:4326',
  usage:
    'nuage clip IN OUT.las|OUT.laz (--polygon FILE.geojson | --bbox minX,minY,maxX,maxY | --corridor FILE.geojson --width M) [--classes 2,6] [--returns first|last|all] [--epsg N]',
  options: {
    polygon: { type: 'string' },
    bbox: { type: 'string' },
    corridor: { type: 'string' },
    width: { type: 'string' },
    classes: { type: 'string' },
    returns: { type: 'string' },
    ...EPSG_OPTION,
  },
  async run({ positionals, values, out }) {
    expectPositionals(clipVerb, positionals, 2);
    const { areaFromGeoJson, checkClasses, clipPointCloud, compileArea, RETURNS_FILTERS } = await import(
      '../clip/index.js'
    );
    const { openPointCloud } = await import('../readers/index.js');
    const [input, output] = positionals as [string, string];
    if (!/\.la[sz]$/i.test(output)) throw new InvalidInput('OUT', `output must be a .las or .laz file, got ${output}`);
    const format = /\.laz$/i.test(output) ? 'laz' : 'las';
    const given = (['polygon', 'bbox', 'corridor'] as const).filter((k) => values[k] !== undefined);
    if (given.length !== 1) {
      throw new InvalidInput('area', `give exactly one of --polygon, --bbox, --corridor (got ${given.length})`);
    }
    const kind = given[0]!;
    if (kind !== 'corridor' && values.width !== undefined)
      throw new InvalidInput('--width', 'only a --corridor has a width');
    let width: number | undefined;
    if (kind === 'corridor') {
      width = Number(values.width);
      if (values.width === undefined || !Number.isFinite(width) || width <= 0) {
        throw new InvalidInput('--width', `a corridor needs a positive width in metres, got "${values.width ?? ''}"`);
      }
    }
    const returns = String(values.returns ?? 'all') as ReturnsFilter;
    if (!RETURNS_FILTERS.includes(returns))
      throw new InvalidInput('--returns', `"${values.returns}" is not one of first, last, all`);
    const classes = parseClasses(values.classes, checkClasses);
    const epsg = parseEpsgOption(values.epsg);

    // The cloud's CRS and extent first: the GeoJSON may be in EPSG:4326.
    const probe = await openPointCloud(input, epsg === undefined ? {} : { epsg });
    const { crs } = probe;
    const [minX, minY] = probe.header.min;
    const [maxX, maxY] = probe.header.max;
    await probe.close();

    let area: ClipArea;
    let from = 'the cloud CRS';
    if (kind === 'bbox') area = parseBbox(String(values.bbox));
    else {
      const file = String(values[kind]);
      const read = areaFromGeoJson(await readGeoJson(file, `--${kind}`), kind === 'polygon' ? 'polygon' : 'corridor', {
        crs,
        bounds: { minX, minY, maxX, maxY },
        ...(width !== undefined ? { width } : {}),
      });
      area = read.area;
      if (read.source === 'EPSG:4326') from = 'EPSG:4326';
    }
    const compiled = compileArea(area);
    const t0 = performance.now();
    const result = await clipPointCloud(input, output, {
      area: compiled,
      returns,
      format,
      ...(classes ? { classes } : {}),
      ...(epsg !== undefined ? { epsg } : {}),
    });
    const ms = Math.round(performance.now() - t0);
    const k: ClipKind = kind === 'bbox' ? 'box' : kind;
    out(
      `wrote ${result.pointCount} of ${result.inputPointCount} points to ${output} (${k} from ${from}, ${format === 'laz' ? 'LAZ' : 'LAS'} 1.4 point format ${result.pointFormat}, ${result.bytes} bytes, ${ms} ms)`,
    );
    return 0;
  },
};
