/**
 * GeoJSON geometries as PostGIS extended WKB (little-endian, SRID 4326), the
 * form `replaceFeatures` sends features in: PostgreSQL reads binary numbers
 * where it would parse the decimal text of `ST_GeomFromGeoJSON` (about half
 * the database's time for contour lines of thousands of vertices), and the
 * stored geometry is the same, bit for bit (the double nearest each decimal
 * is the double JSON held).
 *
 * Validation stays: an unknown type, a malformed position or a non-finite
 * number throws an {@link InvalidGeometry}, as `ST_GeomFromGeoJSON` would
 * fail, never a silent NaN.
 */

const WKB_TYPE: Record<string, number> = {
  Point: 1,
  LineString: 2,
  Polygon: 3,
  MultiPoint: 4,
  MultiLineString: 5,
  MultiPolygon: 6,
  GeometryCollection: 7,
};
const EWKB_Z = 0x80000000;
const EWKB_SRID = 0x20000000;
export const FEATURES_SRID = 4326;

export class InvalidGeometry extends Error {
  constructor(message: string) {
    super(`invalid GeoJSON geometry: ${message}`);
    this.name = 'InvalidGeometry';
  }
}

interface GeoJsonGeometry {
  type: string;
  coordinates?: unknown;
  geometries?: unknown;
}

/** Whether any position of the coordinates has a third number (PostGIS then keeps Z for the whole geometry). */
function hasZ(c: unknown): boolean {
  if (!Array.isArray(c) || c.length === 0) return false;
  if (typeof c[0] === 'number') return c.length > 2;
  for (const inner of c) if (hasZ(inner)) return true;
  return false;
}

function geometryHasZ(g: GeoJsonGeometry): boolean {
  if (g.type === 'GeometryCollection') {
    return Array.isArray(g.geometries) && g.geometries.some((m) => geometryHasZ(m as GeoJsonGeometry));
  }
  return hasZ(g.coordinates);
}

/** A growing little-endian byte buffer. */
class Writer {
  private buf = Buffer.allocUnsafe(1024);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.length++] = v;
  }

  u32(v: number): void {
    this.room(4);
    this.buf.writeUInt32LE(v >>> 0, this.length);
    this.length += 4;
  }

  f64(v: number): void {
    this.room(8);
    this.buf.writeDoubleLE(v, this.length);
    this.length += 8;
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

function position(w: Writer, p: unknown, z: boolean): void {
  if (!Array.isArray(p) || p.length < 2 || p.length > 4) throw new InvalidGeometry('a position is not 2 to 4 numbers');
  const n = z ? 3 : 2;
  for (let k = 0; k < n; k++) {
    // A 2D position in a geometry with Z gets 0, as PostGIS gives it.
    const v = k < p.length ? p[k] : 0;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new InvalidGeometry('a coordinate is not a finite number');
    w.f64(v);
  }
}

function positions(w: Writer, ps: unknown, z: boolean): void {
  if (!Array.isArray(ps)) throw new InvalidGeometry('positions are not an array');
  w.u32(ps.length);
  for (const p of ps) position(w, p, z);
}

function header(w: Writer, type: string, z: boolean, srid: boolean): void {
  w.u8(1);
  w.u32(WKB_TYPE[type]! | (z ? EWKB_Z : 0) | (srid ? EWKB_SRID : 0));
  if (srid) w.u32(FEATURES_SRID);
}

function list(c: unknown): unknown[] {
  if (!Array.isArray(c)) throw new InvalidGeometry('coordinates are not an array');
  return c;
}

function geometry(w: Writer, g: GeoJsonGeometry, z: boolean, srid: boolean): void {
  if (typeof g !== 'object' || g === null || !(g.type in WKB_TYPE)) {
    throw new InvalidGeometry(`unknown type ${String((g as GeoJsonGeometry | null)?.type)}`);
  }
  header(w, g.type, z, srid);
  switch (g.type) {
    case 'Point':
      position(w, g.coordinates, z);
      return;
    case 'LineString':
      positions(w, g.coordinates, z);
      return;
    case 'Polygon': {
      const rings = list(g.coordinates);
      w.u32(rings.length);
      for (const r of rings) positions(w, r, z);
      return;
    }
    case 'MultiPoint':
    case 'MultiLineString':
    case 'MultiPolygon': {
      const parts = list(g.coordinates);
      const part = g.type.slice('Multi'.length);
      w.u32(parts.length);
      for (const coordinates of parts) geometry(w, { type: part, coordinates }, z, false);
      return;
    }
    default: {
      const members = list(g.geometries);
      w.u32(members.length);
      for (const m of members) geometry(w, m as GeoJsonGeometry, z, false);
    }
  }
}

/** The EWKB of a GeoJSON geometry in EPSG:4326, for `ST_GeomFromEWKB`. */
export function geoJsonToEwkb(g: GeoJsonGeometry): Buffer {
  const w = new Writer();
  geometry(w, g, geometryHasZ(g), true);
  return w.bytes();
}
