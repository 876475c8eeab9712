import { describe, expect, it } from 'vitest';
import { lowestReturns, lowestReturnsNear, seenBelow } from './wires-shadow.js';

describe('lowest returns under a point', () => {
  it('keeps the lowest return of each column and finds those under a point within reach', () => {
    // A 40 × 40 m roof at 10 m (every 0.25 m), ground at 0 around it, every 0.5 m; thousands of columns, so the
    // table grows several times.
    const xs: number[] = [];
    const ys: number[] = [];
    const zs: number[] = [];
    for (let i = 0; i < 160; i++) {
      for (let j = 0; j < 160; j++) {
        xs.push(1000 + i * 0.25);
        ys.push(2000 + j * 0.25);
        zs.push(10);
      }
    }
    for (let i = -20; i < 100; i++) {
      for (let j = -20; j < 100; j++) {
        const x = 1000 + i * 0.5;
        const y = 2000 + j * 0.5;
        if (x >= 1000 && x < 1040 && y >= 2000 && y < 2040) continue;
        xs.push(x);
        ys.push(y);
        zs.push(0);
      }
    }
    const table = lowestReturns(
      Float64Array.from(xs),
      Float64Array.from(ys),
      Float64Array.from(zs),
      xs.length,
      xs[0]!,
      ys[0]!,
      0.5,
    );
    // Inside the roof: nothing under it within a metre; at its edge, or over the ground, the ground is seen.
    expect(seenBelow(table, 1020, 2020, 10.2, 1, 0.5)).toBe(false);
    expect(seenBelow(table, 1001.2, 2020, 10.2, 1, 0.5)).toBe(false);
    expect(seenBelow(table, 1000.5, 2020, 10.2, 1, 0.5)).toBe(true);
    expect(seenBelow(table, 1050, 2020, 9, 1, 0.5)).toBe(true);
    // Over the roof, more than the drop: the roof is seen under the point.
    expect(seenBelow(table, 1020, 2020, 12, 1, 0.5)).toBe(true);
    // Beyond the cloud: nothing.
    expect(seenBelow(table, 900, 1900, 12, 1, 0.5)).toBe(false);
  });

  it('answers as the whole table around the points asked for, from a table of their columns only', () => {
    // Pseudo-random returns over 60 × 60 m (heights 0 to 20), and 50 points asked about, some beyond the cloud.
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const n = 20000;
    const x = Float64Array.from({ length: n }, () => 500 + random() * 60);
    const y = Float64Array.from({ length: n }, () => 700 + random() * 60);
    const z = Float64Array.from({ length: n }, () => random() * 20);
    const px = Float64Array.from({ length: 50 }, () => 490 + random() * 80);
    const py = Float64Array.from({ length: 50 }, () => 690 + random() * 80);
    const whole = lowestReturns(x, y, z, n, x[0]!, y[0]!, 0.5);
    const near = lowestReturnsNear(x, y, z, n, x[0]!, y[0]!, 0.5, px, py, 50, 1);
    expect(near.used.length).toBeLessThan(whole.used.length / 4);
    let seen = 0;
    for (let k = 0; k < 50; k++) {
      for (const pz of [0.3, 1, 5, 25]) {
        const expected = seenBelow(whole, px[k]!, py[k]!, pz, 1, 0.5);
        expect(seenBelow(near, px[k]!, py[k]!, pz, 1, 0.5)).toBe(expected);
        seen += expected ? 1 : 0;
      }
    }
    expect(seen).toBeGreaterThan(50);
    expect(seen).toBeLessThan(200);
  });
});
