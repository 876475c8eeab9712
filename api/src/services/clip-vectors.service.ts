import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CompiledArea } from '@nuage/engine/clip/index.js';
import type { CrsInfo } from '@nuage/engine/crs/index.js';
import { DISPLAY_OF_ASSET } from '@nuage/engine/products/registry.js';
import {
  EXPORT_FORMATS,
  type ExportFormat,
  exportFeatures,
  parseGeoJsonFeatures,
} from '@nuage/engine/writers/export.js';
import type { Feature } from '@nuage/engine/writers/geojson.writer.js';
import { readZip } from '@nuage/engine/writers/zip.reader.js';
import { ZipWriter } from '@nuage/engine/writers/zip.writer.js';
import { sql } from 'kysely';
import proj4 from 'proj4';
import type { AppDeps } from '../context.js';
import { AppError } from '../errors.js';
import { exportError } from './exports.service.js';

/**
 * Clip and download (issue 23), the vector part: the features of every READY
 * vector asset of the project inside the clip area, cut to it by PostGIS
 * (ST_Intersection in EPSG:4326, the features' CRS; features wholly inside
 * are kept as they are, Z and attributes included), written by the export
 * writers (GeoJSON in EPSG:4326 as RFC 7946 wants; DXF and Shapefile in the
 * project CRS, a .prj beside them) into one zip with a README.txt.
 */

/** The formats a clip's vectors may be asked in (API names). */
export const CLIP_VECTOR_FORMATS = ['geojson', 'dxf', 'shapefile'] as const;
export type ClipVectorFormat = (typeof CLIP_VECTOR_FORMATS)[number];

const WRITER_FORMAT: Record<ClipVectorFormat, ExportFormat> = { geojson: 'geojson', dxf: 'dxf', shapefile: 'shp' };

/** One asset's file(s) in the zip. */
export interface ClipVectorFile {
  assetType: string;
  /** Files of the asset in the zip (a Shapefile set: .shp, .shx, .dbf, .prj, .cpg). */
  files: string[];
  /** Features of the asset intersecting the area. */
  features: number;
  /** Parts written (a feature cut in two by the area gives two). */
  parts: number;
}

/** Densification step of box and corridor outlines before they go to EPSG:4326 (CRS units). */
const SEGMENT = 1;

/**
 * The clip area as a GeoJSON geometry in EPSG:4326: a polygon area as the
 * request gave it; a box or a corridor (buffered by PostGIS, round ends)
 * built in the project CRS, densified every metre and moved to EPSG:4326.
 */
export async function clipAreaWgs84(
  deps: AppDeps,
  request: { kind: string; area: { type: string; coordinates: unknown } },
  compiled: CompiledArea,
  crs: CrsInfo,
): Promise<string> {
  const area = compiled.area;
  if (area.kind === 'polygon' && request.kind === 'polygon') return JSON.stringify(request.area);
  let projected: { type: string; coordinates: unknown };
  if (area.kind === 'box') {
    const { minX, minY, maxX, maxY } = area;
    projected = {
      type: 'Polygon',
      coordinates: [
        [
          [minX, minY],
          [maxX, minY],
          [maxX, maxY],
          [minX, maxY],
          [minX, minY],
        ],
      ],
    };
  } else if (area.kind === 'corridor') {
    projected = { type: 'LineString', coordinates: area.line.map(([x, y]) => [x, y]) };
  } else {
    projected = { type: 'MultiPolygon', coordinates: area.polygons.map((rings) => rings.map((r) => [...r, r[0]])) };
  }
  const buffer = area.kind === 'corridor' ? area.width / 2 : 0;
  const r = await sql<{ g: string }>`
    SELECT ST_AsGeoJSON(ST_Segmentize(
      CASE WHEN ${buffer}::float8 > 0 THEN ST_Buffer(ST_GeomFromGeoJSON(${JSON.stringify(projected)}), ${buffer}::float8, 'quad_segs=64')
           ELSE ST_GeomFromGeoJSON(${JSON.stringify(projected)}) END, ${SEGMENT}::float8), 15) AS g`.execute(
    deps.database.db,
  );
  const geom = JSON.parse(r.rows[0]!.g) as { type: string; coordinates: unknown };
  const toWgs84 = proj4(crs.proj4, '+proj=longlat +datum=WGS84 +no_defs');
  const move = (c: unknown): unknown =>
    typeof (c as unknown[])[0] === 'number' ? toWgs84.forward((c as number[]).slice(0, 2)) : (c as unknown[]).map(move);
  return JSON.stringify({ type: geom.type, coordinates: move(geom.coordinates) });
}

/** The READY vector assets of a project (type, id), in type order. */
async function vectorAssets(deps: AppDeps, projectId: string): Promise<Array<{ id: string; type: string }>> {
  const rows = await deps.database.db
    .selectFrom('assets')
    .select(['id', 'type'])
    .where('project_id', '=', projectId)
    .where('status', '=', 'READY')
    .orderBy('type')
    .execute();
  return rows.filter((a) => DISPLAY_OF_ASSET[a.type] === 'vector').map((a) => ({ id: String(a.id), type: a.type }));
}

/** An asset's features intersecting the area (EPSG:4326 GeoJSON), cut to it; multi-part cuts split into parts. */
async function featuresInside(
  deps: AppDeps,
  assetId: string,
  area4326: string,
): Promise<{ features: number; parts: Feature[] }> {
  const r = await sql<{ g: string; properties: Record<string, unknown> }>`
    WITH a AS (SELECT ST_SetSRID(ST_GeomFromGeoJSON(${area4326}), 4326) AS g)
    SELECT ST_AsGeoJSON(CASE WHEN ST_Covers(a.g, f.geom) THEN f.geom
             ELSE ST_CollectionExtract(ST_Intersection(f.geom, a.g), ST_Dimension(f.geom) + 1) END, 10) AS g,
           f.properties
    FROM features f, a
    WHERE f.asset_id = ${assetId} AND ST_Intersects(f.geom, a.g)
    ORDER BY f.id`.execute(deps.database.db);
  const parts: Feature[] = [];
  let features = 0;
  for (const row of r.rows) {
    const geometry = JSON.parse(row.g) as { type: string; coordinates: unknown[] };
    if (!geometry.coordinates?.length) continue;
    const split = parseGeoJsonFeatures(
      JSON.stringify({ type: 'Feature', geometry, properties: row.properties ?? {} }),
      `asset ${assetId}`,
    );
    if (split.length === 0) continue;
    features++;
    parts.push(...split);
  }
  return { features, parts };
}

/** The README.txt of the zip. */
function readme(projectName: string, format: ClipVectorFormat, crs: CrsInfo | null, files: ClipVectorFile[]): string {
  const crsLine =
    format === 'geojson'
      ? 'Coordinates: EPSG:4326 (longitude, latitude; RFC 7946), heights as stored.'
      : `Coordinates: ${crs?.name ?? 'the project CRS'}${crs?.epsg ? ` (EPSG:${crs.epsg})` : ''}.`;
  const lines = [
    `Vector products of "${projectName}" inside the clip area (Nuage).`,
    'Features crossing the area are cut to it; features wholly inside are kept as they are.',
    crsLine,
    '',
    'File(s)\tAsset\tFeatures\tParts',
    ...files.map((f) => `${f.files.join(', ')}\t${f.assetType}\t${f.features}\t${f.parts}`),
    '',
  ];
  if (files.length === 0) lines.push('No vector product has a feature inside the area.', '');
  return lines.join('\r\n');
}

/**
 * Writes the zip of a clip's vector products to `out`; the files and counts.
 * @throws AppError 409 CRS_REQUIRED (DXF/Shapefile without a project CRS), 422/413 as the exports.
 */
export async function writeClipVectors(
  deps: AppDeps,
  o: {
    projectId: string;
    projectName: string;
    format: ClipVectorFormat;
    area4326: string;
    crs: CrsInfo | null;
    out: string;
    signal?: AbortSignal | undefined;
  },
): Promise<{ files: ClipVectorFile[]; bytes: number }> {
  const format = WRITER_FORMAT[o.format];
  if (format !== 'geojson' && !o.crs) {
    throw new AppError(409, 'CRS_REQUIRED', `a ${o.format} export needs the project CRS`);
  }
  const tmp = await mkdtemp(path.join(tmpdir(), 'nuage-clip-vectors-'));
  const zip = await ZipWriter.create(o.out);
  try {
    const files: ClipVectorFile[] = [];
    for (const asset of await vectorAssets(deps, o.projectId)) {
      if (o.signal?.aborted) throw new Error('clip cancelled');
      const { features, parts } = await featuresInside(deps, asset.id, o.area4326);
      if (features === 0) continue;
      const base = asset.type.toLowerCase();
      const file = path.join(tmp, `${base}.${EXPORT_FORMATS[format].extension}`);
      try {
        await exportFeatures(parts, format, o.crs, file, {
          assetType: asset.type,
          layerName: base,
          ...(format === 'dxf' ? { prjSidecar: true } : {}),
        });
      } catch (err) {
        throw exportError(err, format);
      }
      const names: string[] = [];
      if (format === 'shp') {
        for (const [name, member] of readZip(file)) {
          await zip.add(name, member.data);
          names.push(name);
        }
      } else {
        const name = `${base}.${EXPORT_FORMATS[format].extension}`;
        await zip.add(name, await readFile(file));
        names.push(name);
        if (format === 'dxf') {
          const prj = path.join(tmp, `${base}.prj`);
          const text = await readFile(prj).catch(() => null);
          if (text) {
            await zip.add(`${base}.prj`, text);
            names.push(`${base}.prj`);
          }
        }
      }
      await rm(file, { force: true });
      files.push({ assetType: asset.type, files: names, features, parts: parts.length });
    }
    await zip.add('README.txt', readme(o.projectName, o.format, o.crs, files));
    const bytes = await zip.close();
    return { files, bytes };
  } catch (err) {
    await zip.abort().catch(() => {});
    throw err;
  } finally {
    await rm(tmp, { recursive: true, force: true }).catch(() => {});
  }
}
