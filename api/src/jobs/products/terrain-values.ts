import type { PointChunk } from '@nuage/engine/core/chunk.js';
import { type CrsInfo, createTransformer } from '@nuage/engine/crs/index.js';
import type { Raster } from '@nuage/engine/raster/raster.js';
import type { Feature } from '@nuage/engine/writers/geojson.writer.js';
import type { GeoFeature } from '../../db/queries/features.queries.js';

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

/**
 * Features in a projected CRS turned into EPSG:4326 (longitude, latitude)
 * for the PostGIS features table; Point, LineString and Polygon geometries.
 */
export function* featuresToWgs84(features: Iterable<Feature>, crs: CrsInfo): Generator<GeoFeature> {
  const transformer = createTransformer(crs, 'EPSG:4326');
  const ring = (coords: number[][]): number[][] => {
    const n = coords.length;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    const z = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = coords[i]![0]!;
      y[i] = coords[i]![1]!;
    }
    transformer.forward(x, y, z, n);
    return Array.from(x, (xi, i) => [xi, y[i]!, ...(coords[i]!.length > 2 ? [coords[i]![2]!] : [])]);
  };
  for (const f of features) {
    const g = f.geometry;
    let coordinates: unknown;
    if (g.type === 'Point') coordinates = ring([g.coordinates])[0];
    else if (g.type === 'LineString') coordinates = ring(g.coordinates);
    else coordinates = g.coordinates.map(ring);
    yield { type: 'Feature', geometry: { type: g.type, coordinates }, properties: f.properties };
  }
}
