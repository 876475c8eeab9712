import { describe, expect, it } from 'vitest';
import { HIGH_NOISE, LOW_POINT, lowestFirst, noiseFilter } from './noise.filter.js';

describe('lowestFirst', () => {
  it('puts first the points a stable sort by z would, ties in point order', () => {
    let seed = 3;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    // Heights on a coarse step: many ties.
    const zs = Float64Array.from({ length: 400 }, () => Math.floor(random() * 12) * 0.5);
    for (const [start, end, m] of [
      [0, 400, 9],
      [10, 13, 9],
      [50, 58, 9],
      [100, 101, 9],
      [0, 400, 40],
    ] as const) {
      const index = Int32Array.from({ length: 400 }, (_, i) => i);
      const sorted = Array.from(index.subarray(start, end)).sort((a, b) => zs[a]! - zs[b]!);
      lowestFirst(index, start, end, zs, m);
      const kept = Math.min(m, end - start);
      expect(Array.from(index.subarray(start, start + kept))).toEqual(sorted.slice(0, kept));
    }
  });
});

describe('noiseFilter', () => {
  it('flags a low outlier 7 and an isolated high return 18, nothing on a flat field', () => {
    const side = 40;
    const count = side * side + 2;
    const x = new Float64Array(count);
    const y = new Float64Array(count);
    const z = new Float64Array(count);
    for (let r = 0; r < side; r++) {
      for (let c = 0; c < side; c++) {
        const i = r * side + c;
        x[i] = c;
        y[i] = r;
        z[i] = 100 + 0.01 * ((r * 7 + c * 3) % 5);
      }
    }
    const low = side * side;
    x[low] = 20.5;
    y[low] = 20.5;
    z[low] = 90;
    const high = low + 1;
    x[high] = 10.5;
    y[high] = 30.5;
    z[high] = 160;
    const noise = noiseFilter({ count, x, y, z }, { pointSpacing: 1 });
    expect(noise[low]).toBe(LOW_POINT);
    expect(noise[high]).toBe(HIGH_NOISE);
    let flagged = 0;
    for (let i = 0; i < side * side; i++) flagged += noise[i] ? 1 : 0;
    expect(flagged).toBe(0);
  });
});

describe('noiseFilter voxel counts', () => {
  it('flags the same points whether the voxels are counted in an array or, past its size, in a hash table', () => {
    let seed = 11;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    // A rough field with trees and scattered returns in the air: isolated points of both kinds.
    const count = 20_000;
    const x = new Float64Array(count + 1);
    const y = new Float64Array(count + 1);
    const z = new Float64Array(count + 1);
    for (let i = 0; i < count; i++) {
      x[i] = random() * 200;
      y[i] = random() * 100;
      const air = i % 97 === 0;
      z[i] = air ? 10 + random() * 60 : random() * 0.5 + (i % 5 === 0 ? random() * 15 : 0);
    }
    const small = noiseFilter({ count, x, y, z });
    // One return 10 km up: the voxel block is far too tall for an array; no other point's voxel changes.
    x[count] = 100;
    y[count] = 50;
    z[count] = 10_000;
    const large = noiseFilter({ count: count + 1, x, y, z });
    expect(large[count]).toBe(HIGH_NOISE);
    expect(Array.from(large.subarray(0, count))).toEqual(Array.from(small));
    expect(small.filter((v) => v === HIGH_NOISE).length).toBeGreaterThan(50);
  });
});
