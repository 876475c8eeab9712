import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { openPointCloud } from './index.js';

/** A checksum of every column a chunk carries, taken before the next chunk is read. */
function digest(chunk: Record<string, unknown>, count: number): number {
  let sum = 0;
  for (const key of Object.keys(chunk).sort()) {
    const column = chunk[key];
    if (!ArrayBuffer.isView(column)) continue;
    const values = column as unknown as ArrayLike<number>;
    for (let i = 0; i < count; i++) sum = (sum * 31 + values[i]! * (i + 1)) % 1e12;
  }
  return sum;
}

describe.skipIf(!hasRealData())('LAS reader with reuse', () => {
  it('overwrites one set of columns chunk after chunk, with the values of a fresh read', async () => {
    for (const file of ['autzen_trim.las', 'file_with_both_wkt_and_geotiff_vlrs.las']) {
      const fresh: number[] = [];
      let reader = await openPointCloud(realFile(file));
      for await (const chunk of reader.read({ chunkSize: 7_000 })) fresh.push(digest({ ...chunk }, chunk.count));
      await reader.close();
      const reused: number[] = [];
      const buffers = new Set<ArrayBufferLike>();
      reader = await openPointCloud(realFile(file));
      for await (const chunk of reader.read({ chunkSize: 7_000, reuse: true })) {
        reused.push(digest({ ...chunk }, chunk.count));
        buffers.add(chunk.x.buffer);
        expect(chunk.gpsTime?.buffer ?? chunk.x.buffer).toBe(chunk.x.buffer);
      }
      await reader.close();
      expect(reused).toEqual(fresh);
      expect(fresh.length).toBeGreaterThan(3);
      expect(buffers.size).toBe(1);
    }
  });
});
