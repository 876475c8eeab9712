/**
 * LAS 1.4 writer: point formats 6 (base), 7 (RGB) and 8 (RGB + NIR), every
 * standard attribute and extra bytes kept, header statistics recomputed from
 * the points written, CRS stored as an OGC WKT VLR with the WKT global-encoding
 * bit. Streaming: one chunk in memory at a time, header rewritten at the end.
 */
import { open } from 'node:fs/promises';
import { type Bounds3, DEFAULT_CHUNK_SIZE, type PointChunk } from '../core/chunk.js';
import { Cancelled, InvalidInput } from '../core/errors.js';
import { type CrsInfo, crsFromEpsg } from '../crs/index.js';
import type { ExtraBytesField } from '../readers/las-header.js';

/** What a writer or product produced; the API turns it into an asset. */
export interface ArtifactRecord {
  path: string;
  type: string;
  bytes: number;
  bounds: Bounds3 | null;
  pointCount: number;
}

/** Options of {@link writeLas}. */
export interface LasWriterOptions {
  /** Coordinate scale; default 0.001 (mm in metre CRSs). Pass the input's to round-trip exactly. */
  scale?: [number, number, number];
  /** Coordinate offset; default: the first chunk's minimum rounded down to 1000 units. */
  offset?: [number, number, number];
  /** CRS written as a WKT VLR (nothing written when null). */
  crs?: CrsInfo | null;
  /** Descriptors of `chunk.extra` columns (from the input header); default: every extra column as a double. */
  extraBytes?: ExtraBytesField[];
  /** Output point format; default from the first chunk: 8 with NIR, 7 with RGB, else 6. */
  pointFormat?: 6 | 7 | 8;
  systemId?: string;
  generatingSoftware?: string;
  /** Defaults to today (UTC). */
  creationDay?: number;
  creationYear?: number;
  fileSourceId?: number;
  /** True when GPS times are adjusted standard GPS time (global encoding bit 0). */
  adjustedGpsTime?: boolean;
  signal?: AbortSignal;
}

/** Writer metadata (loaders.gl style). */
export const LAS_WRITER = { id: 'writers.las', name: 'LAS 1.4', extensions: ['las'] } as const;

const BASE_SIZE = { 6: 30, 7: 36, 8: 38 } as const;
const EXTRA_SIZES = [0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8];

export function text(bytes: Uint8Array, at: number, length: number, value: string): void {
  const encoded = new TextEncoder().encode(value).subarray(0, length);
  bytes.set(encoded, at);
}

/** A LAS variable-length record (54-byte header + content). */
export function vlr(userId: string, recordId: number, description: string, content: Uint8Array): Uint8Array {
  if (content.byteLength > 65535)
    throw new InvalidInput(`vlr[${userId}/${recordId}]`, `content of ${content.byteLength} bytes exceeds 65535`);
  const out = new Uint8Array(54 + content.byteLength);
  const dv = new DataView(out.buffer);
  text(out, 2, 16, userId);
  dv.setUint16(18, recordId, true);
  dv.setUint16(20, content.byteLength, true);
  text(out, 22, 32, description);
  out.set(content, 54);
  return out;
}

function extraBytesVlr(fields: ExtraBytesField[]): Uint8Array {
  const out = new Uint8Array(192 * fields.length);
  const dv = new DataView(out.buffer);
  fields.forEach((f, i) => {
    const at = i * 192;
    out[at + 2] = f.dataType;
    out[at + 3] = (f.scale !== 1 ? 8 : 0) | (f.offset !== 0 ? 16 : 0);
    text(out, at + 4, 32, f.name);
    text(out, at + 160, 32, f.description);
    dv.setFloat64(at + 112, f.scale, true);
    dv.setFloat64(at + 136, f.offset, true);
  });
  return out;
}

function writeExtra(dv: DataView, at: number, type: number, value: number): void {
  switch (type) {
    case 1:
      dv.setUint8(at, value);
      break;
    case 2:
      dv.setInt8(at, value);
      break;
    case 3:
      dv.setUint16(at, value, true);
      break;
    case 4:
      dv.setInt16(at, value, true);
      break;
    case 5:
      dv.setUint32(at, value, true);
      break;
    case 6:
      dv.setInt32(at, value, true);
      break;
    case 7:
      dv.setBigUint64(at, BigInt(Math.max(0, Math.round(value))), true);
      break;
    case 8:
      dv.setBigInt64(at, BigInt(Math.round(value)), true);
      break;
    case 9:
      dv.setFloat32(at, value, true);
      break;
    default:
      dv.setFloat64(at, value, true);
  }
}

/**
 * Writes chunks to a LAS 1.4 file and returns its artifact record.
 *
 * @example
 * const reader = await openPointCloud('in.laz');
 * await writeLas('out.las', reader.read(), { crs: reader.crs, scale: reader.header.scale, offset: reader.header.offset, extraBytes: reader.header.extraBytes });
 */
export async function writeLas(
  path: string,
  chunks: AsyncIterable<PointChunk>,
  options: LasWriterOptions = {},
): Promise<ArtifactRecord> {
  const iterator = chunks[Symbol.asyncIterator]();
  let first = await iterator.next();
  while (!first.done && first.value.count === 0) first = await iterator.next();
  const firstChunk = first.done ? null : first.value;
  const format = options.pointFormat ?? (firstChunk?.nir ? 8 : firstChunk?.red ? 7 : 6);
  const scale = options.scale ?? [0.001, 0.001, 0.001];
  for (const s of scale)
    if (!Number.isFinite(s) || s <= 0) throw new InvalidInput('scale', `scale must be finite and positive, got ${s}`);
  let offset = options.offset;
  if (!offset) {
    if (firstChunk) {
      let mx = Infinity;
      let my = Infinity;
      let mz = Infinity;
      for (let i = 0; i < firstChunk.count; i++) {
        mx = Math.min(mx, firstChunk.x[i]!);
        my = Math.min(my, firstChunk.y[i]!);
        mz = Math.min(mz, firstChunk.z[i]!);
      }
      offset = [Math.floor(mx / 1000) * 1000, Math.floor(my / 1000) * 1000, Math.floor(mz / 1000) * 1000];
    } else offset = [0, 0, 0];
  }
  const extraNames = Object.keys(firstChunk?.extra ?? {});
  const extraFields: ExtraBytesField[] = [];
  let extraAt = BASE_SIZE[format];
  for (const name of extraNames) {
    const given = options.extraBytes?.find((f) => f.name === name);
    const dataType = given?.dataType ?? 10;
    extraFields.push({
      name: name.slice(0, 32),
      recordOffset: extraAt,
      dataType,
      size: EXTRA_SIZES[dataType]!,
      scale: given?.scale ?? 1,
      offset: given?.offset ?? 0,
      description: given?.description ?? '',
    });
    extraAt += EXTRA_SIZES[dataType]!;
  }
  const recordLength = extraAt;

  const vlrs: Uint8Array[] = [];
  const wkt = options.crs ? (options.crs.wkt ?? (options.crs.epsg ? crsFromEpsg(options.crs.epsg).wkt : null)) : null;
  if (wkt) vlrs.push(vlr('LASF_Projection', 2112, 'OGC WKT', new TextEncoder().encode(`${wkt}\0`)));
  if (extraFields.length > 0) vlrs.push(vlr('LASF_Spec', 4, 'Extra bytes', extraBytesVlr(extraFields)));
  const vlrBytes = vlrs.reduce((n, v) => n + v.byteLength, 0);
  const pointDataOffset = 375 + vlrBytes;

  const handle = await open(path, 'w');
  let position = pointDataOffset;
  let count = 0;
  const byReturn = new Float64Array(16);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  try {
    let at = 375;
    for (const v of vlrs) {
      await handle.write(v, 0, v.byteLength, at);
      at += v.byteLength;
    }
    let buffer = new Uint8Array(DEFAULT_CHUNK_SIZE * recordLength);
    const encode = (chunk: PointChunk): Uint8Array => {
      const n = chunk.count;
      if (buffer.byteLength < n * recordLength) buffer = new Uint8Array(n * recordLength);
      const out = buffer.subarray(0, n * recordLength);
      out.fill(0);
      const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
      const cols = [chunk.x, chunk.y, chunk.z];
      for (let axis = 0; axis < 3; axis++) {
        const col = cols[axis]!;
        const s = scale[axis]!;
        const o = offset![axis]!;
        let lo = min[axis]!;
        let hi = max[axis]!;
        for (let i = 0, p = axis * 4; i < n; i++, p += recordLength) {
          const raw = Math.round((col[i]! - o) / s);
          if (!(raw >= -2147483648 && raw <= 2147483647)) {
            throw new InvalidInput(
              'xyz'[axis]!,
              `value ${col[i]} does not fit 32 bits with scale ${s} and offset ${o}`,
            );
          }
          dv.setInt32(p, raw, true);
          const v = raw * s + o;
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        min[axis] = lo;
        max[axis] = hi;
      }
      const { intensity, returnNumber, numberOfReturns, classFlags, scannerChannel, scanDirection, edgeOfFlightLine } =
        chunk;
      const { classification, userData, scanAngle, pointSourceId, gpsTime, red, green, blue, nir } = chunk;
      for (let i = 0, p = 0; i < n; i++, p += recordLength) {
        if (intensity) dv.setUint16(p + 12, intensity[i]!, true);
        const r = returnNumber ? returnNumber[i]! & 15 : 1;
        byReturn[r]!++;
        out[p + 14] = r | ((numberOfReturns ? numberOfReturns[i]! & 15 : 1) << 4);
        out[p + 15] =
          (classFlags ? classFlags[i]! & 15 : 0) |
          ((scannerChannel ? scannerChannel[i]! & 3 : 0) << 4) |
          ((scanDirection ? scanDirection[i]! & 1 : 0) << 6) |
          ((edgeOfFlightLine ? edgeOfFlightLine[i]! & 1 : 0) << 7);
        if (classification) out[p + 16] = classification[i]!;
        if (userData) out[p + 17] = userData[i]!;
        if (scanAngle) dv.setInt16(p + 18, Math.max(-30000, Math.min(30000, Math.round(scanAngle[i]! / 0.006))), true);
        if (pointSourceId) dv.setUint16(p + 20, pointSourceId[i]!, true);
        if (gpsTime) dv.setFloat64(p + 22, gpsTime[i]!, true);
      }
      if (format >= 7 && red && green && blue) {
        for (let i = 0, p = 30; i < n; i++, p += recordLength) {
          dv.setUint16(p, red[i]!, true);
          dv.setUint16(p + 2, green[i]!, true);
          dv.setUint16(p + 4, blue[i]!, true);
        }
      }
      if (format === 8 && nir) for (let i = 0, p = 36; i < n; i++, p += recordLength) dv.setUint16(p, nir[i]!, true);
      for (const field of extraFields) {
        const column = chunk.extra?.[field.name];
        if (!column) continue;
        const integer = field.dataType <= 8;
        for (let i = 0, p = field.recordOffset; i < n; i++, p += recordLength) {
          const raw = (column[i]! - field.offset) / field.scale;
          writeExtra(dv, p, field.dataType, integer ? Math.round(raw) : raw);
        }
      }
      return out;
    };
    const writeChunk = async (chunk: PointChunk) => {
      if (options.signal?.aborted) throw new Cancelled();
      if (chunk.count === 0) return;
      const bytes = encode(chunk);
      await handle.write(bytes, 0, bytes.byteLength, position);
      position += bytes.byteLength;
      count += chunk.count;
    };
    if (firstChunk) {
      await writeChunk(firstChunk);
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) await writeChunk(next.value);
    }

    const header = las14Header({
      ...options,
      wkt: Boolean(wkt),
      pointDataOffset,
      vlrCount: vlrs.length,
      formatByte: format,
      recordLength,
      count,
      byReturn,
      scale,
      offset,
      min,
      max,
    });
    await handle.write(header, 0, 375, 0);
  } finally {
    await handle.close();
  }
  return {
    path,
    type: 'point-cloud/las',
    bytes: position,
    bounds:
      count > 0 ? { minX: min[0]!, minY: min[1]!, minZ: min[2]!, maxX: max[0]!, maxY: max[1]!, maxZ: max[2]! } : null,
    pointCount: count,
  };
}

/** What {@link las14Header} writes into a LAS 1.4 public header block. */
export interface Las14HeaderFields {
  fileSourceId?: number;
  wkt: boolean;
  adjustedGpsTime?: boolean;
  systemId?: string;
  generatingSoftware?: string;
  creationDay?: number;
  creationYear?: number;
  pointDataOffset: number;
  vlrCount: number;
  /** Byte 104: the point format, with bit 7 set for LAZ. */
  formatByte: number;
  recordLength: number;
  count: number;
  /** Points by return number, index 1..15. */
  byReturn: ArrayLike<number>;
  scale: readonly number[];
  offset: readonly number[];
  min: readonly number[];
  max: readonly number[];
}

/**
 * The 375-byte LAS 1.4 header (R15) of the LAS and LAZ writers. Legacy counts
 * are written for point formats 0-5 that fit 32 bits, left 0 for formats 6-10.
 */
export function las14Header(f: Las14HeaderFields): Uint8Array {
  const now = new Date();
  const header = new Uint8Array(375);
  const dv = new DataView(header.buffer);
  text(header, 0, 4, 'LASF');
  dv.setUint16(4, f.fileSourceId ?? 0, true);
  dv.setUint16(6, (f.wkt ? 16 : 0) | (f.adjustedGpsTime ? 1 : 0), true);
  header[24] = 1;
  header[25] = 4;
  text(header, 26, 32, f.systemId ?? 'Nuage');
  text(header, 58, 32, f.generatingSoftware ?? 'Nuage engine');
  const startOfYear = Date.UTC(now.getUTCFullYear(), 0, 1);
  dv.setUint16(90, f.creationDay ?? Math.floor((now.getTime() - startOfYear) / 86_400_000) + 1, true);
  dv.setUint16(92, f.creationYear ?? now.getUTCFullYear(), true);
  dv.setUint16(94, 375, true);
  dv.setUint32(96, f.pointDataOffset, true);
  dv.setUint32(100, f.vlrCount, true);
  header[104] = f.formatByte;
  dv.setUint16(105, f.recordLength, true);
  if ((f.formatByte & 0x3f) <= 5 && f.count <= 0xffffffff) {
    dv.setUint32(107, f.count, true);
    for (let k = 1; k <= 5; k++) dv.setUint32(111 + 4 * (k - 1), f.byReturn[k]!, true);
  }
  for (let axis = 0; axis < 3; axis++) {
    dv.setFloat64(131 + 8 * axis, f.scale[axis]!, true);
    dv.setFloat64(155 + 8 * axis, f.offset[axis]!, true);
    dv.setFloat64(179 + 16 * axis, f.count > 0 ? f.max[axis]! : 0, true);
    dv.setFloat64(187 + 16 * axis, f.count > 0 ? f.min[axis]! : 0, true);
  }
  dv.setBigUint64(247, BigInt(f.count), true);
  for (let r = 1; r <= 15; r++) dv.setBigUint64(255 + 8 * (r - 1), BigInt(f.byReturn[r]!), true);
  return header;
}
