import { mulberry32 as random } from '@nuage/fixtures/synthetic/random.js';
import { describe, expect, it } from 'vitest';
import { type GridPlacement, traceRegions } from '../raster/region-outlines.js';
import { traceOuterRings } from './tree-crowns.outline.js';

/** What crownOutlines handed on before: the first ring of each label's traced polygon. */
function reference(labels: Int32Array, count: number, grid: GridPlacement): Array<number[][] | null> {
  const out: Array<number[][] | null> = new Array(count + 1).fill(null);
  for (const polygon of traceRegions(labels, count, grid)) out[polygon.label] = polygon.rings[0]!;
  return out;
}

/** Labels grown from random seeds over random cells (blobs that touch, pinch at corners and enclose holes). */
function blobs(W: number, H: number, count: number, fillShare: number, rnd: () => number): Int32Array {
  const labels = new Int32Array(W * H);
  const open = new Uint8Array(W * H);
  for (let k = 0; k < W * H; k++) open[k] = rnd() < fillShare ? 1 : 0;
  const queue: number[] = [];
  for (let id = 1; id <= count; id++) {
    const k = Math.floor(rnd() * W * H);
    if (labels[k]) continue;
    labels[k] = id;
    queue.push(k);
  }
  while (queue.length > 0) {
    const k = queue.splice(Math.floor(rnd() * queue.length), 1)[0]!;
    const r = Math.floor(k / W);
    const c = k % W;
    for (const [n, ok] of [
      [k - 1, c > 0],
      [k + 1, c < W - 1],
      [k - W, r > 0],
      [k + W, r < H - 1],
    ] as const) {
      if (ok && open[n] && !labels[n]) {
        labels[n] = labels[k]!;
        queue.push(n);
      }
    }
  }
  return labels;
}

describe('traceOuterRings', () => {
  it('traces a 2 × 3 crown counter-clockwise, closed, in CRS units', () => {
    // Row 0 is north: the crown spans columns 1..2 and rows 0..2 of a 4 × 4 grid of 0.5 units from (100, 200).
    const labels = new Int32Array(16);
    for (const k of [1, 2, 5, 6, 9, 10]) labels[k] = 1;
    const grid = { width: 4, height: 4, originX: 100, originY: 200, resolution: 0.5 };
    const rings = traceOuterRings(labels, 2, grid);
    expect(rings[0]).toBeNull();
    expect(rings[2]).toBeNull();
    // From the north-west corner of the first cell, down its west side.
    expect(rings[1]).toEqual([
      [100.5, 200],
      [100.5, 198.5],
      [101.5, 198.5],
      [101.5, 200],
      [100.5, 200],
    ]);
  });

  it('keeps the outer ring of a crown around a hole and drops the hole', () => {
    const labels = new Int32Array(25);
    for (let r = 1; r <= 3; r++) for (let c = 1; c <= 3; c++) if (r !== 2 || c !== 2) labels[r * 5 + c] = 1;
    const rings = traceOuterRings(labels, 1, { width: 5, height: 5, originX: 0, originY: 5, resolution: 1 });
    expect(rings[1]).toEqual([
      [1, 4],
      [1, 1],
      [4, 1],
      [4, 4],
      [1, 4],
    ]);
  });

  it('gives exactly the outer rings of traceRegions on random crowns, pinches and holes', () => {
    let rings = 0;
    let vertices = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const rnd = random(seed);
      const W = 5 + Math.floor(rnd() * 60);
      const H = 5 + Math.floor(rnd() * 60);
      const count = 1 + Math.floor(rnd() * 40);
      const labels = blobs(W, H, count, 0.55 + 0.45 * rnd(), rnd);
      // A third of the grids get labels scattered cell by cell too: several rings per label, corner touches.
      if (seed % 3 === 0) for (let k = 0; k < W * H; k++) if (rnd() < 0.2) labels[k] = Math.floor(rnd() * (count + 1));
      const grid = {
        width: W,
        height: H,
        originX: 500000 + rnd() * 1000,
        originY: 6e6 + rnd() * 1000,
        resolution: 0.25 + rnd(),
      };
      const expected = reference(labels, count, grid);
      expect(traceOuterRings(labels, count, grid), `seed ${seed}`).toEqual(expected);
      for (const ring of expected) {
        if (!ring) continue;
        rings++;
        vertices += ring.length;
      }
    }
    // The random grids are not trivial: many rings, many of them beyond rectangles.
    expect(rings).toBeGreaterThan(800);
    expect(vertices / rings).toBeGreaterThan(6);
  });
});
