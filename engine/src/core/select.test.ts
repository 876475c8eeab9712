import { describe, expect, it } from 'vitest';
import { quantiles, selectInPlace } from './select.js';

/** A deterministic sequence in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('order statistics by selection', () => {
  it('finds every rank a sorted copy gives, with the partition around it', () => {
    const random = lcg(7);
    const values = Float64Array.from({ length: 2001 }, () => Math.round(random() * 300) / 10);
    const sorted = values.slice().sort();
    for (const k of [0, 1, 500, 1000, 1999, 2000]) {
      const a = values.slice();
      expect(selectInPlace(a, k)).toBe(sorted[k]);
      for (let i = 0; i < k; i++) expect(a[i]).toBeLessThanOrEqual(a[k]!);
      for (let i = k + 1; i < a.length; i++) expect(a[i]).toBeGreaterThanOrEqual(a[k]!);
    }
  });

  it('settles long runs of equal values, sorted input and reversed input', () => {
    const equal = new Float64Array(100_000).fill(3.25);
    expect(selectInPlace(equal, 50_000)).toBe(3.25);
    const ascending = Float64Array.from({ length: 100_000 }, (_, i) => i);
    expect(selectInPlace(ascending.slice(), 12_345)).toBe(12_345);
    expect(selectInPlace(ascending.slice().reverse(), 99_999)).toBe(99_999);
    const twoValues = Float64Array.from({ length: 10_001 }, (_, i) => (i % 2 ? 1 : 2));
    expect(selectInPlace(twoValues, 4_999)).toBe(1);
    expect(selectInPlace(twoValues, 5_000)).toBe(2);
  });

  it('reads several quantiles from one copy, as a sort would, leaving the input as it was', () => {
    const random = lcg(11);
    const values = Float64Array.from({ length: 50_000 }, () => random() * 1000);
    const before = values.slice();
    const ranks = [12_500, 25_000, 37_500];
    const sorted = values.slice().sort();
    expect(quantiles(values, 40_000, [10_000, 20_000, 30_000])).toEqual(
      [10_000, 20_000, 30_000].map((k) => values.slice(0, 40_000).sort()[k]),
    );
    expect(quantiles(values, values.length, ranks)).toEqual(ranks.map((k) => sorted[k]));
    expect(values).toEqual(before);
    expect(() => quantiles(values, 10, [5, 3])).toThrow(RangeError);
    expect(() => selectInPlace(values.slice(), 50_000)).toThrow(RangeError);
  });
});
