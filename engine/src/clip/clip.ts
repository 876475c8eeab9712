/**
 * Clip: the points of a LAS, LAZ or COPC file inside an area (polygon with
 * holes, box or corridor), optionally only some classes and returns, written
 * to a LAS 1.4 file. Streaming: the reader skips what is outside the area's
 * box (COPC skips whole octree nodes), each chunk is filtered and handed to
 * the writer, so memory stays that of a few chunks whatever the input size.
 */
import { unlink } from 'node:fs/promises';
import type { PointChunk } from '../core/chunk.js';
import { InvalidInput } from '../core/errors.js';
import { openFileSource, openPointCloudSource, type PointCloudReader } from '../readers/index.js';
import { filterChunk } from '../readers/record-decoder.js';
import { type ArtifactRecord, writeLas } from '../writers/las.writer.js';
import { type LazPointFormat, writeLaz } from '../writers/laz.writer.js';
import type { CompiledArea } from './area.js';

/** Which returns to keep: first (return 1), last (return = number of returns) or all. */
export type ReturnsFilter = 'first' | 'last' | 'all';
export const RETURNS_FILTERS: readonly ReturnsFilter[] = ['first', 'last', 'all'];

/** Output formats a clip writes: LAS 1.4 always; LAZ for inputs of point formats 0-3 without extra bytes. */
export type ClipFormat = 'las' | 'laz';

/** Whether a clip of a cloud with this header can be written as LAZ (else only LAS). */
export function lazClipPossible(header: { pointFormat: number; extraBytes: readonly unknown[] }): boolean {
  return header.pointFormat <= 3 && header.extraBytes.length === 0;
}

export interface ClipOptions {
  area: CompiledArea;
  /** Output format (default las). LAZ needs an input of point format 0-3 without extra bytes. */
  format?: ClipFormat;
  /** ASPRS class codes to keep (all when absent or empty). */
  classes?: readonly number[];
  returns?: ReturnsFilter;
  /** EPSG code overriding (or supplying) the input's CRS. */
  epsg?: number;
  signal?: AbortSignal;
  /** Fraction of the input read, in [0, 1] (bytes of the file read so far). */
  progress?: (fraction: number) => void;
  /** Points per chunk asked of the reader. */
  chunkSize?: number;
  /** LAZ decoding threads (reader default when absent). */
  workers?: number;
}

export interface ClipResult extends ArtifactRecord {
  /** Points the reader handed over (inside the area's box). */
  scanned: number;
  inputPointCount: number;
  pointFormat: number;
}

/** A predicate over the points of a chunk. */
export function clipPredicate(
  chunk: PointChunk,
  area: CompiledArea,
  classes: readonly number[] | undefined,
  returns: ReturnsFilter,
): (i: number) => boolean {
  const { x, y, classification, returnNumber, numberOfReturns } = chunk;
  const classSet = classes && classes.length > 0 ? new Uint8Array(256) : null;
  if (classSet) for (const c of classes!) classSet[c & 255] = 1;
  return (i) => {
    if (classSet && !classSet[classification ? classification[i]! : 0]) return false;
    if (returns !== 'all') {
      const r = returnNumber ? returnNumber[i]! : 1;
      if (returns === 'first' ? r !== 1 : r !== (numberOfReturns ? numberOfReturns[i]! : 1)) return false;
    }
    return area.contains(x[i]!, y[i]!);
  };
}

/** Checks class codes (0..255 integers). */
export function checkClasses(classes: readonly number[], field = 'classes'): number[] {
  for (const c of classes) {
    if (!Number.isInteger(c) || c < 0 || c > 255) throw new InvalidInput(field, `"${c}" is not a class code (0-255)`);
  }
  return [...new Set(classes)].sort((a, b) => a - b);
}

/**
 * Opens the input with a byte source that tells how far it has been read
 * (progress) and streams the kept points to `output` (LAS 1.4, the input's
 * scale, offset, CRS, extra bytes, GPS time encoding; point format 6, or 7
 * with RGB, 8 with NIR). Throws InvalidInput('area') when no point is inside
 * (and leaves no file).
 *
 * @example
 * const area = compileArea({ kind: 'box', minX, minY, maxX, maxY });
 * const r = await clipPointCloud('in.laz', 'out.las', { area, classes: [2] });
 */
export async function clipPointCloud(input: string, output: string, options: ClipOptions): Promise<ClipResult> {
  const file = await openFileSource(input);
  let read = 0;
  const counted = {
    size: file.size,
    async read(position: number, length: number, into?: Uint8Array) {
      const bytes = await file.read(position, length, into);
      read += length;
      options.progress?.(Math.min(1, read / Math.max(1, file.size)));
      return bytes;
    },
    close: () => file.close(),
  };
  const reader = await openPointCloudSource(counted, options.epsg === undefined ? {} : { epsg: options.epsg });
  try {
    return await clipReader(reader, output, options);
  } finally {
    await reader.close();
  }
}

/** {@link clipPointCloud} over a reader already open (closed by the caller). */
export async function clipReader(reader: PointCloudReader, output: string, options: ClipOptions): Promise<ClipResult> {
  const { header } = reader;
  const returns = options.returns ?? 'all';
  const classes = options.classes ? checkClasses(options.classes) : undefined;
  const format = options.format ?? 'las';
  if (format === 'laz' && !lazClipPossible(header)) {
    throw new InvalidInput(
      'format',
      `LAZ output needs a cloud of point format 0-3 without extra bytes (this one is format ${header.pointFormat}${header.extraBytes.length ? ' with extra bytes' : ''}): write LAS`,
    );
  }
  let scanned = 0;
  const bbox = options.area.bbox;
  async function* kept(): AsyncIterable<PointChunk> {
    for await (const chunk of reader.read({
      bbox,
      signal: options.signal,
      ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}),
      ...(options.workers !== undefined ? { workers: options.workers } : {}),
    })) {
      scanned += chunk.count;
      const out = filterChunk(chunk, clipPredicate(chunk, options.area, classes, returns));
      if (out.count > 0) yield out;
    }
  }
  const common = {
    crs: reader.crs,
    scale: header.scale,
    offset: header.offset,
    systemId: header.systemId || 'Nuage',
    generatingSoftware: 'Nuage engine (clip)',
    fileSourceId: header.fileSourceId,
    adjustedGpsTime: (header.globalEncoding & 1) !== 0,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const record =
    format === 'laz'
      ? await writeLaz(output, kept(), { ...common, pointFormat: header.pointFormat as LazPointFormat })
      : await writeLas(output, kept(), { ...common, extraBytes: header.extraBytes });
  options.progress?.(1);
  if (record.pointCount === 0) {
    await unlink(output).catch(() => {});
    throw new InvalidInput('area', 'no point of the cloud is inside the area (with the classes and returns asked)');
  }
  const pointFormat = (await pointFormatOf(output)) & 0x3f;
  return { ...record, scanned, inputPointCount: header.pointCount, pointFormat };
}

async function pointFormatOf(path: string): Promise<number> {
  const source = await openFileSource(path);
  try {
    return (await source.read(104, 1))[0]!;
  } finally {
    await source.close();
  }
}
