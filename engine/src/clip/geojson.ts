/**
 * Clip areas from GeoJSON: a Polygon or MultiPolygon (kind polygon), a
 * LineString (kind corridor, with a width in metres) or any geometry's extent
 * (kind box), in the point cloud's CRS or in EPSG:4326 (longitude, latitude),
 * then moved into the cloud's CRS with the engine's CRS tools. Vertices are
 * transformed, edges stay straight in the cloud's CRS (as the viewer draws them).
 */
import { CrsRequired, InvalidInput } from '../core/errors.js';
import { type CrsInfo, createTransformer, crsFromEpsg } from '../crs/index.js';
import type { ReadBounds } from '../readers/point-cloud-reader.js';
import type { ClipArea, Ring } from './area.js';

/** The three kinds of clip area. */
export const CLIP_KINDS = ['polygon', 'box', 'corridor'] as const;
export type ClipKind = (typeof CLIP_KINDS)[number];

/** Where the GeoJSON coordinates are: the cloud's CRS, EPSG:4326, or found out (`auto`). */
export type GeoJsonCrs = 'auto' | 'EPSG:4326' | 'project';

export interface AreaFromGeoJsonOptions {
  /** Corridor width in metres (converted to CRS units). */
  width?: number;
  /** The point cloud's CRS (needed to transform from EPSG:4326). */
  crs: CrsInfo | null;
  /** The cloud's extent: in `auto`, coordinates that look like degrees far from it are EPSG:4326. */
  bounds?: ReadBounds;
  from?: GeoJsonCrs;
}

type Position = [number, number];
type Geometry = { type: string; coordinates?: unknown; geometries?: unknown };

function position(value: unknown, field: string): Position {
  if (!Array.isArray(value) || value.length < 2 || typeof value[0] !== 'number' || typeof value[1] !== 'number') {
    throw new InvalidInput(field, 'a position must be an array of at least 2 numbers');
  }
  if (!Number.isFinite(value[0]) || !Number.isFinite(value[1]))
    throw new InvalidInput(field, 'coordinates must be finite numbers');
  return [value[0], value[1]];
}

function positions(value: unknown, field: string): Position[] {
  if (!Array.isArray(value)) throw new InvalidInput(field, 'expected an array of positions');
  return value.map((p, i) => position(p, `${field}[${i}]`));
}

function rings(value: unknown, field: string): Position[][] {
  if (!Array.isArray(value) || value.length === 0) throw new InvalidInput(field, 'expected an array of rings');
  return value.map((r, i) => positions(r, `${field}[${i}]`));
}

/** Every geometry of a GeoJSON object (Feature, FeatureCollection, GeometryCollection or geometry). */
function geometries(json: unknown, field = 'geojson'): Geometry[] {
  if (!json || typeof json !== 'object') throw new InvalidInput(field, 'not a GeoJSON object');
  const o = json as { type?: unknown; geometry?: unknown; features?: unknown; geometries?: unknown };
  switch (o.type) {
    case 'Feature':
      if (!o.geometry) throw new InvalidInput(`${field}.geometry`, 'the feature has no geometry');
      return geometries(o.geometry, `${field}.geometry`);
    case 'FeatureCollection':
      if (!Array.isArray(o.features)) throw new InvalidInput(`${field}.features`, 'expected an array');
      return o.features.flatMap((f, i) => geometries(f, `${field}.features[${i}]`));
    case 'GeometryCollection':
      if (!Array.isArray(o.geometries)) throw new InvalidInput(`${field}.geometries`, 'expected an array');
      return o.geometries.flatMap((g, i) => geometries(g, `${field}.geometries[${i}]`));
    case 'Point':
    case 'MultiPoint':
    case 'LineString':
    case 'MultiLineString':
    case 'Polygon':
    case 'MultiPolygon':
      return [o as Geometry];
    default:
      throw new InvalidInput(`${field}.type`, `"${String(o.type)}" is not a GeoJSON type`);
  }
}

/** The CRS a GeoJSON `crs` member names (old-style GeoJSON 2008), if any. */
function namedCrs(json: unknown): number | 'CRS84' | null {
  const name = (json as { crs?: { properties?: { name?: unknown } } })?.crs?.properties?.name;
  if (typeof name !== 'string') return null;
  if (/CRS84$/i.test(name)) return 'CRS84';
  const m = /EPSG:+(\d+)$/i.exec(name);
  return m ? Number(m[1]) : null;
}

function allPositions(geoms: Geometry[]): Position[] {
  const out: Position[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v) && typeof v[0] === 'number') out.push(v as Position);
    else if (Array.isArray(v)) for (const x of v) walk(x);
  };
  for (const g of geoms) walk(g.coordinates);
  return out;
}

const looksLikeDegrees = (p: Position) => Math.abs(p[0]) <= 180 && Math.abs(p[1]) <= 90;

/**
 * Reads a clip area from GeoJSON into the cloud's CRS; says which CRS the
 * GeoJSON was taken to be in. InvalidInput names what is wrong (not GeoJSON,
 * wrong geometry for the kind, too few vertices, missing width).
 *
 * @example
 * const { area } = areaFromGeoJson(JSON.parse(text), 'polygon', { crs: reader.crs });
 */
export function areaFromGeoJson(
  json: unknown,
  kind: ClipKind,
  options: AreaFromGeoJsonOptions,
): { area: ClipArea; source: 'EPSG:4326' | 'project' } {
  const geoms = geometries(json);
  if (geoms.length === 0) throw new InvalidInput('geojson', 'the GeoJSON holds no geometry');
  const all = allPositions(geoms);
  if (all.length === 0) throw new InvalidInput('geojson', 'the GeoJSON holds no coordinates');

  // Which CRS the coordinates are in.
  let source: 'EPSG:4326' | 'project';
  const named = namedCrs(json);
  const projectEpsg = options.crs?.epsg ?? null;
  if (options.from === 'EPSG:4326') source = 'EPSG:4326';
  else if (options.from === 'project') source = 'project';
  else if (named === 'CRS84' || named === 4326) source = 'EPSG:4326';
  else if (named !== null) {
    if (projectEpsg !== null && named !== projectEpsg) {
      throw new InvalidInput(
        'geojson.crs',
        `the GeoJSON is in EPSG:${named}, the point cloud in EPSG:${projectEpsg}: give it in one of those or in EPSG:4326`,
      );
    }
    source = 'project';
  } else if (!options.crs) {
    source = 'project'; // nothing to transform with: the coordinates must be the cloud's
  } else {
    const cloudInDegrees =
      options.crs?.geographic === true ||
      (options.bounds !== undefined &&
        looksLikeDegrees([options.bounds.minX, options.bounds.minY]) &&
        looksLikeDegrees([options.bounds.maxX, options.bounds.maxY]));
    source = !cloudInDegrees && all.every(looksLikeDegrees) ? 'EPSG:4326' : 'project';
  }

  let unitToMetre = options.crs?.horizontalUnitToMetre ?? 1;
  if (!(unitToMetre > 0)) unitToMetre = 1;
  let move = (ps: Position[]): Position[] => ps;
  if (source === 'EPSG:4326' && !options.crs?.geographic) {
    if (!options.crs) throw new CrsRequired('the point cloud has no CRS: the EPSG:4326 area cannot be placed on it');
    const transformer = createTransformer(crsFromEpsg(4326), options.crs);
    move = (ps) => {
      const x = Float64Array.from(ps, (p) => p[0]);
      const y = Float64Array.from(ps, (p) => p[1]);
      const z = new Float64Array(ps.length);
      transformer.forward(x, y, z, ps.length);
      return ps.map((_, i) => {
        if (!Number.isFinite(x[i]!) || !Number.isFinite(y[i]!)) {
          throw new InvalidInput('geojson', `position ${i} cannot be transformed into the point cloud's CRS`);
        }
        return [x[i]!, y[i]!];
      });
    };
  }

  if (kind === 'box') {
    const moved = move(all);
    const xs = moved.map((p) => p[0]);
    const ys = moved.map((p) => p[1]);
    return {
      area: {
        kind: 'box',
        minX: Math.min(...xs),
        minY: Math.min(...ys),
        maxX: Math.max(...xs),
        maxY: Math.max(...ys),
      },
      source,
    };
  }

  if (kind === 'polygon') {
    const polygons: Ring[][] = [];
    geoms.forEach((g, i) => {
      if (g.type === 'Polygon') polygons.push(rings(g.coordinates, `geometry[${i}].coordinates`).map(move));
      else if (g.type === 'MultiPolygon') {
        if (!Array.isArray(g.coordinates)) throw new InvalidInput(`geometry[${i}].coordinates`, 'expected an array');
        g.coordinates.forEach((p, j) => {
          polygons.push(rings(p, `geometry[${i}].coordinates[${j}]`).map(move));
        });
      } else {
        throw new InvalidInput(`geometry[${i}].type`, `a polygon clip needs Polygon or MultiPolygon, got ${g.type}`);
      }
    });
    return { area: { kind: 'polygon', polygons }, source };
  }

  // Corridor: one line.
  const lines: Position[][] = [];
  geoms.forEach((g, i) => {
    if (g.type === 'LineString') lines.push(positions(g.coordinates, `geometry[${i}].coordinates`));
    else if (g.type === 'MultiLineString') {
      if (!Array.isArray(g.coordinates)) throw new InvalidInput(`geometry[${i}].coordinates`, 'expected an array');
      g.coordinates.forEach((l, j) => {
        lines.push(positions(l, `geometry[${i}].coordinates[${j}]`));
      });
    } else {
      throw new InvalidInput(`geometry[${i}].type`, `a corridor needs a LineString, got ${g.type}`);
    }
  });
  if (lines.length !== 1) throw new InvalidInput('geojson', `a corridor needs exactly one line, got ${lines.length}`);
  const width = options.width;
  if (width === undefined || !(Number.isFinite(width) && width > 0)) {
    throw new InvalidInput('width', `a corridor needs a positive width in metres, got ${width}`);
  }
  return { area: { kind: 'corridor', line: move(lines[0]!), width: width / unitToMetre }, source };
}
