import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTilerInput, tilePointCloud } from './tile-point-cloud.js';
import { tileInput } from './tiler.js';
import { checkRealFile, expectSameTileset, inspectTileset, tilesetDigests } from './tileset-check.test-helper.js';

describe.skipIf(!hasRealData())('tilePointCloud on small real files (loaders.gl reads it back)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-tile-real-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  for (const name of ['warsaw_small.las', 'mvk-thin.las', 'MixedConifer.laz', 'autzen_trim.las']) {
    it(name, () => checkRealFile(name, dir, { maxPoints: 5_000 }));
  }

  it('refuses a file without CRS unless an EPSG code is given', async () => {
    await expect(tilePointCloud(realFile('ahn3_cropped_1.laz'), path.join(dir, 'no-crs'))).rejects.toMatchObject({
      code: 'CRS_REQUIRED',
    });
  });

  it('reports a missing file as a typed error', async () => {
    await expect(tilePointCloud(path.join(dir, 'missing.laz'), path.join(dir, 'missing'))).rejects.toHaveProperty(
      'code',
    );
  });

  it('decodes LAZ chunks on its workers: the same points as streaming them through the reader', async () => {
    const opened = await openTilerInput(realFile('fusa.laz'));
    try {
      expect(opened.input.laz?.chunks.length).toBe(6);
      const { laz, ...streamed } = opened.input;
      const viaWorkers = await tileInput(opened.input, path.join(dir, 'fusa-workers'), { workers: 2 });
      const viaReader = await tileInput(streamed, path.join(dir, 'fusa-reader'), { workers: 2 });
      const stats = async (tilesetPath: string) => {
        const sum = [0, 0, 0];
        const s = await inspectTileset(tilesetPath, (x, y, z) => {
          sum[0]! += x;
          sum[1]! += y;
          sum[2]! += z;
        });
        return { ...s, mean: sum.map((v) => v / s.points) };
      };
      const a = await stats(viaWorkers.tilesetPath);
      const b = await stats(viaReader.tilesetPath);
      expect(a.points).toBe(277_573);
      expect(b.points).toBe(277_573);
      expect(a.classCounts).toEqual(b.classCounts);
      expect(a.intensityMax).toBe(b.intensityMax);
      expect(a.tiles).toBe(b.tiles);
      for (const k of ['west', 'south', 'east', 'north'] as const) expect(a.bbox[k]).toBeCloseTo(b.bbox[k], 7);
      expect(a.bbox.minHeight).toBeCloseTo(b.bbox.minHeight, 2);
      expect(a.bbox.maxHeight).toBeCloseTo(b.bbox.maxHeight, 2);
      // int16 positions round each point by up to 1 mm, whichever tile it lands in.
      for (let k = 0; k < 3; k++) expect(Math.abs(a.mean[k]! - b.mean[k]!)).toBeLessThan(0.001);
    } finally {
      await opened.close();
    }
  });

  it('writes the same tileset, byte for byte, whichever thread finishes a chunk first', async () => {
    // wires.laz: 35 LAZ chunks decoded and bucketed by 2 threads in whatever order they finish.
    const first = path.join(dir, 'repeat-1');
    const second = path.join(dir, 'repeat-2');
    await tilePointCloud(realFile('wires.laz'), first, { workers: 2 });
    await tilePointCloud(realFile('wires.laz'), second, { workers: 2 });
    expect((await tilesetDigests(first)).size).toBeGreaterThan(100);
    await expectSameTileset(first, second);
  }, 120_000);

  it('reports a LAZ chunk its workers cannot decode as InvalidInput naming the chunk', async () => {
    const opened = await openTilerInput(realFile('Megaplot.laz'));
    try {
      const laz = opened.input.laz!;
      const second = laz.chunks[1]!;
      // The second chunk's data runs out early (a truncated download, say).
      const read = async (offset: number, length: number) => {
        const bytes = await laz.read(offset, length);
        return offset === second.offset ? bytes.slice(0, 64) : bytes;
      };
      const input = { ...opened.input, laz: { ...laz, read } };
      await expect(tileInput(input, path.join(dir, 'corrupt'), { workers: 2 })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        field: 'laz.chunk[1]',
        offset: second.offset,
      });
    } finally {
      await opened.close();
    }
  });
});
