import { describe, expect, it } from 'vitest';
import { buildMaskedPointGrid, buildPointGrid } from './point-grid.js';

describe('buildMaskedPointGrid', () => {
  it('gives the grid of buildPointGrid with the matching include test', () => {
    const count = 3000;
    const x = Float64Array.from({ length: count }, (_, i) => ((i * 7919) % 1000) / 10);
    const y = Float64Array.from({ length: count }, (_, i) => ((i * 104729) % 700) / 10);
    const mask = Uint8Array.from({ length: count }, (_, i) => i % 3);
    for (const want of [0, 1, 2]) {
      const masked = buildMaskedPointGrid(x, y, count, 2.5, mask, want);
      const reference = buildPointGrid(x, y, count, 2.5, (i) => mask[i] === want);
      expect(masked).toEqual(reference);
      expect(masked.index.length).toBe(1000);
    }
    expect(buildMaskedPointGrid(x, y, count, 4, null, 0)).toEqual(buildPointGrid(x, y, count, 4));
  });
});
