import { mulberry32 as random } from '@nuage/fixtures/synthetic/random.js';
import { describe, expect, it } from 'vitest';
import { type FacePlanes, type GrowSlots, growRoofs } from './buildings-grow.js';
import { buildPointGrid } from './point-grid.js';

/** Parts of the scene, by label. */
const FOUND = 0;
const MISSED = 1;
const CROWN = 2;
const HEDGE = 3;
const FAR = 4;
const BY_CROWN = 5;

/** 0.3 points/m², the IGN LiDAR HD density: one point every 1.83 m. */
const DENSITY = 0.3;
const SPACING = 1 / Math.sqrt(DENSITY);

/**
 * A gable roof at 0.3 points/m² over 0..12 × 0..8 (ridge along x at y = 4,
 * eaves at 4 m, 40° faces): the south face found (the building), the north
 * face missed (its fits failed; its east end, x 9..12, within the reach of
 * the crown's pulses of many returns). Beside it a tree crown 3–7 m high east of
 * the house (x 14..19, two returns of three from pulses of many), a hedge
 * 2.5 m high along the north side (y 9..10) and, 15 m away, a shed roof
 * (x 30..36) at the house's heights.
 */
function scene(): { slots: GrowSlots; part: Uint8Array; building: Uint8Array; minX: number; minY: number } {
  const rnd = random(5);
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const singles: number[] = [];
  const parts: number[] = [];
  const slope = Math.tan((40 * Math.PI) / 180);
  const area = (x0: number, x1: number, y0: number, y1: number, p: number, z: (x: number, y: number) => number) => {
    const n = Math.round((x1 - x0) * (y1 - y0) * DENSITY);
    for (let i = 0; i < n; i++) {
      const x = x0 + rnd() * (x1 - x0);
      const y = y0 + rnd() * (y1 - y0);
      xs.push(x);
      ys.push(y);
      zs.push(z(x, y) + (rnd() - 0.5) * 0.06);
      singles.push(p === CROWN && rnd() < 2 / 3 ? 0 : 1);
      parts.push(p);
    }
  };
  const roof = (_x: number, y: number) => 4 + (4 - Math.abs(y - 4)) * slope;
  area(0, 12, 0, 4, FOUND, roof);
  area(0, 9, 4, 8, MISSED, roof);
  area(9, 12, 4, 8, BY_CROWN, roof);
  area(14, 19, 0, 8, CROWN, () => 3 + 4 * rnd());
  area(0, 12, 9, 10.5, HEDGE, () => 2.5);
  area(30, 36, 4, 8, FAR, roof);
  const count = xs.length;
  const x = Float64Array.from(xs);
  const y = Float64Array.from(ys);
  const grid = buildPointGrid(x, y, count, 3);
  // Slots in grid order, as the building step hands them on.
  const m = grid.index.length;
  const slots: GrowSlots = {
    x: new Float64Array(m),
    y: new Float64Array(m),
    z: new Float64Array(m),
    cell: new Int32Array(m),
    single: new Uint8Array(m),
    count: m,
    grid,
  };
  const part = new Uint8Array(m);
  for (let k = 0; k < grid.cols * grid.rows; k++) {
    for (let q = grid.start[k]!; q < grid.start[k + 1]!; q++) {
      const i = grid.index[q]!;
      slots.x[q] = x[i]! - grid.minX;
      slots.y[q] = y[i]! - grid.minY;
      slots.z[q] = zs[i]!;
      slots.cell[q] = k;
      slots.single[q] = singles[i]!;
      part[q] = parts[i]!;
    }
  }
  const building = Uint8Array.from(part, (p) => (p === FOUND ? 1 : 0));
  return { slots, part, building, minX: grid.minX, minY: grid.minY };
}

/** Share of the slots of `label` that are building. */
function share(building: Uint8Array, part: Uint8Array, label: number): number {
  let n = 0;
  let on = 0;
  for (let q = 0; q < part.length; q++) {
    if (part[q] !== label) continue;
    n++;
    on += building[q]!;
  }
  return on / n;
}

describe('growRoofs', () => {
  it('continues a sparse roof over its missed face, not into a crown, a hedge below it or a roof out of reach', () => {
    const { slots, part, building } = scene();
    growRoofs(slots, building, 1, SPACING);
    // The east end (BY_CROWN) is judged among the crown's pulses: half of it (measured) is left out.
    expect(share(building, part, MISSED)).toBe(1);
    expect(share(building, part, FOUND)).toBe(1);
    expect(share(building, part, CROWN)).toBe(0);
    expect(share(building, part, HEDGE)).toBe(0);
    expect(share(building, part, FAR)).toBe(0);
  });

  it('continues a kept face over the points on its plane among the crown pulses', () => {
    // Both faces kept (planes z = 4 + y·slope and z = 4 + (8 - y)·slope), the north one from its west end only.
    const run = (withPlanes: boolean) => {
      const { slots, part, building, minX, minY: y0 } = scene();
      const slope = Math.tan((40 * Math.PI) / 180);
      const norm = Math.hypot(slope, 1);
      const planes: FacePlanes = {
        faceOf: new Int32Array(slots.count).fill(-1),
        plane: Float64Array.from([
          0,
          -slope / norm,
          1 / norm,
          (4 + y0 * slope) / norm,
          0,
          slope / norm,
          1 / norm,
          (4 + 8 * slope - y0 * slope) / norm,
        ]),
      };
      for (let q = 0; q < slots.count; q++) {
        if (part[q] === FOUND) planes.faceOf[q] = 0;
        if (part[q] === MISSED && slots.x[q]! + minX < 3) {
          planes.faceOf[q] = 1;
          building[q] = 1;
        }
      }
      growRoofs(slots, building, 1, SPACING, undefined, withPlanes ? planes : undefined);
      return [BY_CROWN, CROWN, HEDGE, FAR].map((p) => share(building, part, p));
    };
    expect(run(false)).toEqual([0.5, 0, 0, 0]);
    expect(run(true)).toEqual([1, 0, 0, 0]);
  });

  it('grows nothing without pulses of many returns (foliage cannot be told)', () => {
    const { slots, part, building } = scene();
    slots.single.fill(1);
    growRoofs(slots, building, 1, SPACING);
    expect(share(building, part, MISSED)).toBe(0);
  });

  it('scales with the CRS unit (feet)', () => {
    const { slots, part, building } = scene();
    const foot = 0.3048;
    for (const a of [slots.x, slots.y, slots.z]) for (let q = 0; q < slots.count; q++) a[q] = a[q]! / foot;
    const grid = { ...slots.grid, cellSize: slots.grid.cellSize / foot };
    growRoofs({ ...slots, grid }, building, 1 / foot, SPACING / foot);
    expect(share(building, part, MISSED)).toBe(1);
    expect(share(building, part, CROWN)).toBe(0);
    expect(share(building, part, HEDGE)).toBe(0);
  });
});

/**
 * A flat roof at 5 m on a 1 m grid over 0..10 × 0..10 (single returns, all
 * building, spacing 1: reach 2.5 m) and, east of it at x = 11, y = 4..6, a
 * crown of pulses of many returns at `crownZ`. Roof points (10, 4..6) have
 * 13 roof and 2 × 3 crown points in reach with two heights (with the edge
 * return below, 0.32–0.35 of pulses of many), 3 × 3 with three (0.41–0.43);
 * the other roof points at most 0.35 (on a face, kept). Two returns of
 * pulses of many on the roof's edge at its height: (10.5, 8) by the crown
 * (3 of 14 with two heights, 0.21) and (5, -0.5) away from it (1 of 10).
 */
function edgeScene(crownZ: number[], crownX = 11): { slots: GrowSlots; building: Uint8Array; role: Uint8Array } {
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const singles: number[] = [];
  const roles: number[] = [];
  const push = (x: number, y: number, z: number, single: number, role: number) => {
    xs.push(x);
    ys.push(y);
    zs.push(z);
    singles.push(single);
    roles.push(role);
  };
  for (let gx = 0; gx <= 10; gx++) {
    for (let gy = 0; gy <= 10; gy++) push(gx, gy, 5, 1, gx === 10 && gy >= 4 && gy <= 6 ? 1 : 0);
  }
  for (let gy = 4; gy <= 6; gy++) for (const z of crownZ) push(crownX, gy, z, 0, 2);
  push(10.5, 8, 5, 0, 3);
  push(5, -0.5, 5, 0, 4);
  const count = xs.length;
  const x = Float64Array.from(xs);
  const y = Float64Array.from(ys);
  const grid = buildPointGrid(x, y, count, 1);
  const m = grid.index.length;
  const slots: GrowSlots = {
    x: new Float64Array(m),
    y: new Float64Array(m),
    z: new Float64Array(m),
    cell: new Int32Array(m),
    single: new Uint8Array(m),
    count: m,
    grid,
  };
  const role = new Uint8Array(m);
  for (let k = 0; k < grid.cols * grid.rows; k++) {
    for (let q = grid.start[k]!; q < grid.start[k + 1]!; q++) {
      const i = grid.index[q]!;
      slots.x[q] = x[i]! - grid.minX;
      slots.y[q] = y[i]! - grid.minY;
      slots.z[q] = zs[i]!;
      slots.cell[q] = k;
      slots.single[q] = singles[i]!;
      role[q] = roles[i]!;
    }
  }
  const building = Uint8Array.from(role, (r) => (r <= 1 ? 1 : 0));
  return { slots, building, role };
}

/** Building slots of each role: plain roof, roof by the crown, crown, edge return of many by the crown, away from it. */
function byRole(building: Uint8Array, role: Uint8Array): number[] {
  const n = [0, 0, 0, 0, 0];
  for (let q = 0; q < role.length; q++) n[role[q]!]! += building[q]!;
  return n;
}

describe('growRoofs on a kept roof face', () => {
  it('keeps the face points among 0.3–0.4 of pulses of many returns, drops other building points there', () => {
    const faced = edgeScene([4, 6]);
    growRoofs(
      faced.slots,
      faced.building,
      1,
      1,
      Uint8Array.from(faced.role, (r) => (r <= 1 ? 1 : 0)),
    );
    expect(byRole(faced.building, faced.role)).toEqual([118, 3, 0, 0, 1]);
    const plain = edgeScene([4, 6]);
    growRoofs(plain.slots, plain.building, 1, 1);
    expect(byRole(plain.building, plain.role)).toEqual([118, 0, 0, 0, 1]);
  });

  it('drops face points too above 0.4', () => {
    const { slots, building, role } = edgeScene([3, 5, 7]);
    growRoofs(
      slots,
      building,
      1,
      1,
      Uint8Array.from(role, (r) => (r <= 1 ? 1 : 0)),
    );
    expect(byRole(building, role)).toEqual([118, 0, 0, 0, 1]);
  });

  it('keeps face points over the limit when the crown beside them is above, not at their level, over them or under them', () => {
    // (10, 5) has 9 of 22 pulses of many with the crown at x = 12, (10, 4) and (10, 6) 6 of 19 (kept on a face anyway).
    const run = (crownZ: number[], crownX: number, faced: boolean) => {
      const { slots, building, role } = edgeScene(crownZ, crownX);
      growRoofs(slots, building, 1, 1, faced ? Uint8Array.from(role, (r) => (r <= 1 ? 1 : 0)) : undefined);
      return byRole(building, role);
    };
    expect(run([7, 8, 9], 12, true)).toEqual([118, 3, 0, 0, 1]);
    expect(run([7, 8, 9], 12, false)).toEqual([118, 0, 0, 0, 1]);
    expect(run([7, 8, 9], 11, true)).toEqual([118, 0, 0, 0, 1]);
    expect(run([3, 7, 8], 11, true)).toEqual([118, 0, 0, 0, 1]);
  });
});
