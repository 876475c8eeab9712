import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** A GeoJSON geometry the engine writes. */
export type Geometry =
  | { type: 'Point'; coordinates: number[] }
  | { type: 'LineString'; coordinates: number[][] }
  | { type: 'Polygon'; coordinates: number[][][] };

/** A GeoJSON feature. */
export interface Feature {
  type: 'Feature';
  geometry: Geometry;
  properties: Record<string, string | number | boolean | null>;
}

/** What the writer reports about the file it produced. */
export interface VectorArtifact {
  path: string;
  type: 'geojson';
  bytes: number;
  features: number;
}

/** Options of {@link writeGeoJson}. */
export interface GeoJsonWriteOptions {
  /** EPSG code of the coordinates; named in a `crs` member when not 4326 (GDAL/QGIS read it). */
  epsg?: number | null;
  /** Decimals kept on coordinates (default 3: millimetres in metric CRSs). */
  precision?: number;
}

/**
 * Streams features to a GeoJSON FeatureCollection file without building the
 * whole document in memory.
 *
 * @example
 * await writeGeoJson('contours.geojson', features, { epsg: 2154 });
 */
export async function writeGeoJson(
  path: string,
  features: Iterable<Feature>,
  options: GeoJsonWriteOptions = {},
): Promise<VectorArtifact> {
  const precision = options.precision ?? 3;
  const factor = 10 ** precision;
  const round = (v: number) => Math.round(v * factor) / factor;
  const roundCoords = (c: unknown): unknown => (Array.isArray(c) ? c.map(roundCoords) : round(c as number));
  const out = createWriteStream(path);
  let bytes = 0;
  let count = 0;
  const write = async (s: string) => {
    bytes += Buffer.byteLength(s);
    if (!out.write(s)) await once(out, 'drain');
  };
  const crs =
    options.epsg && options.epsg !== 4326
      ? `"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::${options.epsg}"}},`
      : '';
  await write(`{"type":"FeatureCollection",${crs}"features":[\n`);
  for (const f of features) {
    const geometry = { type: f.geometry.type, coordinates: roundCoords(f.geometry.coordinates) };
    await write(`${count ? ',\n' : ''}${JSON.stringify({ type: 'Feature', geometry, properties: f.properties })}`);
    count++;
  }
  await write('\n]}\n');
  out.end();
  await once(out, 'finish');
  return { path, type: 'geojson', bytes, features: count };
}
