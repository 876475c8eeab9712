import { readFile } from 'node:fs/promises';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeChunk } from '../../writers/laz-chunk-encoder.js';
import { memorySource } from '../byte-source.js';
import { readLasHeader } from '../las-header.js';
import { readLazChunkTable } from '../laz-chunk-table.js';
import { decodeLazChunkWithLazPerf } from '../laz-decode.mjs';
import {
  decodeChunk,
  expectedItems,
  LASZIP_ITEM,
  type LaszipItem,
  openChunk,
  parseLaszipItems,
  supports,
  supportsPointFormat,
} from './chunk-decoder.js';
import { reshapeLayeredChunk } from './testing/layered-chunks.js';
import { prng, syntheticRecords } from './testing/synthetic-records.js';

/** Index of the first differing byte, or -1 (a readable failure instead of a megabyte diff). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Every (point format, record length) the decoder handles, with and without extra bytes. */
const LAYOUTS: [format: number, recordLength: number][] = [
  [0, 20],
  [1, 28],
  [2, 26],
  [3, 34],
  [0, 23],
  [1, 36],
  [2, 27],
  [3, 44],
];

describe('chunks written by a LASzip encoder (formats 0-3, extra bytes)', () => {
  it.each(LAYOUTS)(
    'format %i, %i-byte records: laz-perf and lazjs both give the records back',
    async (format, length) => {
      for (const count of [1, 2, 3, 50, 20000]) {
        const records = syntheticRecords(format, length, count, format * 1000 + length + count);
        const compressed = encodeChunk(records, format, length, count);
        // laz-perf vouches for the encoder; lazjs must then match both.
        const reference = await decodeLazChunkWithLazPerf(compressed, format, length, count);
        expect(firstDifference(reference, records)).toBe(-1);
        expect(firstDifference(decodeChunk(compressed, format, length, count), records)).toBe(-1);
      }
    },
  );

  it('decodes the extreme corrector (a 2^31 jump, k = 32) and int32 wrap-around', async () => {
    const records = new Uint8Array(4 * 28);
    const view = new DataView(records.buffer);
    const xs = [0, -0x80000000, 0x7fffffff, -0x80000000];
    xs.forEach((x, i) => {
      view.setInt32(i * 28, x, true);
      view.setInt32(i * 28 + 4, -x | 0, true);
      view.setInt32(i * 28 + 8, i % 2 ? 0x7fffffff : -0x80000000, true);
      records[i * 28 + 14] = 0x09; // return 1 of 1
      view.setFloat64(i * 28 + 20, i * 1e300, true);
    });
    const compressed = encodeChunk(records, 1, 28, 4);
    expect(firstDifference(await decodeLazChunkWithLazPerf(compressed, 1, 28, 4), records)).toBe(-1);
    expect(firstDifference(decodeChunk(compressed, 1, 28, 4), records)).toBe(-1);
  });

  it('streams a chunk in pieces of any size, as one whole decode', () => {
    const records = syntheticRecords(3, 34, 5000, 42);
    const compressed = encodeChunk(records, 3, 34, 5000);
    const rand = prng(7);
    const stream = openChunk(compressed, 3, 34);
    const parts: Uint8Array[] = [];
    for (let done = 0; done < 5000; ) {
      const n = Math.min(5000 - done, 1 + Math.floor(rand() * 700));
      parts.push(stream.read(n));
      done += n;
    }
    expect(firstDifference(Buffer.concat(parts), records)).toBe(-1);
    stream.close();
    expect(() => stream.read(1)).toThrow(/closed/);
    // The closed stream's decoder serves the next chunk from a clean state.
    expect(firstDifference(decodeChunk(compressed, 3, 34, 5000), records)).toBe(-1);
  });

  it('writes into a caller buffer and refuses one too small', () => {
    const records = syntheticRecords(1, 28, 100, 3);
    const compressed = encodeChunk(records, 1, 28, 100);
    const out = new Uint8Array(100 * 28 + 5);
    expect(decodeChunk(compressed, 1, 28, 100, out)).toBe(out);
    expect(firstDifference(out.subarray(0, 2800), records)).toBe(-1);
    expect(() => decodeChunk(compressed, 1, 28, 100, new Uint8Array(2799))).toThrow(/cannot hold 100 records/);
  });
});

describe('corrupt input never hangs and throws only Errors', () => {
  const records = syntheticRecords(3, 34, 3000, 11);
  const compressed = encodeChunk(records, 3, 34, 3000);

  it('refuses a truncated chunk (its data runs out long before its points)', () => {
    for (const keep of [0.9, 0.5, 0.1]) {
      const cut = compressed.subarray(0, Math.floor(compressed.length * keep));
      expect(() => decodeChunk(cut, 3, 34, 3000)).toThrow(/ends early/);
    }
    expect(() => decodeChunk(compressed.subarray(0, 33), 3, 34, 1)).toThrow(/shorter than one point record/);
  });

  it('refuses point formats it does not decode', () => {
    expect(() => decodeChunk(compressed, 4, 57, 10)).toThrow(/point format 4 is not supported/);
    expect(() => decodeChunk(compressed, 9, 59, 10)).toThrow(/point format 9 is not supported/);
    expect(() => decodeChunk(compressed, 3, 30, 10)).toThrow(/shorter than point format 3/);
    expect(() => decodeChunk(compressed, 7, 35, 10)).toThrow(/shorter than point format 7/);
  });

  it('random bytes, bit flips and truncations: a result of the right size or an Error', () => {
    const check = (bytes: Uint8Array, format: number, length: number, count: number) => {
      let outcome: unknown;
      try {
        outcome = decodeChunk(bytes, format, length, count);
      } catch (error) {
        outcome = error;
      }
      if (outcome instanceof Uint8Array) expect(outcome.length).toBe(count * length);
      else expect(outcome).toBeInstanceOf(Error);
    };
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 400 }),
        fc.constantFrom(...LAYOUTS),
        fc.integer({ min: 1, max: 3000 }),
        (bytes, [format, length], count) => check(bytes, format, length, count),
      ),
      { numRuns: 300, seed: 1 },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(compressed.length - 1), fc.integer({ min: 1, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.nat(compressed.length),
        (flips, end) => {
          const bytes = compressed.slice(0, Math.max(end, 34));
          for (const [at, mask] of flips) if (at < bytes.length) bytes[at]! ^= mask;
          check(bytes, 3, 34, 3000);
        },
      ),
      { numRuns: 200, seed: 2 },
    );
  });
});

describe('supported item sets', () => {
  const item = (type: number, size: number, version = 2): LaszipItem => ({ type, size, version });

  it('describes the items of formats 0-3 and nothing else', () => {
    expect(expectedItems(3, 37)).toEqual([
      item(LASZIP_ITEM.POINT10, 20),
      item(LASZIP_ITEM.GPSTIME11, 8),
      item(LASZIP_ITEM.RGB12, 6),
      item(LASZIP_ITEM.BYTE, 3),
    ]);
    expect(expectedItems(0, 20)).toEqual([item(LASZIP_ITEM.POINT10, 20)]);
    expect(expectedItems(8, 41)).toEqual([
      item(LASZIP_ITEM.POINT14, 30, 3),
      item(LASZIP_ITEM.RGBNIR14, 8, 3),
      item(LASZIP_ITEM.BYTE14, 3, 3),
    ]);
    expect(expectedItems(4, 57)).toBeNull();
    expect(expectedItems(9, 59)).toBeNull();
    expect(expectedItems(1, 27)).toBeNull();
    expect(supportsPointFormat(2, 26)).toBe(true);
    expect(supportsPointFormat(7, 36)).toBe(true);
  });

  it('accepts version 2 point-wise and version 3 layered items only', () => {
    expect(supports([item(6, 20), item(7, 8), item(0, 8)])).toBe(true);
    expect(supports([item(6, 20), item(8, 6)])).toBe(true);
    expect(supports([item(10, 30, 3), item(14, 3, 3)])).toBe(true);
    expect(supports([item(10, 30, 3), item(11, 6, 3)])).toBe(true);
    expect(supports([item(6, 20, 1), item(7, 8, 1)])).toBe(false);
    expect(supports([item(7, 8), item(6, 20)])).toBe(false);
    expect(supports([item(10, 30, 2), item(14, 3, 3)])).toBe(false);
    expect(supports([item(10, 30, 3), item(13, 29, 3)])).toBe(false);
    expect(supports([item(6, 20), item(9, 29)])).toBe(false);
    expect(supports([])).toBe(false);
  });

  it('reads the item list of a LASzip VLR and rejects a short one', () => {
    const vlr = new Uint8Array(34 + 12);
    const view = new DataView(vlr.buffer);
    view.setUint16(32, 2, true);
    [6, 20, 2, 0, 4, 2].forEach((v, i) => {
      view.setUint16(34 + 2 * i, v, true);
    });
    expect(parseLaszipItems(vlr)).toEqual([item(6, 20), item(0, 4)]);
    expect(() => parseLaszipItems(vlr.subarray(0, 40))).toThrow(/room for fewer/);
    expect(() => parseLaszipItems(vlr.subarray(0, 10))).toThrow(/less than 34/);
  });
});

async function realChunks(file: string) {
  const bytes = new Uint8Array(await readFile(realFile(file)));
  const source = memorySource(bytes);
  const header = await readLasHeader(source);
  const vlr = header.vlrs.find((v) => v.userId === 'laszip encoded' && v.recordId === 22204)!;
  const items = parseLaszipItems(bytes.subarray(vlr.contentOffset, vlr.contentOffset + vlr.contentLength));
  const chunks = (await readLazChunkTable(source, header)).map((c) => ({
    compressed: bytes.subarray(c.offset, c.offset + c.byteLength),
    pointCount: c.pointCount,
  }));
  return { header, items, chunks };
}

describe.skipIf(!hasRealData())('real LAZ files', () => {
  it.each([
    'MixedConifer.laz',
    'fusa.laz',
    'las_with_several_extra_byte_bloc.laz',
    'test_semis_2021_0382_6565_LA93_IGN69_cropped.laz',
  ])('%s: supported, and the first and last chunks match laz-perf', async (file) => {
    const { header, items, chunks } = await realChunks(file);
    const { pointFormat, recordLength } = header;
    expect(supports(items)).toBe(true);
    expect(supportsPointFormat(pointFormat, recordLength)).toBe(true);
    for (const chunk of new Set([chunks[0]!, chunks.at(-1)!])) {
      const reference = await decodeLazChunkWithLazPerf(chunk.compressed, pointFormat, recordLength, chunk.pointCount);
      const mine = decodeChunk(chunk.compressed, pointFormat, recordLength, chunk.pointCount);
      expect(firstDifference(mine, reference)).toBe(-1);
    }
  });

  // Formats the real LAS 1.4 files lack, cut out of their layered chunks (see testing/layered-chunks.ts).
  it.each([
    ['las_with_several_extra_byte_bloc.laz', 6, []],
    ['las_with_several_extra_byte_bloc.laz', 6, [0, 2]],
    ['las_with_several_extra_byte_bloc.laz', 7, [1]],
    ['las_with_several_extra_byte_bloc.laz', 8, []],
    ['test_semis_2021_0382_6565_LA93_IGN69_cropped.laz', 6, []],
  ] as const)('%s as point format %i with extra bytes %j: matches laz-perf', async (file, format, keep) => {
    const { header, chunks } = await realChunks(file);
    for (const source of [chunks[1]!, chunks.at(-1)!]) {
      const { chunk, recordLength } = reshapeLayeredChunk(
        source.compressed,
        header.pointFormat,
        header.recordLength,
        format,
        [...keep],
      );
      const reference = await decodeLazChunkWithLazPerf(chunk, format, recordLength, source.pointCount);
      const mine = decodeChunk(chunk, format, recordLength, source.pointCount);
      expect(mine.length).toBe(source.pointCount * recordLength);
      expect(firstDifference(mine, reference)).toBe(-1);
    }
  });

  it('layered chunks: streams in pieces, refuses truncation, survives garbage', async () => {
    const { header, chunks } = await realChunks('las_with_several_extra_byte_bloc.laz');
    const { pointFormat, recordLength } = header;
    const { compressed, pointCount } = chunks[2]!;
    const whole = decodeChunk(compressed, pointFormat, recordLength, pointCount);
    const stream = openChunk(compressed, pointFormat, recordLength);
    const parts = [stream.read(1), stream.read(777), stream.read(pointCount - 778)];
    expect(firstDifference(Buffer.concat(parts), whole)).toBe(-1);
    expect(() =>
      decodeChunk(compressed.subarray(0, compressed.length >> 1), pointFormat, recordLength, pointCount),
    ).toThrow(/runs past the end/);
    expect(() => decodeChunk(compressed.subarray(0, 60), pointFormat, recordLength, pointCount)).toThrow(
      /shorter than one point record and its layer sizes/,
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(compressed.length - 1), fc.integer({ min: 1, max: 255 })), {
          minLength: 1,
          maxLength: 6,
        }),
        (flips) => {
          const bytes = compressed.slice();
          for (const [at, mask] of flips) bytes[at]! ^= mask;
          let outcome: unknown;
          try {
            outcome = decodeChunk(bytes, pointFormat, recordLength, pointCount);
          } catch (error) {
            outcome = error;
          }
          if (outcome instanceof Uint8Array) expect(outcome.length).toBe(pointCount * recordLength);
          else expect(outcome).toBeInstanceOf(Error);
        },
      ),
      { numRuns: 40, seed: 3 },
    );
  });
});
