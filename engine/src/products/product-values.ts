/**
 * Values products hand to one another and the helpers they share: the
 * classified cloud, the DTM, CRS units and EPSG:4326 features.
 */
import type { PointChunk } from '../core/chunk.js';
import { InvalidInput } from '../core/errors.js';
import { createGridTransformer } from '../crs/grid-transformer.js';
import type { CrsInfo } from '../crs/index.js';
import type { CloudMetadata } from '../metadata/index.js';
import type { Raster, RasterCrs } from '../raster/raster.js';
import { openPointCloud } from '../readers/index.js';
import { type Feature, type VectorArtifact, writeGeoJson } from '../writers/geojson.writer.js';

/** Horizontal and vertical units of the project CRS in metres. */
export interface CrsUnits {
  unitToMetre: number;
  verticalUnitToMetre: number;
}

/** What the classification product hands on. */
export interface ClassifiedCloud {
  /** Every point, with the classification of this run. */
  cloud: PointChunk;
  crs: CrsInfo;
  units: CrsUnits;
  /** The input's own classes (before classification), when the run read the input. */
  vendor?: Uint8Array<ArrayBuffer>;
  /** The input file's metadata, when the run read the input (computed from the points it read, not read again). */
  inputMetadata?: CloudMetadata;
}

/** What the DTM product hands on. */
export interface DtmValue {
  dtm: Raster;
  crs: CrsInfo;
  units: CrsUnits;
}

/**
 * LAZ decoding workers used when reading for terrain products: 0 decodes on the
 * calling thread. The reader's worker pool leaves the process waiting forever
 * when started from the repository root (its unref'd workers never answer),
 * so terrain reads decode inline until that is fixed in the readers.
 */
export const INLINE_DECODE = 0;

/** Raster CRS of a point-cloud CRS. */
export function rasterCrsOf(crs: CrsInfo | null): RasterCrs | null {
  if (!crs) return null;
  return {
    epsg: crs.epsg,
    geographic: crs.geographic ?? false,
    horizontalUnitToMetre: crs.horizontalUnitToMetre,
    verticalUnitToMetre: crs.verticalUnitToMetre,
    name: crs.name,
  };
}

/** Horizontal and vertical units of a CRS, refusing geographic CRSs (terrain needs metres or feet). */
export function terrainUnits(crs: CrsInfo | null): CrsUnits {
  if (crs?.geographic || crs?.horizontalUnitToMetre === 0) {
    throw new InvalidInput('crs', `${crs.name} is geographic (degrees): terrain products need a projected CRS`);
  }
  const unitToMetre = crs?.horizontalUnitToMetre || 1;
  return { unitToMetre, verticalUnitToMetre: crs?.verticalUnitToMetre || unitToMetre };
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
  const transformer = createGridTransformer(crs);
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

/**
 * The input's own classes: the run's value when it read the input, else read
 * again (a resumed run restored the classification from its LAS file).
 */
export async function inputClasses(
  classified: ClassifiedCloud,
  input: { path: string; epsg?: number },
  signal?: AbortSignal,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (classified.vendor) return classified.vendor;
  const reader = await openPointCloud(input.path, input.epsg === undefined ? {} : { epsg: input.epsg });
  try {
    // Only the class column, streamed: the other columns of the input are never held.
    let classes = new Uint8Array(reader.header.pointCount);
    let count = 0;
    let any = false;
    for await (const chunk of reader.read({ signal, workers: INLINE_DECODE })) {
      if (!chunk.classification) continue;
      any = true;
      if (count + chunk.count > classes.length) {
        const grown = new Uint8Array(Math.max(count + chunk.count, classes.length * 2));
        grown.set(classes.subarray(0, count));
        classes = grown;
      }
      classes.set(chunk.classification.subarray(0, chunk.count), count);
      count += chunk.count;
    }
    if (!any) return undefined;
    return count === classes.length ? classes : classes.slice(0, count);
  } finally {
    await reader.close();
  }
}
