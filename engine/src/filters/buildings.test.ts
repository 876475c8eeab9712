import { mulberry32 as random } from '@nuage/fixtures/synthetic/random.js';
import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { type BuildingOptions, findBuildings } from './buildings.js';
import { smallestEigen } from './buildings-plane.js';

/** Parts of the synthetic scene, by label. */
const GROUND = 0;
const HOUSE = 1;
const TREE = 2;
const WALL = 3;
const SHED = 4;

/**
 * 80 m × 60 m of flat ground at 8 points/m² (z = 0, so z is the height above
 * ground) holding: a gable-roofed house (14 m × 10 m, eaves at 4 m, 35° roof
 * faces, a 3 m × 2 m dormer), a round tree crown of single returns (the worst
 * case: no return numbers to tell foliage), a free-standing wall 30 m long and
 * 4 m tall, and a 2.5 m × 2.5 m shed. Every point is a single return.
 */
/** A cloud of single returns at the given coordinates. */
function singleReturns(xs: number[], ys: number[], zs: number[]): PointChunk {
  const count = xs.length;
  return {
    count,
    x: Float64Array.from(xs),
    y: Float64Array.from(ys),
    z: Float64Array.from(zs),
    returnNumber: new Uint8Array(count).fill(1),
    numberOfReturns: new Uint8Array(count).fill(1),
  };
}

function scene(scale = 1, density = 8): { cloud: PointChunk; part: Uint8Array } {
  const rnd = random(7);
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const part: number[] = [];
  const add = (x: number, y: number, z: number, p: number) => {
    xs.push((500_000 + x) / scale);
    ys.push((5_000_000 + y) / scale);
    zs.push((z + (rnd() - 0.5) * 0.04) / scale);
    part.push(p);
  };
  const slope = Math.tan((35 * Math.PI) / 180);
  const houseRoof = (x: number, y: number): number => {
    // Ridge along x at y = 25 over the footprint 10..24 × 20..30; dormer on the south face.
    let z = 4 + (5 - Math.abs(y - 25)) * slope;
    if (x >= 15 && x <= 18 && y >= 21 && y <= 23) z = Math.max(z, 4 + 3.5 * slope);
    return z;
  };
  for (let i = 0; i < 80 * 60 * density; i++) {
    const x = rnd() * 80;
    const y = rnd() * 60;
    if (x >= 10 && x <= 24 && y >= 20 && y <= 30) add(x, y, houseRoof(x, y), HOUSE);
    else if (Math.hypot(x - 50, y - 25) < 5) {
      const z = 3 + Math.sqrt(25 - (x - 50) ** 2 - (y - 25) ** 2) * (0.6 + 0.8 * rnd());
      add(x, y, z, TREE);
    } else if (x >= 60 && x <= 62.5 && y >= 45 && y <= 47.5) add(x, y, 3, SHED);
    else add(x, y, 0, GROUND);
  }
  // The wall is seen sideways by a tilted scan: points over its face (x from 20 to 50, y = 50).
  for (let i = 0; i < 30 * 4 * density; i++) add(20 + rnd() * 30, 50 + rnd() * 0.05, rnd() * 4, WALL);
  const cloud = singleReturns(xs, ys, zs);
  return { cloud, part: Uint8Array.from(part) };
}

function run(scale: number, density = 8): { building: Uint8Array; part: Uint8Array } {
  const { cloud, part } = scene(scale, density);
  const ground = Uint8Array.from(part, (p) => (p === GROUND ? 1 : 0));
  const hag = Float32Array.from(cloud.z);
  const options: BuildingOptions = {
    minHeight: 2.5,
    minArea: 20,
    roofPlanarity: 0.1,
    unitToMetre: scale,
    verticalUnitToMetre: scale,
  };
  return { building: findBuildings(cloud, ground, new Uint8Array(cloud.count), hag, options), part };
}

function shareLabelled(building: Uint8Array, part: Uint8Array, which: number): number {
  let n = 0;
  let labelled = 0;
  for (let i = 0; i < part.length; i++) {
    if (part[i] !== which) continue;
    n++;
    labelled += building[i]!;
  }
  return labelled / n;
}

describe('findBuildings', () => {
  const { building, part } = run(1);

  it('labels both faces of a gable roof and its dormer', () => {
    expect(shareLabelled(building, part, HOUSE)).toBeGreaterThan(0.95);
  });

  it('leaves a tree crown, a free-standing wall and a shed below the minimum area', () => {
    expect(shareLabelled(building, part, TREE)).toBeLessThan(0.02);
    expect(shareLabelled(building, part, WALL)).toBe(0);
    expect(shareLabelled(building, part, SHED)).toBe(0);
    expect(shareLabelled(building, part, GROUND)).toBe(0);
  });

  it('gives the same labels in US survey feet', () => {
    const feet = run(1200 / 3937);
    let differ = 0;
    for (let i = 0; i < part.length; i++) if (feet.building[i] !== building[i]) differ++;
    expect(differ).toBeLessThan(part.length * 0.001);
  });
});

/**
 * 100 m × 100 m of flat ground at 0.3 points/m² (the IGN LiDAR HD density)
 * with 16 gable-roofed houses, 12 m × 8 m, 40° faces 4 m wide, eaves at 4 m:
 * a fit over the 3 m radius that holds a few points straddles ridge and eaves.
 */
function sparseHouses(): { building: Uint8Array; house: Uint8Array } {
  const rnd = random(11);
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const house: number[] = [];
  const slope = Math.tan((40 * Math.PI) / 180);
  for (let i = 0; i < 100 * 100 * 0.3; i++) {
    const x = rnd() * 100;
    const y = rnd() * 100;
    const hx = x % 25;
    const hy = y % 25;
    const on = hx >= 5 && hx <= 17 && hy >= 5 && hy <= 13;
    xs.push(500_000 + x);
    ys.push(5_000_000 + y);
    zs.push((on ? 4 + (4 - Math.abs(hy - 9)) * slope : 0) + (rnd() - 0.5) * 0.06);
    house.push(on ? 1 : 0);
  }
  const cloud = singleReturns(xs, ys, zs);
  const ground = Uint8Array.from(house, (h) => 1 - h);
  const hag = Float32Array.from(zs, (z, i) => (house[i] ? z : 0));
  const options: BuildingOptions = {
    minHeight: 2.5,
    minArea: 20,
    roofPlanarity: 0.1,
    unitToMetre: 1,
    verticalUnitToMetre: 1,
  };
  return {
    building: findBuildings(cloud, ground, new Uint8Array(cloud.count), hag, options),
    house: Uint8Array.from(house),
  };
}

describe('findBuildings on a sparse cloud', () => {
  it('labels narrow gable roofs at 0.3 points/m² (robust fits across ridges and eaves)', () => {
    const { building, house } = sparseHouses();
    // Measured 419 of 439 roof points (0.954); a plain least-squares fit finds 379 (0.863).
    expect(shareLabelled(building, house, 1)).toBeGreaterThan(0.93);
    expect(shareLabelled(building, house, 0)).toBe(0);
  });
});

function unitVector(v: number[]): number[] {
  const length = Math.hypot(...v);
  return v.map((a) => a / length);
}

describe('smallestEigen', () => {
  it('gives the normal and the variance across a tilted plane', () => {
    // Covariance of points spread 2 m and 1 m along a plane tilted 29°, ±0.1 m across it.
    const u = unitVector([-0.5, -0.25, 1]);
    const v = unitVector([1, 0, 0.5]);
    const w = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    const c = (a: number, b: number) => 4 * v[a]! * v[b]! + 1 * w[a]! * w[b]! + 0.01 * u[a]! * u[b]!;
    const out = new Float64Array(3);
    const variance = smallestEigen(c(0, 0), c(0, 1), c(0, 2), c(1, 1), c(1, 2), c(2, 2), out);
    expect(variance).toBeCloseTo(0.01, 10);
    for (let a = 0; a < 3; a++) expect(out[a]).toBeCloseTo(u[a]!, 8);
  });

  it('reports a vertical normal for a degenerate (isotropic) matrix', () => {
    const out = new Float64Array(3);
    expect(smallestEigen(2, 0, 0, 2, 0, 2, out)).toBeCloseTo(2, 12);
    expect(Array.from(out)).toEqual([0, 0, 1]);
  });
});

/**
 * 60 m × 40 m of flat ground at 8 points/m² with a flat-roofed house (12 m ×
 * 10 m at 5 m), a garden shed (4 m × 3 m, flat roof at 2.2 m: the AHN3 sheds
 * of Delft are 2–2.5 m high and 10–20 m²) and a clipped, flat-topped crown
 * (8 m across at 6 m) whose top is as flat as a roof on average but scatters
 * ±0.1 m, with a quarter of its returns up to 0.6 m inside the foliage.
 * Default options (`minHeight` 2 m, `minArea` 10 m²).
 */
function shedAndCrown(): { building: Uint8Array; part: Uint8Array } {
  const rnd = random(23);
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const part: number[] = [];
  for (let i = 0; i < 60 * 40 * 8; i++) {
    const x = rnd() * 60;
    const y = rnd() * 40;
    let z = 0;
    let p = GROUND;
    if (x >= 5 && x <= 17 && y >= 5 && y <= 15) {
      z = 5;
      p = HOUSE;
    } else if (x >= 30 && x <= 34 && y >= 5 && y <= 8) {
      z = 2.2;
      p = SHED;
    } else if (Math.hypot(x - 45, y - 25) < 4) {
      z = 6 + (rnd() < 0.75 ? (rnd() - 0.5) * 0.2 : -0.1 - rnd() * 0.5);
      p = TREE;
    }
    xs.push(500_000 + x);
    ys.push(5_000_000 + y);
    zs.push(z + (rnd() - 0.5) * 0.04);
    part.push(p);
  }
  const cloud = singleReturns(xs, ys, zs);
  const ground = Uint8Array.from(part, (q) => (q === GROUND ? 1 : 0));
  const hag = Float32Array.from(cloud.z);
  const options: BuildingOptions = {
    minHeight: 2,
    minArea: 10,
    roofPlanarity: 0.1,
    unitToMetre: 1,
    verticalUnitToMetre: 1,
  };
  return {
    building: findBuildings(cloud, ground, new Uint8Array(cloud.count), hag, options),
    part: Uint8Array.from(part),
  };
}

describe('findBuildings: small low roofs and flat crowns', () => {
  const { building, part } = shedAndCrown();

  it('labels a 12 m² shed 2.2 m high and the house', () => {
    expect(shareLabelled(building, part, SHED)).toBeGreaterThan(0.9);
    expect(shareLabelled(building, part, HOUSE)).toBeGreaterThan(0.95);
  });

  it('leaves a flat-topped crown rougher than the roofs (canopy test)', () => {
    expect(shareLabelled(building, part, TREE)).toBeLessThan(0.05);
    expect(shareLabelled(building, part, GROUND)).toBe(0);
  });
});
