import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidInput } from '../core/errors.js';
import type { CrsInfo } from '../crs/index.js';
import type { Manifest } from '../products/run-products.js';
import type { ExportFormat } from '../writers/export.js';
import { type CliVerb, expectPositionals, parseEpsgOption } from './verb.js';

/** EPSG codes that are never a project CRS (the viewer's and the web's). */
const NOT_PROJECT = new Set([4326, 4978, 3857]);

/** What a run's manifest says about an exported file: the project EPSG code and the file's asset type. */
export interface ManifestFacts {
  manifestPath: string;
  epsg: number | null;
  assetType: string | null;
}

/**
 * The project EPSG code of a run: the DTM's, else a LAS file's, else any
 * artifact's that is not EPSG:4326/4978/3857; null when none.
 */
export function projectEpsgOf(manifest: Pick<Manifest, 'artifacts'>): number | null {
  const artifacts = manifest.artifacts ?? [];
  const pick = (ok: (a: Manifest['artifacts'][number]) => boolean) =>
    artifacts.find((a) => ok(a) && typeof a.epsg === 'number' && !NOT_PROJECT.has(a.epsg))?.epsg ?? null;
  return pick((a) => a.type === 'DTM') ?? pick((a) => a.format === 'LAS') ?? pick(() => true);
}

/**
 * Reads `manifest.json` beside a product file (its folder, then the run
 * folder above it); null when there is none.
 */
export async function manifestFacts(file: string): Promise<ManifestFacts | null> {
  const absolute = path.resolve(file);
  for (const dir of [path.dirname(absolute), path.dirname(path.dirname(absolute))]) {
    const manifestPath = path.join(dir, 'manifest.json');
    let manifest: Manifest;
    try {
      manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Manifest;
    } catch {
      continue;
    }
    if (!Array.isArray(manifest?.artifacts)) continue;
    const own = manifest.artifacts.find((a) => path.resolve(dir, a.path) === absolute);
    return { manifestPath, epsg: projectEpsgOf(manifest), assetType: own?.type ?? null };
  }
  return null;
}

const EXTENSIONS: Record<ExportFormat, RegExp> = {
  geojson: /\.(geo)?json$/i,
  dxf: /\.dxf$/i,
  shp: /\.zip$/i,
};

/** `nuage export IN --format geojson|dxf|shp OUT [--epsg N] [--layer NAME]`. */
export const exportVerb: CliVerb = {
  name: 'export',
  summary:
    "a product's GeoJSON to GeoJSON (EPSG:4326), DXF or a zipped Shapefile (project CRS: --epsg, else the run's manifest.json)",
  usage: 'nuage export IN --format geojson|dxf|shp OUT [--epsg N] [--layer NAME]',
  options: { format: { type: 'string' }, epsg: { type: 'string' }, layer: { type: 'string' } },
  async run({ positionals, values, out }) {
    expectPositionals(exportVerb, positionals, 2);
    const [input, output] = positionals as [string, string];
    const { EXPORT_FORMATS, exportFeatures, readGeoJsonFeatures } = await import('../writers/export.js');
    const format = String(values.format ?? '').toLowerCase();
    if (!Object.hasOwn(EXPORT_FORMATS, format)) {
      throw new InvalidInput('--format', `"${values.format ?? ''}" is not one of geojson, dxf, shp`);
    }
    const f = format as ExportFormat;
    if (!EXTENSIONS[f].test(output)) {
      throw new InvalidInput(
        'OUT',
        `a ${f} export is written to a .${EXPORT_FORMATS[f].extension} file, got ${output}`,
      );
    }
    const epsg = parseEpsgOption(values.epsg);
    const facts = await manifestFacts(input);
    let crs: CrsInfo | null = null;
    const code = epsg ?? facts?.epsg ?? undefined;
    if (f !== 'geojson') {
      if (code === undefined) {
        throw new InvalidInput(
          '--epsg',
          `a ${f} export needs the project CRS: give --epsg N (no manifest.json with it beside ${input})`,
        );
      }
      const { crsFromEpsg } = await import('../crs/index.js');
      crs = crsFromEpsg(code);
    }
    const features = await readGeoJsonFeatures(input);
    const t0 = performance.now();
    const result = await exportFeatures(features, f, crs, output, {
      ...(typeof values.layer === 'string' ? { layerName: values.layer } : {}),
      ...(facts?.assetType ? { assetType: facts.assetType } : {}),
      prjSidecar: true,
    });
    const ms = Math.round(performance.now() - t0);
    out(
      `wrote ${result.features} features to ${output} (${f}, EPSG:${result.epsg ?? 'unknown'}, ${result.bytes} bytes, ${ms} ms)`,
    );
    for (const file of result.sidecars ?? []) out(`wrote ${file} (CRS of the drawing)`);
    if (result.fields) {
      out(
        `fields: ${result.fields.map((x) => (x.name === x.property ? x.name : `${x.property}→${x.name}`)).join(', ')}`,
      );
    }
    return 0;
  },
};
