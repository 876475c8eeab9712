import { describe, expect, it } from 'vitest';
import { convexHull, labelComponents, ringArea2, traceRegions } from './region-outlines.js';

/** A mask from rows of '#' and '.', row 0 north. */
function mask(rows: string[]) {
  const W = rows[0]!.length;
  const H = rows.length;
  return { mask: Uint8Array.from(rows.join(''), (ch) => (ch === '#' ? 1 : 0)), W, H };
}

describe('region outlines', () => {
  it('traces a ring with a hole: outer counter-clockwise, hole clockwise, on the cell edges', () => {
    const { mask: m, W, H } = mask(['#####', '#...#', '#...#', '#####']);
    const { labels, count } = labelComponents(m, W, H);
    expect(count).toBe(1);
    const [polygon] = traceRegions(labels, count, { width: W, height: H, originX: 100, originY: 50, resolution: 2 }, 0);
    expect(polygon!.rings).toHaveLength(2);
    const [outer, hole] = polygon!.rings as [number[][], number[][]];
    expect(ringArea2(outer) / 2).toBe(10 * 8);
    expect(ringArea2(hole) / 2).toBe(-6 * 4);
    const xs = outer.map((p) => p[0]!);
    const ys = outer.map((p) => p[1]!);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]).toEqual([100, 110, 42, 50]);
    // Corners only: a rectangle is 4 vertices and the closing one.
    expect(outer).toHaveLength(5);
    expect(polygon!.area).toBe(14 * 4);
  });

  it('keeps cells touching at a corner apart (4-connected regions)', () => {
    const { mask: m, W, H } = mask(['#.', '.#']);
    const { labels, count } = labelComponents(m, W, H);
    expect(count).toBe(2);
    const polygons = traceRegions(labels, count, { width: W, height: H, originX: 0, originY: 2, resolution: 1 });
    expect(polygons.map((p) => ringArea2(p.rings[0]!) / 2)).toEqual([1, 1]);
  });

  it('makes the convex hull of points, counter-clockwise and closed', () => {
    const hull = convexHull([
      [0, 0],
      [2, 0],
      [1, 1],
      [2, 2],
      [0, 2],
    ]);
    expect(hull).toEqual([
      [0, 0],
      [2, 0],
      [2, 2],
      [0, 2],
      [0, 0],
    ]);
  });
});
