/**
 * Point cloud readers: LAS 1.0–1.4, LAZ and COPC behind one entry point.
 *
 * @example
 * const reader = await openPointCloud('cloud.laz', { epsg: 2154 });
 * for await (const chunk of reader.read({ chunkSize: 100_000 })) console.log(chunk.count);
 * await reader.close();
 */
import { InvalidInput } from '../core/errors.js';
import { type CrsInfo, resolveCrs } from '../crs/index.js';
import { type ByteSource, memorySource, openFileSource } from './byte-source.js';
import { COPC_READER, createCopcReader, isCopc } from './copc.reader.js';
import { createLasReader, LAS_READER } from './las.reader.js';
import { type LasHeader, readLasHeader } from './las-header.js';
import { createLazReader, LAZ_READER } from './laz.reader.js';
import type { PointCloudReader } from './point-cloud-reader.js';

export type { ByteSource } from './byte-source.js';
export { memorySource, openFileSource } from './byte-source.js';
export { COPC_READER } from './copc.reader.js';
export { LAS_READER } from './las.reader.js';
export { POINT_FORMAT_SIZES, pointFormatLayout } from './las-format.js';
export type { ExtraBytesField, LasHeader, LasVlr } from './las-header.js';
export { findVlr, readLasHeader } from './las-header.js';
export { LAZ_READER } from './laz.reader.js';
export type { PointCloudReader, ReadBounds, ReadOptions } from './point-cloud-reader.js';

/**
 * A point-cloud format: its descriptor (id, extensions, magic bytes), whether
 * a header is of this format, and how to open a reader over it. Formats are
 * tried in {@link POINT_CLOUD_FORMATS} order, the most specific first.
 */
export interface PointCloudFormat {
  descriptor: { id: string; name: string; extensions: readonly string[]; magic: string };
  accepts(header: LasHeader): boolean;
  open(source: ByteSource, header: LasHeader, crs: CrsInfo | null): PointCloudReader | Promise<PointCloudReader>;
}

/** Every point-cloud format the engine reads: COPC (a LAZ with a copc VLR), LAZ, LAS. */
export const POINT_CLOUD_FORMATS: readonly PointCloudFormat[] = [
  { descriptor: COPC_READER, accepts: (h) => h.compressed && isCopc(h), open: createCopcReader },
  { descriptor: LAZ_READER, accepts: (h) => h.compressed, open: createLazReader },
  { descriptor: LAS_READER, accepts: (h) => !h.compressed, open: createLasReader },
];

/** Options of {@link openPointCloud}. */
export interface OpenOptions {
  /** EPSG code overriding (or supplying) the file's CRS. */
  epsg?: number;
}

/**
 * Opens a LAS, LAZ or COPC file: reads and validates the header, VLRs and
 * EVLRs (InvalidInput on any inconsistency), resolves the CRS, and returns a
 * streaming reader. The file stays open until `close()`.
 */
export async function openPointCloud(path: string, options: OpenOptions = {}): Promise<PointCloudReader> {
  return openPointCloudSource(await openFileSource(path), options);
}

/** Same as {@link openPointCloud} over any byte source (e.g. {@link memorySource}). */
export async function openPointCloudSource(source: ByteSource, options: OpenOptions = {}): Promise<PointCloudReader> {
  try {
    const header = await readLasHeader(source);
    const crs = resolveCrs(header, options.epsg);
    const format = POINT_CLOUD_FORMATS.find((f) => f.accepts(header));
    if (!format) throw new InvalidInput('header', 'no reader accepts this file');
    return await format.open(source, header, crs);
  } catch (error) {
    await source.close();
    throw error;
  }
}

/** Opens bytes in memory (tests, fuzzing, uploads already buffered). */
export function openPointCloudBytes(bytes: Uint8Array, options: OpenOptions = {}): Promise<PointCloudReader> {
  return openPointCloudSource(memorySource(bytes), options);
}
