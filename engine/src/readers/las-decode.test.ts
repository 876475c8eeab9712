/**
 * The LAS reader (WebAssembly decoder, records read into its memory) gives
 * the chunks of the JavaScript decoder, for every point format and chunking,
 * with and without `reuse`; and both record decoders agree with a
 * field-by-field reference decoder (LAS 1.4 R15 tables 7–16) on the records
 * of every real file, LAS and LAZ, and on random records of every format.
 */
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { REAL_FILES } from '@nuage/fixtures/real-files.js';
import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { DIMENSIONS, type DimensionName } from '../core/dimensions.js';
import { memorySource, openFileSource } from './byte-source.js';
import { openPointCloudBytes } from './index.js';
import { emptyLas } from './las-bytes.test-helper.js';
import { type LasHeader, readLasHeader } from './las-header.js';
import { readLazChunkTable } from './laz-chunk-table.js';
import { decodeLazChunk } from './laz-decode.mjs';
import type { ReadOptions } from './point-cloud-reader.js';
import { columnBytes, decodeRecords } from './record-decoder.js';
import { WasmRecordDecoder } from './record-decoder-wasm.js';

/** A LAS file of `count` records of `format` whose bytes are pseudo-random (every field value occurs). */
function randomLas(format: number, count: number, extraBytes: number, seed: number): Uint8Array {
  const { bytes, headerSize } = emptyLas(format, count, extraBytes, [0.01, 0.001, 0.25], [500000, -20, 7.5]);
  let state = seed >>> 0 || 1;
  for (let p = headerSize; p < bytes.length; p++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[p] = state & 255;
  }
  return bytes;
}

const COLUMNS = Object.keys(DIMENSIONS) as DimensionName[];

/** Every column of a chunk, copied (a reused chunk is overwritten by the next one). */
function snapshot(chunk: PointChunk): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const key of COLUMNS) {
    const column = chunk[key];
    if (column) out[key] = Array.from(column.subarray(0, chunk.count));
  }
  for (const [name, column] of Object.entries(chunk.extra ?? {}))
    out[`extra.${name}`] = Array.from(column.subarray(0, chunk.count));
  return out;
}

/** Every chunk the LAS reader yields, copied, and the buffers their columns live in. */
async function readerChunks(bytes: Uint8Array, options: ReadOptions) {
  const reader = await openPointCloudBytes(bytes);
  expect(reader.kind).toBe('las');
  const chunks: Record<string, number[]>[] = [];
  const buffers = new Set<ArrayBufferLike>();
  for await (const chunk of reader.read(options)) {
    chunks.push(snapshot(chunk));
    buffers.add(chunk.x.buffer);
    // Every fixed column in one memory.
    expect(COLUMNS.every((key) => !chunk[key] || chunk[key].buffer === chunk.x.buffer)).toBe(true);
    expect(chunk.x.length).toBeGreaterThanOrEqual(chunk.count);
  }
  await reader.close();
  return { chunks, buffers };
}

/** The same file's records cut into chunks and decoded by decodeRecords (JavaScript). */
async function decodedChunks(bytes: Uint8Array, chunkSize: number): Promise<Record<string, number[]>[]> {
  const header = await readLasHeader(memorySource(bytes));
  const records = bytes.subarray(header.pointDataOffset);
  const chunks: Record<string, number[]>[] = [];
  for (let start = 0; start < header.pointCount; start += chunkSize) {
    const count = Math.min(chunkSize, header.pointCount - start);
    const length = header.recordLength;
    chunks.push(snapshot(decodeRecords(records.subarray(start * length, (start + count) * length), count, header)));
  }
  return chunks;
}

/** Reads with the reader and checks every chunk against decodeRecords. */
async function expectReaderMatchesDecodeRecords(bytes: Uint8Array, options: ReadOptions & { chunkSize: number }) {
  const read = await readerChunks(bytes, options);
  const expected = await decodedChunks(bytes, options.chunkSize);
  expect(read.chunks.length).toBe(expected.length);
  for (let c = 0; c < expected.length; c++) expect(read.chunks[c]).toEqual(expected[c]);
  // With reuse, one memory for every chunk (no allocation per chunk); without, a buffer per chunk.
  expect(read.buffers.size).toBe(options.reuse ? 1 : read.chunks.length);
}

describe('LAS reader with the WebAssembly decoder', () => {
  it.each(Array.from({ length: 11 }, (_, f) => f))(
    'point format %i: the chunks of decodeRecords, reused or fresh',
    async (format) => {
      const bytes = randomLas(format, 50_001, 3, 1234 + format);
      await expectReaderMatchesDecodeRecords(bytes, { chunkSize: 4096, reuse: true });
      await expectReaderMatchesDecodeRecords(bytes, { chunkSize: 5000 });
      await expectReaderMatchesDecodeRecords(bytes, { chunkSize: 49_999, reuse: true });
    },
  );

  it.skipIf(!hasRealData())('reads the real LAS files as decodeRecords decodes them', async () => {
    for (const facts of REAL_FILES.filter((f) => !f.compressed)) {
      const source = await openFileSource(realFile(facts.file));
      const bytes = await source.read(0, source.size);
      await source.close();
      await expectReaderMatchesDecodeRecords(bytes, { chunkSize: 1000, reuse: true });
      await expectReaderMatchesDecodeRecords(bytes, { chunkSize: 2500 });
    }
  });
});

/** Field-by-field decode of one record, straight from the LAS 1.4 R15 tables. */
function referenceRecord(view: DataView, p: number, header: LasHeader): Record<string, number> {
  const { layout, scale, offset } = header;
  const out: Record<string, number> = {
    x: view.getInt32(p, true) * scale[0] + offset[0],
    y: view.getInt32(p + 4, true) * scale[1] + offset[1],
    z: view.getInt32(p + 8, true) * scale[2] + offset[2],
    intensity: view.getUint16(p + 12, true),
    userData: view.getUint8(p + 17),
  };
  const a = view.getUint8(p + 14);
  const b = view.getUint8(p + 15);
  if (layout.extended) {
    Object.assign(out, {
      returnNumber: a & 0x0f,
      numberOfReturns: a >> 4,
      classFlags: b & 0x0f,
      scannerChannel: (b >> 4) & 3,
      scanDirection: (b >> 6) & 1,
      edgeOfFlightLine: (b >> 7) & 1,
      classification: view.getUint8(p + 16),
      scanAngle: Math.fround(view.getInt16(p + 18, true) * 0.006),
      pointSourceId: view.getUint16(p + 20, true),
    });
  } else {
    Object.assign(out, {
      returnNumber: a & 7,
      numberOfReturns: (a >> 3) & 7,
      scanDirection: (a >> 6) & 1,
      edgeOfFlightLine: (a >> 7) & 1,
      classification: b & 0x1f,
      classFlags: b >> 5,
      scanAngle: view.getInt8(p + 16),
      pointSourceId: view.getUint16(p + 18, true),
    });
  }
  if (layout.gpsTime >= 0) out.gpsTime = view.getFloat64(p + layout.gpsTime, true);
  if (layout.rgb >= 0) {
    out.red = view.getUint16(p + layout.rgb, true);
    out.green = view.getUint16(p + layout.rgb + 2, true);
    out.blue = view.getUint16(p + layout.rgb + 4, true);
  }
  if (layout.nir >= 0) out.nir = view.getUint16(p + layout.nir, true);
  for (const field of header.extraBytes) {
    const at = p + field.recordOffset;
    const raw = [
      () => view.getUint8(at),
      () => view.getInt8(at),
      () => view.getUint16(at, true),
      () => view.getInt16(at, true),
      () => view.getUint32(at, true),
      () => view.getInt32(at, true),
      () => Number(view.getBigUint64(at, true)),
      () => Number(view.getBigInt64(at, true)),
      () => view.getFloat32(at, true),
      () => view.getFloat64(at, true),
    ][field.dataType - 1]!();
    out[`extra.${field.name}`] = raw * field.scale + field.offset;
  }
  return out;
}

/** The WebAssembly decoder over records copied into its memory. */
function wasmDecode(records: Uint8Array, count: number, header: LasHeader): PointChunk {
  // Records at an odd offset (read unaligned), columns longer than the chunk (strided by capacity).
  const decoder = new WasmRecordDecoder(header, records.byteLength + 3, count + 5);
  decoder.bytesAt(3, records.byteLength).set(records);
  return decoder.decode(3, count);
}

/**
 * Checks decodeRecords (fresh memory, and an offset region of shared memory)
 * and the WebAssembly decoder against the reference.
 */
function expectMatchesReference(records: Uint8Array, count: number, header: LasHeader): void {
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const shared = new SharedArrayBuffer(columnBytes(count, header) + 64);
  for (const chunk of [
    decodeRecords(records, count, header),
    decodeRecords(records, count, header, new Uint8Array(shared, 16, columnBytes(count, header))),
    wasmDecode(records, count, header),
  ]) {
    const columns = snapshot(chunk);
    const keys = Object.keys(referenceRecord(view, 0, header)).sort();
    expect(Object.keys(columns).sort()).toEqual(keys);
    for (let i = 0; i < count; i++) {
      const expected = referenceRecord(view, i * header.recordLength, header);
      for (const key of keys) {
        if (!Object.is(columns[key]![i], expected[key])) {
          expect({ point: i, key, value: columns[key]![i] }).toEqual({ point: i, key, value: expected[key] });
        }
      }
    }
  }
}

describe.skipIf(!hasRealData())('record decoder against a field-by-field reference', () => {
  it.each(REAL_FILES.map((f) => [f.file, f.compressed] as const))('%s', async (file, compressed) => {
    const source = await openFileSource(realFile(file));
    const header = await readLasHeader(source);
    let records: Uint8Array;
    let count: number;
    if (compressed) {
      // The records of the first LAZ chunk, decoded.
      const [first] = await readLazChunkTable(source, header);
      count = first!.pointCount;
      const bytes = await source.read(first!.offset, first!.byteLength);
      records = await decodeLazChunk(bytes, header.pointFormat, header.recordLength, count);
    } else {
      count = header.pointCount;
      records = await source.read(header.pointDataOffset, count * header.recordLength);
    }
    await source.close();
    expectMatchesReference(records, count, header);
  });

  it.each(Array.from({ length: 11 }, (_, f) => f))('random records of point format %i', async (format) => {
    const bytes = randomLas(format, 3000, 5, 77 + format);
    const header = await readLasHeader(memorySource(bytes));
    expectMatchesReference(bytes.subarray(header.pointDataOffset), header.pointCount, header);
  });
});
