import { mulberry32 as random } from '@nuage/fixtures/synthetic/random.js';
import { describe, expect, it } from 'vitest';
import { type SmallRoofSlots, smallRoofs } from './buildings-small.js';
import { buildPointGrid } from './point-grid.js';

/** A point of the test scenes: position, 1 for a single return, 1 for an existing building point. */
interface P {
  x: number;
  y: number;
  z: number;
  single?: number;
  building?: number;
}

/** Slots in grid order (3 m cells, every point high enough) and the building mask, as `findBuildings` hands them over. */
function slotsOf(points: P[]): { s: SmallRoofSlots; building: Uint8Array; order: Int32Array } {
  const n = points.length;
  const x = Float64Array.from(points, (p) => p.x);
  const y = Float64Array.from(points, (p) => p.y);
  const grid = buildPointGrid(x, y, n, 3, undefined, { minX: 0, minY: 0, maxX: 100, maxY: 100 });
  const order = grid.index;
  const s: SmallRoofSlots = {
    x: Float64Array.from(order, (i) => points[i]!.x),
    y: Float64Array.from(order, (i) => points[i]!.y),
    z: Float64Array.from(order, (i) => points[i]!.z),
    cell: new Int32Array(n),
    roofHigh: new Uint8Array(n).fill(1),
    single: Uint8Array.from(order, (i) => points[i]!.single ?? 1),
    count: n,
    grid,
    radius: 3,
  };
  for (let k = 0; k < grid.cols * grid.rows; k++)
    for (let q = grid.start[k]!; q < grid.start[k + 1]!; q++) s.cell[q] = k;
  const building = Uint8Array.from(order, (i) => points[i]!.building ?? 0);
  return { s, building, order };
}

/**
 * A gable roof `w` × `d` m at `x0`, `y0` (ridge along x, 35° faces, eaves
 * at 4 m) sampled at 0.35 points/m² with 3 cm of noise; `sign` -1 turns it
 * into a valley.
 */
function gable(rnd: () => number, x0: number, y0: number, w = 9, d = 7, sign = 1): P[] {
  const out: P[] = [];
  const slope = Math.tan((35 * Math.PI) / 180);
  const count = Math.round(w * d * 0.35);
  for (let i = 0; i < count; i++) {
    const u = rnd() * w;
    const v = rnd() * d;
    out.push({ x: x0 + u, y: y0 + v, z: 4 + sign * (d / 2 - Math.abs(v - d / 2)) * slope + (rnd() - 0.5) * 0.06 });
  }
  return out;
}

/** Labelled points of `points` (by their order in the list) after `smallRoofs`. */
function labelled(points: P[]): Uint8Array {
  const { s, building, order } = slotsOf(points);
  smallRoofs(s, building, 0.2, 2, 20);
  const out = new Uint8Array(points.length);
  for (let q = 0; q < s.count; q++) out[order[q]!] = building[q]!;
  return out;
}

const sum = (a: Uint8Array, from = 0, to = a.length) => a.subarray(from, to).reduce((t, v) => t + v, 0);

describe('smallRoofs (whole small roofs of sparse clouds)', () => {
  it('labels a small gable roof of 22 single returns, every point', () => {
    const roof = gable(random(3), 20, 20);
    expect(roof.length).toBe(22);
    expect(sum(labelled(roof))).toBe(22);
  });

  it('labels a flat roof, not a valley (two planes meeting below their points)', () => {
    const rnd = random(5);
    const flat = gable(rnd, 20, 20, 9, 7, 0);
    expect(sum(labelled(flat))).toBe(flat.length);
    const valley = gable(rnd, 20, 20, 9, 7, -1);
    expect(sum(labelled(valley))).toBe(0);
  });

  it('leaves a crown of single returns (no one or two planes hold its points)', () => {
    const rnd = random(9);
    const crown: P[] = [];
    for (let i = 0; i < 25; i++) {
      const a = rnd() * 2 * Math.PI;
      const r = Math.sqrt(rnd()) * 4;
      crown.push({ x: 30 + r * Math.cos(a), y: 30 + r * Math.sin(a), z: 6 + Math.sqrt(16 - r * r) + (rnd() - 0.5) });
    }
    expect(sum(labelled(crown))).toBe(0);
  });

  it('leaves a roof among many pulses of many returns (over 30 % of the pulses around it)', () => {
    const rnd = random(3);
    const roof = gable(rnd, 20, 20);
    const foliage: P[] = [];
    for (let i = 0; i < 10; i++) foliage.push({ x: 20 + rnd() * 9, y: 20 + rnd() * 7, z: 5 + rnd() * 3, single: 0 });
    expect(sum(labelled([...roof, ...foliage]), 0, roof.length)).toBe(0);
    // Under 30 %: kept.
    expect(sum(labelled([...roof, ...foliage.slice(0, 6)]), 0, roof.length)).toBe(roof.length);
  });

  it('needs 8 points and 20 m² alone, 4 points and no area beside a building', () => {
    const rnd = random(13);
    // A flat piece of roof (each side of a gable needs 3 points).
    const piece = gable(rnd, 20, 20, 4, 4, 0).slice(0, 5);
    expect(piece.length).toBe(5);
    expect(sum(labelled(piece))).toBe(0);
    // The same points 1 m from a point already labelled building.
    const beside = [...piece, { x: 19, y: 22, z: piece[0]!.z, building: 1 }];
    expect(sum(labelled(beside), 0, piece.length)).toBe(piece.length);
  });
});
