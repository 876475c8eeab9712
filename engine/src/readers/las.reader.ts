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
  throwIfAborted,
} from './point-cloud-reader.js';
import { carveColumns, columnBytes } from './record-decoder.js';
import { sharedDecoderMemory, WasmRecordDecoder } from './record-decoder-wasm.js';

/** Blocks read ahead of the one being decoded. */
const READ_AHEAD = 4;

/**
 * Most points per block (and chunk): the decoder's memory holds several
 * blocks and WebAssembly memory stops at 4 GiB, so a huge `chunkSize` gets
 * chunks of this size instead.
 */
const MAX_BLOCK_POINTS = 1 << 22;

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
 * through the file handle, a few blocks ahead, straight into the memory of a
 * WebAssembly record decoder (record-decoder-wasm.ts), which decodes them to
 * columns in the same memory. Memory is bounded by a few chunks whatever the
 * file size. With `reuse` the chunks' columns are views of that memory, so
 * nothing is allocated per chunk; without, each chunk gets a copy.
 *
 * On files of a million points or more (and two cores or more), a worker
 * thread decodes every other block while this thread decodes the rest, over
 * memory both share. Chunks come out in file order either way; `workers: 0`
 * keeps the decode on this thread.
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
      const chunkSize = Math.min(MAX_BLOCK_POINTS, Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_CHUNK_SIZE)));
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

/** Rounds up to a multiple of 8 (column sets and input slots start 8-byte aligned). */
const aligned = (bytes: number) => Math.ceil(bytes / 8) * 8;

/** A copy of `count` points' columns at byte `at` of the decoder's memory, in a buffer of their own. */
function ownColumns(decoder: WasmRecordDecoder, at: number, count: number, header: LasHeader, chunk: PointChunk) {
  const bytes = columnBytes(count, header);
  const buffer = new ArrayBuffer(bytes);
  new Uint8Array(buffer).set(decoder.bytesAt(at, bytes));
  const own = carveColumns(buffer, 0, count, header);
  if (chunk.extra) own.extra = chunk.extra;
  return own;
}

/**
 * Reads blocks a few ahead straight into the WebAssembly decoder's memory
 * and decodes them there, on this thread. With `reuse` the chunk's columns
 * are views of that memory too (overwritten by the next chunk); without, they
 * are copied out to a buffer of their own.
 */
async function* readInline(
  source: ByteSource,
  header: LasHeader,
  chunkSize: number,
  options: ReadOptions,
): AsyncIterable<PointChunk> {
  if (outsideBounds(header, options.bbox)) return;
  const length = header.recordLength;
  const total = header.pointCount;
  const perBlock = Math.min(chunkSize, Math.max(1, total));
  const blocks = Math.ceil(total / chunkSize);
  const countOf = (b: number) => Math.min(chunkSize, total - b * chunkSize);

  // A ring of READ_AHEAD input slots: the next reads are in flight while the
  // current block is decoded, so the disk (which serves several requests at
  // once) and the CPU overlap. Then one set of columns.
  const depth = Math.min(READ_AHEAD, Math.max(1, blocks));
  const slotBytes = aligned(perBlock * length);
  const columnsAt = depth * slotBytes;
  const decoder = new WasmRecordDecoder(header, columnsAt + columnBytes(perBlock, header));
  const pending: Promise<Uint8Array>[] = [];
  let next = 0;
  const fill = () => {
    while (next < blocks && pending.length < depth) {
      const b = next++;
      const into = decoder.bytesAt((b % depth) * slotBytes, countOf(b) * length);
      const read = source.read(header.pointDataOffset + b * chunkSize * length, countOf(b) * length, into);
      read.catch(() => {}); // awaited in order below
      pending.push(read);
    }
  };
  try {
    fill();
    for (let b = 0; b < blocks; b++) {
      throwIfAborted(options.signal);
      const count = countOf(b);
      await pending.shift()!;
      let chunk = decoder.decode((b % depth) * slotBytes, count, columnsAt);
      if (!options.reuse) chunk = ownColumns(decoder, columnsAt, count, header, chunk);
      // The slot just decoded is free again: queue the next read into it.
      fill();
      chunk = clipChunk(chunk, options.bbox);
      if (chunk.count > 0) yield chunk;
    }
  } finally {
    await Promise.allSettled(pending);
  }
}

/**
 * Reads blocks ahead into memory shared with the decode worker and splits
 * their decode: odd blocks go to the worker (at most two queued, so it never
 * waits for this thread), even blocks are decoded here, ahead of the consumer
 * while the worker finishes the block before. Until the worker has started,
 * every block is decoded here.
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
  // block b has been handed to the consumer. Its columns go to set
  // b % COLUMN_SETS: blocks current..current+COLUMN_SETS-1 never share a set,
  // and the consumer has let go of every block before `current`.
  const slots = READ_AHEAD + COLUMN_SETS;
  const slotBytes = aligned(chunkSize * length);
  const setBytes = aligned(columnBytes(chunkSize, header));
  const memoryBytes = slots * slotBytes + COLUMN_SETS * setBytes;
  const memory = sharedDecoderMemory(memoryBytes);
  const decoder = new WasmRecordDecoder(header, memoryBytes, memory);
  const recordsAt = (b: number) => (b % slots) * slotBytes;
  const columnsAt = (b: number) => slots * slotBytes + (b % COLUMN_SETS) * setBytes;
  const copyBytes = (b: number) => (options.reuse ? 0 : columnBytes(countOf(b), header));
  let reader = -1;

  const reads: (Promise<Uint8Array> | undefined)[] = new Array(blocks);
  const read = new Uint8Array(blocks); // 1 once block b's bytes are in
  const atWorker: (Promise<PointChunk> | undefined)[] = new Array(blocks);
  const decodedAhead: (PointChunk | undefined)[] = new Array(blocks);
  let current = 0;

  // Odd blocks go to the worker in order, as soon as their bytes are in
  // (never waiting for a read: the disk may be the slower side), while they
  // are after the consumer's block and within COLUMN_SETS of it.
  let nextForWorker = 1;
  let stopped = false;
  const feedWorker = () => {
    if (stopped || !thread.usable) return;
    if (nextForWorker <= current) nextForWorker = current + 1 + (current % 2);
    while (nextForWorker < blocks && nextForWorker < current + COLUMN_SETS && read[nextForWorker]) {
      const b = nextForWorker;
      if (reader < 0) reader = thread.open(decoder);
      const job = thread
        .decode(reader, recordsAt(b), countOf(b), columnsAt(b), copyBytes(b))
        .then((own) =>
          own
            ? decoder.chunk(recordsAt(b), countOf(b), own, 0)
            : decoder.chunk(recordsAt(b), countOf(b), memory.buffer, columnsAt(b)),
        );
      job.catch(() => {}); // awaited below
      atWorker[b] = job;
      nextForWorker += 2;
    }
  };
  let nextRead = 0;
  const fill = () => {
    while (nextRead < blocks && nextRead < current + slots) {
      const b = nextRead++;
      const into = decoder.bytesAt(recordsAt(b), countOf(b) * length);
      const done = source.read(header.pointDataOffset + b * chunkSize * length, countOf(b) * length, into);
      done.then(
        () => {
          read[b] = 1;
          feedWorker();
        },
        () => {}, // awaited below
      );
      reads[b] = done;
    }
  };
  const decodeHere = async (b: number) => {
    await reads[b];
    const chunk = decoder.decode(recordsAt(b), countOf(b), columnsAt(b));
    return options.reuse ? chunk : ownColumns(decoder, columnsAt(b), countOf(b), header, chunk);
  };

  try {
    for (current = 0; current < blocks; current++) {
      throwIfAborted(options.signal);
      const b = current;
      fill();
      feedWorker();
      if (thread.usable && nextForWorker === b + 1 && b + 1 < blocks && !read[b + 1]) {
        // The worker would sit idle while this thread decodes block b: wait
        // for the next block's bytes (the one after this) and send it first.
        await reads[b + 1];
        read[b + 1] = 1;
        feedWorker();
      }
      let chunk = decodedAhead[b];
      if (!chunk) {
        const job = atWorker[b];
        if (job) {
          // While the worker finishes block b, decode the next one here if its bytes are in.
          const next = b + 1;
          if (next < blocks && read[next] && !atWorker[next] && !decodedAhead[next])
            decodedAhead[next] = await decodeHere(next);
          // Should the worker die, its block is still in memory: decode it here.
          chunk = await job.catch(() => decodeHere(b));
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
    stopped = true;
    await Promise.allSettled([...reads, ...atWorker].filter((p) => p !== undefined));
    if (reader >= 0) thread.close(reader);
  }
}
