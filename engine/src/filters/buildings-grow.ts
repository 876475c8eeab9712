/**
 * Roof continuation in sparse clouds: the parts of a roof whose plane fits
 * failed, grown from the building around them. At 0.2–0.4 points/m² (IGN) a
 * roof face holds a handful of points, its fit neighbourhoods straddle the
 * ridge and the eaves, and whole faces join no face: measured on the IGN
 * file, 92 % of the vendor footprint area we missed lay in buildings we
 * covered in part (56 % in ones we covered at least half). A roof is
 * opaque (one return per pulse) and continues the building at its own
 * heights; foliage lets pulses through (many returns) and branches overhang
 * it. Denser clouds have their faces and roof edges (see `roofEdges`);
 * growing there only adds walls and trees (fusa 0.933 → 0.922 IoU).
 */
import type { EdgeSlots } from './buildings-edges.js';

/** How far from building points a roof point may lie, in point spacings (the gap of one or two missing points). */
const REACH_SPACINGS = 2.5;
/**
 * A return of a pulse of many (the pulse split on the roof's edge) needs
 * building points within this many spacings: it is the edge itself.
 */
const SPLIT_REACH_SPACINGS = 1.5;
/** Share of pulses of many returns within the reach above which a point lies in foliage. */
const MAX_MULTI = 0.25;
/**
 * The same for a return of many (in foliage most returns are): measured on
 * the IGN file, returns of many grown at up to 25 % were 69 % vendor
 * building (528 of 762), below the 95 % of the rest. At 15 % the file's
 * point precision holds with the faces' own limit (`FACE_FOLIAGE_MULTI`):
 * 0.952 (0.949 at 25 %, 0.953 growing no returns of many, which loses
 * footprint: IoU 0.733 instead of 0.736, and 0.563 instead of 0.569 on a
 * copy thinned to every other point).
 */
const SPLIT_MAX_MULTI = 0.15;
/**
 * Building points (faces included) with more of them within the reach are
 * dropped: sparse clouds get no canopy test (`ROUGH_FACTOR`: faces of a few
 * fits say little), and measured on the IGN file, building points with under
 * 10 % of pulses of many returns within the reach are 98 % vendor building,
 * 85 % at 20–30 %, 78 % at 30–40 %, 41 % over 50 %.
 */
const FOLIAGE_MULTI = 0.3;
/**
 * Single returns on a kept roof face (`onFace`: planar and opaque as a whole
 * face, see `acceptFaces`) are dropped only above this share: the face is
 * better evidence than the pulses around. Measured on the IGN file, such
 * points at 30–40 % of pulses of many returns were 85 % vendor building
 * (676 of 796), where the other points dropped there were 53 % (137 of
 * 257); at 40–50 % 70 % (215 of 306).
 */
const FACE_FOLIAGE_MULTI = 0.4;
/**
 * A candidate within this distance of the plane of a kept roof face (see
 * `acceptFaces`) that a building point in reach lies on is roof continued
 * by the face: it grows among up to `FOLIAGE_MULTI` of pulses of many
 * returns (the drop's own limit), whatever its return, and at any height
 * (the face's slope, not `MAX_ABOVE_M`, bounds it); it joins the face and
 * carries the plane on. Measured on the IGN file: point recall 0.827 →
 * 0.831 at precision 0.952 (0.9520 → 0.9518), footprint IoU 0.736 → 0.740
 * (RURAL), 0.734 → 0.739 (URBAN). Growing on-plane points up to 40 % (and
 * dropping them only above it): 0.742 / 0.740 but precision 0.951; only
 * single returns, within the height window and not carried: 0.738 / 0.736.
 */
const PLANE_TOLERANCE_M = 0.1;
/** A continued roof lies at most this far above the building points in reach, and this far below, metres. */
const MAX_ABOVE_M = 0.3;
const MAX_BELOW_M = 1;
/** Fewest building points in reach. */
const MIN_BUILDING_NEIGHBOURS = 2;
/** Branch test: at most `MAX_OVER` other points more than `OVER_DZ_M` above the point within `OVER_RADIUS_M`. */
const OVER_RADIUS_M = 1.5;
const OVER_DZ_M = 0.5;
const MAX_OVER = 1;
/**
 * A slot of a kept roof face (`onFace`) among too many pulses of many
 * returns stays when what is not building around it does not look like
 * foliage (see `foliageAround`, with this height band): the returns of many
 * are then the roof's own split pulses or a crown off its level. Measured
 * on the IGN file (with `SPARSE_NEAR_RATIO`): point recall 0.8354 → 0.8388,
 * precision 0.9549 → 0.9538 (0.8405 / 0.9536 with the crown at the point's
 * level as the only test, but that keeps crown faces in forests: 123 false
 * building points on the bcts, Megaplot and MixedConifer tiles
 * thinned to 0.35 points/m², 58 with the three tests, 55 without keeping
 * any; 92 before `SPARSE_NEAR_RATIO`).
 */
const SAME_LEVEL_M = 1;
/** Passes of growth, each one reach farther from the faces (a roof face of a few spacings across). */
const PASSES = 5;

/** Slots as `roofEdges` reads them (every candidate, whatever its height), with the single-return flag. */
export interface GrowSlots extends Omit<EdgeSlots, 'edgeHigh'> {
  /** 1 for the single return of its pulse (or without return numbers). */
  single: Uint8Array;
}

/** Planes of the kept roof faces (n·p = w: nx, ny, nz, w per face, slot coordinates) and each slot's face (-1 for none). */
export interface FacePlanes {
  faceOf: Int32Array;
  plane: Float64Array;
}

/**
 * Grows `building` (1 = building; changed in place) over the slots within
 * `REACH_SPACINGS` point spacings of at least `MIN_BUILDING_NEIGHBOURS`
 * building slots (`SPLIT_REACH_SPACINGS` for returns of many), between
 * `MAX_BELOW_M` below and `MAX_ABOVE_M` above them, among few pulses of
 * many returns (`MAX_MULTI`, `SPLIT_MAX_MULTI` for returns of many) and
 * under no branch (on the plane of a face of `planes` in reach: see
 * `PLANE_TOLERANCE_M`); `PASSES` passes. Then drops the building slots among more than
 * `FOLIAGE_MULTI` of such pulses (`FACE_FOLIAGE_MULTI` for single returns
 * that `onFace`, 1 per slot, marks on a kept roof face), but for the slots
 * on a kept roof face with no foliage around them (see `SAME_LEVEL_M`).
 * `metre` is one metre in horizontal units (z in horizontal units too),
 * `spacing` the cloud's point spacing.
 *
 * @example
 * growRoofs(slots, building, 1, 2);
 */
export function growRoofs(
  s: GrowSlots,
  building: Uint8Array,
  metre: number,
  spacing: number,
  onFace?: Uint8Array,
  planes?: FacePlanes,
): void {
  const { x, y, z, cell, count, single } = s;
  const { cols, rows, start, cellSize } = s.grid;
  const reach = REACH_SPACINGS * spacing;
  const reach2 = reach * reach;
  const split2 = (SPLIT_REACH_SPACINGS * spacing) ** 2;
  const over2 = (OVER_RADIUS_M * metre) ** 2;
  const overDz = OVER_DZ_M * metre;
  const above = MAX_ABOVE_M * metre;
  const below = MAX_BELOW_M * metre;
  const rings = Math.ceil(reach / cellSize);
  const tolerance = PLANE_TOLERANCE_M * metre;
  // Grown points join the face whose plane they lie on: a copy, the caller's stays as it was.
  const faceOf = planes?.faceOf.slice();
  const plane = planes?.plane;
  const addFace: number[] = [];
  // Without pulses of many returns (or return numbers) foliage cannot be told from roofs: no growth.
  if (!single.includes(0)) return;
  // Pulses of many returns around each slot: counted once, read with the growth's and the foliage drop's limits.
  const pulses = pulsesAround(s, reach, rings);
  const opaque = (q: number, maxMulti: number) => pulses.multi[q]! <= maxMulti * pulses.all[q]!;
  const add: number[] = [];
  for (let pass = 0; pass < PASSES; pass++) {
    add.length = 0;
    addFace.length = 0;
    for (let q = 0; q < count; q++) {
      if (building[q]) continue;
      const clear = opaque(q, single[q] ? MAX_MULTI : SPLIT_MAX_MULTI);
      if (!clear && !(faceOf && opaque(q, FOLIAGE_MULTI))) continue;
      const xq = x[q]!;
      const yq = y[q]!;
      const zq = z[q]!;
      const within2 = single[q] ? reach2 : split2;
      const k = cell[q]!;
      const row = (k / cols) | 0;
      const col = k - row * cols;
      const c0 = col - rings < 0 ? 0 : col - rings;
      const c1 = col + rings >= cols ? cols - 1 : col + rings;
      const r1 = row + rings >= rows ? rows - 1 : row + rings;
      let n = 0;
      let lowest = Number.POSITIVE_INFINITY;
      let highest = Number.NEGATIVE_INFINITY;
      let overhead = 0;
      // The face whose plane passes nearest the point among those of the building points in reach.
      let planeFace = -1;
      let nearest = tolerance;
      for (let rr = row - rings < 0 ? 0 : row - rings; rr <= r1; rr++) {
        const end = start[rr * cols + c1 + 1]!;
        for (let j = start[rr * cols + c0]!; j < end; j++) {
          const dx = x[j]! - xq;
          const dy = y[j]! - yq;
          const d2 = dx * dx + dy * dy;
          if (building[j]) {
            if (d2 > within2) continue;
            n++;
            const f = faceOf ? faceOf[j]! : -1;
            if (f >= 0) {
              const o = 4 * f;
              const d = Math.abs(plane![o]! * xq + plane![o + 1]! * yq + plane![o + 2]! * zq - plane![o + 3]!);
              if (d <= nearest) {
                planeFace = f;
                nearest = d;
              }
            }
            if (z[j]! < lowest) lowest = z[j]!;
            if (z[j]! > highest) highest = z[j]!;
          } else if (d2 <= over2 && z[j]! - zq > overDz) overhead++;
        }
      }
      if (n < MIN_BUILDING_NEIGHBOURS || overhead > MAX_OVER) continue;
      if (planeFace < 0 && (!clear || zq > highest + above || zq < lowest - below)) continue;
      add.push(q);
      addFace.push(planeFace);
    }
    if (add.length === 0) break;
    for (let a = 0; a < add.length; a++) {
      building[add[a]!] = 1;
      if (addFace[a]! >= 0) faceOf![add[a]!] = addFace[a]!;
    }
  }
  // Judged on the building as grown (the drop changes `building` in place).
  const grown = building.slice();
  const level = SAME_LEVEL_M * metre;
  for (let q = 0; q < count; q++) {
    if (opaque(q, onFace?.[q] && single[q] ? FACE_FOLIAGE_MULTI : FOLIAGE_MULTI)) continue;
    if (onFace?.[q] && !foliageAround(s, grown, q, reach2, over2, rings, level)) continue;
    building[q] = 0;
  }
}

/**
 * True when slot `q` looks like foliage by what is not building around it:
 * a return of a pulse of many within `reach2` (squared) and within `level`
 * of its height (a crown beside it at its level), any point more than
 * `level` below it within `reach2` (a roof hides what lies under it, a crown
 * has points at every height), or a return of a pulse of many more than
 * `level` above it within `over2` (a branch over it).
 */
function foliageAround(
  s: GrowSlots,
  building: Uint8Array,
  q: number,
  reach2: number,
  over2: number,
  rings: number,
  level: number,
): boolean {
  const { x, y, z, cell, single } = s;
  const { cols, rows, start } = s.grid;
  const k = cell[q]!;
  const row = (k / cols) | 0;
  const col = k - row * cols;
  const c0 = col - rings < 0 ? 0 : col - rings;
  const c1 = col + rings >= cols ? cols - 1 : col + rings;
  const r1 = row + rings >= rows ? rows - 1 : row + rings;
  for (let rr = row - rings < 0 ? 0 : row - rings; rr <= r1; rr++) {
    const end = start[rr * cols + c1 + 1]!;
    for (let j = start[rr * cols + c0]!; j < end; j++) {
      if (building[j]) continue;
      const dz = z[j]! - z[q]!;
      const dx = x[j]! - x[q]!;
      const dy = y[j]! - y[q]!;
      const d2 = dx * dx + dy * dy;
      if (d2 > reach2) continue;
      if (dz < -level) return true;
      if (single[j]) continue;
      if (dz <= level || d2 <= over2) return true;
    }
  }
  return false;
}

/** For each slot, the slots within `reach` (`all`) and those of them from pulses of many returns (`multi`). */
function pulsesAround(s: GrowSlots, reach: number, rings: number): { all: Int32Array; multi: Int32Array } {
  const { x, y, cell, count, single } = s;
  const { cols, rows, start } = s.grid;
  const reach2 = reach * reach;
  const allOf = new Int32Array(count);
  const multiOf = new Int32Array(count);
  for (let q = 0; q < count; q++) {
    const k = cell[q]!;
    const row = (k / cols) | 0;
    const col = k - row * cols;
    const c0 = col - rings < 0 ? 0 : col - rings;
    const c1 = col + rings >= cols ? cols - 1 : col + rings;
    const r1 = row + rings >= rows ? rows - 1 : row + rings;
    let all = 0;
    let multi = 0;
    for (let rr = row - rings < 0 ? 0 : row - rings; rr <= r1; rr++) {
      const end = start[rr * cols + c1 + 1]!;
      for (let j = start[rr * cols + c0]!; j < end; j++) {
        const dx = x[j]! - x[q]!;
        const dy = y[j]! - y[q]!;
        if (dx * dx + dy * dy > reach2) continue;
        all++;
        if (!single[j]) multi++;
      }
    }
    allOf[q] = all;
    multiOf[q] = multi;
  }
  return { all: allOf, multi: multiOf };
}
