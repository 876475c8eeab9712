import type { Feature, Geometry } from './geojson.writer.js';

/**
 * GeoJSON geometries as PostGIS extended WKB (little-endian, SRID 4326), the
 * form the API stores features in: PostgreSQL reads binary numbers where it
 * would parse the decimal text of `ST_GeomFromGeoJSON` (about half the
 * database's time for contour lines of thousands of vertices), and the
 * stored geometry is the same, bit for bit (the double nearest each decimal
 * is the double JSON held).
 *
 * Validation stays: an unknown type, a malformed position or a non-finite
 * number throws an {@link InvalidGeometry}, as `ST_GeomFromGeoJSON` would
 * fail, never a silent NaN.
 *
 * A product thread hands its features to the main thread packed
 * ({@link packFeatures}): every geometry's EWKB in one shared buffer and each
 * feature's properties as JSON text, instead of millions of small coordinate
 * arrays cloned across threads (and held on the main thread) one by one.
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

/** Thrown by {@link position} when a geometry written in 2D turns out to hold a position with Z. */
const NEEDS_Z = Symbol('needs Z');

/**
 * Whether the geometry's first position (its first coordinates, depth first) has a third number: the guess the
 * geometry is written with; a later position with Z starts it again in 3D (PostGIS keeps Z for the whole
 * geometry when any position has it).
 */
function firstHasZ(g: GeoJsonGeometry): boolean {
  if (g.type === 'GeometryCollection') {
    const first = Array.isArray(g.geometries) ? g.geometries[0] : undefined;
    return typeof first === 'object' && first !== null ? firstHasZ(first as GeoJsonGeometry) : false;
  }
  let c: unknown = g.coordinates;
  while (Array.isArray(c) && Array.isArray(c[0])) c = c[0];
  return Array.isArray(c) && c.length > 2;
}

/** A growing little-endian byte buffer. */
class Writer {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  /** Writes into `into` (grown into a new buffer only if it runs out), else into a buffer of its own. */
  constructor(into?: Uint8Array) {
    this.buf = into ?? Buffer.allocUnsafe(4096);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  /** The buffer written into (the one given, while it was large enough). */
  get target(): Uint8Array {
    return this.buf;
  }

  /** Makes room for `n` more bytes. */
  room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.length);
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.length++] = v;
  }

  u32(v: number): void {
    this.room(4);
    this.view.setUint32(this.length, v >>> 0, true);
    this.length += 4;
  }

  /** A double where {@link room} was made. */
  f64(v: number): void {
    this.view.setFloat64(this.length, v, true);
    this.length += 8;
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

function coordinate(w: Writer, v: unknown): void {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new InvalidGeometry('a coordinate is not a finite number');
  w.f64(v);
}

function position(w: Writer, p: unknown, z: boolean): void {
  if (!Array.isArray(p) || p.length < 2 || p.length > 4) throw new InvalidGeometry('a position is not 2 to 4 numbers');
  if (p.length > 2 && !z) throw NEEDS_Z;
  w.room(z ? 24 : 16);
  coordinate(w, p[0]);
  coordinate(w, p[1]);
  // A 2D position in a geometry with Z gets 0, as PostGIS gives it.
  if (z) coordinate(w, p.length > 2 ? p[2] : 0);
}

function positions(w: Writer, ps: unknown, z: boolean): void {
  if (!Array.isArray(ps)) throw new InvalidGeometry('positions are not an array');
  w.room(4 + ps.length * (z ? 24 : 16));
  w.u32(ps.length);
  for (let i = 0; i < ps.length; i++) position(w, ps[i], z);
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
export function geoJsonToEwkb(g: GeoJsonGeometry): Uint8Array {
  const w = new Writer();
  writeGeometry(w, g);
  return w.bytes();
}

/** Writes a geometry with its SRID, with Z when any position has it. */
function writeGeometry(w: Writer, g: GeoJsonGeometry): void {
  const at = w.length;
  const z = firstHasZ(g);
  try {
    geometry(w, g, z, true);
  } catch (err) {
    if (err !== NEEDS_Z) throw err;
    w.length = at;
    geometry(w, g, true, true);
  }
}

/** A feature as a row of the features table: its geometry (EWKB, or GeoJSON text when the encoder refused it) and properties as JSON text. */
export interface FeatureRow {
  ewkb: Uint8Array | null;
  /** GeoJSON text of a geometry the encoder refused (PostGIS judges it), else null. */
  geojson: string | null;
  properties: string;
}

/**
 * Writes a geometry's EWKB with its SRID; when the encoder refuses it, writes
 * nothing and returns its GeoJSON text instead (for PostGIS to judge).
 */
function writeOrRefuse(w: Writer, g: GeoJsonGeometry): string | null {
  const at = w.length;
  try {
    writeGeometry(w, g);
    return null;
  } catch (err) {
    if (!(err instanceof InvalidGeometry)) throw err;
    w.length = at;
    return JSON.stringify(g);
  }
}

/** The row of a feature. */
export function featureRow(f: { geometry: { type: string; coordinates?: unknown }; properties?: unknown }): FeatureRow {
  const w = new Writer();
  const geojson = writeOrRefuse(w, f.geometry);
  return { ewkb: geojson === null ? w.bytes() : null, geojson, properties: JSON.stringify(f.properties ?? {}) };
}

/** Features packed to cross threads: a few buffers and strings, whatever their vertices. */
export interface PackedFeatures {
  kind: 'packed-features';
  /** Every geometry's EWKB, one after the other (shared memory: posted without a copy). */
  ewkb: Uint8Array;
  /** End of feature i's EWKB in `ewkb` (its start is the end of i - 1). */
  ends: Float64Array;
  properties: string[];
  /** GeoJSON text of the geometries the encoder refused, by feature (their EWKB is empty). */
  refused: Array<[number, string]>;
}

export function isPackedFeatures(v: unknown): v is PackedFeatures {
  return typeof v === 'object' && v !== null && (v as PackedFeatures).kind === 'packed-features';
}

/** Packs features (read once) for another thread. */
export function packFeatures(features: Iterable<Feature>): PackedFeatures {
  const w = new Writer();
  const ends: number[] = [];
  const properties: string[] = [];
  const refused: Array<[number, string]> = [];
  for (const f of features) {
    const geojson = writeOrRefuse(w, f.geometry);
    if (geojson !== null) refused.push([ends.length, geojson]);
    ends.push(w.length);
    properties.push(JSON.stringify(f.properties ?? {}));
  }
  return sealPack(w, ends, properties, refused);
}

/** A 2D line as flat coordinates (x0, y0, x1, y1, …) in a projected CRS, with its feature's properties. */
export interface FlatLineFeature {
  coordinates: Float64Array;
  properties: Record<string, unknown>;
}

/**
 * Packs 2D lines as LineStrings in EPSG:4326, `forward` transforming each
 * line's coordinates in place (x, y, z = 0, count), as a `CoordinateTransformer`
 * does: the pack {@link packFeatures} makes of the same lines as GeoJSON features
 * transformed line by line (`featuresToWgs84`), byte for byte, without an array
 * per vertex. Lines of fewer than 2 positions are left out, as those features are.
 */
export function packFlatLines(
  lines: readonly FlatLineFeature[],
  forward: (x: Float64Array, y: Float64Array, z: Float64Array, count: number) => void,
): PackedFeatures {
  // Written straight into shared memory of the size every line takes (17 bytes of header and count, 16 a
  // position): no growing buffer, no copy at the end (a gigabyte of contours held once, not three times).
  let size = 0;
  for (const line of lines) {
    const n = line.coordinates.length >> 1;
    if (n >= 2) size += 17 + 16 * n;
  }
  const shared = new Uint8Array(new SharedArrayBuffer(size));
  const w = new Writer(shared);
  const ends: number[] = [];
  const properties: string[] = [];
  const refused: Array<[number, string]> = [];
  let x = new Float64Array(0);
  let y = new Float64Array(0);
  let z = new Float64Array(0);
  for (const line of lines) {
    const c = line.coordinates;
    const n = c.length >> 1;
    if (n < 2) continue;
    if (x.length < n) {
      x = new Float64Array(Math.max(n, 2 * x.length));
      y = new Float64Array(x.length);
      z = new Float64Array(x.length);
    }
    for (let i = 0; i < n; i++) {
      x[i] = c[2 * i]!;
      y[i] = c[2 * i + 1]!;
    }
    z.fill(0, 0, n);
    forward(x, y, z, n);
    const at = w.length;
    try {
      header(w, 'LineString', false, true);
      w.room(4 + 16 * n);
      w.u32(n);
      for (let i = 0; i < n; i++) {
        coordinate(w, x[i]);
        coordinate(w, y[i]);
      }
    } catch (err) {
      if (!(err instanceof InvalidGeometry)) throw err;
      // Refused as the encoder refuses a feature (a coordinate the transform could not give): its GeoJSON text.
      w.length = at;
      const coordinates = Array.from({ length: n }, (_, i) => [x[i]!, y[i]!]);
      refused.push([ends.length, JSON.stringify({ type: 'LineString', coordinates })]);
    }
    ends.push(w.length);
    properties.push(JSON.stringify(line.properties ?? {}));
  }
  if (w.target !== shared) return sealPack(w, ends, properties, refused);
  return {
    kind: 'packed-features',
    ewkb: shared.subarray(0, w.length),
    ends: Float64Array.from(ends),
    properties,
    refused,
  };
}

/** A pack of what a writer holds, its EWKB copied into shared memory. */
function sealPack(w: Writer, ends: number[], properties: string[], refused: Array<[number, string]>): PackedFeatures {
  const ewkb = new Uint8Array(new SharedArrayBuffer(w.length));
  ewkb.set(w.bytes());
  return { kind: 'packed-features', ewkb, ends: Float64Array.from(ends), properties, refused };
}

/** The rows of packed features, their EWKB as views of the shared buffer. */
export function* packedRows(p: PackedFeatures): Generator<FeatureRow> {
  const refused = new Map(p.refused);
  let start = 0;
  for (let i = 0; i < p.ends.length; i++) {
    const end = p.ends[i]!;
    const geojson = refused.get(i) ?? null;
    yield {
      ewkb: geojson === null ? p.ewkb.subarray(start, end) : null,
      geojson,
      properties: p.properties[i]!,
    };
    start = end;
  }
}

/** Reads EWKB back (little-endian, as written here). */
class Reader {
  private readonly view: DataView;
  at = 0;

  constructor(bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  u8(): number {
    return this.view.getUint8(this.at++);
  }

  u32(): number {
    const v = this.view.getUint32(this.at, true);
    this.at += 4;
    return v;
  }

  f64(): number {
    const v = this.view.getFloat64(this.at, true);
    this.at += 8;
    return v;
  }
}

const TYPE_NAME = Object.fromEntries(Object.entries(WKB_TYPE).map(([k, v]) => [v, k])) as Record<number, string>;

function readGeometry(r: Reader): { type: string; coordinates?: unknown; geometries?: unknown } {
  if (r.u8() !== 1) throw new InvalidGeometry('EWKB not little-endian');
  const flags = r.u32();
  if (flags & EWKB_SRID) r.u32();
  const z = (flags & EWKB_Z) !== 0;
  const type = TYPE_NAME[flags & 0xff];
  if (!type) throw new InvalidGeometry(`EWKB type ${flags & 0xff}`);
  const pos = () => (z ? [r.f64(), r.f64(), r.f64()] : [r.f64(), r.f64()]);
  const line = () => Array.from({ length: r.u32() }, pos);
  switch (type) {
    case 'Point':
      return { type, coordinates: pos() };
    case 'LineString':
      return { type, coordinates: line() };
    case 'Polygon':
      return { type, coordinates: Array.from({ length: r.u32() }, line) };
    case 'GeometryCollection':
      return { type, geometries: Array.from({ length: r.u32() }, () => readGeometry(r)) };
    default:
      return { type, coordinates: Array.from({ length: r.u32() }, () => readGeometry(r).coordinates) };
  }
}

/** The features of a pack, as GeoJSON again (for readers other than the features table). */
export function* unpackFeatures(p: PackedFeatures): Generator<Feature> {
  for (const row of packedRows(p)) {
    const geometry = (row.ewkb ? readGeometry(new Reader(row.ewkb)) : JSON.parse(row.geojson!)) as Geometry;
    yield { type: 'Feature', geometry, properties: JSON.parse(row.properties) as Feature['properties'] };
  }
}

/** The rows of features, packed or not. */
export function* featureRows(features: Iterable<Feature> | PackedFeatures): Generator<FeatureRow> {
  if (isPackedFeatures(features)) yield* packedRows(features);
  else for (const f of features) yield featureRow(f);
}
