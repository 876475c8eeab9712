import type { PointChunk } from '../core/chunk.js';
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
 * Decodes `count` consecutive point records into a columnar chunk, one
 * DataView over the whole buffer and one tight loop per column group (no
 * per-point objects). Coordinates are scaled and offset.
 */
export function decodeRecords(bytes: Uint8Array, count: number, layout: RecordLayout, reuse?: ArrayBuffer): PointChunk {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = layout.recordLength;
  const [sx, sy, sz] = layout.scale;
  const [ox, oy, oz] = layout.offset;
  const extended = layout.layout.extended;
  const { gpsTime: gpsAt, rgb: rgbAt, nir: nirAt } = layout.layout;
  // One allocation carved into every fixed column (8-byte columns first, so
  // each view is aligned): allocating and zeroing sixteen buffers per chunk
  // cost about as much as decoding them. `reuse` (a streaming reader's
  // recycled memory) saves even that one.
  const needed = columnBytes(count, layout);
  const memory = reuse && reuse.byteLength >= needed ? reuse : new ArrayBuffer(needed);
  let at = 0;
  const take = <T>(make: (buffer: ArrayBuffer, offset: number, length: number) => T, bytesPer: number): T => {
    const view = make(memory, at, count);
    at += bytesPer * count;
    return view;
  };
  const x = take((b, o, n) => new Float64Array(b, o, n), 8);
  const y = take((b, o, n) => new Float64Array(b, o, n), 8);
  const z = take((b, o, n) => new Float64Array(b, o, n), 8);
  const gpsTime = gpsAt >= 0 ? take((b, o, n) => new Float64Array(b, o, n), 8) : undefined;
  const scanAngle = take((b, o, n) => new Float32Array(b, o, n), 4);
  const intensity = take((b, o, n) => new Uint16Array(b, o, n), 2);
  const pointSourceId = take((b, o, n) => new Uint16Array(b, o, n), 2);
  const red = rgbAt >= 0 ? take((b, o, n) => new Uint16Array(b, o, n), 2) : undefined;
  const green = rgbAt >= 0 ? take((b, o, n) => new Uint16Array(b, o, n), 2) : undefined;
  const blue = rgbAt >= 0 ? take((b, o, n) => new Uint16Array(b, o, n), 2) : undefined;
  const nir = nirAt >= 0 ? take((b, o, n) => new Uint16Array(b, o, n), 2) : undefined;
  const returnNumber = take((b, o, n) => new Uint8Array(b, o, n), 1);
  const numberOfReturns = take((b, o, n) => new Uint8Array(b, o, n), 1);
  const classification = take((b, o, n) => new Uint8Array(b, o, n), 1);
  const classFlags = take((b, o, n) => new Uint8Array(b, o, n), 1);
  const scanDirection = take((b, o, n) => new Uint8Array(b, o, n), 1);
  const edgeOfFlightLine = take((b, o, n) => new Uint8Array(b, o, n), 1);
  const userData = take((b, o, n) => new Uint8Array(b, o, n), 1);
  const chunk: PointChunk = {
    count,
    x,
    y,
    z,
    intensity,
    returnNumber,
    numberOfReturns,
    classification,
    classFlags,
    scanDirection,
    edgeOfFlightLine,
    scanAngle,
    userData,
    pointSourceId,
  };
  // One pass over the records for every fixed field: each record is touched once.
  if (extended) {
    const scannerChannel = take((b, o, n) => new Uint8Array(b, o, n), 1);
    chunk.scannerChannel = scannerChannel;
    for (let i = 0, p = 0; i < count; i++, p += len) {
      x[i] = view.getInt32(p, true) * sx + ox;
      y[i] = view.getInt32(p + 4, true) * sy + oy;
      z[i] = view.getInt32(p + 8, true) * sz + oz;
      intensity[i] = view.getUint16(p + 12, true);
      const r = bytes[p + 14]!;
      const f = bytes[p + 15]!;
      returnNumber[i] = r & 15;
      numberOfReturns[i] = r >> 4;
      classFlags[i] = f & 15;
      scannerChannel[i] = (f >> 4) & 3;
      scanDirection[i] = (f >> 6) & 1;
      edgeOfFlightLine[i] = f >> 7;
      classification[i] = bytes[p + 16]!;
      userData[i] = bytes[p + 17]!;
      scanAngle[i] = view.getInt16(p + 18, true) * 0.006;
      pointSourceId[i] = view.getUint16(p + 20, true);
    }
  } else {
    for (let i = 0, p = 0; i < count; i++, p += len) {
      x[i] = view.getInt32(p, true) * sx + ox;
      y[i] = view.getInt32(p + 4, true) * sy + oy;
      z[i] = view.getInt32(p + 8, true) * sz + oz;
      intensity[i] = view.getUint16(p + 12, true);
      const r = bytes[p + 14]!;
      const c = bytes[p + 15]!;
      returnNumber[i] = r & 7;
      numberOfReturns[i] = (r >> 3) & 7;
      scanDirection[i] = (r >> 6) & 1;
      edgeOfFlightLine[i] = r >> 7;
      classification[i] = c & 31;
      classFlags[i] = c >> 5;
      scanAngle[i] = view.getInt8(p + 16);
      userData[i] = bytes[p + 17]!;
      pointSourceId[i] = view.getUint16(p + 18, true);
    }
  }
  if (gpsTime) {
    for (let i = 0, p = gpsAt; i < count; i++, p += len) gpsTime[i] = view.getFloat64(p, true);
    chunk.gpsTime = gpsTime;
  }
  if (red && green && blue) {
    for (let i = 0, p = rgbAt; i < count; i++, p += len) {
      red[i] = view.getUint16(p, true);
      green[i] = view.getUint16(p + 2, true);
      blue[i] = view.getUint16(p + 4, true);
    }
    chunk.red = red;
    chunk.green = green;
    chunk.blue = blue;
  }
  if (nir) {
    for (let i = 0, p = nirAt; i < count; i++, p += len) nir[i] = view.getUint16(p, true);
    chunk.nir = nir;
  }
  if (layout.extraBytes.length > 0) {
    const extra: Record<string, Float64Array> = {};
    for (const field of layout.extraBytes) {
      const values = new Float64Array(count);
      const { scale, offset } = field;
      for (let i = 0, p = field.recordOffset; i < count; i++, p += len)
        values[i] = readExtra(view, p, field) * scale + offset;
      extra[field.name] = values;
    }
    chunk.extra = extra;
  }
  return chunk;
}

/** Bytes of the fixed columns {@link decodeRecords} carves for `count` points of this layout. */
export function columnBytes(count: number, layout: RecordLayout): number {
  const { extended, gpsTime, rgb, nir } = layout.layout;
  const eightByte = 3 + (gpsTime >= 0 ? 1 : 0);
  const twoByte = 2 + (rgb >= 0 ? 3 : 0) + (nir >= 0 ? 1 : 0);
  return count * (8 * eightByte + 4 + 2 * twoByte + 7 + (extended ? 1 : 0));
}

const COLUMN_KEYS = [
  'x',
  'y',
  'z',
  'intensity',
  'returnNumber',
  'numberOfReturns',
  'classification',
  'classFlags',
  'scannerChannel',
  'scanDirection',
  'edgeOfFlightLine',
  'scanAngle',
  'userData',
  'pointSourceId',
  'gpsTime',
  'red',
  'green',
  'blue',
  'nir',
] as const;

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
