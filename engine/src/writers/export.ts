/**
 * Vector exports shared by the `nuage export` verb, the jobs and the API:
 * features of a product's GeoJSON (EPSG:4326, RFC 7946) written as GeoJSON
 * (EPSG:4326), DXF (project CRS) or a zipped Shapefile (project CRS), as
 * spec §1 and §9 list them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import proj4 from 'proj4';
import { CrsRequired, InvalidInput } from '../core/errors.js';
import type { CrsInfo } from '../crs/index.js';
import { WGS84_DECIMALS } from '../products/product-values.js';
import { type DxfUnits, writeDxf } from './dxf.writer.js';
import { type Feature, type Geometry, writeGeoJson } from './geojson.writer.js';
import { type DbfField, layerNameOf, prjText, ringArea, writeShapefile } from './shapefile.writer.js';

/** Export formats. */
export type ExportFormat = 'geojson' | 'dxf' | 'shp';

/** What a client needs to know about each format: file extension, media type, CRS. */
export const EXPORT_FORMATS: Record<
  ExportFormat,
  { extension: string; mediaType: string; crs: 'EPSG:4326' | 'project' }
> = {
  geojson: { extension: 'geojson', mediaType: 'application/geo+json', crs: 'EPSG:4326' },
  dxf: { extension: 'dxf', mediaType: 'image/vnd.dxf', crs: 'project' },
  shp: { extension: 'zip', mediaType: 'application/zip', crs: 'project' },
};

/** True for a known export format name. */
export function isExportFormat(value: unknown): value is ExportFormat {
  return typeof value === 'string' && Object.hasOwn(EXPORT_FORMATS, value);
}

/**
 * AutoCAD Color Index of each vector asset type in DXF exports, the nearest
 * to the viewer's legend colours (7, white/black, for the others).
 */
export const DXF_LAYER_COLORS: Readonly<Record<string, number>> = {
  POWER_LINE: 2, // yellow
  GRID: 9, // light grey
  CONTOUR_LINE: 32, // brown
  CONTOUR_LINE_MAJOR: 34, // dark brown
  CONTOUR_LINE_MINOR: 32,
  BUILDINGS: 1, // red
  TREE_CROWNS: 3, // green
  TREE_TOPS: 94, // dark green
};

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * Label text of DXF features by asset type: tree height and grid elevation
 * to 2 decimals, the elevation of major contours.
 */
export const DXF_LABELS: Readonly<Record<string, (p: Feature['properties']) => string | null>> = {
  TREE_TOPS: (p) => (num(p.height) === null ? null : num(p.height)!.toFixed(2)),
  GRID: (p) => (num(p.elevation) === null ? null : num(p.elevation)!.toFixed(2)),
  CONTOUR_LINE: (p) => (p.kind === 'major' && num(p.elevation) !== null ? num(p.elevation)!.toFixed(2) : null),
  CONTOUR_LINE_MAJOR: (p) => (num(p.elevation) === null ? null : num(p.elevation)!.toFixed(2)),
};

const WGS84 = '+proj=longlat +datum=WGS84 +no_defs';

/**
 * EPSG:4326 features (longitude, latitude) turned back into a projected CRS:
 * the inverse of `featuresToWgs84`, through the same proj4 definitions. Z is
 * left as it is (the CRS's vertical unit).
 */
export function* featuresFromWgs84(features: Iterable<Feature>, crs: CrsInfo): Generator<Feature> {
  const converter = proj4(crs.proj4, WGS84);
  const point = (c: number[]): number[] => {
    const [x, y] = converter.inverse([c[0]!, c[1]!]) as number[];
    return c.length > 2 ? [x!, y!, c[2]!] : [x!, y!];
  };
  for (const f of features) {
    const g = f.geometry;
    let geometry: Geometry;
    if (g.type === 'Point') geometry = { type: 'Point', coordinates: point(g.coordinates) };
    else if (g.type === 'LineString') geometry = { type: 'LineString', coordinates: g.coordinates.map(point) };
    else geometry = { type: 'Polygon', coordinates: g.coordinates.map((ring) => ring.map(point)) };
    yield { type: 'Feature', geometry, properties: f.properties };
  }
}

/** Polygons oriented by the right-hand rule (RFC 7946 §3.1.6): outer rings counter-clockwise, holes clockwise. */
export function* rightHandRule(features: Iterable<Feature>): Generator<Feature> {
  for (const f of features) {
    if (f.geometry.type !== 'Polygon') {
      yield f;
      continue;
    }
    const coordinates = f.geometry.coordinates.map((ring, i) => {
      const area = ringArea(ring);
      return (i === 0 && area < 0) || (i > 0 && area > 0) ? [...ring].reverse() : ring;
    });
    yield { type: 'Feature', geometry: { type: 'Polygon', coordinates }, properties: f.properties };
  }
}

const GEOMETRY_TYPES = new Set(['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon']);

/**
 * Features of a GeoJSON document: a FeatureCollection, a Feature or a bare
 * geometry. Multi-geometries are split into one feature per part (same
 * properties); null geometries are skipped.
 * @throws InvalidInput for anything else, or a `crs` member other than EPSG:4326/CRS84.
 */
export function parseGeoJsonFeatures(text: string, source = 'GeoJSON'): Feature[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (cause) {
    throw new InvalidInput(source, `not JSON: ${(cause as Error).message}`);
  }
  const d = doc as { type?: string; features?: unknown[]; crs?: { properties?: { name?: string } } };
  const crsName = d?.crs?.properties?.name;
  if (crsName && !/(EPSG:+4326|CRS84)$/i.test(crsName)) {
    throw new InvalidInput(source, `coordinates are in ${crsName}; exports read EPSG:4326 GeoJSON (RFC 7946)`);
  }
  const raw: unknown[] =
    d?.type === 'FeatureCollection' && Array.isArray(d.features)
      ? d.features
      : d?.type === 'Feature'
        ? [d]
        : typeof d?.type === 'string'
          ? [{ type: 'Feature', geometry: d, properties: {} }]
          : [];
  if (raw.length === 0 && d?.type !== 'FeatureCollection') {
    throw new InvalidInput(source, 'not a GeoJSON FeatureCollection, Feature or geometry');
  }
  const out: Feature[] = [];
  for (const item of raw) {
    const f = item as { geometry?: { type?: string; coordinates?: unknown } | null; properties?: unknown };
    const properties = (f.properties && typeof f.properties === 'object' ? f.properties : {}) as Feature['properties'];
    const g = f.geometry;
    if (!g) continue;
    const c = g.coordinates as never;
    if (!GEOMETRY_TYPES.has(String(g.type))) throw new InvalidInput(source, `unsupported geometry type ${g.type}`);
    if (!Array.isArray(c)) throw new InvalidInput(source, `a ${g.type} geometry has no coordinates`);
    switch (g.type) {
      case 'Point':
      case 'LineString':
      case 'Polygon':
        out.push({ type: 'Feature', geometry: { type: g.type, coordinates: c }, properties });
        break;
      case 'MultiPoint':
        for (const p of c as number[][])
          out.push({ type: 'Feature', geometry: { type: 'Point', coordinates: p }, properties });
        break;
      case 'MultiLineString':
        for (const p of c as number[][][])
          out.push({ type: 'Feature', geometry: { type: 'LineString', coordinates: p }, properties });
        break;
      case 'MultiPolygon':
        for (const p of c as number[][][][])
          out.push({ type: 'Feature', geometry: { type: 'Polygon', coordinates: p }, properties });
        break;
      default:
        throw new InvalidInput(source, `unsupported geometry type ${g.type}`);
    }
  }
  return out;
}

/** Reads the features of a GeoJSON file (see {@link parseGeoJsonFeatures}). */
export async function readGeoJsonFeatures(file: string): Promise<Feature[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new InvalidInput('IN', `cannot read ${file}: ${(cause as Error).message}`);
  }
  return parseGeoJsonFeatures(text, file);
}

/** DXF unit of a CRS's horizontal unit. */
function dxfUnitsOf(crs: CrsInfo): DxfUnits {
  const u = crs.horizontalUnitToMetre;
  if (Math.abs(u - 0.3048) < 1e-9) return 'ft';
  if (Math.abs(u - 1200 / 3937) < 1e-9) return 'us-ft';
  return 'm';
}

/** Options of {@link exportFeatures}. */
export interface ExportOptions {
  /** Layer name (DXF layer, Shapefile file names); default: the asset type, else the output's name. */
  layerName?: string;
  /** Asset type of the features (`CONTOUR_LINE`, `TREE_TOPS`…): DXF colour and labels. */
  assetType?: string;
  /** Label text height in metres (DXF; default 0.5 m, converted to the CRS unit). */
  textHeightM?: number;
  /** Time stamps of the Shapefile (default: now). */
  date?: Date;
  /**
   * DXF: also write the CRS as `<name>.prj` beside the drawing (DXF has no
   * CRS of its own; ArcGIS reads such a file, GDAL and QGIS ignore it).
   */
  prjSidecar?: boolean;
}

/** What {@link exportFeatures} wrote. */
export interface ExportArtifact {
  path: string;
  format: ExportFormat;
  /** EPSG code of the coordinates written (4326 for GeoJSON; the project's, or null, otherwise). */
  epsg: number | null;
  bytes: number;
  features: number;
  /** Shapefile only: property → DBF column. */
  fields?: DbfField[];
  /** Shapefile and DXF: the layer name used. */
  layerName?: string;
  /** Other files written (the DXF's `.prj`). */
  sidecars?: string[];
}

/**
 * Writes EPSG:4326 features (a product's GeoJSON) to `out` as GeoJSON
 * (RFC 7946: EPSG:4326, 7 decimals, right-hand-rule polygons), DXF or a
 * zipped Shapefile (both in the project CRS, Z as it was).
 *
 * @throws CrsRequired for DXF and Shapefile without a project CRS.
 * @example
 * await exportFeatures(features, 'shp', crsFromEpsg(2154), 'contours.zip', { assetType: 'CONTOUR_LINE' });
 */
export async function exportFeatures(
  features4326: Iterable<Feature>,
  format: ExportFormat,
  projectCrs: CrsInfo | null,
  out: string,
  options: ExportOptions = {},
): Promise<ExportArtifact> {
  if (format === 'geojson') {
    const written = await writeGeoJson(out, rightHandRule(features4326), { epsg: 4326, precision: WGS84_DECIMALS });
    return { path: out, format, epsg: 4326, bytes: written.bytes, features: written.features };
  }
  if (!isExportFormat(format)) throw new InvalidInput('format', `unknown export format "${format}"`);
  if (!projectCrs)
    throw new CrsRequired(`a ${format.toUpperCase()} export needs the project CRS: give one with --epsg`);
  const projected = featuresFromWgs84(features4326, projectCrs);
  const assetType = options.assetType?.toUpperCase();
  if (format === 'shp') {
    const layerName = options.layerName ?? layerNameOf(out);
    const written = await writeShapefile(out, projected, projectCrs, {
      layerName,
      ...(options.date ? { date: options.date } : {}),
    });
    return {
      path: out,
      format,
      epsg: projectCrs.epsg,
      bytes: written.bytes,
      features: written.features,
      fields: written.fields,
      layerName: written.layerName,
    };
  }
  const units = dxfUnitsOf(projectCrs);
  const unitToMetre = projectCrs.horizontalUnitToMetre || 1;
  const layerName = options.layerName ?? assetType?.toLowerCase() ?? layerNameOf(out).replace(/\.dxf$/i, '');
  const label = assetType ? DXF_LABELS[assetType] : undefined;
  const written = await writeDxf(
    out,
    [
      {
        name: layerName,
        color: (assetType && DXF_LAYER_COLORS[assetType]) || 7,
        features: projected,
        ...(label ? { label } : {}),
        elevation: (p) => num(p.elevation),
      },
    ],
    { units, textHeight: (options.textHeightM ?? 0.5) / unitToMetre },
  );
  const sidecars: string[] = [];
  const prj = options.prjSidecar ? prjText(projectCrs) : null;
  if (prj) {
    const prjPath = `${out.replace(/\.dxf$/i, '')}.prj`;
    await writeFile(prjPath, prj);
    sidecars.push(prjPath);
  }
  return {
    path: out,
    format,
    epsg: projectCrs.epsg,
    bytes: written.bytes,
    features: written.features,
    layerName: written.layers.at(-1)!.name,
    ...(sidecars.length ? { sidecars } : {}),
  };
}
