import { inflateSync } from 'node:zlib';
import { InvalidInput } from '../core/errors.js';
import type { ByteSource } from './byte-source.js';
import { FLOAT_NODATA, type Raster, type RasterCrs } from './raster.js';

/** One resolution of a GeoTIFF: the full image (index 0) or an overview. */
export interface CogLevel {
  width: number;
  height: number;
  /** Block size: the tile, or the image width × rows per strip. */
  blockWidth: number;
  blockHeight: number;
  /** Blocks across (1 for strips). */
  blocksAcross: number;
  /** Tiles (every block full size) or strips (the last one shorter). */
  tiled: boolean;
  offsets: number[];
  counts: number[];
  /** Cell size in CRS units. */
  resolution: number;
}

/** Band statistics as GDAL stores them (STATISTICS_* metadata). */
export interface BandStatistics {
  min: number;
  max: number;
  mean?: number;
  stddev?: number;
}

/**
 * An opened single-band north-up GeoTIFF whose blocks are read on demand
 * (a Cloud-Optimized GeoTIFF reads a window of any level in a few range
 * requests). Values come as float32 with nodata for empty cells.
 */
export interface Cog {
  levels: CogLevel[];
  originX: number;
  originY: number;
  /** Nodata of the file (GDAL_NODATA), {@link FLOAT_NODATA} when it has none. */
  nodata: number;
  crs: RasterCrs | null;
  /** Dataset metadata items (GDAL_METADATA without a sample). */
  metadata: Record<string, string>;
  /** Band 1 statistics from the file's metadata, null when absent. */
  statistics: BandStatistics | null;
  /**
   * Cells `[col0, col0+width) × [row0, row0+height)` of a level, row-major;
   * cells outside the image are nodata.
   */
  readWindow(level: number, col0: number, row0: number, width: number, height: number): Promise<Float32Array>;
}

const TYPE_SIZES: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  16: 8,
};

type TagValue = number[] | string;

interface Ifd {
  tags: Map<number, TagValue>;
  next: number;
}

interface Layout {
  little: boolean;
  bits: number;
  format: number;
  compression: number;
  predictor: number;
}

class Reader {
  private head: Uint8Array = new Uint8Array(0);
  private view: DataView = new DataView(new ArrayBuffer(0));
  little = true;
  constructor(private readonly source: ByteSource) {}

  async ensure(end: number): Promise<void> {
    if (end <= this.head.length) return;
    const want = Math.min(this.source.size, Math.max(end, this.head.length * 2, 65_536));
    this.head = await this.source.read(0, want);
    this.view = new DataView(this.head.buffer, this.head.byteOffset, this.head.byteLength);
    if (this.head.length < Math.min(end, this.source.size)) {
      throw new InvalidInput('tiff', 'the file is shorter than its header says');
    }
  }

  u16(at: number): number {
    return this.view.getUint16(at, this.little);
  }
  u32(at: number): number {
    return this.view.getUint32(at, this.little);
  }

  private async bytes(at: number, length: number): Promise<DataView> {
    if (at + length <= this.head.length) return new DataView(this.head.buffer, this.head.byteOffset + at, length);
    const b = await this.source.read(at, length);
    if (b.length < length) throw new InvalidInput('tiff', 'a tag points outside the file');
    return new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  async ifd(at: number): Promise<Ifd> {
    await this.ensure(at + 2);
    const n = this.u16(at);
    await this.ensure(at + 2 + n * 12 + 4);
    const tags = new Map<number, TagValue>();
    for (let k = 0; k < n; k++) {
      const e = at + 2 + k * 12;
      const id = this.u16(e);
      const type = this.u16(e + 2);
      const count = this.u32(e + 4);
      const size = TYPE_SIZES[type];
      if (!size) continue;
      const total = size * count;
      const v =
        total <= 4
          ? new DataView(this.head.buffer, this.head.byteOffset + e + 8, 4)
          : await this.bytes(this.u32(e + 8), total);
      if (type === 2) {
        let s = '';
        for (let i = 0; i < count; i++) s += String.fromCharCode(v.getUint8(i));
        tags.set(id, s.replace(/\0+$/, ''));
        continue;
      }
      const values: number[] = new Array(count);
      const le = this.little;
      for (let i = 0; i < count; i++) {
        const p = i * size;
        values[i] =
          type === 3
            ? v.getUint16(p, le)
            : type === 4 || type === 13
              ? v.getUint32(p, le)
              : type === 8
                ? v.getInt16(p, le)
                : type === 9
                  ? v.getInt32(p, le)
                  : type === 11
                    ? v.getFloat32(p, le)
                    : type === 12
                      ? v.getFloat64(p, le)
                      : type === 16
                        ? Number(v.getBigUint64(p, le))
                        : type === 5
                          ? v.getUint32(p, le) / v.getUint32(p + 4, le)
                          : type === 10
                            ? v.getInt32(p, le) / v.getInt32(p + 4, le)
                            : type === 6
                              ? v.getInt8(p)
                              : v.getUint8(p);
      }
      tags.set(id, values);
    }
    return { tags, next: this.u32(at + 2 + n * 12) };
  }
}

const num = (ifd: Ifd, id: number, fallback?: number): number | undefined => {
  const v = ifd.tags.get(id);
  return Array.isArray(v) ? v[0] : fallback;
};

/** GDAL_METADATA items: dataset items and band 1 (sample 0) items. */
function parseGdalMetadata(xml: string | undefined): { dataset: Record<string, string>; band: Record<string, string> } {
  const dataset: Record<string, string> = {};
  const band: Record<string, string> = {};
  if (!xml) return { dataset, band };
  const xmlText = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  for (const m of xml.matchAll(/<Item\s+([^>]*)>([\s\S]*?)<\/Item>/g)) {
    const attrs = m[1]!;
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    if (!name) continue;
    const sample = /sample="(\d+)"/.exec(attrs)?.[1];
    if (/role="/.test(attrs)) continue;
    if (sample === undefined) dataset[name] = xmlText(m[2]!);
    else if (sample === '0') band[name] = xmlText(m[2]!);
  }
  return { dataset, band };
}

/** Undoes predictor 2 (horizontal differencing) on one decoded block, native byte order. */
function undoHorizontal(bytes: Uint8Array, width: number, rows: number, bits: number): void {
  if (bits === 8) {
    for (let r = 0; r < rows; r++) {
      const row = r * width;
      for (let i = 1; i < width; i++) bytes[row + i] = (bytes[row + i]! + bytes[row + i - 1]!) & 0xff;
    }
    return;
  }
  const view =
    bits === 16
      ? new Uint16Array(bytes.buffer, bytes.byteOffset, width * rows)
      : new Uint32Array(bytes.buffer, bytes.byteOffset, width * rows);
  for (let r = 0; r < rows; r++) {
    const row = r * width;
    for (let i = 1; i < width; i++) view[row + i] = view[row + i]! + view[row + i - 1]!;
  }
}

/** Undoes predictor 3 (floating point): byte planes most significant first, differenced. */
function undoFloatingPoint(bytes: Uint8Array, width: number, rows: number, bps: number): Uint8Array {
  const rowBytes = width * bps;
  const out = new Uint8Array(rowBytes * rows);
  for (let r = 0; r < rows; r++) {
    const base = r * rowBytes;
    for (let i = base + 1; i < base + rowBytes; i++) bytes[i] = (bytes[i]! + bytes[i - 1]!) & 0xff;
    for (let i = 0; i < width; i++) {
      for (let b = 0; b < bps; b++) out[base + i * bps + b] = bytes[base + (bps - 1 - b) * width + i]!;
    }
  }
  return out;
}

/** Block bytes (decompressed, predictor undone) as float32 samples. */
function decodeBlock(raw: Uint8Array, layout: Layout, width: number, rows: number): Float32Array {
  const bps = layout.bits / 8;
  const n = width * rows;
  let bytes: Uint8Array = layout.compression === 1 ? raw.slice(0, n * bps) : new Uint8Array(inflateSync(raw));
  if (bytes.length < n * bps) throw new InvalidInput('tiff', 'a block is shorter than its size');
  if (layout.predictor === 3) {
    bytes = undoFloatingPoint(bytes, width, rows, bps);
  } else {
    if (!layout.little && bps > 1) {
      // Big-endian samples to native order before differencing is undone.
      for (let i = 0; i < n; i++) bytes.subarray(i * bps, (i + 1) * bps).reverse();
    }
    if (layout.predictor === 2) undoHorizontal(bytes, width, rows, layout.bits);
  }
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + n * bps);
  const { bits, format } = layout;
  if (format === 3 && bits === 32) return new Float32Array(buf);
  const src =
    format === 3
      ? new Float64Array(buf)
      : format === 2
        ? bits === 8
          ? new Int8Array(buf)
          : bits === 16
            ? new Int16Array(buf)
            : new Int32Array(buf)
        : bits === 8
          ? new Uint8Array(buf)
          : bits === 16
            ? new Uint16Array(buf)
            : new Uint32Array(buf);
  return Float32Array.from(src);
}

/** Most bytes of decoded blocks a {@link Cog} keeps by default (neighbouring map tiles share blocks). */
const BLOCK_CACHE_BYTES = 8 * 1024 * 1024;
/** Ranges closer than this are fetched in one request. */
const MERGE_GAP = 16 * 1024;

/**
 * Opens a single-band, north-up, classic TIFF (little or big endian) with
 * georeferencing, tiled or in strips, uncompressed or deflate, predictor 1–3,
 * 8 to 64-bit samples; its overviews (reduced-resolution IFDs) become levels
 * 1, 2, … Only the IFDs are read here.
 *
 * @example
 * const cog = await openCog(await fileByteSource('dtm.tif'));
 * const cells = await cog.readWindow(0, 0, 0, 256, 256);
 */
export async function openCog(source: ByteSource, options: { cacheBytes?: number } = {}): Promise<Cog> {
  const cacheBytes = options.cacheBytes ?? BLOCK_CACHE_BYTES;
  const r = new Reader(source);
  await r.ensure(8);
  const bom = String.fromCharCode(...(await source.read(0, 2)));
  if (bom !== 'II' && bom !== 'MM') throw new InvalidInput('tiff.header', 'not a TIFF file', 0);
  r.little = bom === 'II';
  const magic = r.u16(2);
  if (magic === 43) throw new InvalidInput('tiff.header', 'BigTIFF is not supported here');
  if (magic !== 42) throw new InvalidInput('tiff.header', 'not a TIFF file', 0);
  const ifds: Ifd[] = [];
  const seen = new Set<number>();
  for (let at = r.u32(4); at !== 0 && !seen.has(at) && ifds.length < 64; ) {
    seen.add(at);
    const ifd = await r.ifd(at);
    ifds.push(ifd);
    at = ifd.next;
  }
  const main = ifds[0];
  if (!main) throw new InvalidInput('tiff', 'the TIFF has no image');
  const layout: Layout = {
    little: r.little,
    bits: num(main, 258, 1)!,
    format: num(main, 339, 1)!,
    compression: num(main, 259, 1)!,
    predictor: num(main, 317, 1)!,
  };
  // Several bands are read when planar (band 1's blocks come first), not when interleaved.
  if (num(main, 277, 1)! > 1 && num(main, 284, 1) !== 2) {
    throw new InvalidInput('tiff.bands', 'pixel-interleaved bands are not supported');
  }
  if (![1, 8, 32946].includes(layout.compression)) {
    throw new InvalidInput('tiff.compression', `compression ${layout.compression} is not supported`);
  }
  if (![8, 16, 32, 64].includes(layout.bits) || (layout.format === 3 && layout.bits < 32)) {
    throw new InvalidInput('tiff.sample', `${layout.bits}-bit samples of format ${layout.format} are not supported`);
  }
  if (layout.predictor > 3) throw new InvalidInput('tiff.predictor', `predictor ${layout.predictor} is not supported`);
  const scale = main.tags.get(33550);
  const tie = main.tags.get(33922);
  if (!Array.isArray(scale) || !Array.isArray(tie) || scale.length < 2 || tie.length < 6) {
    throw new InvalidInput('tiff.georeference', 'the TIFF has no georeferencing (ModelPixelScale/ModelTiepoint)');
  }
  if (Math.abs(scale[0]! - scale[1]!) > 1e-6 * Math.abs(scale[0]!)) {
    throw new InvalidInput('tiff.resolution', `non-square cells (${scale[0]} × ${scale[1]})`);
  }
  const width0 = num(main, 256)!;
  const resolution = scale[0]!;
  const originX = tie[3]! - tie[0]! * resolution;
  const originY = tie[4]! + tie[1]! * resolution;

  const levels: CogLevel[] = [];
  for (const [k, ifd] of ifds.entries()) {
    const subfile = num(ifd, 254, 0)!;
    if (k > 0 && (subfile & 1) === 0) continue; // another page, not an overview
    if (subfile & 4) continue; // a mask
    if (num(ifd, 258, 1) !== layout.bits || num(ifd, 259, 1) !== layout.compression) continue;
    const width = num(ifd, 256)!;
    const height = num(ifd, 257)!;
    const tiled = ifd.tags.has(322);
    const blockWidth = tiled ? num(ifd, 322)! : width;
    const blockHeight = tiled ? num(ifd, 323)! : Math.min(height, num(ifd, 278, height)!);
    const offsets = (ifd.tags.get(tiled ? 324 : 273) ?? []) as number[];
    const counts = (ifd.tags.get(tiled ? 325 : 279) ?? []) as number[];
    const blocksAcross = Math.ceil(width / blockWidth);
    if (!width || !height || offsets.length < blocksAcross * Math.ceil(height / blockHeight)) {
      throw new InvalidInput('tiff', `image ${k} lists fewer blocks than it holds`);
    }
    levels.push({
      width,
      height,
      blockWidth,
      blockHeight,
      blocksAcross,
      tiled,
      offsets,
      counts,
      resolution: (resolution * width0) / width,
    });
  }
  levels.sort((a, b) => b.width - a.width);

  const nodataText = main.tags.get(42113);
  const parsed = typeof nodataText === 'string' && nodataText.trim() !== '' ? Number(nodataText) : Number.NaN;
  const fileNodata = Number.isFinite(parsed) ? parsed : null;
  const nodata = fileNodata ?? FLOAT_NODATA;
  const meta = parseGdalMetadata(main.tags.get(42112) as string | undefined);
  const min = Number(meta.band.STATISTICS_MINIMUM);
  const max = Number(meta.band.STATISTICS_MAXIMUM);
  const statistics =
    meta.band.STATISTICS_MINIMUM !== undefined && Number.isFinite(min) && Number.isFinite(max)
      ? {
          min,
          max,
          ...(meta.band.STATISTICS_MEAN ? { mean: Number(meta.band.STATISTICS_MEAN) } : {}),
          ...(meta.band.STATISTICS_STDDEV ? { stddev: Number(meta.band.STATISTICS_STDDEV) } : {}),
        }
      : null;

  let crs: RasterCrs | null = null;
  const keys = main.tags.get(34735);
  if (Array.isArray(keys) && keys.length >= 4) {
    let model = 0;
    for (let k = 0; k < keys[3]!; k++) {
      const [id, loc, , value] = keys.slice(4 + 4 * k, 8 + 4 * k) as [number, number, number, number];
      if (loc !== 0) continue;
      if (id === 1024) model = value;
      if (id === 3072 && value !== 32767) crs = { epsg: value, geographic: false };
      if (id === 2048 && value !== 32767 && model === 2 && !crs) crs = { epsg: value, geographic: true };
    }
  }

  // Decoded blocks, most recently used last.
  const cache = new Map<string, Float32Array>();
  let cached = 0;
  const remember = (key: string, block: Float32Array) => {
    cache.set(key, block);
    cached += block.byteLength;
    for (const [k, b] of cache) {
      if (cached <= cacheBytes) break;
      cache.delete(k);
      cached -= b.byteLength;
    }
  };

  /** A block's samples as float32 with NaN turned into nodata. */
  const fetchBlocks = async (level: CogLevel, li: number, wanted: number[]): Promise<Map<number, Float32Array>> => {
    const got = new Map<number, Float32Array>();
    const missing: number[] = [];
    for (const b of wanted) {
      const hit = cache.get(`${li}/${b}`);
      if (hit) {
        cache.delete(`${li}/${b}`);
        cache.set(`${li}/${b}`, hit);
        got.set(b, hit);
      } else {
        missing.push(b);
      }
    }
    missing.sort((a, b) => level.offsets[a]! - level.offsets[b]!);
    // Neighbouring blocks in one request.
    let i = 0;
    while (i < missing.length) {
      let j = i;
      const start = level.offsets[missing[i]!]!;
      let end = start + level.counts[missing[i]!]!;
      while (j + 1 < missing.length && level.offsets[missing[j + 1]!]! - end < MERGE_GAP) {
        j++;
        end = Math.max(end, level.offsets[missing[j]!]! + level.counts[missing[j]!]!);
      }
      const bytes = end > start ? await source.read(start, end - start) : new Uint8Array(0);
      for (let k = i; k <= j; k++) {
        const b = missing[k]!;
        const rows = Math.min(level.blockHeight, level.height - Math.floor(b / level.blocksAcross) * level.blockHeight);
        const blockRows = level.tiled ? level.blockHeight : rows;
        let block: Float32Array;
        if (level.counts[b] === 0) {
          block = new Float32Array(level.blockWidth * blockRows).fill(nodata);
        } else {
          const from = level.offsets[b]! - start;
          block = decodeBlock(bytes.subarray(from, from + level.counts[b]!), layout, level.blockWidth, blockRows);
          if (fileNodata === null) {
            for (let p = 0; p < block.length; p++) if (Number.isNaN(block[p]!)) block[p] = nodata;
          }
        }
        got.set(b, block);
        remember(`${li}/${b}`, block);
      }
      i = j + 1;
    }
    return got;
  };

  return {
    levels,
    originX,
    originY,
    nodata,
    crs,
    metadata: meta.dataset,
    statistics,
    async readWindow(li, col0, row0, width, height) {
      const level = levels[li];
      if (!level) throw new InvalidInput('tiff.level', `no level ${li} (the file has ${levels.length})`);
      const out = new Float32Array(width * height).fill(nodata);
      const c0 = Math.max(0, col0);
      const r0 = Math.max(0, row0);
      const c1 = Math.min(level.width, col0 + width);
      const r1 = Math.min(level.height, row0 + height);
      if (c0 >= c1 || r0 >= r1) return out;
      const { blockWidth: bw, blockHeight: bh, blocksAcross } = level;
      const bx0 = Math.floor(c0 / bw);
      const bx1 = Math.floor((c1 - 1) / bw);
      const by0 = Math.floor(r0 / bh);
      const by1 = Math.floor((r1 - 1) / bh);
      const wanted: number[] = [];
      for (let by = by0; by <= by1; by++) for (let bx = bx0; bx <= bx1; bx++) wanted.push(by * blocksAcross + bx);
      const blocks = await fetchBlocks(level, li, wanted);
      for (let by = by0; by <= by1; by++) {
        for (let bx = bx0; bx <= bx1; bx++) {
          const block = blocks.get(by * blocksAcross + bx)!;
          const rs = Math.max(r0, by * bh);
          const re = Math.min(r1, (by + 1) * bh);
          const cs = Math.max(c0, bx * bw);
          const ce = Math.min(c1, (bx + 1) * bw);
          for (let row = rs; row < re; row++) {
            const from = (row - by * bh) * bw + (cs - bx * bw);
            out.set(block.subarray(from, from + (ce - cs)), (row - row0) * width + (cs - col0));
          }
        }
      }
      return out;
    },
  };
}

/**
 * Reads the full resolution of a GeoTIFF {@link openCog} can open into a {@link Raster}.
 *
 * @example
 * const dtm = await readCogRaster(bufferByteSource(bytes));
 */
export async function readCogRaster(source: ByteSource): Promise<Raster> {
  const cog = await openCog(source);
  const { width, height, resolution } = cog.levels[0]!;
  const data = await cog.readWindow(0, 0, 0, width, height);
  return {
    width,
    height,
    originX: cog.originX,
    originY: cog.originY,
    resolution,
    data,
    nodata: cog.nodata,
    crs: cog.crs,
  };
}
