import { describe, expect, it } from 'vitest';
import { Morphology, morph, open } from './morphology.js';

/** Min (or max) over the square window of radius r, cell by cell. */
function naive(src: Float32Array, cols: number, rows: number, r: number, isMin: boolean): Float32Array {
  const out = new Float32Array(src.length);
  for (let row = 0; row < rows; row++) {
    for (let c = 0; c < cols; c++) {
      let v = isMin ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
      for (let rr = Math.max(0, row - r); rr <= Math.min(rows - 1, row + r); rr++) {
        for (let cc = Math.max(0, c - r); cc <= Math.min(cols - 1, c + r); cc++) {
          const s = src[rr * cols + cc]!;
          v = isMin ? Math.min(v, s) : Math.max(v, s);
        }
      }
      out[row * cols + c] = v;
    }
  }
  return out;
}

describe('Morphology', () => {
  const cols = 37;
  const rows = 23;
  const src = Float32Array.from({ length: cols * rows }, (_, i) => Math.sin(i * 0.37) * 10 + ((i * 31) % 7));

  it('erodes and dilates like a window scan, at every radius, from reused scratch arrays', () => {
    const m = new Morphology(cols, rows, 6);
    const out = new Float32Array(src.length);
    for (let r = 1; r <= 6; r++) {
      expect(m.erode(src, r, out)).toEqual(naive(src, cols, rows, r, true));
      expect(m.erode(src, r, out, true)).toEqual(naive(src, cols, rows, r, false));
      expect(morph(src, cols, rows, r, true)).toEqual(naive(src, cols, rows, r, true));
      expect(morph(src, cols, rows, r, false)).toEqual(naive(src, cols, rows, r, false));
    }
    expect(() => m.erode(src, 7, out)).toThrow(RangeError);
  });

  it('opens in place as into a new array', () => {
    const m = new Morphology(cols, rows, 4);
    for (let r = 1; r <= 4; r++) {
      const expected = naive(naive(src, cols, rows, r, true), cols, rows, r, false);
      expect(open(src, cols, rows, r)).toEqual(expected);
      const copy = src.slice();
      expect(m.open(copy, r, copy)).toEqual(expected);
    }
  });
});
