import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error gltf-validator ships no types
import validator from 'gltf-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticTilerInput } from './synthetic-input.js';
import { DEFAULT_TUNING, tileInput } from './tiler.js';
import { expectSameTileset, inspectTileset } from './tileset-check.test-helper.js';

describe('tileInput on a synthetic cloud', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-tiler-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes every point exactly once into a valid ADD tileset (inline)', async () => {
    const out = path.join(dir, 'inline');
    const input = syntheticTilerInput({ count: 200_000, side: 500, seed: 3 });
    const fractions: number[] = [];
    const r = await tileInput(input, out, { workers: 0, maxPoints: 20_000 }, { progress: (f) => fractions.push(f) });
    expect(r.pointCount).toBe(200_000);
    expect(r.classCounts[2]! + r.classCounts[5]! + r.classCounts[6]!).toBe(200_000);
    expect(r.maxDepth).toBeGreaterThanOrEqual(2);
    const stats = await inspectTileset(r.tilesetPath);
    expect(stats.points).toBe(200_000);
    expect(stats.contents).toBe(r.tileCount);
    expect(stats.classCounts).toEqual(r.classCounts);
    expect(stats.hasColor).toBe(true);
    expect(stats.worstBoxExcess).toBeLessThan(0.01);
    // The synthetic square is 500 m at lon 5°, lat 45°, heights 200 m - 5 .. 60.
    expect(stats.bbox.west).toBeGreaterThanOrEqual(5 - 1e-6);
    expect(stats.bbox.east).toBeLessThanOrEqual(5 + 500 / (111_320 * Math.cos((45 * Math.PI) / 180)) + 1e-4);
    expect(stats.bbox.south).toBeGreaterThanOrEqual(45 - 1e-6);
    expect(stats.bbox.north).toBeLessThanOrEqual(45 + 500 / 111_000 + 1e-4);
    expect(stats.bbox.minHeight).toBeGreaterThan(194);
    expect(stats.bbox.maxHeight).toBeLessThan(226);
    // Result bbox covers every point.
    expect(r.bboxWgs84.west).toBeLessThanOrEqual(stats.bbox.west);
    expect(r.bboxWgs84.east).toBeGreaterThanOrEqual(stats.bbox.east);
    expect(r.bboxWgs84.minHeight).toBeLessThanOrEqual(stats.bbox.minHeight);
    expect(fractions.at(-1)).toBe(1);
    expect(fractions.every((f, i) => i === 0 || f >= fractions[i - 1]!)).toBe(true);
    expect((await readdir(path.join(out, 'content'))).length).toBe(r.tileCount);
    // Errors on the py3dtiles scale (10 × point spacing), halving by level; the
    // tileset's error is the diagonal of its bounds (about 500 m × 500 m × 65 m).
    const json = JSON.parse(await readFile(r.tilesetPath, 'utf8')) as {
      geometricError: number;
      root: { geometricError: number; children: Array<{ geometricError: number; children?: unknown[] }> };
    };
    const rootError = json.root.geometricError;
    const child = json.root.children.find((c) => c.children && c.children.length > 0)!;
    expect(child.geometricError).toBeCloseTo(rootError / 2, 9);
    // The root node's edge is at least the 500 m square, at 128 cells per edge.
    expect(rootError).toBeGreaterThanOrEqual((10 * 500) / 128);
    expect(rootError).toBeLessThan((10 * 2048) / 128);
    expect(json.geometricError).toBeGreaterThan(Math.hypot(500, 500) - 1);
    expect(json.geometricError).toBeLessThan(Math.hypot(500, 500, 70) + 1);
  });

  it('gives the same points with worker threads and disk buckets', async () => {
    const out = path.join(dir, 'workers');
    const input = syntheticTilerInput({ count: 1_600_000, side: 800, seed: 5, color: false });
    const r = await tileInput(input, out, { workers: 2, maxPoints: 50_000 }, {}, { ...DEFAULT_TUNING, memoryMax: 0 });
    expect(r.pointCount).toBe(1_600_000);
    expect(r.hasColor).toBe(false);
    expect(r.bucketDepth).toBe(1);
    const stats = await inspectTileset(r.tilesetPath);
    expect(stats.points).toBe(1_600_000);
    expect(stats.hasColor).toBe(false);
    expect(stats.worstBoxExcess).toBeLessThan(0.01);
  });

  it('keeps the buckets of a small input in shared memory, with workers or inline', async () => {
    const tuning = { ...DEFAULT_TUNING, singleBucketMax: 10_000, bucketTarget: 20_000 };
    for (const workers of [2, 0]) {
      const out = path.join(dir, `memory-${workers}`);
      const input = syntheticTilerInput({ count: 300_000, side: 300, seed: 13 });
      const r = await tileInput(input, out, { workers, maxPoints: 10_000 }, {}, tuning);
      expect(r.bucketDepth).toBeGreaterThanOrEqual(2);
      expect(r.pointCount).toBe(300_000);
      const stats = await inspectTileset(r.tilesetPath);
      expect(stats.points).toBe(300_000);
      expect(stats.classCounts).toEqual(r.classCounts);
      expect(stats.hasColor).toBe(true);
      expect(stats.worstBoxExcess).toBeLessThan(0.01);
    }
  });

  it('splits oversized buckets on disk and still writes every point once', async () => {
    const out = path.join(dir, 'split');
    const input = syntheticTilerInput({ count: 400_000, side: 300, seed: 11 });
    const r = await tileInput(
      input,
      out,
      { workers: 2, maxPoints: 5_000 },
      {},
      {
        bucketTarget: 20_000,
        bucketLimit: 40_000,
        singleBucketMax: 10_000,
        memoryMax: 0,
      },
    );
    expect(r.bucketDepth).toBeGreaterThanOrEqual(2);
    expect(r.pointCount).toBe(400_000);
    const stats = await inspectTileset(r.tilesetPath);
    expect(stats.points).toBe(400_000);
    expect(stats.worstBoxExcess).toBeLessThan(0.01);
    // Every content is valid glTF.
    const files = await readdir(path.join(out, 'content'));
    for (const f of files.slice(0, 40)) {
      const report = (await validator.validateBytes(new Uint8Array(await readFile(path.join(out, 'content', f))))) as {
        issues: { numErrors: number; numWarnings: number };
      };
      expect(report.issues.numErrors + report.issues.numWarnings, f).toBe(0);
    }
  });

  it('writes the same tileset, byte for byte, from disk buckets written by 2 threads or by one', async () => {
    // Each thread appends to its own bucket files in the order its chunks finish;
    // the blocks carry their input offset, so a bucket reads back in input order.
    const tuning = { bucketTarget: 20_000, bucketLimit: 40_000, singleBucketMax: 10_000, memoryMax: 0 };
    const outs = [];
    for (const [k, workers] of [2, 2, 0].entries()) {
      const out = path.join(dir, `disk-repeat-${k}`);
      const input = syntheticTilerInput({ count: 400_000, side: 300, seed: 17, chunkSize: 7_000 });
      const r = await tileInput(input, out, { workers, maxPoints: 5_000 }, {}, tuning);
      expect(r.bucketDepth).toBeGreaterThanOrEqual(2);
      outs.push(out);
    }
    await expectSameTileset(outs[0]!, outs[1]!);
    await expectSameTileset(outs[0]!, outs[2]!);
  });

  it('stops splitting at the minimum node size', async () => {
    const out = path.join(dir, 'min-size');
    const input = syntheticTilerInput({ count: 100_000, side: 8, seed: 7 });
    const r = await tileInput(input, out, { workers: 0, maxPoints: 1_000, minNodeSize: 2 });
    // Cube ≈ 1.02 × 65 m (height range) + 2 m: children below 2 m are never made.
    expect(r.maxDepth).toBeLessThanOrEqual(5);
    expect((await inspectTileset(r.tilesetPath)).points).toBe(100_000);
  });

  it('refuses points far outside the header bounds instead of moving them', async () => {
    const input = syntheticTilerInput({ count: 20_000, side: 100 });
    input.bounds = { ...input.bounds, maxX: 10, maxY: 10 };
    await expect(tileInput(input, path.join(dir, 'bad-header'), { workers: 0 })).rejects.toThrow(
      /points lie outside the header bounds/,
    );
  });

  it('honours cancellation', async () => {
    const controller = new AbortController();
    controller.abort();
    const input = syntheticTilerInput({ count: 10_000 });
    await expect(
      tileInput(input, path.join(dir, 'cancel'), { workers: 0 }, { signal: controller.signal }),
    ).rejects.toMatchObject({
      code: 'CANCELLED',
    });
  });
});
