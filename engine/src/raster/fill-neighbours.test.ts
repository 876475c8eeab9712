import { describe, expect, it } from 'vitest';
import { FLOAT_NODATA, fillFromNeighbours } from './raster.js';

/** The former fill: every pass visits the whole grid, reading a copy of it as it was before the pass. */
function wholeGridFill(data: Float32Array, W: number, H: number, passes: number, fillable: (k: number) => boolean) {
  let filled = 0;
  for (let pass = 0; pass < passes; pass++) {
    const next = data.slice();
    let changed = 0;
    for (let r = 0; r < H; r++) {
      for (let c = 0; c < W; c++) {
        const k = r * W + c;
        if (data[k] !== FLOAT_NODATA || !fillable(k)) continue;
        let sum = 0;
        let n = 0;
        for (let dr = -1; dr <= 1; dr++) {
          for (let dc = -1; dc <= 1; dc++) {
            const rr = r + dr;
            const cc = c + dc;
            if (rr < 0 || rr >= H || cc < 0 || cc >= W) continue;
            const v = data[rr * W + cc]!;
            if (v !== FLOAT_NODATA) {
              sum += v;
              n++;
            }
          }
        }
        if (n > 0) {
          next[k] = sum / n;
          changed++;
        }
      }
    }
    data.set(next);
    filled += changed;
    if (changed === 0) break;
  }
  return filled;
}

describe('fillFromNeighbours', () => {
  it('fills the same cells with the same values as passes over the whole grid', () => {
    const W = 61;
    const H = 47;
    let seed = 99;
    const rnd = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (const [emptyShare, passes] of [
      [0.3, 3],
      [0.8, 8],
      [0.97, 2],
    ] as const) {
      const grid = new Float32Array(W * H);
      for (let k = 0; k < grid.length; k++) grid[k] = rnd() < emptyShare ? FLOAT_NODATA : 100 + 50 * rnd();
      const fillable = (k: number) => k % 7 !== 3;
      const want = grid.slice();
      const got = grid.slice();
      const wantFilled = wholeGridFill(want, W, H, passes, fillable);
      expect(fillFromNeighbours(got, W, H, FLOAT_NODATA, passes, fillable)).toBe(wantFilled);
      expect(wantFilled).toBeGreaterThan(0);
      expect(Array.from(got)).toEqual(Array.from(want));
      // Cells not fillable stay empty.
      expect(got[3]).toBe(grid[3] === FLOAT_NODATA ? FLOAT_NODATA : grid[3]);
    }
  });

  it('leaves a grid without any value as it is', () => {
    const grid = new Float32Array(20).fill(FLOAT_NODATA);
    expect(fillFromNeighbours(grid, 5, 4, FLOAT_NODATA, 8, () => true)).toBe(0);
    expect(grid.every((v) => v === FLOAT_NODATA)).toBe(true);
  });
});
