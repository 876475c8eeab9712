import { terrainScene } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import { quantiles } from '../core/select.js';
import { groundAgreement } from '../products/quality.metrics.js';
import { groundFilter } from './ground.filter.js';
import { noiseAndGroundTiled, stripMembers } from './ground-tiled.js';
import { noiseFilter } from './noise.filter.js';

describe('noiseAndGroundTiled', () => {
  it('gives the single-piece result within 1 % of points, over worker threads', async () => {
    const scene = terrainScene({ size: 200, density: 4, seed: 9 });
    const noise = noiseFilter(scene.chunk);
    const { ground } = groundFilter(scene.chunk, noise);
    const tiled = await noiseAndGroundTiled(scene.chunk, { workers: 2, minPointsPerTile: 20_000 });
    let differ = 0;
    for (let i = 0; i < scene.chunk.count; i++) if (tiled.ground[i] !== ground[i]) differ++;
    expect(differ).toBeLessThan(scene.chunk.count * 0.01);
    const reference = Uint8Array.from(scene.truth, (c) => (c === 7 || c === 18 ? 1 : c));
    expect(groundAgreement(tiled.ground, reference, scene.chunk.count).kappa).toBeGreaterThan(0.95);
    expect(tiled.noise.some((v) => v === 18)).toBe(true);
  });
});

describe('quantiles (histogram, no copy)', () => {
  it('gives the values of a sorted copy, with ties, clusters and the extremes', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const count = 50_000;
    const values = new Float64Array(count + 10);
    for (let i = 0; i < count; i++) {
      // Quantised (ties), a dense cluster and a long sparse tail.
      values[i] =
        i % 3 === 0 ? Math.round(random() * 100) / 4 : i % 3 === 1 ? 500 + random() * 1e-3 : random() ** 4 * 1e4;
    }
    values.fill(-1, count);
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < count; i++) {
      lo = Math.min(lo, values[i]!);
      hi = Math.max(hi, values[i]!);
    }
    const ranks = [0, 1, 9_999, 16_666, 16_667, 25_000, 33_333, 33_334, 49_998, count - 1];
    const sorted = Array.from(values.subarray(0, count)).sort((a, b) => a - b);
    const expected = ranks.map((k) => sorted[k]!);
    expect(quantiles(values, count, ranks, { lo, hi })).toEqual(expected);
    // The range found by the function itself gives the same values.
    expect(quantiles(values, count, ranks, { lo, hi })).toEqual(quantiles(values, count, ranks));
    expect(quantiles(new Float64Array([3, 3, 3, 3]), 4, [1, 2], { lo: 3, hi: 3 })).toEqual([3, 3]);
  });
});

describe('stripMembers', () => {
  it('gives the points within a strip and its buffer, in point order', () => {
    const coord = Float64Array.from({ length: 1000 }, (_, i) => (i * 37) % 101);
    const edges = [0, 20, 45, 70, 100 + 1e-9];
    const buffer = 6;
    for (let t = 0; t < 4; t++) {
      const expected: number[] = [];
      for (let i = 0; i < coord.length; i++) {
        if (coord[i]! >= edges[t]! - buffer && coord[i]! < edges[t + 1]! + buffer) expected.push(i);
      }
      const members = stripMembers(coord, coord.length, edges[t]! - buffer, edges[t + 1]! + buffer);
      expect(Array.from(members)).toEqual(expected);
      expect(members.length).toBeGreaterThan(200);
    }
    // Only the first `count` points.
    expect(Array.from(stripMembers(coord, 10, 0, 50))).toEqual([0, 1, 3, 4, 6, 9]);
  });
});
