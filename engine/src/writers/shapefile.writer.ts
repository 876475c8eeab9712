/**
 * ESRI Shapefile writer: one layer of Point, LineString or Polygon features
 * in the project CRS, zipped as `<layer>.shp/.shx/.dbf/.prj/.cpg`
 * (ESRI Shapefile Technical Description, July 1998; dBase III+ attributes).
 *
 * - Shape type: PointZ / PolyLineZ / PolygonZ when any coordinate has a Z,
 *   else Point / PolyLine / Polygon. Z records carry no M values (optional in
 *   the specification), except PointZ whose M is written as "no data".
 * - Polygons: outer rings clockwise, holes counter-clockwise, rings closed.
 * - `.prj`: the CRS's OGC WKT 1 (the EPSG index's, without TOWGS84 and
 *   EXTENSION nodes) which GDAL/QGIS read back as the same EPSG code.
 * - `.cpg`: `UTF-8`; strings are UTF-8 in the `.dbf`.
 * - Attributes: see {@link dbfFieldNames} for names and {@link dbfFields} for types.
 * - A layer whose `.shp` or `.dbf` would pass 2 GB is refused before anything is written.
 */
import { InvalidInput } from '../core/errors.js';
import { type CrsInfo, crsFromEpsg } from '../crs/index.js';
import type { Feature, Geometry } from './geojson.writer.js';
import { ZipWriter } from './zip.writer.js';

/** Largest `.shp` or `.dbf` written: 2 GB (2^31 − 1 bytes), the limit of most Shapefile readers. */
export const SHAPEFILE_MAX_BYTES = 2 ** 31 - 1;

/** Longest DBF field name (dBase III). */
export const DBF_NAME_LENGTH = 10;

/** Widest character field (bytes of UTF-8). */
export const DBF_MAX_STRING_BYTES = 254;

/** Widest numeric field kept as N (wider numbers become text). */
const DBF_MAX_NUMBER_WIDTH = 20;

/** Most decimals kept in a numeric field. */
const DBF_MAX_DECIMALS = 8;

/** Shape types of the specification. */
export const SHAPE_TYPES = {
  Null: 0,
  Point: 1,
  PolyLine: 3,
  Polygon: 5,
  PointZ: 11,
  PolyLineZ: 13,
  PolygonZ: 15,
} as const;

/** Shape type code of a layer. */
export type ShapeType = (typeof SHAPE_TYPES)[keyof typeof SHAPE_TYPES];

/** One DBF column: the feature property it holds and how. */
export interface DbfField {
  /** Property name in the features. */
  property: string;
  /** DBF field name (≤ 10 ASCII characters). */
  name: string;
  /** N: number, C: UTF-8 text, L: boolean. */
  type: 'N' | 'C' | 'L';
  /** Bytes per value. */
  length: number;
  /** Decimals (N only). */
  decimals: number;
}

/** Sizes in bytes of the files of a layer. */
export interface ShapefileSizes {
  shp: number;
  shx: number;
  dbf: number;
}

/** What {@link writeShapefile} reports. */
export interface ShapefileArtifact {
  path: string;
  type: 'shapefile';
  /** Size of the zip. */
  bytes: number;
  features: number;
  layerName: string;
  shapeType: ShapeType;
  /** Property → DBF column. */
  fields: DbfField[];
  /** Sizes of the files inside the zip (of the first layer). */
  sizes: ShapefileSizes;
  /** Every layer of the zip: one, or one per geometry type. */
  layers: Array<{ layerName: string; shapeType: ShapeType; features: number }>;
}

/** Options of {@link writeShapefile}. */
export interface ShapefileWriteOptions {
  /** Base name of the files in the zip (default: the zip's name without `.zip`/`.shp.zip`). */
  layerName?: string;
  /** Geometry type of an empty layer (default Point). */
  geometryType?: Geometry['type'];
  /** Last-update date of the DBF and time stamp of the zip members (default: now). */
  date?: Date;
}

/** DBF-safe ASCII spelling of a property name (other characters become `_`). */
function sanitizeName(property: string): string {
  const s = property
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_]/g, '_');
  return s || 'field';
}

/**
 * DBF field names of feature properties: at most 10 ASCII characters, unique
 * case-insensitively, and deterministic (the result depends only on the set
 * of names, not their order):
 *
 * 1. a name of 10 characters or fewer made of letters, digits and `_` is kept
 *    as it is (`treeId`, `height`, `crownArea`, `eaveHeight`, `buildingId`);
 * 2. every other name, in code-unit order, gets its characters outside
 *    `[A-Za-z0-9_]` replaced by `_` (accents dropped) and is cut to 10
 *    characters (`clearanceHeight` → `clearanceH`);
 * 3. a name already taken is cut shorter and ends with `_1`, `_2`, …
 *    (`clearanceHorizontal` → `clearanc_1` when `clearanceHeight` took `clearanceH`).
 *
 * @example
 * dbfFieldNames(['treeId', 'crownArea', 'distanceToLine']).get('distanceToLine'); // 'distanceTo'
 */
export function dbfFieldNames(properties: Iterable<string>): Map<string, string> {
  const keys = [...new Set(properties)].sort();
  const taken = new Set<string>();
  const out = new Map<string, string>();
  const claim = (key: string, name: string) => {
    out.set(key, name);
    taken.add(name.toUpperCase());
  };
  for (const key of keys) {
    if (key.length <= DBF_NAME_LENGTH && /^[A-Za-z0-9_]+$/.test(key) && !taken.has(key.toUpperCase())) claim(key, key);
  }
  for (const key of keys) {
    if (out.has(key)) continue;
    const base = sanitizeName(key);
    let name = base.slice(0, DBF_NAME_LENGTH);
    for (let n = 1; taken.has(name.toUpperCase()); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, DBF_NAME_LENGTH - suffix.length) + suffix;
    }
    claim(key, name);
  }
  return out;
}

/** Decimals and width of a finite number written in fixed notation. */
function numberShape(v: number): { integer: number; decimals: number } {
  const text = String(Math.abs(v));
  const decimals = text.includes('e-')
    ? DBF_MAX_DECIMALS
    : Math.min(DBF_MAX_DECIMALS, text.includes('e') ? 0 : (text.split('.')[1]?.length ?? 0));
  const intDigits = text.includes('e+')
    ? Math.floor(Math.log10(Math.abs(v))) + 1
    : Math.abs(v).toFixed(decimals).split('.')[0]!.length;
  return { integer: intDigits + (v < 0 ? 1 : 0), decimals };
}

function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * DBF columns of features, in the order properties first appear. A property
 * holding only numbers is N (decimals: as many as the values need, at most 8;
 * width: the widest value), only booleans L, only strings C (width: the
 * longest UTF-8 value, at most 254 bytes); mixed kinds are written as text
 * (C) and a property that is always null is C of width 1. Null, NaN and
 * infinite numbers are blank (read back as null).
 */
export function dbfFields(features: Iterable<Feature>): DbfField[] {
  interface Stat {
    kinds: Set<'number' | 'string' | 'boolean'>;
    integer: number;
    decimals: number;
    textBytes: number;
  }
  const stats = new Map<string, Stat>();
  for (const f of features) {
    for (const [key, value] of Object.entries(f.properties ?? {})) {
      let s = stats.get(key);
      if (!s) {
        s = { kinds: new Set(), integer: 1, decimals: 0, textBytes: 1 };
        stats.set(key, s);
      }
      if (value === null || value === undefined) continue;
      if (typeof value === 'number') {
        s.kinds.add('number');
        if (Number.isFinite(value)) {
          const shape = numberShape(value);
          s.integer = Math.max(s.integer, shape.integer);
          s.decimals = Math.max(s.decimals, shape.decimals);
        }
      } else if (typeof value === 'boolean') s.kinds.add('boolean');
      else s.kinds.add('string');
      s.textBytes = Math.max(s.textBytes, utf8Length(String(value)));
    }
  }
  const names = dbfFieldNames(stats.keys());
  const fields: DbfField[] = [];
  for (const [property, s] of stats) {
    const name = names.get(property)!;
    const only = s.kinds.size === 1 ? [...s.kinds][0] : null;
    if (only === 'number') {
      const decimals = Math.max(0, Math.min(s.decimals, DBF_MAX_NUMBER_WIDTH - s.integer - 1));
      const length = s.integer + (decimals > 0 ? decimals + 1 : 0);
      if (length <= DBF_MAX_NUMBER_WIDTH) {
        fields.push({ property, name, type: 'N', length, decimals });
        continue;
      }
    }
    if (only === 'boolean') fields.push({ property, name, type: 'L', length: 1, decimals: 0 });
    else fields.push({ property, name, type: 'C', length: Math.min(DBF_MAX_STRING_BYTES, s.textBytes), decimals: 0 });
  }
  return fields;
}

/** What the `.shp` of a layer holds, for sizes and the header. */
export interface ShapeLayout {
  shapeType: ShapeType;
  records: number;
  /** Parts (lines, rings) of all records. */
  parts: number;
  /** Points of all records. */
  points: number;
  /** Records without coordinates (null shapes). */
  nullRecords: number;
  /** Extent of every coordinate (Z 0 where missing); null for a layer without coordinates. */
  bounds: Bounds | null;
}

/** Extent of coordinates. */
export interface Bounds {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
  zmin: number;
  zmax: number;
}

function emptyBounds(): Bounds {
  return { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity, zmin: Infinity, zmax: -Infinity };
}

function extend(b: Bounds, parts: number[][][]): Bounds {
  for (const part of parts) {
    for (const c of part) {
      const x = c[0]!;
      const y = c[1]!;
      const z = c[2] ?? 0;
      if (x < b.xmin) b.xmin = x;
      if (x > b.xmax) b.xmax = x;
      if (y < b.ymin) b.ymin = y;
      if (y > b.ymax) b.ymax = y;
      if (z < b.zmin) b.zmin = z;
      if (z > b.zmax) b.zmax = z;
    }
  }
  return b;
}

function hasZ(g: Geometry): boolean {
  if (g.type === 'Point') return g.coordinates.length > 2;
  if (g.type === 'LineString') return g.coordinates.some((c) => c.length > 2);
  return g.coordinates.some((ring) => ring.some((c) => c.length > 2));
}

/** Rings of a polygon closed (first point repeated), empty rings dropped. */
function closedRings(rings: number[][][]): number[][][] {
  const out: number[][][] = [];
  for (const ring of rings) {
    if (ring.length === 0) continue;
    const first = ring[0]!;
    const last = ring[ring.length - 1]!;
    out.push(first[0] === last[0] && first[1] === last[1] ? ring : [...ring, first]);
  }
  return out;
}

/** Parts and points of a geometry as the `.shp` stores it. */
function partsOf(g: Geometry): number[][][] {
  if (g.type === 'Point') return g.coordinates.length >= 2 ? [[g.coordinates]] : [];
  if (g.type === 'LineString') return g.coordinates.length > 0 ? [g.coordinates] : [];
  return closedRings(g.coordinates);
}

/**
 * Shape type and totals of a layer.
 * @throws InvalidInput when features mix geometry types.
 */
export function shapeLayout(features: Iterable<Feature>, emptyType: Geometry['type'] = 'Point'): ShapeLayout {
  let kind: Geometry['type'] | null = null;
  let z = false;
  let records = 0;
  let parts = 0;
  let points = 0;
  let nullRecords = 0;
  const box = emptyBounds();
  for (const f of features) {
    const g = f.geometry;
    if (g.type !== 'Point' && g.type !== 'LineString' && g.type !== 'Polygon') {
      throw new InvalidInput('shapefile', `unsupported geometry type ${(g as { type: string }).type}`);
    }
    if (kind && g.type !== kind) {
      throw new InvalidInput('shapefile', `a Shapefile holds one geometry type: got ${kind} and ${g.type}`);
    }
    kind = g.type;
    records++;
    z ||= hasZ(g);
    const p = partsOf(g);
    if (p.length === 0) nullRecords++;
    parts += p.length;
    for (const part of p) points += part.length;
    extend(box, p);
  }
  const k = kind ?? emptyType;
  const shapeType =
    k === 'Point'
      ? z
        ? SHAPE_TYPES.PointZ
        : SHAPE_TYPES.Point
      : k === 'LineString'
        ? z
          ? SHAPE_TYPES.PolyLineZ
          : SHAPE_TYPES.PolyLine
        : z
          ? SHAPE_TYPES.PolygonZ
          : SHAPE_TYPES.Polygon;
  return { shapeType, records, parts, points, nullRecords, bounds: Number.isFinite(box.xmin) ? box : null };
}

const isZ = (t: ShapeType) => t === SHAPE_TYPES.PointZ || t === SHAPE_TYPES.PolyLineZ || t === SHAPE_TYPES.PolygonZ;
const isPoint = (t: ShapeType) => t === SHAPE_TYPES.Point || t === SHAPE_TYPES.PointZ;

/** Bytes of one record's content (after its 8-byte header). */
function contentBytes(shapeType: ShapeType, parts: number, points: number): number {
  if (parts === 0) return 4;
  if (shapeType === SHAPE_TYPES.Point) return 20;
  if (shapeType === SHAPE_TYPES.PointZ) return 36;
  return 44 + 4 * parts + 16 * points + (isZ(shapeType) ? 16 + 8 * points : 0);
}

/** Bytes of one DBF record (deletion flag included). */
export function dbfRecordBytes(fields: readonly DbfField[]): number {
  return 1 + fields.reduce((s, f) => s + f.length, 0);
}

/**
 * Exact sizes of the `.shp`, `.shx` and `.dbf` of a layer, computed from its
 * layout and columns without writing anything.
 */
export function shapefileSizes(layout: ShapeLayout, fields: readonly DbfField[]): ShapefileSizes {
  const { shapeType, records, parts, points, nullRecords } = layout;
  const shapeRecords = records - nullRecords;
  let shp: number;
  if (isPoint(shapeType)) shp = 100 + shapeRecords * (8 + contentBytes(shapeType, 1, 1)) + nullRecords * 12;
  else {
    const perRecord = 8 + 44 + (isZ(shapeType) ? 16 : 0);
    const perPoint = 16 + (isZ(shapeType) ? 8 : 0);
    shp = 100 + shapeRecords * perRecord + parts * 4 + points * perPoint + nullRecords * 12;
  }
  const shx = 100 + 8 * records;
  const dbf = 32 + 32 * fields.length + 1 + records * dbfRecordBytes(fields) + 1;
  return { shp, shx, dbf };
}

/**
 * Refuses a layer too large for a Shapefile.
 * @throws InvalidInput when the `.shp` or `.dbf` would pass {@link SHAPEFILE_MAX_BYTES}.
 */
export function checkShapefileSizes(sizes: ShapefileSizes): void {
  if (sizes.shp > SHAPEFILE_MAX_BYTES || sizes.dbf > SHAPEFILE_MAX_BYTES) {
    throw new InvalidInput('shapefile', 'layer too large for a Shapefile (over 2 GB): export GeoJSON or DXF');
  }
}

/** Signed area of a ring (positive: counter-clockwise with Y up). */
export function ringArea(ring: readonly number[][]): number {
  let s = 0;
  for (let i = 0, n = ring.length; i < n; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % n]!;
    s += a[0]! * b[1]! - b[0]! * a[1]!;
  }
  return s / 2;
}

/** Chunks of roughly 1 MiB assembled from many small buffers. */
class ChunkBuffer {
  private parts: Buffer[] = [];
  private bytes = 0;
  push(b: Buffer): Buffer | null {
    this.parts.push(b);
    this.bytes += b.length;
    return this.bytes >= 1 << 20 ? this.flush() : null;
  }
  flush(): Buffer | null {
    if (this.bytes === 0) return null;
    const out = Buffer.concat(this.parts, this.bytes);
    this.parts = [];
    this.bytes = 0;
    return out;
  }
}

/** Parts of a geometry in Shapefile order: polygon outer rings clockwise, holes counter-clockwise. */
function shapeParts(g: Geometry): number[][][] {
  const parts = partsOf(g);
  if (g.type !== 'Polygon') return parts;
  return parts.map((ring, i) => {
    const area = ringArea(ring);
    const wantClockwise = i === 0;
    return (wantClockwise && area > 0) || (!wantClockwise && area < 0) ? [...ring].reverse() : ring;
  });
}

/** No-data M value (any number below −10^38). */
const NO_M = -1e39;

function shpRecord(shapeType: ShapeType, number: number, g: Geometry): Buffer {
  const parts = shapeParts(g);
  const points = parts.reduce((s, p) => s + p.length, 0);
  const content = contentBytes(shapeType, parts.length, points);
  const b = Buffer.alloc(8 + content);
  b.writeInt32BE(number, 0);
  b.writeInt32BE(content / 2, 4);
  if (parts.length === 0) {
    b.writeInt32LE(SHAPE_TYPES.Null, 8);
    return b;
  }
  b.writeInt32LE(shapeType, 8);
  if (isPoint(shapeType)) {
    const c = parts[0]![0]!;
    b.writeDoubleLE(c[0]!, 12);
    b.writeDoubleLE(c[1]!, 20);
    if (shapeType === SHAPE_TYPES.PointZ) {
      b.writeDoubleLE(c[2] ?? 0, 28);
      b.writeDoubleLE(NO_M, 36);
    }
    return b;
  }
  const box = extend(emptyBounds(), parts);
  let at = 12;
  for (const v of [box.xmin, box.ymin, box.xmax, box.ymax]) {
    b.writeDoubleLE(v, at);
    at += 8;
  }
  b.writeInt32LE(parts.length, at);
  b.writeInt32LE(points, at + 4);
  at += 8;
  let start = 0;
  for (const part of parts) {
    b.writeInt32LE(start, at);
    at += 4;
    start += part.length;
  }
  for (const part of parts) {
    for (const c of part) {
      b.writeDoubleLE(c[0]!, at);
      b.writeDoubleLE(c[1]!, at + 8);
      at += 16;
    }
  }
  if (isZ(shapeType)) {
    b.writeDoubleLE(box.zmin, at);
    b.writeDoubleLE(box.zmax, at + 8);
    at += 16;
    for (const part of parts) {
      for (const c of part) {
        b.writeDoubleLE(c[2] ?? 0, at);
        at += 8;
      }
    }
  }
  return b;
}

function header(shapeType: ShapeType, fileBytes: number, box: Bounds | null): Buffer {
  const h = Buffer.alloc(100);
  h.writeInt32BE(9994, 0);
  h.writeInt32BE(fileBytes / 2, 24);
  h.writeInt32LE(1000, 28);
  h.writeInt32LE(shapeType, 32);
  const z = isZ(shapeType);
  const values = box
    ? [box.xmin, box.ymin, box.xmax, box.ymax, z ? box.zmin : 0, z ? box.zmax : 0, 0, 0]
    : [0, 0, 0, 0, 0, 0, 0, 0];
  values.forEach((v, i) => {
    h.writeDoubleLE(v, 36 + i * 8);
  });
  return h;
}

function* shpChunks(features: readonly Feature[], layout: ShapeLayout, sizes: ShapefileSizes): Generator<Buffer> {
  yield header(layout.shapeType, sizes.shp, layout.bounds);
  const chunks = new ChunkBuffer();
  let n = 0;
  for (const f of features) {
    const full = chunks.push(shpRecord(layout.shapeType, ++n, f.geometry));
    if (full) yield full;
  }
  const rest = chunks.flush();
  if (rest) yield rest;
}

function* shxChunks(features: readonly Feature[], layout: ShapeLayout, sizes: ShapefileSizes): Generator<Buffer> {
  yield header(layout.shapeType, sizes.shx, layout.bounds);
  const body = Buffer.alloc(8 * features.length);
  let offset = 100;
  features.forEach((f, i) => {
    const parts = partsOf(f.geometry);
    const points = parts.reduce((s, p) => s + p.length, 0);
    const content = contentBytes(layout.shapeType, parts.length, points);
    body.writeInt32BE(offset / 2, i * 8);
    body.writeInt32BE(content / 2, i * 8 + 4);
    offset += 8 + content;
  });
  yield body;
}

/** A value as DBF field bytes (padded to the field's length). */
function dbfValue(field: DbfField, value: unknown): Buffer {
  const out = Buffer.alloc(field.length, 0x20);
  if (value === null || value === undefined) {
    if (field.type === 'L') out.write('?', 0, 'latin1');
    return out;
  }
  if (field.type === 'L') {
    out.write(value ? 'T' : 'F', 0, 'latin1');
    return out;
  }
  if (field.type === 'N') {
    const v = value as number;
    if (!Number.isFinite(v)) return out;
    let text = v.toFixed(field.decimals);
    if (text.length > field.length) text = v.toPrecision(Math.max(1, field.length - 6));
    out.write(text.padStart(field.length, ' ').slice(0, field.length), 0, 'latin1');
    return out;
  }
  const bytes = Buffer.from(String(value), 'utf8');
  let end = Math.min(bytes.length, field.length);
  // Cut on a character boundary: never leave a partial UTF-8 sequence.
  if (end < bytes.length) while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  bytes.copy(out, 0, 0, end);
  return out;
}

function* dbfChunks(features: readonly Feature[], fields: readonly DbfField[], date: Date): Generator<Buffer> {
  const recordBytes = dbfRecordBytes(fields);
  const h = Buffer.alloc(32 + 32 * fields.length + 1);
  h.writeUInt8(0x03, 0); // dBase III, no memo
  h.writeUInt8(date.getFullYear() - 1900, 1);
  h.writeUInt8(date.getMonth() + 1, 2);
  h.writeUInt8(date.getDate(), 3);
  h.writeUInt32LE(features.length, 4);
  h.writeUInt16LE(h.length, 8);
  h.writeUInt16LE(recordBytes, 10);
  fields.forEach((f, i) => {
    const at = 32 + 32 * i;
    h.write(f.name, at, 10, 'latin1');
    h.write(f.type, at + 11, 1, 'latin1');
    h.writeUInt8(f.length, at + 16);
    h.writeUInt8(f.decimals, at + 17);
  });
  h.writeUInt8(0x0d, h.length - 1);
  yield h;
  const chunks = new ChunkBuffer();
  for (const feature of features) {
    const record = Buffer.alloc(recordBytes, 0x20);
    let at = 1;
    for (const field of fields) {
      dbfValue(field, feature.properties?.[field.property]).copy(record, at);
      at += field.length;
    }
    const full = chunks.push(record);
    if (full) yield full;
  }
  const rest = chunks.flush();
  if (rest) yield rest;
  yield Buffer.from([0x1a]);
}

/**
 * `.prj` text of a CRS: the OGC WKT 1 of its EPSG code (or the CRS's own WKT
 * when it has no code), without TOWGS84 and EXTENSION nodes, which ESRI
 * `.prj` files never hold and which make GDAL read a bound CRS instead of the
 * EPSG code. Null when the CRS has no WKT.
 */
export function prjText(crs: CrsInfo): string | null {
  let wkt: string | null = null;
  if (crs.epsg !== null) {
    try {
      wkt = crsFromEpsg(crs.epsg).wkt;
    } catch {
      wkt = null;
    }
  }
  wkt ??= crs.wkt;
  if (!wkt) return null;
  return wkt
    .replace(/,\s*TOWGS84\[[^\]]*\]/gi, '')
    .replace(/,\s*EXTENSION\[[^\]]*\]/gi, '')
    .trim();
}

/** Layer name from a zip path: `out/contours.shp.zip` → `contours`. */
export function layerNameOf(zipPath: string): string {
  const base = zipPath.split(/[\\/]/).pop() ?? 'layer';
  return base.replace(/\.zip$/i, '').replace(/\.shp$/i, '') || 'layer';
}

/** Suffixes of the layers of a zip holding several geometry types. */
const TYPE_SUFFIX: Record<Geometry['type'], string> = { Point: 'points', LineString: 'lines', Polygon: 'polygons' };

/**
 * Writes features in the given CRS as a zipped ESRI Shapefile layer
 * (`.shp/.shx/.dbf/.prj/.cpg`). A Shapefile holds one geometry type: features
 * of several types (a power line's conductors and towers) become one layer per
 * type in the same zip (`<name>_lines`, `<name>_points`, `<name>_polygons`).
 * Sizes are checked before anything is written (2 GB limit of the format).
 *
 * @example
 * await writeShapefile('contours.zip', features, crsFromEpsg(2154));
 */
export async function writeShapefile(
  zipPath: string,
  features: Iterable<Feature>,
  crs: CrsInfo | null,
  options: ShapefileWriteOptions = {},
): Promise<ShapefileArtifact> {
  const list = Array.isArray(features) ? (features as Feature[]) : [...features];
  const groups = new Map<Geometry['type'], Feature[]>();
  for (const f of list) {
    const group = groups.get(f.geometry.type);
    if (group) group.push(f);
    else groups.set(f.geometry.type, [f]);
  }
  const baseName = (options.layerName ?? layerNameOf(zipPath)).replace(/[\\/:*?"<>|]/g, '_');
  const layers =
    groups.size <= 1
      ? [{ name: baseName, features: list }]
      : [...groups].map(([type, group]) => ({ name: `${baseName}_${TYPE_SUFFIX[type]}`, features: group }));
  const planned = layers.map((layer) => {
    const layout = shapeLayout(layer.features, options.geometryType);
    const fields = dbfFields(layer.features);
    const sizes = shapefileSizes(layout, fields);
    checkShapefileSizes(sizes);
    if (fields.length > 255)
      throw new InvalidInput('shapefile', `too many attributes for a DBF (${fields.length} > 255)`);
    if (dbfRecordBytes(fields) > 0xffff) {
      throw new InvalidInput('shapefile', `attribute records too wide for a DBF (${dbfRecordBytes(fields)} bytes)`);
    }
    return { ...layer, layout, fields, sizes };
  });
  const date = options.date ?? new Date();
  const zip = await ZipWriter.create(zipPath, { date });
  try {
    for (const layer of planned) {
      await zip.add(`${layer.name}.shp`, shpChunks(layer.features, layer.layout, layer.sizes));
      await zip.add(`${layer.name}.shx`, shxChunks(layer.features, layer.layout, layer.sizes));
      await zip.add(`${layer.name}.dbf`, dbfChunks(layer.features, layer.fields, date));
      const prj = crs ? prjText(crs) : null;
      if (prj) await zip.add(`${layer.name}.prj`, prj);
      await zip.add(`${layer.name}.cpg`, 'UTF-8');
    }
  } catch (error) {
    await zip.abort();
    throw error;
  }
  const bytes = await zip.close();
  const first = planned[0]!;
  return {
    path: zipPath,
    type: 'shapefile',
    bytes,
    features: list.length,
    layerName: first.name,
    shapeType: first.layout.shapeType,
    fields: first.fields,
    sizes: first.sizes,
    layers: planned.map((l) => ({ layerName: l.name, shapeType: l.layout.shapeType, features: l.features.length })),
  };
}
