import { mulberry32 as random } from '@nuage/fixtures/synthetic/random.js';
import { describe, expect, it } from 'vitest';
import { type EdgeSlots, roofEdges } from './buildings-edges.js';
import { buildPointGrid } from './point-grid.js';

/** Parts of the scene, by label. */
const ROOF = 0;
const EAVES = 1;
const BRANCHES = 2;
const CROWN = 3;
const FAR = 4;

/**
 * A flat roof at 5 m over 0..10 × 0..20 (the building) at 8 points/m²;
 * beside its east edge (x 10..10.8, all within 1 m of it): eaves on the
 * roof's plane (y 1..5), branches 1.5 m above it (y 7..9), a crown column
 * with points at the roof's height and above and below it (y 11..14); and
 * points on the roof's plane 2 m beyond the edge (x 12..13).
 */
function scene(): { slots: EdgeSlots; part: Uint8Array; building: Uint8Array; face: Int32Array } {
  const rnd = random(11);
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const parts: number[] = [];
  const add = (x: number, y: number, z: number, p: number) => {
    xs.push(x);
    ys.push(y);
    zs.push(z + (rnd() - 0.5) * 0.04);
    parts.push(p);
  };
  const strip = (x0: number, x1: number, y0: number, y1: number, z: () => number, p: number) => {
    const n = Math.round((x1 - x0) * (y1 - y0) * 8);
    for (let i = 0; i < n; i++) add(x0 + rnd() * (x1 - x0), y0 + rnd() * (y1 - y0), z(), p);
  };
  strip(0, 10, 0, 20, () => 5, ROOF);
  strip(10, 10.8, 1, 5, () => 5, EAVES);
  strip(10, 10.8, 7, 9, () => 6.5, BRANCHES);
  strip(10, 10.8, 11, 14, () => 3.5 + 3.5 * rnd(), CROWN);
  strip(12, 13, 1, 19, () => 5, FAR);
  const count = xs.length;
  const x = Float64Array.from(xs);
  const y = Float64Array.from(ys);
  const grid = buildPointGrid(x, y, count, 0.9);
  // Slots in grid order, as the building step hands them on.
  const m = grid.index.length;
  const slots: EdgeSlots = {
    x: new Float64Array(m),
    y: new Float64Array(m),
    z: new Float64Array(m),
    cell: new Int32Array(m),
    edgeHigh: new Uint8Array(m).fill(1),
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
      part[q] = parts[i]!;
    }
  }
  const building = new Uint8Array(m);
  for (let q = 0; q < m; q++) building[q] = part[q] === ROOF ? 1 : 0;
  return { slots, part, building, face: new Int32Array(m).fill(-1) };
}

/** Share of the slots of `label` that `edges` adds. */
function share(edges: Uint8Array, part: Uint8Array, label: number): number {
  let n = 0;
  let added = 0;
  for (let q = 0; q < part.length; q++) {
    if (part[q] !== label) continue;
    n++;
    added += edges[q]!;
  }
  return added / n;
}

describe('roofEdges', () => {
  it('adds the eaves on the roof plane beside a building, not branches, crowns or points out of reach', () => {
    const { slots, part, building, face } = scene();
    const edges = roofEdges(slots, face, building, 0.1, 1, 0.9);
    expect(share(edges, part, ROOF)).toBe(0);
    expect(share(edges, part, EAVES)).toBeGreaterThan(0.95);
    expect(share(edges, part, BRANCHES)).toBe(0);
    expect(share(edges, part, CROWN)).toBeLessThan(0.05);
    expect(share(edges, part, FAR)).toBe(0);
  });

  it('leaves points below the edge height, and adds nothing without a building', () => {
    const { slots, part, building, face } = scene();
    slots.edgeHigh.fill(0);
    expect(share(roofEdges(slots, face, building, 0.1, 1, 0.9), part, EAVES)).toBe(0);
    slots.edgeHigh.fill(1);
    const none = roofEdges(slots, face, new Uint8Array(slots.count), 0.1, 1, 0.9);
    expect(none.reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('scales with the CRS unit (feet)', () => {
    const { slots, part, building, face } = scene();
    const foot = 0.3048;
    for (const a of [slots.x, slots.y, slots.z]) for (let q = 0; q < slots.count; q++) a[q] = a[q]! / foot;
    const grid = { ...slots.grid, cellSize: slots.grid.cellSize / foot };
    const edges = roofEdges({ ...slots, grid }, face, building, 0.1 / foot, 1 / foot, 0.9 / foot);
    expect(share(edges, part, EAVES)).toBeGreaterThan(0.95);
    expect(share(edges, part, BRANCHES)).toBe(0);
    expect(share(edges, part, FAR)).toBe(0);
  });
});
