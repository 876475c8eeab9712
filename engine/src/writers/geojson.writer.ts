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
  // As JSON.stringify writes a rounded number (non-finite as null), without an array of rounded copies.
  const num = (v: number): string => {
    const r = Math.round(v * factor) / factor;
    return Number.isFinite(r) ? String(r === 0 ? 0 : r) : 'null';
  };
  const position = (c: number[]): string => {
    let text = '[';
    for (let i = 0; i < c.length; i++) text += i ? `,${num(c[i]!)}` : num(c[i]!);
    return `${text}]`;
  };
  const positions = (list: number[][]): string => {
    let text = '[';
    for (let i = 0; i < list.length; i++) text += i ? `,${position(list[i]!)}` : position(list[i]!);
    return `${text}]`;
  };
  const coordinates = (g: Geometry): string =>
    g.type === 'Point'
      ? position(g.coordinates)
      : g.type === 'LineString'
        ? positions(g.coordinates)
        : `[${g.coordinates.map(positions).join(',')}]`;
  const out = createWriteStream(path);
  let bytes = 0;
  let count = 0;
  // Features are written in blocks of about 64 kB: one stream write (and one wait for a drain) per block.
  let block = '';
  const flush = async () => {
    if (!block) return;
    bytes += Buffer.byteLength(block);
    const text = block;
    block = '';
    if (!out.write(text)) await once(out, 'drain');
  };
  const crs =
    options.epsg && options.epsg !== 4326
      ? `"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::${options.epsg}"}},`
      : '';
  block = `{"type":"FeatureCollection",${crs}"features":[\n`;
  for (const f of features) {
    block += `${count ? ',\n' : ''}{"type":"Feature","geometry":{"type":${JSON.stringify(f.geometry.type)},"coordinates":${coordinates(f.geometry)}},"properties":${JSON.stringify(f.properties)}}`;
    count++;
    if (block.length >= 65_536) await flush();
  }
  block += '\n]}\n';
  await flush();
  out.end();
  await once(out, 'finish');
  return { path, type: 'geojson', bytes, features: count };
}
