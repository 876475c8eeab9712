import type { PointChunk } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import type { CrsInfo } from '../crs/index.js';
import type { LasHeader } from './las-header.js';
import { decodeRecords, filterChunk } from './record-decoder.js';

/** A 2D (or 3D when z limits are given) box in the file's CRS. */
export interface ReadBounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  minZ?: number;
  maxZ?: number;
}

/** Options of {@link PointCloudReader.read}. */
export interface ReadOptions {
  /** Maximum points per chunk (default 65,536). */
  chunkSize?: number;
  signal?: AbortSignal;
  /** Only points inside this box (file CRS). COPC skips whole nodes; LAS/LAZ filter while streaming. */
  bbox?: ReadBounds;
  /** COPC only: coarsest point spacing wanted, in file units; deeper octree levels are skipped. */
  resolution?: number;
  /** LAZ only: worker threads decoding chunks in parallel (default: available cores, 0 = decode inline). */
  workers?: number;
  /**
   * LAS only: each chunk's columns are overwritten by the next chunk (no
   * allocation, no garbage per chunk). For consumers that copy what they keep
   * before asking for the next chunk.
   */
  reuse?: boolean;
}

/** A streaming reader over one LAS, LAZ or COPC file. */
export interface PointCloudReader {
  /** Which reader serves the file. */
  readonly kind: 'las' | 'laz' | 'copc';
  /** Parsed, validated header incl. VLRs and extra-bytes descriptors. */
  readonly header: LasHeader;
  /** Resolved CRS (an override wins), null when unknown. */
  readonly crs: CrsInfo | null;
  /** True when the file has no CRS and none was given: later processing needs one. */
  readonly crsRequired: boolean;
  /** Streams the points as columnar chunks of bounded size. */
  read(options?: ReadOptions): AsyncIterable<PointChunk>;
  close(): Promise<void>;
}

/** Throws Cancelled when the signal is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Cancelled();
}

/** Decodes raw records and applies the optional bbox filter. */
export function recordsToChunk(
  records: Uint8Array,
  count: number,
  header: LasHeader,
  bbox: ReadBounds | undefined,
  reuse?: ArrayBuffer,
): PointChunk {
  return clipChunk(decodeRecords(records, count, header, reuse), bbox);
}

/** Keeps the points of a chunk inside the optional bbox. */
export function clipChunk(chunk: PointChunk, bbox: ReadBounds | undefined): PointChunk {
  if (!bbox) return chunk;
  const { x, y, z } = chunk;
  const minZ = bbox.minZ ?? Number.NEGATIVE_INFINITY;
  const maxZ = bbox.maxZ ?? Number.POSITIVE_INFINITY;
  return filterChunk(
    chunk,
    (i) =>
      x[i]! >= bbox.minX &&
      x[i]! <= bbox.maxX &&
      y[i]! >= bbox.minY &&
      y[i]! <= bbox.maxY &&
      z[i]! >= minZ &&
      z[i]! <= maxZ,
  );
}

/** True when the header's bounds cannot intersect the box. */
export function outsideBounds(header: LasHeader, bbox: ReadBounds | undefined): boolean {
  if (!bbox) return false;
  return (
    bbox.minX > header.max[0] || bbox.maxX < header.min[0] || bbox.minY > header.max[1] || bbox.maxY < header.min[1]
  );
}
