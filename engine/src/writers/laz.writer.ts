/**
 * LAZ writer for point formats 0-3 (LASzip point-wise chunks, items version 2:
 * POINT10, GPSTIME11, RGB12), in a LAS 1.4 header with the legacy counts
 * filled in. Chunks of 50,000 points are encoded as they fill (one chunk of
 * records in memory), the chunk table written at the end. The encoder is
 * LASzip's (writers/laz-chunk-encoder.ts, checked against laz-perf,
 * the reference decoder); formats 6-10 and extra bytes are not supported:
 * write LAS for those.
 */
import { open } from 'node:fs/promises';
import type { PointChunk } from '../core/chunk.js';
import { Cancelled, InvalidInput } from '../core/errors.js';
import { type CrsInfo, crsFromEpsg } from '../crs/index.js';
import type { LazChunk } from '../readers/laz-chunk-table.js';
import { type ArtifactRecord, las14Header, vlr } from './las.writer.js';
import { encodeChunk } from './laz-chunk-encoder.js';
import { encodeLazChunkTable } from './laz-splice.js';

/** Point formats the LAZ writer encodes. */
export const LAZ_WRITER_FORMATS = [0, 1, 2, 3] as const;
export type LazPointFormat = (typeof LAZ_WRITER_FORMATS)[number];

/** Points per LASzip chunk (LASzip's default). */
export const LAZ_CHUNK_POINTS = 50_000;

export interface LazWriterOptions {
  pointFormat: LazPointFormat;
  scale: [number, number, number];
  offset: [number, number, number];
  crs?: CrsInfo | null;
  systemId?: string;
  generatingSoftware?: string;
  fileSourceId?: number;
  adjustedGpsTime?: boolean;
  signal?: AbortSignal;
}

/** Writer metadata (loaders.gl style). */
export const LAZ_WRITER = { id: 'writers.laz', name: 'LAZ (LAS 1.4, point formats 0-3)', extensions: ['laz'] } as const;

const RECORD_LENGTH = [20, 28, 26, 34] as const;

/** The LASzip VLR (laszip encoded/22204): compressor 2 (point-wise chunked), items version 2. */
function laszipVlr(format: LazPointFormat): Uint8Array {
  const items: Array<[number, number]> = [[6, 20]]; // POINT10
  if (format === 1 || format === 3) items.push([7, 8]); // GPSTIME11
  if (format >= 2) items.push([8, 6]); // RGB12
  const body = new Uint8Array(34 + 6 * items.length);
  const dv = new DataView(body.buffer);
  dv.setUint16(0, 2, true); // compressor: point-wise chunked
  dv.setUint16(2, 0, true); // coder: arithmetic
  body[4] = 2; // LASzip version 2.2.0
  body[5] = 2;
  dv.setUint16(6, 0, true);
  dv.setUint32(8, 0, true); // options
  dv.setUint32(12, LAZ_CHUNK_POINTS, true);
  dv.setBigInt64(16, -1n, true); // special EVLRs: none
  dv.setBigInt64(24, -1n, true);
  dv.setUint16(32, items.length, true);
  items.forEach(([type, size], i) => {
    dv.setUint16(34 + 6 * i, type, true);
    dv.setUint16(36 + 6 * i, size, true);
    dv.setUint16(38 + 6 * i, 2, true);
  });
  return vlr('laszip encoded', 22204, 'by Nuage engine', body);
}

/**
 * Writes chunks to a LAZ file (LAS 1.4 header, point format 0-3) and returns
 * its artifact record. Coordinates are quantised with the given scale and
 * offset; classifications above 31 do not fit formats 0-3 (InvalidInput).
 *
 * @example
 * const reader = await openPointCloud('in.laz');
 * await writeLaz('out.laz', reader.read(), { pointFormat: 1, scale: reader.header.scale, offset: reader.header.offset, crs: reader.crs });
 */
export async function writeLaz(
  path: string,
  chunks: AsyncIterable<PointChunk>,
  options: LazWriterOptions,
): Promise<ArtifactRecord> {
  const format = options.pointFormat;
  const recordLength = RECORD_LENGTH[format];
  if (recordLength === undefined)
    throw new InvalidInput('pointFormat', `LAZ output supports point formats 0-3, got ${format}`);
  const { scale, offset } = options;
  for (const s of scale)
    if (!Number.isFinite(s) || s <= 0) throw new InvalidInput('scale', `scale must be finite and positive, got ${s}`);
  const hasGps = format === 1 || format === 3;
  const rgbAt = format === 2 ? 20 : format === 3 ? 28 : -1;

  const vlrs: Uint8Array[] = [];
  const wkt = options.crs ? (options.crs.wkt ?? (options.crs.epsg ? crsFromEpsg(options.crs.epsg).wkt : null)) : null;
  if (wkt) vlrs.push(vlr('LASF_Projection', 2112, 'OGC WKT', new TextEncoder().encode(`${wkt}\0`)));
  vlrs.push(laszipVlr(format));
  const pointDataOffset = 375 + vlrs.reduce((n, v) => n + v.byteLength, 0);

  const handle = await open(path, 'w');
  const buffer = new Uint8Array(LAZ_CHUNK_POINTS * recordLength);
  const dv = new DataView(buffer.buffer);
  let filled = 0;
  let position = pointDataOffset + 8; // the chunk table pointer comes first
  let count = 0;
  const byReturn = new Float64Array(16);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  const written: LazChunk[] = [];
  const flush = async () => {
    if (filled === 0) return;
    const bytes = encodeChunk(buffer.subarray(0, filled * recordLength), format, recordLength, filled);
    await handle.write(bytes, 0, bytes.byteLength, position);
    written.push({ offset: position, byteLength: bytes.byteLength, pointCount: filled });
    position += bytes.byteLength;
    filled = 0;
  };
  try {
    let at = 375;
    for (const v of vlrs) {
      await handle.write(v, 0, v.byteLength, at);
      at += v.byteLength;
    }
    for await (const chunk of chunks) {
      if (options.signal?.aborted) throw new Cancelled();
      const { x, y, z, intensity, returnNumber, numberOfReturns, scanDirection, edgeOfFlightLine } = chunk;
      const { classification, classFlags, scanAngle, userData, pointSourceId, gpsTime, red, green, blue } = chunk;
      const cols = [x, y, z];
      for (let i = 0; i < chunk.count; i++) {
        const p = filled * recordLength;
        buffer.fill(0, p, p + recordLength);
        for (let axis = 0; axis < 3; axis++) {
          const raw = Math.round((cols[axis]![i]! - offset[axis]!) / scale[axis]!);
          if (!(raw >= -2147483648 && raw <= 2147483647)) {
            throw new InvalidInput(
              'xyz'[axis]!,
              `value ${cols[axis]![i]} does not fit 32 bits with this scale and offset`,
            );
          }
          dv.setInt32(p + 4 * axis, raw, true);
          const v = raw * scale[axis]! + offset[axis]!;
          if (v < min[axis]!) min[axis] = v;
          if (v > max[axis]!) max[axis] = v;
        }
        if (intensity) dv.setUint16(p + 12, intensity[i]!, true);
        const r = returnNumber ? returnNumber[i]! & 7 : 1;
        byReturn[r]!++;
        buffer[p + 14] =
          r |
          ((numberOfReturns ? numberOfReturns[i]! & 7 : 1) << 3) |
          ((scanDirection ? scanDirection[i]! & 1 : 0) << 6) |
          ((edgeOfFlightLine ? edgeOfFlightLine[i]! & 1 : 0) << 7);
        const c = classification ? classification[i]! : 0;
        if (c > 31) throw new InvalidInput('classification', `class ${c} does not fit point format ${format} (0-31)`);
        buffer[p + 15] = c | ((classFlags ? classFlags[i]! & 7 : 0) << 5);
        if (scanAngle) dv.setInt8(p + 16, Math.max(-90, Math.min(90, Math.round(scanAngle[i]!))));
        if (userData) buffer[p + 17] = userData[i]!;
        if (pointSourceId) dv.setUint16(p + 18, pointSourceId[i]!, true);
        if (hasGps && gpsTime) dv.setFloat64(p + 20, gpsTime[i]!, true);
        if (rgbAt >= 0 && red && green && blue) {
          dv.setUint16(p + rgbAt, red[i]!, true);
          dv.setUint16(p + rgbAt + 2, green[i]!, true);
          dv.setUint16(p + rgbAt + 4, blue[i]!, true);
        }
        filled++;
        count++;
        if (filled === LAZ_CHUNK_POINTS) await flush();
      }
    }
    await flush();
    const tableOffset = position;
    const table = encodeLazChunkTable(written, false);
    await handle.write(table, 0, table.byteLength, position);
    position += table.byteLength;
    const pointer = new Uint8Array(8);
    new DataView(pointer.buffer).setBigInt64(0, BigInt(tableOffset), true);
    await handle.write(pointer, 0, 8, pointDataOffset);

    const header = las14Header({
      fileSourceId: options.fileSourceId,
      wkt: Boolean(wkt),
      adjustedGpsTime: options.adjustedGpsTime,
      systemId: options.systemId,
      generatingSoftware: options.generatingSoftware,
      pointDataOffset,
      vlrCount: vlrs.length,
      formatByte: format | 0x80, // compressed
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
    type: 'point-cloud/laz',
    bytes: position,
    bounds:
      count > 0 ? { minX: min[0]!, minY: min[1]!, minZ: min[2]!, maxX: max[0]!, maxY: max[1]!, maxZ: max[2]! } : null,
    pointCount: count,
  };
}
