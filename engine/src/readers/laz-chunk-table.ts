import { InvalidInput } from '../core/errors.js';
import type { ByteSource } from './byte-source.js';
import type { LasHeader } from './las-header.js';
import { ArithmeticDecoder } from './lazjs/arithmetic-decoder.js';
import { IntegerDecompressor } from './lazjs/integer-decompressor.js';

/** Largest decoded chunk accepted (512 MB): keeps memory bounded on corrupt chunk sizes. */
const MAX_CHUNK_BYTES = 512 * 1024 * 1024;

/** One independently decodable LAZ chunk. */
export interface LazChunk {
  /** Absolute byte offset of the compressed chunk. */
  offset: number;
  /** Compressed size in bytes. */
  byteLength: number;
  pointCount: number;
}

/**
 * Reads the LAZ chunk table: where each compressed chunk starts, its size
 * and its point count. Validates every number against the file before
 * allocating from it, so a corrupt table is an InvalidInput, not a huge array.
 */
export async function readLazChunkTable(source: ByteSource, header: LasHeader): Promise<LazChunk[]> {
  const laszip = header.laszip!;
  const start = header.pointDataOffset;
  const dataEnd =
    header.versionMinor >= 4 && header.evlrCount > 0 && header.evlrOffset > 0 ? header.evlrOffset : source.size;
  if (header.pointCount === 0) return [];
  if (start + 8 > dataEnd)
    throw new InvalidInput(
      'laz.chunkTableOffset',
      'point data too short for the chunk table offset (truncated)',
      start,
    );
  const raw = await source.read(start, 8);
  let tableOffset = Number(new DataView(raw.buffer, raw.byteOffset, 8).getBigInt64(0, true));
  if (tableOffset === -1) {
    // Written by a streaming encoder: the real offset is in the last 8 bytes.
    const tail = await source.read(source.size - 8, 8);
    tableOffset = Number(new DataView(tail.buffer, tail.byteOffset, 8).getBigInt64(0, true));
  }
  const chunksStart = start + 8;
  if (!(tableOffset >= chunksStart && tableOffset + 8 <= source.size)) {
    throw new InvalidInput(
      'laz.chunkTableOffset',
      `chunk table at byte ${tableOffset} is outside the file (${chunksStart}..${source.size - 8})`,
      start,
    );
  }
  const th = await source.read(tableOffset, 8);
  const tv = new DataView(th.buffer, th.byteOffset, 8);
  const version = tv.getUint32(0, true);
  const numberOfChunks = tv.getUint32(4, true);
  if (version !== 0)
    throw new InvalidInput('laz.chunkTable.version', `unknown chunk table version ${version}`, tableOffset);
  const variable = laszip.chunkSize === 0xffffffff;
  // Each chunk stores its first point raw, so it takes at least one record.
  const maxChunks = Math.floor((tableOffset - chunksStart) / Math.max(1, header.recordLength));
  if (numberOfChunks > maxChunks || numberOfChunks === 0) {
    throw new InvalidInput(
      'laz.chunkTable.numberOfChunks',
      `${numberOfChunks} chunks cannot fit in ${tableOffset - chunksStart} bytes of point data`,
      tableOffset + 4,
    );
  }
  if (!variable) {
    const needed = Math.ceil(header.pointCount / laszip.chunkSize);
    if (needed !== numberOfChunks) {
      throw new InvalidInput(
        'header.pointCount',
        `${header.pointCount} points make ${needed} chunks of ${laszip.chunkSize} but the file has ${numberOfChunks} (declared points cannot fit)`,
        header.versionMinor >= 4 ? 247 : 107,
      );
    }
  }
  const tableEnd = Math.min(source.size, tableOffset + 8 + numberOfChunks * 10 + 64);
  const tableBytes = await source.read(tableOffset + 8, tableEnd - tableOffset - 8);
  // The table is coded like the points: LASzip's IntegerCompressor (32 bits, 2 contexts).
  const dec = new ArithmeticDecoder();
  const ic = new IntegerDecompressor(dec, 32, 2);
  dec.init(tableBytes, 0, tableBytes.length);
  const chunks: LazChunk[] = [];
  let offset = chunksStart;
  let prevBytes = 0;
  let prevCount = 0;
  let remaining = header.pointCount;
  for (let i = 0; i < numberOfChunks; i++) {
    let count: number;
    if (variable) {
      count = ic.decompress(prevCount, 0);
      prevCount = count;
    } else {
      count = Math.min(laszip.chunkSize, remaining);
    }
    const bytes = ic.decompress(prevBytes, 1);
    prevBytes = bytes;
    if (bytes <= 0 || offset + bytes > tableOffset) {
      throw new InvalidInput(
        `laz.chunkTable[${i}].byteLength`,
        `chunk of ${bytes} bytes at byte ${offset} runs past the chunk table (${tableOffset})`,
        tableOffset,
      );
    }
    if (count < 0 || count > remaining) {
      throw new InvalidInput(
        `laz.chunkTable[${i}].pointCount`,
        `chunk of ${count} points exceeds the ${remaining} points left of the header count`,
        tableOffset,
      );
    }
    // LASzip never stores a point in less than ~1/100 of a byte, and one decoded chunk must stay small.
    if (count > bytes * 100 || count * header.recordLength > MAX_CHUNK_BYTES) {
      throw new InvalidInput(
        `laz.chunkTable[${i}].pointCount`,
        `${count} points cannot fit in a ${bytes}-byte chunk (declared points could not fit)`,
        tableOffset,
      );
    }
    if (count > 0) chunks.push({ offset, byteLength: bytes, pointCount: count });
    remaining -= count;
    offset += bytes;
  }
  if (remaining !== 0) {
    throw new InvalidInput(
      'header.pointCount',
      `header declares ${header.pointCount} points but the chunks hold ${header.pointCount - remaining} (truncated or wrong count)`,
      header.versionMinor >= 4 ? 247 : 107,
    );
  }
  return chunks;
}
