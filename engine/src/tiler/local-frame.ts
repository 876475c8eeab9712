/**
 * WGS84 geodesy for the tiler: geodetic ↔ ECEF (EPSG:4978) and a local
 * east-north-up frame in which the octree is built, so that octree cubes are
 * level with the ground wherever the data sits on the globe.
 */

/** WGS84 semi-major axis, metres. */
export const WGS84_A = 6378137;
/** WGS84 flattening. */
export const WGS84_F = 1 / 298.257223563;
const E2 = WGS84_F * (2 - WGS84_F);
const B = WGS84_A * (1 - WGS84_F);
const EP2 = (WGS84_A * WGS84_A - B * B) / (B * B);

/** Geodetic position: longitude and latitude in degrees, height in metres above the ellipsoid. */
export interface Geodetic {
  lon: number;
  lat: number;
  height: number;
}

/** ECEF (metres) of a geodetic position. */
export function geodeticToEcef(lonDeg: number, latDeg: number, height: number): [number, number, number] {
  const lon = (lonDeg * Math.PI) / 180;
  const lat = (latDeg * Math.PI) / 180;
  const sinLat = Math.sin(lat);
  const cosLat = Math.cos(lat);
  const n = WGS84_A / Math.sqrt(1 - E2 * sinLat * sinLat);
  return [
    (n + height) * cosLat * Math.cos(lon),
    (n + height) * cosLat * Math.sin(lon),
    (n * (1 - E2) + height) * sinLat,
  ];
}

/** Geodetic position of an ECEF point (Bowring's method, sub-millimetre near the surface). */
export function ecefToGeodetic(x: number, y: number, z: number): Geodetic {
  const p = Math.hypot(x, y);
  const theta = Math.atan2(z * WGS84_A, p * B);
  const st = Math.sin(theta);
  const ct = Math.cos(theta);
  const lat = Math.atan2(z + EP2 * B * st * st * st, p - E2 * WGS84_A * ct * ct * ct);
  const lon = Math.atan2(y, x);
  const sinLat = Math.sin(lat);
  const n = WGS84_A / Math.sqrt(1 - E2 * sinLat * sinLat);
  const cosLat = Math.cos(lat);
  // Near the poles p/cos(lat) is unstable; use the z form there.
  const height = Math.abs(cosLat) > 1e-6 ? p / cosLat - n : Math.abs(z) / Math.abs(sinLat) - n * (1 - E2);
  return { lon: (lon * 180) / Math.PI, lat: (lat * 180) / Math.PI, height };
}

/**
 * A local east-north-up frame at `origin` (ECEF). `east`, `north` and `up` are
 * unit vectors in ECEF; `toLocal`/`toEcef` are exact inverses (orthonormal).
 */
export interface LocalFrame {
  origin: [number, number, number];
  east: [number, number, number];
  north: [number, number, number];
  up: [number, number, number];
}

/** The ENU frame whose origin is the given ECEF point. */
export function enuFrameAt(x: number, y: number, z: number): LocalFrame {
  const g = ecefToGeodetic(x, y, z);
  const lon = (g.lon * Math.PI) / 180;
  const lat = (g.lat * Math.PI) / 180;
  const sl = Math.sin(lon);
  const cl = Math.cos(lon);
  const sp = Math.sin(lat);
  const cp = Math.cos(lat);
  return {
    origin: [x, y, z],
    east: [-sl, cl, 0],
    north: [-sp * cl, -sp * sl, cp],
    up: [cp * cl, cp * sl, sp],
  };
}

/** ECEF → local ENU for `count` points, in place. */
export function ecefToLocal(frame: LocalFrame, x: Float64Array, y: Float64Array, z: Float64Array, count: number): void {
  const [ox, oy, oz] = frame.origin;
  const [ex, ey, ez] = frame.east;
  const [nx, ny, nz] = frame.north;
  const [ux, uy, uz] = frame.up;
  for (let i = 0; i < count; i++) {
    const dx = x[i]! - ox;
    const dy = y[i]! - oy;
    const dz = z[i]! - oz;
    x[i] = ex * dx + ey * dy + ez * dz;
    y[i] = nx * dx + ny * dy + nz * dz;
    z[i] = ux * dx + uy * dy + uz * dz;
  }
}

/** Local ENU vector → ECEF vector (no translation). */
export function localVectorToEcef(frame: LocalFrame, e: number, n: number, u: number): [number, number, number] {
  return [
    frame.east[0] * e + frame.north[0] * n + frame.up[0] * u,
    frame.east[1] * e + frame.north[1] * n + frame.up[1] * u,
    frame.east[2] * e + frame.north[2] * n + frame.up[2] * u,
  ];
}

/** Local ENU point → ECEF point. */
export function localToEcef(frame: LocalFrame, e: number, n: number, u: number): [number, number, number] {
  const v = localVectorToEcef(frame, e, n, u);
  return [frame.origin[0] + v[0], frame.origin[1] + v[1], frame.origin[2] + v[2]];
}
