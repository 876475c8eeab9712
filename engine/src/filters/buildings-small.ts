/**
 * Small roofs of sparse clouds: houses of a few dozen points (0.2–0.4
 * points/m²) whose per-point plane fits fail, since every neighbourhood
 * wide enough to hold a fit straddles the ridge or the eaves. Fitted as a
 * whole instead: one or two planes (a flat or shed roof, a gable) over a
 * connected cluster of single returns, kept when they hold nearly every
 * point of it. A crown scatters across any two planes, and lets later
 * returns through.
 */

/** What `smallRoofs` reads of the candidates (grid-ordered slots, see `findBuildings`). */
export interface SmallRoofSlots {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  cell: Int32Array;
  roofHigh: Uint8Array;
  single: Uint8Array;
  count: number;
  grid: { cols: number; rows: number; start: Int32Array };
  radius: number;
}

/** Link distance of a cluster, in point spacings (capped at the grid's cell). */
const LINK_SPACINGS = 1.5;
/**
 * Fewest points of a cluster fitted as one roof: by itself, and beside a
 * building (the rest of a roof whose faces were found: no area needed).
 */
const MIN_POINTS = 8;
const MIN_TOUCHING_POINTS = 4;
/** Most points of a cluster fitted as one roof. */
const MAX_POINTS = 120;
/** Share of the cluster the one or two planes must hold. */
const MODEL_INLIERS = 0.9;
/** Fewest points of the second plane of a gable. */
const MIN_SIDE = 3;
/** Steepest roof plane, degrees. */
const MAX_SLOPE_DEG = 60;
/** Largest share of pulses of many returns among the cluster and its neighbours within the link distance. */
const MAX_MULTI = 0.3;
/** Largest sides tried as the first plane of a gable. */
const LARGE_SIDES = 12;
/** Most points the plane hypotheses are drawn from (a stride through larger clusters). */
const HYPOTHESIS_POINTS = 24;
/** The same for the second plane of a gable, among the points off the first. */
const SECOND_HYPOTHESIS_POINTS = 24;

/**
 * Marks in `building` (1) the points of small roofs: clusters of single
 * returns at least `minHeight` high (`roofHigh`), not yet building, linked
 * within `LINK_SPACINGS` × `spacing` (and as much in z), of
 * `MIN_POINTS`–`MAX_POINTS` points (`MIN_TOUCHING_POINTS` beside a
 * building), few pulses of many returns around them (`MAX_MULTI`), at
 * least `minArea` (square CRS units, over the points' bounding box; beside
 * a building, any) and lying within `tolerance` of one plane or of two planes
 * meeting in a ridge (`MODEL_INLIERS` of them). Returns the points added.
 *
 * @example
 * const added = smallRoofs(slots, building, 0.2, 2, 20);
 */
export function smallRoofs(
  s: SmallRoofSlots,
  building: Uint8Array,
  tolerance: number,
  spacing: number,
  minArea: number,
): number {
  const { x, y, z, cell, count } = s;
  const { cols, rows, start } = s.grid;
  const link = Math.min(s.radius, LINK_SPACINGS * spacing);
  const link2 = link * link;
  const candidate = (q: number) => s.roofHigh[q] === 1 && s.single[q] === 1 && building[q] === 0;
  const seen = new Uint8Array(count);
  const multiSeen = new Uint8Array(count);
  const members: number[] = [];
  const stack: number[] = [];
  const multiList: number[] = [];
  let added = 0;
  for (let q0 = 0; q0 < count; q0++) {
    if (seen[q0] || !candidate(q0)) continue;
    members.length = 0;
    multiList.length = 0;
    seen[q0] = 1;
    stack.push(q0);
    let tooBig = false;
    let touchesBuilding = false;
    while (stack.length) {
      const p = stack.pop()!;
      members.push(p);
      const k = cell[p]!;
      const row = (k / cols) | 0;
      const col = k - row * cols;
      for (let rr = Math.max(0, row - 1); rr <= Math.min(rows - 1, row + 1); rr++) {
        const end = start[rr * cols + Math.min(cols - 1, col + 1) + 1]!;
        for (let j = start[rr * cols + Math.max(0, col - 1)]!; j < end; j++) {
          const dx = x[j]! - x[p]!;
          const dy = y[j]! - y[p]!;
          if (dx * dx + dy * dy > link2) continue;
          const dz = z[j]! - z[p]!;
          if (dz > link || dz < -link) continue;
          if (building[j]) {
            touchesBuilding = true;
            continue;
          }
          if (!s.roofHigh[j]) continue;
          if (!s.single[j]) {
            if (!multiSeen[j]) {
              multiSeen[j] = 1;
              multiList.push(j);
            }
            continue;
          }
          if (seen[j]) continue;
          seen[j] = 1;
          stack.push(j);
        }
      }
      if (members.length + stack.length > MAX_POINTS) tooBig = true;
    }
    for (const j of multiList) multiSeen[j] = 0;
    const n = members.length;
    if (tooBig || n < (touchesBuilding ? MIN_TOUCHING_POINTS : MIN_POINTS)) continue;
    if (multiList.length > MAX_MULTI * (n + multiList.length)) continue;
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (const p of members) {
      minX = Math.min(minX, x[p]!);
      maxX = Math.max(maxX, x[p]!);
      minY = Math.min(minY, y[p]!);
      maxY = Math.max(maxY, y[p]!);
    }
    if (!touchesBuilding && (maxX - minX) * (maxY - minY) < minArea) continue;
    if (!roofModel(s, members, tolerance)) continue;
    for (const p of members) {
      building[p] = 1;
      added++;
    }
  }
  return added;
}

/** Whether one plane, or two meeting in a ridge, hold `MODEL_INLIERS` of `members` within `tolerance`. */
function roofModel(s: SmallRoofSlots, members: number[], tolerance: number): boolean {
  const { x, y, z } = s;
  const n = members.length;
  const need = Math.ceil(MODEL_INLIERS * n);
  const minZ = Math.cos((MAX_SLOPE_DEG * Math.PI) / 180);
  const h = Math.min(n, HYPOTHESIS_POINTS);
  const pick = (i: number) => members[Math.floor((i * n) / h)]!;
  const on = new Uint8Array(n);
  // Planes through three hypothesis points: normal (upward) and offset, with their inliers.
  const planes: number[] = [];
  for (let a = 0; a < h; a++) {
    const pa = pick(a);
    for (let b = a + 1; b < h; b++) {
      const pb = pick(b);
      const ex = x[pb]! - x[pa]!;
      const ey = y[pb]! - y[pa]!;
      const ez = z[pb]! - z[pa]!;
      for (let c = b + 1; c < h; c++) {
        const pc = pick(c);
        const fx = x[pc]! - x[pa]!;
        const fy = y[pc]! - y[pa]!;
        const fz = z[pc]! - z[pa]!;
        let vx = ey * fz - ez * fy;
        let vy = ez * fx - ex * fz;
        let vz = ex * fy - ey * fx;
        const vv = vx * vx + vy * vy + vz * vz;
        if (vv < 0.01 * (ex * ex + ey * ey + ez * ez) * (fx * fx + fy * fy + fz * fz)) continue;
        const inv = (vz < 0 ? -1 : 1) / Math.sqrt(vv);
        vx *= inv;
        vy *= inv;
        vz *= inv;
        if (vz < minZ) continue;
        const w = vx * x[pa]! + vy * y[pa]! + vz * z[pa]!;
        let inliers = 0;
        for (let i = 0; i < n; i++) {
          const p = members[i]!;
          const d = vx * x[p]! + vy * y[p]! + vz * z[p]! - w;
          if (d <= tolerance && d >= -tolerance) inliers++;
        }
        if (inliers >= need) return true;
        if (2 * inliers >= need) planes.push(vx, vy, vz, w, inliers);
      }
    }
  }
  // Two planes: the larger sides first, each with the best second plane through the points off it.
  const order: number[] = [];
  for (let i = 0; i < planes.length; i += 5) order.push(i);
  order.sort((a, b) => planes[b + 4]! - planes[a + 4]! || a - b);
  const off: number[] = [];
  for (let t = 0; t < Math.min(order.length, LARGE_SIDES); t++) {
    const i = order[t]!;
    const ax = planes[i]!;
    const ay = planes[i + 1]!;
    const az = planes[i + 2]!;
    const aw = planes[i + 3]!;
    const ai = planes[i + 4]!;
    off.length = 0;
    for (let k = 0; k < n; k++) {
      const p = members[k]!;
      const d = ax * x[p]! + ay * y[p]! + az * z[p]! - aw;
      on[k] = d <= tolerance && d >= -tolerance ? 1 : 0;
      if (!on[k]) off.push(p);
    }
    const m = off.length;
    const second = Math.max(MIN_SIDE, need - ai);
    if (m < second) continue;
    const g = Math.min(m, SECOND_HYPOTHESIS_POINTS);
    const pickOff = (i: number) => off[Math.floor((i * m) / g)]!;
    for (let a = 0; a < g; a++) {
      const pa = pickOff(a);
      for (let b = a + 1; b < g; b++) {
        const pb = pickOff(b);
        const ex = x[pb]! - x[pa]!;
        const ey = y[pb]! - y[pa]!;
        const ez = z[pb]! - z[pa]!;
        for (let c = b + 1; c < g; c++) {
          const pc = pickOff(c);
          const fx = x[pc]! - x[pa]!;
          const fy = y[pc]! - y[pa]!;
          const fz = z[pc]! - z[pa]!;
          let bx = ey * fz - ez * fy;
          let by = ez * fx - ex * fz;
          let bz = ex * fy - ey * fx;
          const vv = bx * bx + by * by + bz * bz;
          if (vv < 0.01 * (ex * ex + ey * ey + ez * ez) * (fx * fx + fy * fy + fz * fz)) continue;
          const inv = (bz < 0 ? -1 : 1) / Math.sqrt(vv);
          bx *= inv;
          by *= inv;
          bz *= inv;
          // Not too steep, and at least ~10° from the first side (one plane twice is not a gable).
          if (bz < minZ || ax * bx + ay * by + az * bz > 0.985) continue;
          const bw = bx * x[pa]! + by * y[pa]! + bz * z[pa]!;
          let both = 0;
          let ridge = true;
          for (let k = 0; k < n && ridge; k++) {
            const p = members[k]!;
            const dB = bx * x[p]! + by * y[p]! + bz * z[p]! - bw;
            const dA = ax * x[p]! + ay * y[p]! + az * z[p]! - aw;
            const onB = dB <= tolerance && dB >= -tolerance;
            if (on[k] || onB) both++;
            // A ridge: each side under the other's plane (not a valley, not two layers of foliage).
            if (on[k] && !onB && dB > tolerance) ridge = false;
            if (onB && !on[k] && dA > tolerance) ridge = false;
          }
          if (ridge && both >= need) return true;
        }
      }
    }
  }
  return false;
}
