import { DEFAULT_CHUNK_SIZE, type PointChunk } from '../core/chunk.js';
import type { CrsInfo } from '../crs/index.js';
import type { ByteSource } from './byte-source.js';
import type { LasHeader } from './las-header.js';
import {
  outsideBounds,
  type PointCloudReader,
  type ReadOptions,
  recordsToChunk,
  throwIfAborted,
} from './point-cloud-reader.js';

/** Reader metadata (loaders.gl style): id, extensions and magic bytes. */
export const LAS_READER = { id: 'readers.las', name: 'LAS', extensions: ['las'], magic: 'LASF' } as const;

/**
 * Uncompressed LAS 1.0–1.4 reader: reads `chunkSize` records at a time
 * through the file handle into one reused buffer and decodes them column-wise.
 * Memory is bounded by one chunk whatever the file size.
 */
export function createLasReader(source: ByteSource, header: LasHeader, crs: CrsInfo | null): PointCloudReader {
  return {
    kind: 'las',
    header,
    crs,
    crsRequired: crs === null,
    async *read(options: ReadOptions = {}): AsyncIterable<PointChunk> {
      const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_CHUNK_SIZE));
      if (outsideBounds(header, options.bbox)) return;
      const length = header.recordLength;
      let buffer: Uint8Array = new Uint8Array(Math.min(chunkSize, Math.max(1, header.pointCount)) * length);
      for (let start = 0; start < header.pointCount; start += chunkSize) {
        throwIfAborted(options.signal);
        const count = Math.min(chunkSize, header.pointCount - start);
        // The previous chunk's columns are already decoded, so the buffer can be reused.
        buffer = await source.read(header.pointDataOffset + start * length, count * length, buffer);
        const chunk = recordsToChunk(buffer, count, header, options.bbox);
        if (chunk.count > 0) yield chunk;
      }
    },
    close: () => source.close(),
  };
}
