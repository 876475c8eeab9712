import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { footprintAgreement } from './buildings.metrics.js';

/** Reference building points every 0.25 m over the rectangle [x0, x1) × [y0, y1). */
function block(x0: number, x1: number, y0: number, y1: number): [number, number][] {
  const out: [number, number][] = [];
  for (let x = x0 + 0.125; x < x1; x += 0.25) for (let y = y0 + 0.125; y < y1; y += 0.25) out.push([x, y]);
  return out;
}

function square(x0: number, x1: number, y0: number, y1: number): number[][][] {
  return [
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [x0, y0],
    ],
  ];
}

describe('footprintAgreement false and missed areas', () => {
  it('splits the false and missed footprint area, and the parts of no shared building', () => {
    // Reference: a 10 m × 10 m building and a 4 m × 4 m one no footprint touches.
    const pts = [...block(0, 10, 0, 10), ...block(0, 4, 20, 24)];
    const n = pts.length;
    const cloud: PointChunk = {
      count: n,
      x: Float64Array.from(pts, (p) => p[0]),
      y: Float64Array.from(pts, (p) => p[1]),
      z: new Float64Array(n),
    };
    const reference = new Uint8Array(n).fill(6);
    // Footprints: the first shifted 2 m east, and a 4 m × 4 m one on no reference.
    const f = footprintAgreement(cloud, reference, [square(2, 12, 0, 10), square(20, 24, 0, 4)], 1);
    expect(f.referenceAreaM2).toBe(116);
    expect(f.footprintAreaM2).toBe(116);
    expect(f.falseAreaM2).toBe(36);
    expect(f.falseAloneAreaM2).toBe(16);
    expect(f.missedAreaM2).toBe(36);
    expect(f.missedAloneAreaM2).toBe(16);
    expect(f.iou).toBeCloseTo(80 / 152, 6);
  });

  it('is all zero without reference or footprints', () => {
    const cloud: PointChunk = { count: 1, x: new Float64Array(1), y: new Float64Array(1), z: new Float64Array(1) };
    const f = footprintAgreement(cloud, new Uint8Array(1), [], 1);
    expect(f.falseAreaM2).toBe(0);
    expect(f.missedAreaM2).toBe(0);
    expect(f.iou).toBe(1);
  });
});
