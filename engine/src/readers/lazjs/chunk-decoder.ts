import { ArithmeticDecoder } from './arithmetic-decoder.js';
import { ByteDecoder } from './byte-v2.js';
import { Byte14Decoder } from './byte14-v3.js';
import { GpsTime11Decoder } from './gpstime11-v2.js';
import { Point10Decoder } from './point10-v2.js';
import { POINT14_LAYERS, Point14Decoder } from './point14-v3.js';
import { Rgb12Decoder } from './rgb12-v2.js';
import { Rgb14Decoder } from './rgb14-v3.js';

/** LASzip item types (laszip encoded/22204 VLR). */
export const LASZIP_ITEM = {
  BYTE: 0,
  POINT10: 6,
  GPSTIME11: 7,
  RGB12: 8,
  POINT14: 10,
  RGB14: 11,
  RGBNIR14: 12,
  BYTE14: 14,
} as const;

/** One item of the LASzip VLR: what a part of the point record is and how it is coded. */
export interface LaszipItem {
  type: number;
  size: number;
  version: number;
}

/**
 * Bytes read past the end of a chunk (or layer) that still count as whole:
 * the decoder reads a few bytes ahead of the last symbol (4 at most for
 * LASzip's encoder).
 */
const OVERRUN_SLACK = 32;

/** Size of the standard part of point formats 0-3 and 6-8 (-1 for the others). */
function baseRecordLength(pointFormat: number): number {
  return [20, 28, 26, 34, -1, -1, 30, 36, 38][pointFormat] ?? -1;
}

/**
 * The LASzip items of a LAZ file of this point format and record length, as
 * LASzip 2+ writes them: formats 0-3 with the point-wise compressor (items
 * version 2), formats 6-8 with the layered one (version 3). Null when the
 * format is not one this decoder handles.
 */
export function expectedItems(pointFormat: number, recordLength: number): LaszipItem[] | null {
  const base = baseRecordLength(pointFormat);
  if (base < 0 || recordLength < base) return null;
  const extra = recordLength - base;
  if (pointFormat >= 6) {
    const items: LaszipItem[] = [{ type: LASZIP_ITEM.POINT14, size: 30, version: 3 }];
    if (pointFormat === 7) items.push({ type: LASZIP_ITEM.RGB14, size: 6, version: 3 });
    if (pointFormat === 8) items.push({ type: LASZIP_ITEM.RGBNIR14, size: 8, version: 3 });
    if (extra > 0) items.push({ type: LASZIP_ITEM.BYTE14, size: extra, version: 3 });
    return items;
  }
  const items: LaszipItem[] = [{ type: LASZIP_ITEM.POINT10, size: 20, version: 2 }];
  if (pointFormat === 1 || pointFormat === 3) items.push({ type: LASZIP_ITEM.GPSTIME11, size: 8, version: 2 });
  if (pointFormat === 2 || pointFormat === 3) items.push({ type: LASZIP_ITEM.RGB12, size: 6, version: 2 });
  if (extra > 0) items.push({ type: LASZIP_ITEM.BYTE, size: extra, version: 2 });
  return items;
}

/** Whether this decoder reads point format `pointFormat` with records of `recordLength` bytes. */
export function supportsPointFormat(pointFormat: number, recordLength: number): boolean {
  return expectedItems(pointFormat, recordLength) !== null;
}

/**
 * Whether this decoder reads chunks described by these LASzip VLR items:
 * POINT10, then optionally GPSTIME11, RGB12 and BYTE, all version 2 (point
 * formats 0-3); or POINT14, then optionally RGB14 or RGBNIR14, and BYTE14,
 * all version 3 (point formats 6-8).
 *
 * @example
 * supports(parseLaszipItems(vlrData)) // true for a LAS 1.2 point format 1 file written by LASzip 2+
 */
export function supports(items: readonly LaszipItem[]): boolean {
  if (items.length === 0) return false;
  const has = (type: number) => items.some((i) => i.type === type);
  let format: number;
  if (items[0]!.type === LASZIP_ITEM.POINT10)
    format = (has(LASZIP_ITEM.GPSTIME11) ? 1 : 0) + (has(LASZIP_ITEM.RGB12) ? 2 : 0);
  else if (items[0]!.type === LASZIP_ITEM.POINT14)
    format = has(LASZIP_ITEM.RGBNIR14) ? 8 : has(LASZIP_ITEM.RGB14) ? 7 : 6;
  else return false;
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

/** Decodes the chunks of one point format and record length, one chunk at a time; `open` starts the next. */
export interface ChunkDecoder {
  readonly recordLength: number;
  /** Starts decoding a compressed chunk (kept by reference until the next `open`). */
  open(compressed: Uint8Array): void;
  /**
   * Decodes the next `n` points of the open chunk into `out` from byte `at`.
   * Throws an Error when the chunk's bytes run out (truncated or corrupt).
   */
  read(out: Uint8Array, at: number, n: number): void;
}

/** A decoder for this point format and record length (formats 0-3 and 6-8); throws an Error for others. */
export function createChunkDecoder(pointFormat: number, recordLength: number): ChunkDecoder {
  return pointFormat >= 6
    ? new LayeredChunkDecoder(pointFormat, recordLength)
    : new PointwiseChunkDecoder(pointFormat, recordLength);
}

function checkOutput(out: Uint8Array, at: number, n: number, recordLength: number): void {
  if (at < 0 || at + n * recordLength > out.byteLength)
    throw new Error(`output buffer of ${out.byteLength} bytes cannot hold ${n} records from byte ${at}`);
}

/**
 * Point formats 0-3 (compressor 2, point-wise): a chunk stores its first point
 * raw, then one arithmetic-coded stream with every item interleaved point by point.
 */
export class PointwiseChunkDecoder implements ChunkDecoder {
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
    const base = pointFormat <= 3 ? baseRecordLength(pointFormat) : -1;
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

  read(out: Uint8Array, at: number, n: number): void {
    const length = this.recordLength;
    if (n <= 0) return;
    checkOutput(out, at, n, length);
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

/**
 * Point formats 6-8 (compressor 3, layered): a chunk stores its first point
 * raw, the chunk's point count, the byte size of every layer of every item,
 * then the layers one after the other, each its own arithmetic-coded stream.
 */
export class LayeredChunkDecoder implements ChunkDecoder {
  readonly recordLength: number;
  private readonly point14 = new Point14Decoder();
  private readonly rgb: Rgb14Decoder | null;
  private readonly extra: Byte14Decoder | null;
  private readonly rgbAt = 30;
  private readonly extraAt: number;
  private readonly layerCount: number;
  private compressed: Uint8Array = new Uint8Array(0);
  private decoded = 0;

  constructor(pointFormat: number, recordLength: number) {
    const base = pointFormat >= 6 ? baseRecordLength(pointFormat) : -1;
    if (base < 0) throw new Error(`point format ${pointFormat} is not supported by the TypeScript LAZ decoder`);
    if (recordLength < base)
      throw new Error(`record length ${recordLength} is shorter than point format ${pointFormat} (${base} bytes)`);
    this.recordLength = recordLength;
    this.rgb = pointFormat === 7 ? new Rgb14Decoder(false) : pointFormat === 8 ? new Rgb14Decoder(true) : null;
    this.extra = recordLength > base ? new Byte14Decoder(recordLength - base) : null;
    this.extraAt = base;
    this.layerCount = POINT14_LAYERS + (this.rgb?.layers ?? 0) + (this.extra?.layers ?? 0);
  }

  open(compressed: Uint8Array): void {
    const headerEnd = this.recordLength + 4 + 4 * this.layerCount;
    if (compressed.byteLength < headerEnd)
      throw new Error(
        `compressed chunk of ${compressed.byteLength} bytes is shorter than one point record and its layer sizes (${headerEnd})`,
      );
    this.compressed = compressed;
    this.decoded = 0;
  }

  /** The byte ranges of every layer, validated against the chunk's size. */
  private layers(): [number, number][] {
    const bytes = this.compressed;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // The point count after the raw point is not needed: the chunk table gives it.
    let sizesAt = this.recordLength + 4;
    let start = sizesAt + 4 * this.layerCount;
    const ranges: [number, number][] = [];
    for (let i = 0; i < this.layerCount; i++, sizesAt += 4) {
      const size = view.getUint32(sizesAt, true);
      if (start + size > bytes.byteLength)
        throw new Error(
          `layer ${i} of ${size} bytes runs past the end of the ${bytes.byteLength}-byte compressed chunk (truncated or corrupt)`,
        );
      ranges.push([start, start + size]);
      start += size;
    }
    return ranges;
  }

  read(out: Uint8Array, at: number, n: number): void {
    const length = this.recordLength;
    if (n <= 0) return;
    checkOutput(out, at, n, length);
    let p = at;
    let i = 0;
    if (this.decoded === 0) {
      const first = this.compressed.subarray(0, length);
      const layers = this.layers();
      out.set(first, p);
      this.point14.init(this.compressed, layers.slice(0, POINT14_LAYERS), first, 0);
      const context = this.point14.currentContext;
      const rgbLayers = this.rgb?.layers ?? 0;
      this.rgb?.init(
        this.compressed,
        layers.slice(POINT14_LAYERS, POINT14_LAYERS + rgbLayers),
        first,
        this.rgbAt,
        context,
      );
      this.extra?.init(this.compressed, layers.slice(POINT14_LAYERS + rgbLayers), first, this.extraAt, context);
      p += length;
      i = 1;
    }
    this.decodePoints(out, p, n - i);
    this.decoded += n;
    const overrun = Math.max(this.point14.overrun, this.rgb?.overrun ?? 0, this.extra?.overrun ?? 0);
    if (overrun > OVERRUN_SLACK)
      throw new Error(
        `compressed chunk of ${this.compressed.byteLength} bytes ends early: decoding ${this.decoded} points needed ${overrun} more bytes in a layer (truncated or corrupt)`,
      );
  }

  private decodePoints(out: Uint8Array, at: number, n: number): void {
    const length = this.recordLength;
    const point14 = this.point14;
    const rgb = this.rgb;
    const extra = this.extra;
    const rgbAt = this.rgbAt;
    const extraAt = this.extraAt;
    for (let i = 0, p = at; i < n; i++, p += length) {
      point14.read(out, p);
      if (rgb !== null) rgb.read(out, p + rgbAt, point14.currentContext);
      if (extra !== null) extra.read(out, p + extraAt, point14.currentContext);
    }
  }
}

/**
 * Idle decoders by point format and record length. Building one costs about
 * as much as decoding a few thousand points (its models fill a ~1 MB arena),
 * so decodeChunk and closed streams hand theirs back for the next chunk.
 */
const idle = new Map<number, ChunkDecoder[]>();
const MAX_IDLE = 4;

function acquire(pointFormat: number, recordLength: number): ChunkDecoder {
  return idle.get(pointFormat * 65536 + recordLength)?.pop() ?? createChunkDecoder(pointFormat, recordLength);
}

function release(pointFormat: number, recordLength: number, decoder: ChunkDecoder): void {
  const key = pointFormat * 65536 + recordLength;
  let list = idle.get(key);
  if (!list) {
    if (idle.size > 16) idle.clear();
    list = [];
    idle.set(key, list);
  }
  if (list.length < MAX_IDLE) list.push(decoder);
}

/**
 * Decodes `pointCount` points of one compressed LAZ chunk (point formats 0-3,
 * point-wise compressor; 6-8, layered compressor) into raw LAS point records,
 * byte for byte what LASzip and laz-perf's ChunkDecoder produce. Writes into `out` when
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
  const decoder = acquire(pointFormat, recordLength);
  try {
    decoder.open(compressed);
    decoder.read(target, 0, pointCount);
  } finally {
    release(pointFormat, recordLength, decoder);
  }
  return target;
}

/** An open compressed chunk decoded n records at a time. */
export interface ChunkStream {
  /** The next n raw records, in a new array. */
  read(n: number): Uint8Array;
  /** Hands the decoder back for reuse; reading after it throws. */
  close(): void;
}

/** Opens a compressed chunk for incremental decoding (see decodeChunk). */
export function openChunk(compressed: Uint8Array, pointFormat: number, recordLength: number): ChunkStream {
  let decoder: ChunkDecoder | null = acquire(pointFormat, recordLength);
  try {
    decoder.open(compressed);
  } catch (error) {
    release(pointFormat, recordLength, decoder);
    throw error;
  }
  return {
    read(n: number): Uint8Array {
      if (decoder === null) throw new Error('the LAZ chunk stream is closed');
      const out = new Uint8Array(n * recordLength);
      decoder.read(out, 0, n);
      return out;
    },
    close(): void {
      if (decoder !== null) release(pointFormat, recordLength, decoder);
      decoder = null;
    },
  };
}
