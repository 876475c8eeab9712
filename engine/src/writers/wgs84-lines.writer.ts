/**
 * GeoJSON of many LineStrings (contour lines) in EPSG:4326, written byte for
 * byte as `writeWgs84GeoJson` writes the same features, from flat coordinate
 * arrays: each line is transformed as one typed array (no array per vertex)
 * and its numbers are written digit by digit into bytes (printing a double
 * and joining strings was most of the time of writing contour files).
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGridTransformer } from '../crs/grid-transformer.js';
import type { CrsInfo } from '../crs/index.js';
import { ROUNDED_MAX_BYTES, roundedText, writeRounded } from './decimal-bytes.js';
import type { VectorArtifact } from './geojson.writer.js';

/** One line: flat x, y pairs in the project CRS and the feature's properties. */
export interface FlatLine {
  coordinates: Float64Array;
  properties: Record<string, string | number | boolean | null>;
}

/** Bytes of the buffers filled before they are written. */
const CHUNK_BYTES = 1 << 20;

/** ASCII bytes into 1 MB buffers, written to a stream as they fill. */
class ByteSink {
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  private at = 0;
  private full: Buffer[] = [];
  bytes = 0;

  room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    this.cut();
    if (bytes > this.buf.length) this.buf = Buffer.allocUnsafe(bytes);
  }

  text(s: string): void {
    this.room(3 * s.length);
    this.at += this.buf.write(s, this.at, 'utf8');
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.at++] = b;
  }

  /** `v` as {@link roundedText} prints it. */
  number(v: number, decimals: number, factor: number): void {
    this.room(ROUNDED_MAX_BYTES);
    const end = writeRounded(this.buf, this.at, v, decimals, factor);
    if (end < 0) this.text(roundedText(v, decimals));
    else this.at = end;
  }

  /**
   * `[x,y]`, preceded by a comma unless `first`, each number as {@link number}
   * prints it: one check of room for the whole point.
   */
  point(x: number, y: number, first: boolean, decimals: number, factor: number): void {
    this.room(2 * ROUNDED_MAX_BYTES + 4);
    const buf = this.buf;
    let at = this.at;
    if (!first) buf[at++] = 44; // ,
    buf[at++] = 91; // [
    const xEnd = writeRounded(buf, at, x, decimals, factor);
    const yEnd = xEnd < 0 ? -1 : writeRounded(buf, xEnd + 1, y, decimals, factor);
    if (yEnd < 0) {
      // A number writeRounded does not write: the point through the general path.
      this.at = at;
      this.number(x, decimals, factor);
      this.byte(44);
      this.number(y, decimals, factor);
      this.byte(93); // ]
      return;
    }
    buf[xEnd] = 44;
    buf[yEnd] = 93;
    this.at = yEnd + 1;
  }

  /** Bytes written so far, cut or still in the buffer: the file offset of the next byte. */
  get offset(): number {
    return this.bytes + this.at;
  }

  /** Copies bytes as they are. */
  copy(src: Uint8Array): void {
    this.room(src.length);
    this.buf.set(src, this.at);
    this.at += src.length;
  }

  cut(): void {
    if (this.at === 0) return;
    this.full.push(this.buf.subarray(0, this.at));
    this.bytes += this.at;
    this.buf = Buffer.allocUnsafe(CHUNK_BYTES);
    this.at = 0;
  }

  take(): Buffer[] {
    const out = this.full;
    this.full = [];
    return out;
  }
}

/**
 * Writes LineString features in EPSG:4326 (longitude, latitude, `decimals`
 * decimals, no `crs` member): the same bytes as `writeWgs84GeoJson(file,
 * features, crs)` for the same lines as GeoJSON features. Lines of fewer than
 * two points are left out.
 *
 * @example
 * await writeWgs84Lines('contours.geojson', lines.map((l) => ({ coordinates: l.coordinates, properties: {} })), crs);
 */
export async function writeWgs84Lines(
  file: string,
  lines: Iterable<FlatLine>,
  crs: CrsInfo,
  decimals = 7,
): Promise<VectorArtifact & { ranges: Float64Array }> {
  const transformer = createGridTransformer(crs);
  const factor = 10 ** decimals;
  const out = createWriteStream(file);
  const sink = new ByteSink();
  const drain = async () => {
    for (const chunk of sink.take()) if (!out.write(chunk)) await once(out, 'drain');
  };
  let count = 0;
  let seen = 0;
  let ranges = new Float64Array(256);
  let x = new Float64Array(0);
  let y = new Float64Array(0);
  let z = new Float64Array(0);
  sink.text('{"type":"FeatureCollection","features":[\n');
  for (const line of lines) {
    const c = line.coordinates;
    const n = c.length >> 1;
    if (2 * seen + 2 > ranges.length) {
      const grown = new Float64Array(ranges.length * 2);
      grown.set(ranges);
      ranges = grown;
    }
    const at = 2 * seen++;
    ranges[at] = -1;
    ranges[at + 1] = -1;
    if (n < 2) continue;
    if (x.length < n) {
      x = new Float64Array(n * 2);
      y = new Float64Array(n * 2);
      z = new Float64Array(n * 2);
    }
    for (let i = 0; i < n; i++) {
      x[i] = c[2 * i]!;
      y[i] = c[2 * i + 1]!;
      z[i] = 0;
    }
    transformer.forward(x, y, z, n);
    if (count) sink.text(',\n');
    ranges[at] = sink.offset;
    sink.text('{"type":"Feature","geometry":{"type":"LineString","coordinates":[');
    for (let i = 0; i < n; i++) sink.point(x[i]!, y[i]!, i === 0, decimals, factor);
    sink.text(`]},"properties":${JSON.stringify(line.properties)}}`);
    ranges[at + 1] = sink.offset;
    count++;
    await drain();
  }
  await closeCollection(sink, out, drain);
  return { path: file, type: 'geojson', bytes: sink.bytes, features: count, ranges: ranges.slice(0, 2 * seen) };
}

/** Ends a FeatureCollection written through `sink` to `out`, and waits until the file is written. */
async function closeCollection(sink: ByteSink, out: WriteStream, drain: () => Promise<void>): Promise<void> {
  sink.text('\n]}\n');
  sink.cut();
  await drain();
  out.end();
  await once(out, 'finish');
}

/** Bytes read from the source file at once by {@link copyWgs84Lines}. */
const COPY_BLOCK = 4 << 20;
/** Bytes between two copied lines that {@link copyWgs84Lines} reads rather than skips. */
const COPY_GAP = 64 << 10;

/**
 * Writes a GeoJSON of some of the features {@link writeWgs84Lines} wrote to
 * `source`, copying their bytes from it (no transform, no printing): the
 * bytes `writeWgs84Lines` writes for those lines alone. `ranges` is what it
 * returned (start and end of each line's feature, -1 for a line left out);
 * `lines` are indices of lines, in increasing order.
 *
 * @example
 * const all = await writeWgs84Lines('contours.geojson', lines, crs);
 * await copyWgs84Lines('contours.geojson', all.ranges, [0, 2], 'some.geojson');
 */
export async function copyWgs84Lines(
  source: string,
  ranges: Float64Array,
  lines: Iterable<number>,
  file: string,
): Promise<VectorArtifact> {
  const input = await open(source, 'r');
  const out = createWriteStream(file);
  const sink = new ByteSink();
  const drain = async () => {
    for (const chunk of sink.take()) if (!out.write(chunk)) await once(out, 'drain');
  };
  let done = false;
  try {
    let block = Buffer.allocUnsafe(COPY_BLOCK);
    let blockStart = 0;
    let blockEnd = 0;
    let count = 0;
    sink.text('{"type":"FeatureCollection","features":[\n');
    const picked = [...lines];
    for (let p = 0; p < picked.length; p++) {
      const li = picked[p]!;
      const start = ranges[2 * li]!;
      const end = ranges[2 * li + 1]!;
      if (!(start >= 0)) continue;
      if (start < blockStart || end > blockEnd) {
        if (end - start > block.length) block = Buffer.allocUnsafe(end - start);
        // Read from here through the next lines lying close after (their gaps too), at most a block: the
        // lines of one elevation follow each other, so the bytes of the other lines are not read.
        let readEnd = end;
        for (let q = p + 1; q < picked.length; q++) {
          const nextStart = ranges[2 * picked[q]!]!;
          const nextEnd = ranges[2 * picked[q]! + 1]!;
          if (!(nextStart >= 0)) continue;
          if (nextStart - readEnd > COPY_GAP || nextEnd - start > block.length) break;
          readEnd = nextEnd;
        }
        const { bytesRead } = await input.read(block, 0, readEnd - start, start);
        blockStart = start;
        blockEnd = start + bytesRead;
        if (end > blockEnd) throw new Error(`${source} is shorter than the features it should hold`);
      }
      if (count) sink.text(',\n');
      sink.copy(block.subarray(start - blockStart, end - blockStart));
      count++;
      await drain();
    }
    await closeCollection(sink, out, drain);
    done = true;
    return { path: file, type: 'geojson', bytes: sink.bytes, features: count };
  } finally {
    await input.close();
    if (!done) out.destroy();
  }
}
