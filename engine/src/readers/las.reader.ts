import { DEFAULT_CHUNK_SIZE, type PointChunk } from '../core/chunk.js';
import type { CrsInfo } from '../crs/index.js';
import type { ByteSource } from './byte-source.js';
import type { LasHeader } from './las-header.js';
import {
  clipChunk,
  outsideBounds,
  type PointCloudReader,
  type ReadOptions,
  throwIfAborted,
} from './point-cloud-reader.js';
import { WasmRecordDecoder } from './record-decoder-wasm.js';

/** Blocks read ahead of the one being decoded. */
const READ_AHEAD = 4;

/**
 * Most points per block (and chunk): the decoder's memory holds several
 * blocks and WebAssembly memory stops at 4 GiB, so a huge `chunkSize` gets
 * chunks of this size instead.
 */
const MAX_BLOCK_POINTS = 1 << 22;

/** Reader metadata (loaders.gl style): id, extensions and magic bytes. */
export const LAS_READER = { id: 'readers.las', name: 'LAS', extensions: ['las'], magic: 'LASF' } as const;

/**
 * Uncompressed LAS 1.0–1.4 reader: reads `chunkSize` records at a time
 * through the file handle, a few blocks ahead, straight into the memory of a
 * WebAssembly record decoder (record-decoder-wasm.ts), which decodes them to
 * columns in the same memory. Memory is bounded by a few chunks whatever the
 * file size. With `reuse` the chunks' columns are views of that memory,
 * overwritten chunk after chunk, so nothing is allocated per chunk; without,
 * each chunk gets a copy.
 *
 * Decoding stays on the reading thread. Splitting the blocks with a worker
 * thread over shared memory (JavaScript, then WebAssembly decode) was
 * measured no faster on the 22.7 M-point mosaic of the read benchmark with
 * the other processes of this 2-core machine running: 0.91 against 0.95 of
 * the cold raw read (medians of 6 rounds), and more CPU per point.
 */
export function createLasReader(source: ByteSource, header: LasHeader, crs: CrsInfo | null): PointCloudReader {
  return {
    kind: 'las',
    header,
    crs,
    crsRequired: crs === null,
    read(options: ReadOptions = {}): AsyncIterable<PointChunk> {
      const chunkSize = Math.min(MAX_BLOCK_POINTS, Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_CHUNK_SIZE)));
      return readBlocks(source, header, chunkSize, options);
    },
    close: () => source.close(),
  };
}

/** Rounds up to a multiple of 8 (column sets and input slots start 8-byte aligned). */
const aligned = (bytes: number) => Math.ceil(bytes / 8) * 8;

/** The chunk just decoded with columns of its own: a copy of the decoder's column set. */
function ownColumns(decoder: WasmRecordDecoder, records: number, count: number): PointChunk {
  const { columnsAt, columnsBytes } = decoder;
  const buffer = new ArrayBuffer(columnsBytes);
  new Uint8Array(buffer).set(decoder.bytesAt(columnsAt, columnsBytes));
  return decoder.chunkOver(buffer, 0, records, count);
}

/**
 * Reads blocks a few ahead straight into the WebAssembly decoder's memory
 * and decodes them there, on this thread. With `reuse` the chunk's columns
 * are views of that memory too (overwritten by the next chunk); without, they
 * are copied out to a buffer of their own.
 */
async function* readBlocks(
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
  const decoder = new WasmRecordDecoder(header, depth * slotBytes, perBlock);
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
      const records = (b % depth) * slotBytes;
      let chunk = decoder.decode(records, count);
      if (!options.reuse) chunk = ownColumns(decoder, records, count);
      // The slot just decoded is free again: queue the next read into it.
      fill();
      chunk = clipChunk(chunk, options.bbox);
      if (chunk.count > 0) yield chunk;
    }
  } finally {
    await Promise.allSettled(pending);
  }
}
