import { availableParallelism } from 'node:os';
import { DEFAULT_CHUNK_SIZE, type PointChunk } from '../core/chunk.js';
import { Cancelled, EngineError, InvalidInput } from '../core/errors.js';
import type { CrsInfo } from '../crs/index.js';
import type { ByteSource } from './byte-source.js';
import { sharedDecodePool } from './decode-pool.js';
import type { LasHeader } from './las-header.js';
import { type LazChunk, readLazChunkTable } from './laz-chunk-table.js';
import { openLazChunk } from './laz-decode.mjs';
import {
  clipChunk,
  outsideBounds,
  type PointCloudReader,
  type ReadOptions,
  recordsToChunk,
  throwIfAborted,
} from './point-cloud-reader.js';
import { sliceChunk } from './record-decoder.js';

/** Reader metadata (loaders.gl style). */
export const LAZ_READER = { id: 'readers.laz', name: 'LAZ', extensions: ['laz'], magic: 'LASF' } as const;

/** Decode chunks in workers only when there are enough of them to pay for thread start-up. */
const MIN_CHUNKS_FOR_WORKERS = 4;

/**
 * LAZ reader: reads the chunk table, then decodes chunk after chunk with
 * laz-perf (WASM). With workers, chunks decode in parallel (each chunk is
 * independent) while results are yielded in file order; at most two chunks
 * per worker are in flight, so memory stays bounded.
 */
export async function createLazReader(
  source: ByteSource,
  header: LasHeader,
  crs: CrsInfo | null,
): Promise<PointCloudReader> {
  const chunks = await readLazChunkTable(source, header);
  return {
    kind: 'laz',
    header,
    crs,
    crsRequired: crs === null,
    read: (options: ReadOptions = {}) => readLaz(source, header, chunks, options),
    close: () => source.close(),
  };
}

async function* readLaz(
  source: ByteSource,
  header: LasHeader,
  chunks: LazChunk[],
  options: ReadOptions,
): AsyncIterable<PointChunk> {
  if (outsideBounds(header, options.bbox)) return;
  const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_CHUNK_SIZE));
  const workers = Math.min(options.workers ?? availableParallelism(), chunks.length < MIN_CHUNKS_FOR_WORKERS ? 0 : 16);
  const pool = workers > 0 ? sharedDecodePool(workers) : null;
  const { pointFormat, recordLength } = header;
  const inFlight: Promise<PointChunk>[] = [];
  const wrap = (error: unknown, index: number): never => {
    if (error instanceof EngineError) throw error;
    throw new InvalidInput(
      `laz.chunk[${index}]`,
      `cannot decompress: ${(error as Error).message}`,
      chunks[index]!.offset,
    );
  };
  const emit = (records: Uint8Array, n: number) => recordsToChunk(records, n, header, options.bbox);
  try {
    if (!pool) {
      // Inline: decode each chunk incrementally, chunkSize records at a time.
      for (let index = 0; index < chunks.length; index++) {
        const chunk = chunks[index]!;
        const compressed = await source.read(chunk.offset, chunk.byteLength);
        const stream = await openLazChunk(compressed, pointFormat, recordLength).catch((e) => wrap(e, index));
        try {
          for (let start = 0; start < chunk.pointCount; start += chunkSize) {
            throwIfAborted(options.signal);
            const n = Math.min(chunkSize, chunk.pointCount - start);
            let records: Uint8Array;
            try {
              records = stream.read(n);
            } catch (error) {
              wrap(error, index);
            }
            const out = emit(records!, n);
            if (out.count > 0) yield out;
          }
        } finally {
          stream.close();
        }
      }
      return;
    }
    // Workers: whole chunks decode to columns in parallel, yielded in file order.
    const decodeOne = async (index: number): Promise<PointChunk> => {
      const chunk = chunks[index]!;
      const compressed = await source.read(chunk.offset, chunk.byteLength);
      return pool.decodeColumns(compressed, header, chunk.pointCount).catch((e) => wrap(e, index));
    };
    const depth = workers * 2;
    let next = 0;
    for (let index = 0; index < chunks.length; index++) {
      while (next < chunks.length && inFlight.length < depth) {
        const promise = decodeOne(next++);
        promise.catch(() => {}); // awaited below in order; avoid unhandled rejections meanwhile
        inFlight.push(promise);
      }
      throwIfAborted(options.signal);
      const columns = await inFlight.shift()!;
      const count = chunks[index]!.pointCount;
      for (let start = 0; start < count; start += chunkSize) {
        if (start > 0) throwIfAborted(options.signal);
        const out = clipChunk(sliceChunk(columns, start, Math.min(count, start + chunkSize)), options.bbox);
        if (out.count > 0) yield out;
      }
    }
  } catch (error) {
    if (error instanceof Cancelled || error instanceof EngineError) throw error;
    throw new InvalidInput('laz', `cannot decompress: ${(error as Error).message}`, header.pointDataOffset);
  } finally {
    await Promise.allSettled(inFlight);
  }
}
