import { ArithmeticDecoder } from './arithmetic-decoder.js';
import { ByteDecoder } from './byte-v2.js';
import { GpsTime11Decoder } from './gpstime11-v2.js';
import { Point10Decoder } from './point10-v2.js';
import { Rgb12Decoder } from './rgb12-v2.js';

/** LASzip item types (laszip encoded/22204 VLR). */
export const LASZIP_ITEM = { BYTE: 0, POINT10: 6, GPSTIME11: 7, RGB12: 8 } as const;

/** One item of the LASzip VLR: what a part of the point record is and how it is coded. */
export interface LaszipItem {
  type: number;
  size: number;
  version: number;
}

/**
 * Bytes read past the end of a chunk that still count as whole: the decoder
 * reads a few bytes ahead of the last symbol (4 at most for LASzip's encoder).
 */
const OVERRUN_SLACK = 32;

/** Size of the standard part of point formats 0-3. */
function baseRecordLength(pointFormat: number): number {
  return [20, 28, 26, 34][pointFormat] ?? -1;
}

/**
 * The LASzip items a point-wise chunked (compressor 2) LAZ file of this point
 * format and record length has, when written by LASzip 2+ (every item version
 * 2). Null when the format is not one this decoder handles (0-3).
 */
export function expectedItems(pointFormat: number, recordLength: number): LaszipItem[] | null {
  const base = baseRecordLength(pointFormat);
  if (base < 0 || recordLength < base) return null;
  const items: LaszipItem[] = [{ type: LASZIP_ITEM.POINT10, size: 20, version: 2 }];
  if (pointFormat === 1 || pointFormat === 3) items.push({ type: LASZIP_ITEM.GPSTIME11, size: 8, version: 2 });
  if (pointFormat === 2 || pointFormat === 3) items.push({ type: LASZIP_ITEM.RGB12, size: 6, version: 2 });
  if (recordLength > base) items.push({ type: LASZIP_ITEM.BYTE, size: recordLength - base, version: 2 });
  return items;
}

/** Whether this decoder reads point format `pointFormat` with records of `recordLength` bytes. */
export function supportsPointFormat(pointFormat: number, recordLength: number): boolean {
  return expectedItems(pointFormat, recordLength) !== null;
}

/**
 * Whether this decoder reads chunks described by these LASzip VLR items:
 * POINT10, then optionally GPSTIME11, RGB12 and BYTE, all version 2.
 *
 * @example
 * supports(parseLaszipItems(vlrData)) // true for a LAS 1.2 point format 1 file written by LASzip 2+
 */
export function supports(items: readonly LaszipItem[]): boolean {
  if (items.length === 0 || items[0]!.type !== LASZIP_ITEM.POINT10) return false;
  const hasGps = items.some((i) => i.type === LASZIP_ITEM.GPSTIME11);
  const hasRgb = items.some((i) => i.type === LASZIP_ITEM.RGB12);
  const format = (hasGps ? 1 : 0) + (hasRgb ? 2 : 0);
  const length = items.reduce((sum, i) => sum + i.size, 0);
  const expected = expectedItems(format, length);
  return (
    expected !== null &&
    expected.length === items.length &&
    expected.every((e, i) => e.type === items[i]!.type && e.size === items[i]!.size && e.version === items[i]!.version)
  );
}

/**
 * Reads the item list of a LASzip VLR (laszip encoded/22204): 34 fixed bytes,
 * then 6 bytes per item. Throws an Error when the record is too short.
 */
export function parseLaszipItems(vlr: Uint8Array): LaszipItem[] {
  if (vlr.byteLength < 34) throw new Error(`LASzip VLR has ${vlr.byteLength} bytes, less than 34`);
  const view = new DataView(vlr.buffer, vlr.byteOffset, vlr.byteLength);
  const count = view.getUint16(32, true);
  if (34 + count * 6 > vlr.byteLength) throw new Error(`LASzip VLR lists ${count} items but has room for fewer`);
  const items: LaszipItem[] = [];
  for (let i = 0; i < count; i++) {
    const at = 34 + i * 6;
    items.push({
      type: view.getUint16(at, true),
      size: view.getUint16(at + 2, true),
      version: view.getUint16(at + 4, true),
    });
  }
  return items;
}

/**
 * Decodes the chunks of one point format and record length. A chunk stores
 * its first point raw, then every item's arithmetic-coded stream interleaved
 * point by point. One instance decodes one chunk at a time; `open` resets it.
 */
export class LazChunkDecoder {
  readonly recordLength: number;
  private readonly dec = new ArithmeticDecoder();
  private readonly point10: Point10Decoder;
  private readonly gpsTime: GpsTime11Decoder | null;
  private readonly rgb: Rgb12Decoder | null;
  private readonly extra: ByteDecoder | null;
  private readonly gpsAt: number;
  private readonly rgbAt: number;
  private readonly extraAt: number;
  /** Arena size once the fixed models exist; the lazy ones of a chunk come after. */
  private readonly fixedModels: number;
  private compressed: Uint8Array = new Uint8Array(0);
  /** Points decoded from the open chunk, the raw first one included. */
  private decoded = 0;

  constructor(pointFormat: number, recordLength: number) {
    const base = baseRecordLength(pointFormat);
    if (base < 0) throw new Error(`point format ${pointFormat} is not supported by the TypeScript LAZ decoder`);
    if (recordLength < base)
      throw new Error(`record length ${recordLength} is shorter than point format ${pointFormat} (${base} bytes)`);
    this.recordLength = recordLength;
    const hasGps = pointFormat === 1 || pointFormat === 3;
    const hasRgb = pointFormat === 2 || pointFormat === 3;
    this.point10 = new Point10Decoder(this.dec);
    this.gpsTime = hasGps ? new GpsTime11Decoder(this.dec) : null;
    this.gpsAt = 20;
    this.rgb = hasRgb ? new Rgb12Decoder(this.dec) : null;
    this.rgbAt = hasGps ? 28 : 20;
    this.extra = recordLength > base ? new ByteDecoder(this.dec, recordLength - base) : null;
    this.extraAt = base;
    this.fixedModels = this.dec.mark();
  }

  /** Starts decoding a compressed chunk (kept by reference until the next `open`). */
  open(compressed: Uint8Array): void {
    if (compressed.byteLength < this.recordLength)
      throw new Error(`compressed chunk of ${compressed.byteLength} bytes is shorter than one point record`);
    this.compressed = compressed;
    this.decoded = 0;
  }

  /** The per-point loop, kept apart so that its optimised code never meets a branch it has not seen. */
  private decodePoints(out: Uint8Array, at: number, n: number): void {
    const length = this.recordLength;
    const point10 = this.point10;
    const gpsTime = this.gpsTime;
    const rgb = this.rgb;
    const extra = this.extra;
    const gpsAt = this.gpsAt;
    const rgbAt = this.rgbAt;
    const extraAt = this.extraAt;
    for (let i = 0, p = at; i < n; i++, p += length) {
      point10.read(out, p);
      if (gpsTime !== null) gpsTime.read(out, p + gpsAt);
      if (rgb !== null) rgb.read(out, p + rgbAt);
      if (extra !== null) extra.read(out, p + extraAt);
    }
  }

  /**
   * Decodes the next `n` points of the open chunk into `out` from byte `at`.
   * Throws an Error when the chunk's bytes run out (truncated or corrupt).
   */
  read(out: Uint8Array, at: number, n: number): void {
    const length = this.recordLength;
    if (n <= 0) return;
    if (at < 0 || at + n * length > out.byteLength)
      throw new Error(`output buffer of ${out.byteLength} bytes cannot hold ${n} records from byte ${at}`);
    let p = at;
    let i = 0;
    if (this.decoded === 0) {
      const first = this.compressed.subarray(0, length);
      out.set(first, p);
      this.dec.release(this.fixedModels);
      this.point10.init(first, 0);
      this.gpsTime?.init(first, this.gpsAt);
      this.rgb?.init(first, this.rgbAt);
      this.extra?.init(first, this.extraAt);
      this.dec.init(this.compressed, length, this.compressed.byteLength);
      p += length;
      i = 1;
    }
    this.decodePoints(out, p, n - i);
    this.decoded += n;
    const overrun = this.dec.overrun;
    if (overrun > OVERRUN_SLACK)
      throw new Error(
        `compressed chunk of ${this.compressed.byteLength} bytes ends early: decoding ${this.decoded} points needed ${overrun} more bytes (truncated or corrupt)`,
      );
  }
}

const cache = new Map<number, LazChunkDecoder>();

/**
 * Decodes `pointCount` points of one compressed LAZ chunk (point-wise
 * compressor, point formats 0-3) into raw LAS point records, byte for byte
 * what LASzip and laz-perf's ChunkDecoder produce. Writes into `out` when
 * given (at least pointCount * recordLength bytes), else into a new array.
 * Corrupt or truncated input throws an Error; it never hangs.
 *
 * @example
 * const records = decodeChunk(bytes.subarray(chunk.offset - base, chunk.offset - base + chunk.byteLength), 1, 28, chunk.pointCount);
 */
export function decodeChunk(
  compressed: Uint8Array,
  pointFormat: number,
  recordLength: number,
  pointCount: number,
  out?: Uint8Array,
): Uint8Array {
  const bytes = pointCount * recordLength;
  const target = out ?? new Uint8Array(bytes);
  if (target.byteLength < bytes)
    throw new Error(`output buffer of ${target.byteLength} bytes cannot hold ${pointCount} records`);
  if (pointCount === 0) return target;
  const key = pointFormat * 65536 + recordLength;
  let decoder = cache.get(key);
  if (decoder === undefined) {
    decoder = new LazChunkDecoder(pointFormat, recordLength);
    if (cache.size > 16) cache.clear();
    cache.set(key, decoder);
  }
  decoder.open(compressed);
  decoder.read(target, 0, pointCount);
  return target;
}

/** An open compressed chunk decoded n records at a time. */
export interface ChunkStream {
  /** The next n raw records, in a new array. */
  read(n: number): Uint8Array;
}

/** Opens a compressed chunk for incremental decoding (see decodeChunk). */
export function openChunk(compressed: Uint8Array, pointFormat: number, recordLength: number): ChunkStream {
  const decoder = new LazChunkDecoder(pointFormat, recordLength);
  decoder.open(compressed);
  return {
    read(n: number): Uint8Array {
      const out = new Uint8Array(n * recordLength);
      decoder.read(out, 0, n);
      return out;
    },
  };
}
