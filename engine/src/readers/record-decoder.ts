import type { PointChunk } from '../core/chunk.js';
import { DIMENSIONS, type DimensionName } from '../core/dimensions.js';
import type { ExtraBytesField, LasHeader } from './las-header.js';

/** The header fields needed to turn raw point records into columns. */
export type RecordLayout = Pick<
  LasHeader,
  'pointFormat' | 'recordLength' | 'scale' | 'offset' | 'extraBytes' | 'layout'
>;

function readExtra(view: DataView, at: number, field: ExtraBytesField): number {
  switch (field.dataType) {
    case 1:
      return view.getUint8(at);
    case 2:
      return view.getInt8(at);
    case 3:
      return view.getUint16(at, true);
    case 4:
      return view.getInt16(at, true);
    case 5:
      return view.getUint32(at, true);
    case 6:
      return view.getInt32(at, true);
    case 7:
      return Number(view.getBigUint64(at, true));
    case 8:
      return Number(view.getBigInt64(at, true));
    case 9:
      return view.getFloat32(at, true);
    default:
      return view.getFloat64(at, true);
  }
}

/**
 * Where {@link decodeRecords} may put the columns instead of allocating: a
 * whole buffer, or a region of one (8-byte aligned byteOffset), shared or not.
 */
export type ColumnMemory = ArrayBufferLike | Uint8Array;

/**
 * Views of every fixed column of `count` points of this layout, carved one
 * after the other out of `buffer` from `byteOffset` (8-aligned), each column
 * `capacity` values long (default `count`; the views hold `count`): 8-byte
 * columns first, so each view is aligned. Extra bytes are not included.
 * A decoder that wrote the columns there (record-decoder-wasm.ts) and its
 * caller carve the same views.
 */
export function carveColumns(
  buffer: ArrayBufferLike,
  byteOffset: number,
  count: number,
  layout: RecordLayout,
  capacity = count,
): PointChunk {
  const { extended, gpsTime: gpsAt, rgb: rgbAt, nir: nirAt } = layout.layout;
  let at = byteOffset;
  const take = <T>(make: (buffer: ArrayBufferLike, offset: number, length: number) => T, bytesPer: number): T => {
    const view = make(buffer, at, count);
    at += bytesPer * capacity;
    return view;
  };
  const f64 = (b: ArrayBufferLike, o: number, n: number) => new Float64Array(b, o, n);
  const u16 = (b: ArrayBufferLike, o: number, n: number) => new Uint16Array(b, o, n) as Uint16Array<ArrayBuffer>;
  const u8 = (b: ArrayBufferLike, o: number, n: number) => new Uint8Array(b, o, n) as Uint8Array<ArrayBuffer>;
  const x = take(f64, 8);
  const y = take(f64, 8);
  const z = take(f64, 8);
  const gpsTime = gpsAt >= 0 ? (take(f64, 8) as Float64Array<ArrayBuffer>) : undefined;
  const scanAngle = take((b, o, n) => new Float32Array(b, o, n) as Float32Array<ArrayBuffer>, 4);
  const intensity = take(u16, 2);
  const pointSourceId = take(u16, 2);
  const red = rgbAt >= 0 ? take(u16, 2) : undefined;
  const green = rgbAt >= 0 ? take(u16, 2) : undefined;
  const blue = rgbAt >= 0 ? take(u16, 2) : undefined;
  const nir = nirAt >= 0 ? take(u16, 2) : undefined;
  // The property order chunks have always had: one object shape for consumers.
  const chunk: PointChunk = {
    count,
    x,
    y,
    z,
    intensity,
    returnNumber: take(u8, 1),
    numberOfReturns: take(u8, 1),
    classification: take(u8, 1),
    classFlags: take(u8, 1),
    scanDirection: take(u8, 1),
    edgeOfFlightLine: take(u8, 1),
    scanAngle,
    userData: take(u8, 1),
    pointSourceId,
  };
  if (extended) chunk.scannerChannel = take(u8, 1);
  if (gpsTime) chunk.gpsTime = gpsTime;
  if (red && green && blue) {
    chunk.red = red;
    chunk.green = green;
    chunk.blue = blue;
  }
  if (nir) chunk.nir = nir;
  return chunk;
}

/**
 * Decodes `count` consecutive point records into a columnar chunk, one
 * DataView over the whole buffer and one pass over the records (no
 * per-point objects). Coordinates are scaled and offset. The fixed columns
 * share one allocation, or `reuse` when it is large enough. (The LAS reader
 * uses its WebAssembly twin, record-decoder-wasm.ts, which gives the same
 * values.)
 */
export function decodeRecords(
  bytes: Uint8Array,
  count: number,
  layout: RecordLayout,
  reuse?: ColumnMemory,
): PointChunk {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = layout.recordLength;
  const [sx, sy, sz] = layout.scale;
  const [ox, oy, oz] = layout.offset;
  const extended = layout.layout.extended;
  const { gpsTime: gpsAt, rgb: rgbAt, nir: nirAt } = layout.layout;
  // One allocation carved into every fixed column: allocating and zeroing
  // sixteen buffers per chunk cost about as much as decoding them. `reuse`
  // (a streaming reader's recycled memory) saves even that one.
  const needed = columnBytes(count, layout);
  let buffer: ArrayBufferLike;
  let base = 0;
  if (reuse instanceof Uint8Array && reuse.byteLength >= needed) {
    buffer = reuse.buffer;
    base = reuse.byteOffset;
  } else if (reuse && !(reuse instanceof Uint8Array) && reuse.byteLength >= needed) {
    buffer = reuse;
  } else {
    buffer = new ArrayBuffer(needed);
  }
  const chunk = carveColumns(buffer, base, count, layout);
  const { red, green, blue, nir } = chunk;
  // The loop writes through one view per element type, over consecutive
  // columns (x, y, z, GPS time; intensity, point source; the byte columns)
  // rather than one view per column: V8 re-checks every typed array it
  // stores to on every iteration, so fewer arrays is fewer checks.
  const n = count;
  const eights = gpsAt >= 0 ? 4 : 3;
  const f64 = new Float64Array(buffer, base, eights * n);
  const f32 = new Float32Array(buffer, base + eights * 8 * n, n);
  const u16 = new Uint16Array(buffer, base + (eights * 8 + 4) * n, 2 * n);
  const u8 = chunk.returnNumber!;
  const bytesOut = new Uint8Array(u8.buffer, u8.byteOffset, (extended ? 8 : 7) * n);
  // Byte columns, in carving order: return number, number of returns,
  // classification, class flags, scan direction, edge of flight line, user
  // data, scanner channel.
  if (extended) {
    // Formats 6-10 all carry GPS time.
    for (let i = 0, p = 0; i < n; i++, p += len) {
      f64[i] = view.getInt32(p, true) * sx + ox;
      f64[i + n] = view.getInt32(p + 4, true) * sy + oy;
      f64[i + 2 * n] = view.getInt32(p + 8, true) * sz + oz;
      f64[i + 3 * n] = view.getFloat64(p + gpsAt, true);
      // Bytes 14-17 and 18-21 as two words: fewer loads than a byte each.
      const w = view.getInt32(p + 14, true);
      const a = view.getInt32(p + 18, true);
      f32[i] = ((a << 16) >> 16) * 0.006;
      u16[i] = view.getUint16(p + 12, true);
      u16[i + n] = a >>> 16;
      bytesOut[i] = w & 15;
      bytesOut[i + n] = (w >> 4) & 15;
      bytesOut[i + 2 * n] = (w >> 16) & 255;
      bytesOut[i + 3 * n] = (w >> 8) & 15;
      bytesOut[i + 4 * n] = (w >> 14) & 1;
      bytesOut[i + 5 * n] = (w >> 15) & 1;
      bytesOut[i + 6 * n] = w >>> 24;
      bytesOut[i + 7 * n] = (w >> 12) & 3;
    }
  } else {
    const gps = gpsAt >= 0;
    for (let i = 0, p = 0; i < n; i++, p += len) {
      f64[i] = view.getInt32(p, true) * sx + ox;
      f64[i + n] = view.getInt32(p + 4, true) * sy + oy;
      f64[i + 2 * n] = view.getInt32(p + 8, true) * sz + oz;
      if (gps) f64[i + 3 * n] = view.getFloat64(p + gpsAt, true);
      // Bytes 14-17 as one word (returns, class, scan angle, user data).
      const w = view.getInt32(p + 14, true);
      f32[i] = (w << 8) >> 24;
      u16[i] = view.getUint16(p + 12, true);
      u16[i + n] = view.getUint16(p + 18, true);
      bytesOut[i] = w & 7;
      bytesOut[i + n] = (w >> 3) & 7;
      bytesOut[i + 2 * n] = (w >> 8) & 31;
      bytesOut[i + 3 * n] = (w >> 13) & 7;
      bytesOut[i + 4 * n] = (w >> 6) & 1;
      bytesOut[i + 5 * n] = (w >> 7) & 1;
      bytesOut[i + 6 * n] = w >>> 24;
    }
  }
  if (red && green && blue) {
    for (let i = 0, p = rgbAt; i < count; i++, p += len) {
      red[i] = view.getUint16(p, true);
      green[i] = view.getUint16(p + 2, true);
      blue[i] = view.getUint16(p + 4, true);
    }
  }
  if (nir) {
    for (let i = 0, p = nirAt; i < count; i++, p += len) nir[i] = view.getUint16(p, true);
  }
  if (layout.extraBytes.length > 0) chunk.extra = decodeExtraBytes(bytes, count, layout);
  return chunk;
}

/** The extra-bytes attributes of `count` records, scaled and offset, each in a new column. */
export function decodeExtraBytes(bytes: Uint8Array, count: number, layout: RecordLayout): Record<string, Float64Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = layout.recordLength;
  const extra: Record<string, Float64Array> = {};
  for (const field of layout.extraBytes) {
    const values = new Float64Array(count);
    const { scale, offset } = field;
    for (let i = 0, p = field.recordOffset; i < count; i++, p += len)
      values[i] = readExtra(view, p, field) * scale + offset;
    extra[field.name] = values;
  }
  return extra;
}

/** Bytes of the fixed columns {@link decodeRecords} carves for `count` points of this layout. */
export function columnBytes(count: number, layout: RecordLayout): number {
  const { extended, gpsTime, rgb, nir } = layout.layout;
  const eightByte = 3 + (gpsTime >= 0 ? 1 : 0);
  const twoByte = 2 + (rgb >= 0 ? 3 : 0) + (nir >= 0 ? 1 : 0);
  return count * (8 * eightByte + 4 + 2 * twoByte + 7 + (extended ? 1 : 0));
}

const COLUMN_KEYS = Object.keys(DIMENSIONS) as DimensionName[];

/** Keeps the points whose index passes `keep`, compacting every column. */
export function filterChunk(chunk: PointChunk, keep: (i: number) => boolean): PointChunk {
  const index: number[] = [];
  for (let i = 0; i < chunk.count; i++) if (keep(i)) index.push(i);
  if (index.length === chunk.count) return chunk;
  const out: PointChunk = {
    count: index.length,
    x: new Float64Array(0),
    y: new Float64Array(0),
    z: new Float64Array(0),
  };
  const record = out as unknown as Record<string, ArrayLike<number> & { constructor: new (n: number) => unknown }>;
  const source = chunk as unknown as Record<
    string,
    (ArrayLike<number> & { constructor: new (n: number) => unknown }) | undefined
  >;
  for (const key of COLUMN_KEYS) {
    const column = source[key];
    if (!column) continue;
    const copy = new column.constructor(index.length) as { [i: number]: number };
    for (let j = 0; j < index.length; j++) copy[j] = column[index[j]!]!;
    record[key] = copy as never;
  }
  if (chunk.extra) {
    out.extra = {};
    for (const [name, column] of Object.entries(chunk.extra)) {
      const copy = new Float64Array(index.length);
      for (let j = 0; j < index.length; j++) copy[j] = column[index[j]!]!;
      out.extra[name] = copy;
    }
  }
  return out;
}

/** Points `start` to `end` of a chunk as views over its columns (no copy). */
export function sliceChunk(chunk: PointChunk, start: number, end: number): PointChunk {
  if (start === 0 && end === chunk.count) return chunk;
  const out = { count: end - start } as PointChunk;
  const record = out as unknown as Record<string, unknown>;
  const source = chunk as unknown as Record<string, { subarray(a: number, b: number): unknown } | undefined>;
  for (const key of COLUMN_KEYS) {
    const column = source[key];
    if (column) record[key] = column.subarray(start, end);
  }
  if (chunk.extra) {
    out.extra = {};
    for (const [name, column] of Object.entries(chunk.extra)) out.extra[name] = column.subarray(start, end);
  }
  return out;
}
