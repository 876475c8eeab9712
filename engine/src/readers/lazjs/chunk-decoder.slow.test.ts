import { readFile } from 'node:fs/promises';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { REAL_FILES } from '@nuage/fixtures/real-files.js';
import { describe, expect, it } from 'vitest';
import { memorySource } from '../byte-source.js';
import { readLasHeader } from '../las-header.js';
import { readLazChunkTable } from '../laz-chunk-table.js';
import { decodeLazChunkWithLazPerf } from '../laz-decode.mjs';
import { decodeChunk, parseLaszipItems, supports } from './chunk-decoder.js';

const LAZ_FILES = REAL_FILES.filter((f) => f.compressed).map((f) => f.file);
const POINT_WISE = REAL_FILES.filter((f) => f.compressed && f.pointFormat <= 3).map((f) => f.file);

describe.skipIf(!hasRealData())('every chunk of every real LAZ file decodes like laz-perf', () => {
  it('covers the ten LAS 1.0-1.3 LAZ files (point-wise) and the two LAS 1.4 ones (layered)', () => {
    expect(POINT_WISE.length).toBe(10);
    expect(LAZ_FILES.length).toBe(12);
  });

  it.each(LAZ_FILES)('%s', async (file) => {
    const bytes = new Uint8Array(await readFile(realFile(file)));
    const source = memorySource(bytes);
    const header = await readLasHeader(source);
    const vlr = header.vlrs.find((v) => v.userId === 'laszip encoded' && v.recordId === 22204)!;
    const items = parseLaszipItems(bytes.subarray(vlr.contentOffset, vlr.contentOffset + vlr.contentLength));
    expect(supports(items)).toBe(true);
    const { pointFormat, recordLength } = header;
    let points = 0;
    for (const [index, chunk] of (await readLazChunkTable(source, header)).entries()) {
      const compressed = bytes.subarray(chunk.offset, chunk.offset + chunk.byteLength);
      const mine = decodeChunk(compressed, pointFormat, recordLength, chunk.pointCount);
      const reference = await decodeLazChunkWithLazPerf(compressed, pointFormat, recordLength, chunk.pointCount);
      // Compared as buffers: one expect per chunk, naming it when it differs.
      expect({ index, equal: Buffer.compare(mine, reference) === 0 }).toEqual({ index, equal: true });
      points += chunk.pointCount;
    }
    expect(points).toBe(header.pointCount);
  });
});
