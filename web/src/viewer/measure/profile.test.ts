import { describe, expect, it } from 'vitest';
import { binProfile, corridorSamples, niceBinWidth, type ProjectColumns, thinSamples } from './profile.js';

function columns(points: Array<[number, number, number, number]>): ProjectColumns {
  return {
    count: points.length,
    x: Float64Array.from(points.map((p) => p[0])),
    y: Float64Array.from(points.map((p) => p[1])),
    z: Float64Array.from(points.map((p) => p[2])),
    classification: Uint8Array.from(points.map((p) => p[3])),
  };
}

const METRES = { horizontal: 1, vertical: 1 };

describe('corridorSamples', () => {
  // A line from (100, 200) heading north-east, 50 m long (30 east, 40 north).
  const a = { x: 100, y: 200, z: 0 };
  const b = { x: 130, y: 240, z: 0 };

  it('keeps the points within the half width, between the ends, sorted along the line', () => {
    // Unit vectors: along (0.6, 0.8), left normal (-0.8, 0.6).
    const at = (along: number, offset: number, z: number, cls: number): [number, number, number, number] => [
      100 + 0.6 * along - 0.8 * offset,
      200 + 0.8 * along + 0.6 * offset,
      z,
      cls,
    ];
    const s = corridorSamples(
      columns([
        at(20, 0.5, 12, 2),
        at(10, -0.99, 11, 2),
        at(10, 1.01, 99, 5), // outside the 1 m half width
        at(-0.1, 0, 99, 5), // before the start
        at(50.1, 0, 99, 5), // past the end
        at(49.999, -0.999, 13, 6),
        at(0, 0, 10, 2),
      ]),
      a,
      b,
      1,
      METRES,
    );
    expect(s.map((p) => p.elevation)).toEqual([10, 11, 12, 13]);
    expect(s.map((p) => Math.round(p.along * 1e9) / 1e9)).toEqual([0, 10, 20, 49.999]);
    expect(s[1]!.offset).toBeCloseTo(-0.99, 9);
    expect(s[2]!.offset).toBeCloseTo(0.5, 9);
    expect(s.map((p) => p.classification)).toEqual([2, 2, 2, 6]);
  });

  it('measures the corridor in metres on a CRS in feet', () => {
    const ft = { horizontal: 0.3048, vertical: 0.3048 };
    // 3.2 ft = 0.975 m off a line along x: inside a 1 m half width; 3.3 ft = 1.006 m: outside.
    const s = corridorSamples(
      columns([
        [50, 3.2, 100, 1],
        [60, 3.3, 100, 1],
      ]),
      { x: 0, y: 0, z: 0 },
      { x: 100, y: 0, z: 0 },
      1,
      ft,
    );
    expect(s).toHaveLength(1);
    expect(s[0]!.along).toBeCloseTo(15.24, 9);
    expect(s[0]!.elevation).toBeCloseTo(30.48, 9);
  });

  it('is empty for a line of no length', () => {
    expect(corridorSamples(columns([[0, 0, 0, 1]]), a, a, 1, METRES)).toEqual([]);
  });
});

describe('binProfile', () => {
  it('gives count, min, max and mean per bin and skips empty bins', () => {
    const samples = [
      { along: 0.5, offset: 0, elevation: 10, classification: 2 },
      { along: 1.5, offset: 0, elevation: 12, classification: 2 },
      { along: 1.9, offset: 0, elevation: 20, classification: 5 },
      { along: 4.2, offset: 0, elevation: 8, classification: 2 },
      { along: 5, offset: 0, elevation: 9, classification: 2 }, // the end lands in the last bin
    ];
    expect(binProfile(samples, 5, 1)).toEqual([
      { along: 0.5, count: 1, min: 10, max: 10, mean: 10 },
      { along: 1.5, count: 2, min: 12, max: 20, mean: 16 },
      { along: 4.5, count: 2, min: 8, max: 9, mean: 8.5 },
    ]);
  });

  it('centres a shorter last bin on what it covers', () => {
    const bins = binProfile([{ along: 4.9, offset: 0, elevation: 1, classification: 2 }], 4.95, 2);
    expect(bins).toEqual([{ along: 4.475, count: 1, min: 1, max: 1, mean: 1 }]);
  });
});

describe('niceBinWidth', () => {
  it('rounds to 1, 2 or 5 × a power of ten', () => {
    expect(niceBinWidth(100, 200)).toBe(0.5);
    expect(niceBinWidth(1000, 200)).toBe(5);
    expect(niceBinWidth(333, 200)).toBe(2);
    expect(niceBinWidth(0.5, 200)).toBe(0.01);
  });
});

describe('thinSamples', () => {
  it('keeps every k-th sample up to the limit', () => {
    const list = Array.from({ length: 10 }, (_, i) => i);
    expect(thinSamples(list, 5)).toEqual([0, 2, 4, 6, 8]);
    expect(thinSamples(list, 20)).toEqual(list);
  });
});
