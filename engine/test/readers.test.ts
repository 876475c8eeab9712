import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { Cancelled } from '../src/core/errors.js';
import { openPointCloud } from '../src/readers/index.js';

async function digest(file: string, workers: number, chunkSize?: number) {
  const reader = await openPointCloud(file);
  let count = 0;
  let hash = 0;
  let chunks = 0;
  for await (const chunk of reader.read(chunkSize ? { workers, chunkSize } : { workers })) {
    chunks++;
    for (let i = 0; i < chunk.count; i++, count++) {
      hash =
        (hash * 31 + Math.round(chunk.x[i]! * 100) + chunk.intensity![i]! + (chunk.gpsTime ? chunk.gpsTime[i]! : 0)) %
        2147483647;
    }
  }
  await reader.close();
  return { count, hash, chunks };
}

describe.skipIf(!hasRealData())('streaming readers', () => {
  it('decodes LAZ chunks in worker threads exactly as inline, in file order', async () => {
    const inline = await digest(realFile('bcts_1.laz'), 0);
    const parallel = await digest(realFile('bcts_1.laz'), 2);
    expect(parallel).toEqual(inline);
    expect(inline.count).toBe(531_662);
  });

  it('honours the chunk size (bounded chunks)', async () => {
    const laz = await digest(realFile('fusa.laz'), 0, 10_000);
    expect(laz.count).toBe(277_573);
    // 5 LAZ chunks of 50,000 points cut into 5 pieces, the last (27,573) into 3.
    expect(laz.chunks).toBe(28);
    const las = await digest(realFile('autzen_trim.las'), 0, 10_000);
    expect(las.chunks).toBe(11);
  });

  it('filters by bbox while streaming', async () => {
    const reader = await openPointCloud(realFile('autzen_trim.las'));
    const box = { minX: 636500, minY: 849000, maxX: 636700, maxY: 849200 };
    let inside = 0;
    for await (const chunk of reader.read({ bbox: box })) {
      for (let i = 0; i < chunk.count; i++) {
        expect(chunk.x[i]).toBeGreaterThanOrEqual(box.minX);
        expect(chunk.y[i]).toBeLessThanOrEqual(box.maxY);
        inside++;
      }
    }
    let expected = 0;
    for await (const chunk of reader.read()) {
      for (let i = 0; i < chunk.count; i++) {
        if (chunk.x[i]! >= box.minX && chunk.x[i]! <= box.maxX && chunk.y[i]! >= box.minY && chunk.y[i]! <= box.maxY)
          expected++;
      }
    }
    await reader.close();
    expect(inside).toBe(expected);
    expect(inside).toBeGreaterThan(1000);
  });

  it('stops with Cancelled when the signal is aborted', async () => {
    for (const name of ['wires.laz', 'autzen_trim.las']) {
      const reader = await openPointCloud(realFile(name));
      const controller = new AbortController();
      let seen = 0;
      await expect(
        (async () => {
          for await (const chunk of reader.read({ signal: controller.signal, chunkSize: 10_000 })) {
            seen += chunk.count;
            controller.abort();
          }
        })(),
      ).rejects.toBeInstanceOf(Cancelled);
      expect(seen).toBe(10_000);
      await reader.close();
    }
  });

  it('decodes extra bytes scaled, and RGB and NIR of format 8', async () => {
    const reader = await openPointCloud(realFile('las_with_several_extra_byte_bloc.laz'));
    expect(reader.header.extraBytes.map((f) => f.name)).toEqual(['Deviation', 'confidence']);
    const first = (await reader.read({ workers: 0 })[Symbol.asyncIterator]().next()).value!;
    expect(first.extra?.Deviation).toBeInstanceOf(Float64Array);
    expect(first.extra?.confidence).toBeInstanceOf(Float64Array);
    expect(first.nir).toBeInstanceOf(Uint16Array);
    expect(first.red).toBeInstanceOf(Uint16Array);
    expect(first.scannerChannel).toBeInstanceOf(Uint8Array);
    await reader.close();
    const mixed = await openPointCloud(realFile('MixedConifer.laz'));
    const trees = new Set<number>();
    for await (const chunk of mixed.read()) for (let i = 0; i < chunk.count; i++) trees.add(chunk.extra!.treeID![i]!);
    await mixed.close();
    // README: 206 distinct treeID values.
    expect(trees.size).toBe(206);
  });
});
