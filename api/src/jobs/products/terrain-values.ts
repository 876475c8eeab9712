import type { PointChunk } from '@nuage/engine/core/chunk.js';
import { type CrsInfo, createTransformer } from '@nuage/engine/crs/index.js';
import type { Raster } from '@nuage/engine/raster/raster.js';
import { type Feature, type VectorArtifact, writeGeoJson } from '@nuage/engine/writers/geojson.writer.js';

/** What the classification product hands to the terrain products. */
export interface ClassifiedCloud {
  /** Every point, with the classification of this run. */
  cloud: PointChunk;
  crs: CrsInfo;
  units: { unitToMetre: number; verticalUnitToMetre: number };
}

/** What the DTM product hands to the products made from the DTM. */
export interface DtmValue {
  dtm: Raster;
  crs: CrsInfo;
  units: { unitToMetre: number; verticalUnitToMetre: number };
}

/** Reads a value another product made (it ran before: the job checks `needs`). */
export function inputOf<T>(inputs: ReadonlyMap<string, unknown>, id: string): T {
  const v = inputs.get(id);
  if (v === undefined) throw new Error(`product input ${id} is missing`);
  return v as T;
}

/** Decimals of longitude and latitude in GeoJSON files: 1e-7° is about 1 cm (RFC 7946 §11.2). */
export const WGS84_DECIMALS = 7;

/**
 * Features in a projected CRS turned into EPSG:4326 (longitude, latitude) for
 * GeoJSON files (RFC 7946) and the PostGIS features table; Point, LineString
 * and Polygon geometries. A third coordinate (height) is kept as it was (the
 * CRS's vertical unit), rounded to 3 decimals.
 */
export function* featuresToWgs84(features: Iterable<Feature>, crs: CrsInfo): Generator<Feature> {
  const transformer = createTransformer(crs, 'EPSG:4326');
  const ring = (coords: number[][]): number[][] => {
    const n = coords.length;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    const z = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = coords[i]![0]!;
      y[i] = coords[i]![1]!;
      z[i] = coords[i]![2] ?? 0;
    }
    transformer.forward(x, y, z, n);
    return Array.from(x, (xi, i) =>
      coords[i]!.length > 2 ? [xi, y[i]!, Math.round(z[i]! * 1000) / 1000] : [xi, y[i]!],
    );
  };
  for (const f of features) {
    const g = f.geometry;
    let geometry: Feature['geometry'];
    if (g.type === 'Point') geometry = { type: 'Point', coordinates: ring([g.coordinates])[0]! };
    else if (g.type === 'LineString') geometry = { type: 'LineString', coordinates: ring(g.coordinates) };
    else geometry = { type: 'Polygon', coordinates: g.coordinates.map(ring) };
    yield { type: 'Feature', geometry, properties: f.properties };
  }
}

/**
 * Writes the GeoJSON file of a vector product: features given in the
 * project CRS are written in EPSG:4326, longitude then latitude, with
 * {@link WGS84_DECIMALS} decimals and no `crs` member (RFC 7946; spec §9).
 *
 * @example
 * await writeWgs84GeoJson(path.join(ctx.workDir, 'grid.geojson'), points, dtm.crs);
 */
export function writeWgs84GeoJson(file: string, features: Iterable<Feature>, crs: CrsInfo): Promise<VectorArtifact> {
  return writeGeoJson(file, featuresToWgs84(features, crs), { epsg: 4326, precision: WGS84_DECIMALS });
}
