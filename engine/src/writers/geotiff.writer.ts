import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { deflate as deflateCallback, deflateSync } from 'node:zlib';
import { InvalidInput } from '../core/errors.js';
import type { Raster, RasterCrs } from '../raster/raster.js';

/** Options of {@link encodeGeoTiff}. */
export interface GeoTiffWriteOptions {
  /** Sample type of the band: 32-bit float (DTM, slope) or 8-bit unsigned (hillshade). */
  sampleType?: 'float32' | 'uint8';
  /** Deflate-compress the tiles (smaller files, slower); default false, like gdaldem. */
  deflate?: boolean;
  /**
   * Undo-able difference coding before deflate: horizontal (2) for bytes,
   * floating point (3) for floats. Default true when deflating.
   */
  predictor?: boolean;
  /** Side of the internal square tiles, in cells (256 or 512); default 256. */
  tileSize?: 256 | 512;
  /** Write the power-of-2 overviews (until the smallest fits one tile); default true. */
  overviews?: boolean;
  /**
   * Dataset metadata items written in the GDAL_METADATA tag (names
   * `[A-Z0-9_]`, shown by `gdalinfo`). Band statistics are always added.
   */
  metadata?: Record<string, string>;
}

/** What a writer reports about the file it produced. */
export interface RasterArtifact {
  path: string;
  type: 'geotiff';
  bytes: number;
  width: number;
  height: number;
  bounds: { minX: number; minY: number; maxX: number; maxY: number };
}

const TYPE_SHORT = 3;
const TYPE_LONG = 4;
const TYPE_ASCII = 2;
const TYPE_DOUBLE = 12;

interface Tag {
  id: number;
  type: number;
  values: number[] | string;
}

function isGeographic(crs: RasterCrs): boolean {
  if (crs.geographic !== undefined) return crs.geographic;
  const e = crs.epsg ?? 0;
  return (e >= 4000 && e < 5000) || e === 4326;
}

function geoKeyDirectory(crs: RasterCrs | null): { keys: number[]; citation: string | null } {
  // GeoKeyDirectory header: version 1, revision 1.0, number of keys.
  const entries: number[][] = [];
  let citation: string | null = null;
  if (crs?.epsg) {
    const geographic = isGeographic(crs);
    entries.push([1024, 0, 1, geographic ? 2 : 1]); // GTModelTypeGeoKey
    entries.push([1025, 0, 1, 1]); // GTRasterTypeGeoKey: PixelIsArea
    if (crs.name) {
      citation = `${crs.name}|`;
      entries.push([1026, 34737, citation.length, 0]); // GTCitationGeoKey
    }
    entries.push(geographic ? [2048, 0, 1, crs.epsg] : [3072, 0, 1, crs.epsg]);
  } else {
    entries.push([1025, 0, 1, 1]);
  }
  entries.sort((a, b) => a[0]! - b[0]!);
  const keys = [1, 1, 0, entries.length];
  for (const e of entries) keys.push(...e);
  return { keys, citation };
}

/**
 * The "ghost" header GDAL writes after the TIFF header of a Cloud-Optimized
 * GeoTIFF: it tells readers that every IFD precedes the tile data, that tiles
 * are in row-major order from the smallest overview to the full resolution,
 * and that each tile is preceded by its size and followed by a copy of its
 * last 4 bytes. `gdalinfo` then reports `LAYOUT=COG`.
 */
const GHOST_BODY =
  'LAYOUT=IFDS_BEFORE_DATA\nBLOCK_ORDER=ROW_MAJOR\nBLOCK_LEADER=SIZE_AS_UINT4\n' +
  'BLOCK_TRAILER=LAST_4_BYTES_REPEATED\nKNOWN_INCOMPATIBLE_EDITION=NO\n';
const GHOST = `GDAL_STRUCTURAL_METADATA_SIZE=${String(GHOST_BODY.length).padStart(6, '0')} bytes\n${GHOST_BODY}`;

/** zlib level of deflate (GDAL's default). */
const DEFLATE_LEVEL = 6;

/** One resolution of the pyramid: full resolution first. */
interface Level {
  width: number;
  height: number;
  /** Samples in the file's type (Float32Array or Uint8Array), row-major. */
  data: Float32Array | Uint8Array;
}

/** The next overview: each cell the mean of the valid cells of its 2×2 block (nodata when none is). */
function halve(level: Level, nodata: number): Level {
  const { width: w, height: h, data } = level;
  const width = Math.ceil(w / 2);
  const height = Math.ceil(h / 2);
  const out = data instanceof Float32Array ? new Float32Array(width * height) : new Uint8Array(width * height);
  const integer = out instanceof Uint8Array;
  for (let r = 0; r < height; r++) {
    const r0 = 2 * r * w;
    const r1 = Math.min(h - 1, 2 * r + 1) * w;
    for (let c = 0; c < width; c++) {
      const c0 = 2 * c;
      const c1 = Math.min(w - 1, c0 + 1);
      const a = data[r0 + c0]!;
      const b = data[r0 + c1]!;
      const e = data[r1 + c0]!;
      const f = data[r1 + c1]!;
      // Edge blocks repeat their last row or column: the mean is unchanged.
      let sum = 0;
      let n = 0;
      if (a !== nodata && !Number.isNaN(a)) {
        sum += a;
        n++;
      }
      if (b !== nodata && !Number.isNaN(b)) {
        sum += b;
        n++;
      }
      if (e !== nodata && !Number.isNaN(e)) {
        sum += e;
        n++;
      }
      if (f !== nodata && !Number.isNaN(f)) {
        sum += f;
        n++;
      }
      out[r * width + c] = n === 0 ? nodata : integer ? Math.round(sum / n) : sum / n;
    }
  }
  return { width, height, data: out };
}

/** Min, max, mean and standard deviation of the valid samples (GDAL's STATISTICS_* items). */
function statistics(data: Float32Array | Uint8Array, nodata: number) {
  let n = 0;
  let sum = 0;
  let sum2 = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v === nodata || Number.isNaN(v)) continue;
    n++;
    sum += v;
    sum2 += v * v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (n === 0) return null;
  const mean = sum / n;
  return {
    min,
    max,
    mean,
    stddev: Math.sqrt(Math.max(0, sum2 / n - mean * mean)),
    validPercent: (100 * n) / data.length,
  };
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function gdalMetadata(items: Record<string, string>, stats: ReturnType<typeof statistics>): string | null {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(items)) {
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw new InvalidInput('tiff.metadata', `bad metadata name "${name}"`);
    lines.push(`  <Item name="${name}">${xmlEscape(value)}</Item>`);
  }
  if (stats) {
    const band = (name: string, v: number) => lines.push(`  <Item name="${name}" sample="0">${v}</Item>`);
    band('STATISTICS_MAXIMUM', stats.max);
    band('STATISTICS_MEAN', stats.mean);
    band('STATISTICS_MINIMUM', stats.min);
    band('STATISTICS_STDDEV', stats.stddev);
    band('STATISTICS_VALID_PERCENT', Math.round(stats.validPercent * 1000) / 1000);
  }
  return lines.length > 0 ? `<GDALMetadata>\n${lines.join('\n')}\n</GDALMetadata>` : null;
}

/**
 * Difference coding of one tile in place (TIFF predictor 2 for bytes, 3 for
 * floats: bytes of each row regrouped most significant first, then each byte
 * minus the previous one).
 */
function predict(tile: Uint8Array, size: number, float: boolean, scratch: Uint8Array): void {
  if (!float) {
    for (let r = 0; r < size; r++) {
      const row = r * size;
      for (let i = size - 1; i > 0; i--) tile[row + i] = (tile[row + i]! - tile[row + i - 1]!) & 0xff;
    }
    return;
  }
  // Samples are little-endian floats: each read as one 32-bit word, its bytes split most significant first.
  const words = new Uint32Array(tile.buffer, tile.byteOffset, size * size);
  const rowBytes = size * 4;
  for (let r = 0; r < size; r++) {
    const base = r * size;
    for (let i = 0; i < size; i++) {
      const w = words[base + i]!;
      scratch[i] = w >>> 24;
      scratch[size + i] = (w >>> 16) & 0xff;
      scratch[2 * size + i] = (w >>> 8) & 0xff;
      scratch[3 * size + i] = w & 0xff;
    }
    const at = r * rowBytes;
    tile[at] = scratch[0]!;
    for (let i = 1; i < rowBytes; i++) tile[at + i] = scratch[i]! - scratch[i - 1]!;
  }
}

/** The tiles of one level, each padded to a full tile (nodata), with the predictor applied when deflating. */
function levelTiles(level: Level, size: number, pad: number, deflate: number, predictor: boolean): Uint8Array[] {
  const float = level.data instanceof Float32Array;
  const across = Math.ceil(level.width / size);
  const down = Math.ceil(level.height / size);
  const out: Uint8Array[] = [];
  const scratch = new Uint8Array(size * 4);
  for (let ty = 0; ty < down; ty++) {
    for (let tx = 0; tx < across; tx++) {
      const samples = float ? new Float32Array(size * size) : new Uint8Array(size * size);
      const w = Math.min(size, level.width - tx * size);
      const h = Math.min(size, level.height - ty * size);
      if (w < size || h < size) samples.fill(pad);
      for (let r = 0; r < h; r++) {
        const from = (ty * size + r) * level.width + tx * size;
        samples.set(level.data.subarray(from, from + w), r * size);
      }
      const bytes = new Uint8Array(samples.buffer, 0, samples.byteLength);
      if (deflate && predictor) predict(bytes, size, float, scratch);
      out.push(bytes);
    }
  }
  return out;
}

const deflateAsync = promisify(deflateCallback);

/** Tiles deflated at once by {@link encodeGeoTiffAsync}: enough to keep libuv's thread pool busy. */
const DEFLATE_IN_FLIGHT = 8;

/** Deflates tiles on libuv's thread pool, a few at a time, in place of the raw tiles. */
async function deflateAll(tiles: Uint8Array[][], level: number): Promise<void> {
  const jobs = tiles.flatMap((row, k) => row.map((_, i) => [k, i] as const));
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const [k, i] = jobs[next++]!;
      tiles[k]![i] = await deflateAsync(tiles[k]![i]!, { level });
    }
  };
  await Promise.all(Array.from({ length: DEFLATE_IN_FLIGHT }, lane));
}

/** A raster ready to be written: its levels (full resolution first) and their tiles, not yet deflated. */
interface PreparedTiff {
  raster: Raster;
  sampleType: 'float32' | 'uint8';
  deflate: boolean;
  predictor: boolean;
  size: number;
  nodata: number;
  levels: Level[];
  tiles: Uint8Array[][];
  /** Text of the GDAL_METADATA tag (items and band statistics). */
  metadata: string | null;
}

function prepareGeoTiff(raster: Raster, options: GeoTiffWriteOptions): PreparedTiff {
  const { width, height } = raster;
  const sampleType = options.sampleType ?? 'float32';
  const deflate = options.deflate ?? false;
  const predictor = deflate && (options.predictor ?? true);
  const size = options.tileSize ?? 256;
  if (size !== 256 && size !== 512) throw new InvalidInput('tiff.tileSize', `tiles are 256 or 512 cells, got ${size}`);
  const nodata = sampleType === 'uint8' ? 0 : raster.nodata;

  let full: Float32Array | Uint8Array;
  if (sampleType === 'float32') {
    full = raster.data;
  } else {
    full = new Uint8Array(width * height);
    const d = raster.data;
    for (let i = 0; i < full.length; i++) {
      const v = d[i]!;
      full[i] = Number.isNaN(v) || v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  }
  const levels: Level[] = [{ width, height, data: full }];
  if (options.overviews ?? true) {
    while (Math.max(levels.at(-1)!.width, levels.at(-1)!.height) > size) levels.push(halve(levels.at(-1)!, nodata));
  }
  const zlevel = deflate ? DEFLATE_LEVEL : 0;
  const tiles = levels.map((level) => levelTiles(level, size, nodata, zlevel, predictor));
  const metadata = gdalMetadata(options.metadata ?? {}, statistics(full, nodata));
  return { raster, sampleType, deflate, predictor, size, nodata, levels, tiles, metadata };
}

/**
 * Encodes a raster as a little-endian, single-band Cloud-Optimized GeoTIFF:
 * square internal tiles (256 cells by default), optionally deflate with a
 * predictor, power-of-2 overviews (2×2 mean of valid cells) until the
 * smallest fits one tile, every IFD before the tile data, tiles from the
 * smallest overview to the full resolution with GDAL's block leader and
 * trailer, so `gdalinfo` reports `LAYOUT=COG` and HTTP range reads fetch a
 * window of any level. Georeferencing: ModelPixelScale, ModelTiepoint,
 * GeoKeyDirectory (ProjectedCSTypeGeoKey or GeographicTypeGeoKey for EPSG
 * CRSs); GDAL_NODATA (tag 42113); band statistics and `metadata` in
 * GDAL_METADATA (tag 42112). Full-resolution values are stored unchanged.
 * Readable by GDAL, the `geotiff` npm package and {@link readGeoTiff}.
 */
export function encodeGeoTiff(raster: Raster, options: GeoTiffWriteOptions = {}): Buffer {
  const prepared = prepareGeoTiff(raster, options);
  if (prepared.deflate) {
    for (const row of prepared.tiles)
      for (let i = 0; i < row.length; i++) row[i] = deflateSync(row[i]!, { level: DEFLATE_LEVEL });
  }
  return assembleGeoTiff(prepared);
}

/**
 * {@link encodeGeoTiff} with the tiles deflated on libuv's thread pool: the same bytes, while the calling
 * thread (the products' thread in `nuage process`) goes on with other work.
 */
export async function encodeGeoTiffAsync(raster: Raster, options: GeoTiffWriteOptions = {}): Promise<Buffer> {
  const prepared = prepareGeoTiff(raster, options);
  if (prepared.deflate) await deflateAll(prepared.tiles, DEFLATE_LEVEL);
  return assembleGeoTiff(prepared);
}

/** The file's bytes: header, IFDs of every level, then the (encoded) tiles, smallest overview first. */
function assembleGeoTiff(prepared: PreparedTiff): Buffer {
  const { raster, sampleType, deflate, predictor, size, nodata, levels, tiles, metadata } = prepared;
  const bytesPerSample = sampleType === 'float32' ? 4 : 1;
  const { keys, citation } = geoKeyDirectory(raster.crs);
  const ifds: Tag[][] = levels.map((level, k) => {
    const tags: Tag[] = [
      { id: 256, type: TYPE_LONG, values: [level.width] },
      { id: 257, type: TYPE_LONG, values: [level.height] },
      { id: 258, type: TYPE_SHORT, values: [bytesPerSample * 8] },
      { id: 259, type: TYPE_SHORT, values: [deflate ? 8 : 1] },
      { id: 262, type: TYPE_SHORT, values: [1] },
      { id: 277, type: TYPE_SHORT, values: [1] },
      { id: 284, type: TYPE_SHORT, values: [1] },
      { id: 322, type: TYPE_SHORT, values: [size] },
      { id: 323, type: TYPE_SHORT, values: [size] },
      { id: 324, type: TYPE_LONG, values: new Array(tiles[k]!.length).fill(0) },
      { id: 325, type: TYPE_LONG, values: tiles[k]!.map((t) => t.length) },
      { id: 339, type: TYPE_SHORT, values: [sampleType === 'float32' ? 3 : 1] },
      { id: 42113, type: TYPE_ASCII, values: `${nodata}` },
    ];
    if (predictor) tags.push({ id: 317, type: TYPE_SHORT, values: [sampleType === 'float32' ? 3 : 2] });
    if (k > 0) {
      tags.push({ id: 254, type: TYPE_LONG, values: [1] }); // NewSubfileType: reduced resolution
    } else {
      tags.push(
        { id: 33550, type: TYPE_DOUBLE, values: [raster.resolution, raster.resolution, 0] },
        { id: 33922, type: TYPE_DOUBLE, values: [0, 0, 0, raster.originX, raster.originY, 0] },
        { id: 34735, type: TYPE_SHORT, values: keys },
      );
      if (citation) tags.push({ id: 34737, type: TYPE_ASCII, values: citation });
      if (metadata) tags.push({ id: 42112, type: TYPE_ASCII, values: metadata });
    }
    return tags.sort((a, b) => a.id - b.id);
  });

  const typeSize = (t: number) => (t === TYPE_DOUBLE ? 8 : t === TYPE_LONG ? 4 : t === TYPE_SHORT ? 2 : 1);
  const count = (t: Tag) => (typeof t.values === 'string' ? t.values.length + 1 : t.values.length);
  const external = (t: Tag) => {
    const bytes = count(t) * typeSize(t.type);
    return bytes > 4 ? bytes + (bytes & 1) : 0;
  };
  const ghostEnd = 8 + GHOST.length + ((8 + GHOST.length) & 1);
  const ifdOffsets: number[] = [];
  let off = ghostEnd;
  for (const tags of ifds) {
    ifdOffsets.push(off);
    off += 2 + tags.length * 12 + 4;
    for (const t of tags) off += external(t);
  }
  const headerSize = off;
  // Tile data, smallest overview first; each tile between its 4-byte size and a copy of its last 4 bytes.
  for (let k = levels.length - 1; k >= 0; k--) {
    const offsets = ifds[k]!.find((t) => t.id === 324)!.values as number[];
    for (let i = 0; i < tiles[k]!.length; i++) {
      offsets[i] = off + 4;
      off += tiles[k]![i]!.length + 8;
    }
  }
  if (off > 0xffffffff) throw new InvalidInput('raster.size', 'GeoTIFF larger than 4 GB needs BigTIFF, not supported');

  const out = Buffer.allocUnsafe(off);
  out.fill(0, 0, headerSize);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(ifdOffsets[0]!, 4);
  out.write(GHOST, 8, 'latin1');
  if (ghostEnd > 8 + GHOST.length) out.write(' ', 8 + GHOST.length, 'latin1');
  const writeValue = (type: number, v: number, at: number) => {
    if (type === TYPE_SHORT) out.writeUInt16LE(v, at);
    else if (type === TYPE_LONG) out.writeUInt32LE(v, at);
    else if (type === TYPE_DOUBLE) out.writeDoubleLE(v, at);
  };
  for (let k = 0; k < ifds.length; k++) {
    const tags = ifds[k]!;
    let p = ifdOffsets[k]!;
    out.writeUInt16LE(tags.length, p);
    p += 2;
    let extra = p + tags.length * 12 + 4;
    for (const t of tags) {
      const n = count(t);
      out.writeUInt16LE(t.id, p);
      out.writeUInt16LE(t.type, p + 2);
      out.writeUInt32LE(n, p + 4);
      let at: number;
      if (external(t) > 0) {
        out.writeUInt32LE(extra, p + 8);
        at = extra;
        extra += external(t);
      } else {
        out.writeUInt32LE(0, p + 8);
        at = p + 8;
      }
      if (typeof t.values === 'string') {
        out.write(t.values, at, 'latin1');
        out[at + t.values.length] = 0;
      } else {
        const ts = typeSize(t.type);
        for (let i = 0; i < t.values.length; i++) writeValue(t.type, t.values[i]!, at + i * ts);
      }
      p += 12;
    }
    out.writeUInt32LE(k + 1 < ifds.length ? ifdOffsets[k + 1]! : 0, p);
  }
  let d = headerSize;
  for (let k = levels.length - 1; k >= 0; k--) {
    for (const t of tiles[k]!) {
      out.writeUInt32LE(t.length, d);
      out.set(t, d + 4);
      out.set(t.subarray(t.length - 4), d + 4 + t.length);
      d += t.length + 8;
    }
  }
  return out;
}

/**
 * Writes a raster as a Cloud-Optimized GeoTIFF file (see {@link encodeGeoTiff}).
 *
 * @example
 * await writeGeoTiff('dtm.tif', dtm, { deflate: true });
 */
export async function writeGeoTiff(
  path: string,
  raster: Raster,
  options: GeoTiffWriteOptions = {},
): Promise<RasterArtifact> {
  const bytes = await encodeGeoTiffAsync(raster, options);
  await writeFile(path, bytes);
  return {
    path,
    type: 'geotiff',
    bytes: bytes.length,
    width: raster.width,
    height: raster.height,
    bounds: {
      minX: raster.originX,
      maxX: raster.originX + raster.width * raster.resolution,
      minY: raster.originY - raster.height * raster.resolution,
      maxY: raster.originY,
    },
  };
}
