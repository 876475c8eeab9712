import { CLASS_NAMES } from '../core/dimensions.js';
import type { CloudMetadata } from '../metadata/index.js';
import { type CliVerb, EPSG_OPTION, expectPositionals, parseEpsgOption } from './verb.js';

function formatText(file: string, m: CloudMetadata): string[] {
  const n = (v: number, digits = 2) => v.toLocaleString('en-US', { maximumFractionDigits: digits });
  const lines = [
    `file                ${file}`,
    `points              ${n(m.pointCount)}`,
    `LAS version         ${m.lasVersion} (point format ${m.pointFormat}${m.compressed ? ', LAZ' : ''})`,
    `system id           ${m.systemId}`,
    `generating software ${m.generatingSoftware}`,
    `created             day ${m.creationDay} of ${m.creationYear}`,
    `size                ${n(m.memoryGb, 4)} GB`,
    `CRS                 ${m.crs ? `${m.crs.epsg ? `EPSG:${m.crs.epsg} ` : ''}${m.crs.name} (from ${m.crs.source})` : 'none (give one with --epsg)'}`,
    `elevation           ${n(m.minElevation)} .. ${n(m.maxElevation)}${m.elevationUnitToMetre !== 1 ? ` (units of ${n(m.elevationUnitToMetre, 6)} m)` : ''}`,
    `bbox                X ${n(m.bbox.minX)} .. ${n(m.bbox.maxX)}, Y ${n(m.bbox.minY)} .. ${n(m.bbox.maxY)}`,
  ];
  if (m.bboxWgs84) {
    const b = m.bboxWgs84;
    lines.push(
      `bbox WGS84          lon ${b.west.toFixed(6)} .. ${b.east.toFixed(6)}, lat ${b.south.toFixed(6)} .. ${b.north.toFixed(6)}`,
    );
  }
  lines.push(
    `area                ${n(m.areaHectares, 4)} ha (occupied ${m.areaCellMetres} m cells)`,
    `density             ${n(m.pointDensity)} points/m²`,
    `intensity           ${m.intensityMin} .. ${m.intensityMax}`,
    `RGB                 ${m.hasRgb ? (m.rgbNonZero ? 'yes' : 'fields present, all zero') : 'no'}`,
    'classes:',
  );
  for (const [code, count] of Object.entries(m.classCounts)) {
    lines.push(`  ${code.padStart(3)} ${(CLASS_NAMES[Number(code)] ?? 'other').padEnd(20)} ${n(count)}`);
  }
  lines.push(
    `returns             ${Object.entries(m.returnCounts)
      .map(([r, c]) => `${r}: ${n(c)}`)
      .join(', ')}`,
  );
  if (m.extraBytes.length > 0) lines.push(`extra bytes         ${m.extraBytes.join(', ')}`);
  return lines;
}

/** `nuage info FILE [--json] [--epsg N]`: metadata of a point cloud (spec §3). */
export const infoVerb: CliVerb = {
  name: 'info',
  summary: 'metadata of a LAS/LAZ/COPC file (spec §3) as text or JSON',
  usage: 'nuage info FILE [--json] [--epsg N]',
  options: { json: { type: 'boolean' }, ...EPSG_OPTION },
  async run({ positionals, values, out }) {
    expectPositionals(infoVerb, positionals, 1);
    const file = positionals[0]!;
    const epsg = parseEpsgOption(values.epsg);
    const { extractMetadata } = await import('../metadata/index.js');
    const metadata = await extractMetadata(file, epsg === undefined ? {} : { epsg });
    if (values.json) out(JSON.stringify(metadata));
    else for (const line of formatText(file, metadata)) out(line);
    return 0;
  },
};
