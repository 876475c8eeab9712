import { describe, expect, it } from 'vitest';
import { straightStretches } from './wires-straight.js';

/** Plan coordinates of a list of points, as the filter's arrays. */
function plan(points: Array<[number, number]>) {
  return {
    cx: Float64Array.from(points, (p) => p[0]),
    cy: Float64Array.from(points, (p) => p[1]),
  };
}

describe('straightStretches', () => {
  it('keeps two conductors meeting at a pole, with their jitter, and drops a curved eave', () => {
    const points: Array<[number, number]> = [];
    // Conductor 1: 30 m east from the pole at (0, 0), a return every 1.5 m, ±0.2 m across.
    for (let i = 0; i <= 20; i++) points.push([1.5 * i, i % 2 ? 0.2 : -0.2]);
    // Conductor 2: 30 m north-east from the pole.
    for (let i = 1; i <= 20; i++) points.push([1.06 * i, 1.06 * i]);
    const lines = points.length;
    // A round eave away from both lines: half a circle of radius 20 m (40 m end to end), a return every metre.
    // A band 1 m wide holds 12.6 m of it at most.
    for (let i = 0; i <= 62; i++) {
      const t = (i / 62) * Math.PI;
      points.push([90 + 20 * Math.cos(t), 30 + 20 * Math.sin(t)]);
    }
    const { cx, cy } = plan(points);
    const members = [...points.keys()];
    const kept = straightStretches(members, cx, cy, { tolerance: 0.5, minLength: 25, maxGap: 8 }).sort((a, b) => a - b);
    expect(kept).toEqual([...Array(lines).keys()]);
  });

  it('keeps nothing of a stretch shorter than the shortest span', () => {
    const points: Array<[number, number]> = [];
    for (let i = 0; i <= 12; i++) points.push([2 * i, 0]);
    const { cx, cy } = plan(points);
    const members = [...points.keys()];
    expect(straightStretches(members, cx, cy, { tolerance: 0.5, minLength: 25, maxGap: 8 })).toEqual([]);
    expect(straightStretches(members, cx, cy, { tolerance: 0.5, minLength: 24, maxGap: 8 }).length).toBe(13);
  });

  it('keeps no stretch across a gap longer than the longest', () => {
    // Two rows of 13 m on one line, 20 m apart: one line, 46 m end to end, with nothing along 20 m of it.
    const points: Array<[number, number]> = [];
    for (let i = 0; i <= 13; i++) points.push([i, 0]);
    for (let i = 0; i <= 13; i++) points.push([33 + i, 0]);
    const { cx, cy } = plan(points);
    const members = [...points.keys()];
    expect(straightStretches(members, cx, cy, { tolerance: 0.5, minLength: 25, maxGap: 8 })).toEqual([]);
    expect(straightStretches(members, cx, cy, { tolerance: 0.5, minLength: 25, maxGap: 21 }).length).toBe(28);
  });
});
