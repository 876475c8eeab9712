import { availableParallelism } from 'node:os';
import { DEFAULT_CHUNK_SIZE, type PointChunk } from '../core/chunk.js';
import type { CrsInfo } from '../crs/index.js';
import type { ByteSource } from './byte-source.js';
import { lasDecodeThread } from './las-decode-thread.js';
import type { LasHeader } from './las-header.js';
import {
  clipChunk,
  outsideBounds,
  type PointCloudReader,
  type ReadOptions,
  recordsToChunk,
  throwIfAborted,
} from './point-cloud-reader.js';
import { columnBytes, decodeRecords } from './record-decoder.js';

/** Blocks read ahead of the one being decoded. */
const READ_AHEAD = 4;

/**
 * Column sets of a reader sharing the decode with the worker: block `b` is
 * decoded into set `b % COLUMN_SETS`, so the worker may run up to this many
 * blocks ahead of the consumer without touching the chunk it holds.
 */
const COLUMN_SETS = 4;

/** Tuning of {@link createLasReader} (tests force the worker on small files). */
export interface LasReaderTuning {
  /** Fewest points for which a worker thread shares the decode (default 1 M). */
  minPointsForWorker?: number;
}

/** Reader metadata (loaders.gl style): id, extensions and magic bytes. */
export const LAS_READER = { id: 'readers.las', name: 'LAS', extensions: ['las'], magic: 'LASF' } as const;

/**
 * Uncompressed LAS 1.0–1.4 reader: reads `chunkSize` records at a time
 * through the file handle, a few blocks ahead, and decodes them column-wise.
 * Memory is bounded by a few chunks whatever the file size.
 *
 * On files of a million points or more (and two cores or more), a worker
 * thread decodes every other block while this thread decodes the rest: the
 * records are read into shared memory and the columns are written to shared,
 * recycled memory (with `reuse`), so nothing is copied or allocated per block.
 * Chunks come out in file order either way. `workers: 0` keeps the decode on
 * this thread.
 */
export function createLasReader(
  source: ByteSource,
  header: LasHeader,
  crs: CrsInfo | null,
  tuning: LasReaderTuning = {},
): PointCloudReader {
  const minPointsForWorker = tuning.minPointsForWorker ?? 1_000_000;
  return {
    kind: 'las',
    header,
    crs,
    crsRequired: crs === null,
    read(options: ReadOptions = {}): AsyncIterable<PointChunk> {
      const chunkSize = Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_CHUNK_SIZE));
      const shared =
        options.workers !== 0 &&
        availableParallelism() > 1 &&
        header.pointCount >= minPointsForWorker &&
        header.pointCount > chunkSize;
      return shared ? readShared(source, header, chunkSize, options) : readInline(source, header, chunkSize, options);
    },
    close: () => source.close(),
  };
}

/** Reads and decodes every block on this thread. */
async function* readInline(
  source: ByteSource,
  header: LasHeader,
  chunkSize: number,
  options: ReadOptions,
): AsyncIterable<PointChunk> {
  if (outsideBounds(header, options.bbox)) return;
  const length = header.recordLength;
  const total = header.pointCount;

  // A ring of READ_AHEAD buffers: the next reads are in flight while the
  // current block is decoded, so the disk (which serves several requests
  // at once) and the CPU overlap. The columns are decoded out of the
  // buffers, which are reused.
  const size = Math.min(chunkSize, Math.max(1, total)) * length;
  const depth = Math.min(READ_AHEAD, Math.max(1, Math.ceil(total / chunkSize)));
  const buffers = Array.from({ length: depth }, () => new Uint8Array(size));
  const pending: Promise<Uint8Array>[] = [];
  let next = 0;
  const fill = () => {
    while (next < total && pending.length < depth) {
      const start = next;
      const read = source.read(
        header.pointDataOffset + start * length,
        Math.min(chunkSize, total - start) * length,
        buffers[(start / chunkSize) % depth],
      );
      read.catch(() => {}); // awaited in order below
      pending.push(read);
      next += chunkSize;
    }
  };
  let recycled: ArrayBuffer | undefined;
  try {
    fill();
    for (let start = 0; start < total; start += chunkSize) {
      throwIfAborted(options.signal);
      const count = Math.min(chunkSize, total - start);
      const bytes = await pending.shift()!;
      const chunk = recordsToChunk(bytes, count, header, options.bbox, recycled);
      // The buffer just decoded is free again: queue the next read into it.
      fill();
      if (options.reuse) recycled = chunk.x.buffer as ArrayBuffer;
      if (chunk.count > 0) yield chunk;
    }
  } finally {
    await Promise.allSettled(pending);
  }
}

/**
 * Reads blocks ahead into shared memory and splits their decode: odd blocks
 * go to the decode worker (at most two queued, so it never waits for this
 * thread), even blocks are decoded here, ahead of the consumer while the
 * worker finishes the block before. Until the worker has started, every
 * block is decoded here.
 */
async function* readShared(
  source: ByteSource,
  header: LasHeader,
  chunkSize: number,
  options: ReadOptions,
): AsyncIterable<PointChunk> {
  if (outsideBounds(header, options.bbox)) return;
  const thread = lasDecodeThread();
  const length = header.recordLength;
  const total = header.pointCount;
  const blocks = Math.ceil(total / chunkSize);
  const countOf = (b: number) => Math.min(chunkSize, total - b * chunkSize);

  // Block b is read into input slot b % slots, which is free again once
  // block b has been handed to the consumer.
  const slots = READ_AHEAD + COLUMN_SETS;
  const slotBytes = chunkSize * length;
  const input = new SharedArrayBuffer(slots * slotBytes);
  const inputOf = (b: number) => new Uint8Array(input, (b % slots) * slotBytes, countOf(b) * length);
  // With reuse, block b's columns go to set b % COLUMN_SETS (8-byte aligned):
  // blocks current..current+COLUMN_SETS-1 never share a set, and the
  // consumer has let go of every block before `current`.
  const setBytes = Math.ceil(columnBytes(chunkSize, header) / 8) * 8;
  const columns = options.reuse ? new SharedArrayBuffer(COLUMN_SETS * setBytes) : null;
  const columnsOf = (b: number) =>
    columns ? new Uint8Array(columns, (b % COLUMN_SETS) * setBytes, setBytes) : undefined;

  const reads: (Promise<Uint8Array> | undefined)[] = new Array(blocks);
  const atWorker: (Promise<PointChunk> | undefined)[] = new Array(blocks);
  const decodedAhead: (PointChunk | undefined)[] = new Array(blocks);
  let nextRead = 0;
  const fill = (current: number) => {
    while (nextRead < blocks && nextRead < current + slots) {
      const b = nextRead++;
      const read = source.read(header.pointDataOffset + b * chunkSize * length, countOf(b) * length, inputOf(b));
      read.catch(() => {}); // awaited below
      reads[b] = read;
    }
  };
  const decodeHere = async (b: number) => {
    const bytes = await reads[b]!;
    return decodeRecords(bytes, countOf(b), header, columnsOf(b));
  };

  try {
    for (let b = 0; b < blocks; b++) {
      throwIfAborted(options.signal);
      fill(b);
      // Keep the worker fed: the next odd block not yet sent, once read.
      if (thread.usable) {
        let j = b + 1 + (b % 2);
        while (j < blocks && atWorker[j]) j += 2;
        if (j < b + COLUMN_SETS && j < blocks && !decodedAhead[j]) {
          await reads[j];
          const job = thread.decode(inputOf(j) as Uint8Array<SharedArrayBuffer>, countOf(j), header, columnsOf(j));
          job.catch(() => {}); // awaited below
          atWorker[j] = job;
        }
      }
      let chunk = decodedAhead[b];
      if (!chunk) {
        const job = atWorker[b];
        if (job) {
          // While the worker finishes block b, decode the next block here.
          const next = b + 1;
          if (next < blocks && !atWorker[next] && !decodedAhead[next]) decodedAhead[next] = await decodeHere(next);
          chunk = await job;
        } else {
          chunk = await decodeHere(b);
        }
      }
      reads[b] = undefined;
      atWorker[b] = undefined;
      decodedAhead[b] = undefined;
      chunk = clipChunk(chunk, options.bbox);
      if (chunk.count > 0) yield chunk;
    }
  } finally {
    await Promise.allSettled([...reads, ...atWorker].filter((p) => p !== undefined));
  }
}
