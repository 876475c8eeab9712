import { planeOfSums } from './buildings-plane.js';

/**
 * Roof edges: candidates next to a building that continue its roof plane.
 * The last row of returns on a roof face, eaves and gutters have
 * neighbourhoods cut by the edge (half of them off the roof, in the air or on
 * the wall below), so their plane fits fail, they join no face or only a
 * face too small to keep, and the building ends up to a metre short of its
 * outline. Measured on the Williams file (6 points/m²): of the vendor's
 * building points that the faces miss, two thirds lie within 1 m of a point
 * we keep, most on small rejected faces or on none. Sparse clouds (IGN,
 * 0.2–0.4 points/m²) reach as far as their fit radius.
 */
/** Farthest a roof edge point lies from the building, metres (at least the fit radius: sparse clouds). */
const EDGE_REACH_M = 1;
/** Radius of the building points the local roof plane is fitted on, metres (at least 1.5 fit radii). */
const PLANE_RADIUS_M = 1.5;
const PLANE_RADII = 1.5;
/** Fewest building points that plane needs. */
const PLANE_MIN_POINTS = 5;
/**
 * Distance to that plane a point may lie at, × `roofPlanarity`: points of a
 * face (rejected as too small, or cut from the building's cells) and points
 * of none (rough: a tree beside a roof is rough too, hence the tighter band).
 */
const FACE_TOLERANCE = 3;
const FACELESS_TOLERANCE = 1.5;
/**
 * Lowest an edge point lies above ground, metres: lower, the neighbours of a
 * roof are hedges, fences and cars as often as eaves (and sheds would grow
 * into them). As `SPARSE_MIN_HEIGHT_M` of the building step.
 */
export const EDGE_MIN_HEIGHT_M = 2.5;
/** Highest a point may rise above the building points around it, metres (not overhanging branches). */
const MAX_ABOVE_M = 0.3;
/**
 * Column test within `COLUMN_RADIUS_M` (at least half the fit radius): a
 * roof edge has at most `MAX_OVER` candidates more than `COLUMN_DZ_M` above
 * it (a branch) and, when on no face, none below it (a crown has points at
 * every height).
 */
const COLUMN_RADIUS_M = 0.5;
const COLUMN_DZ_M = 0.5;
const MAX_OVER = 1;

/** Margin, in cells, of the cells a disc reaches (rounding of the cell of a point). */
const SPAN_MARGIN = 1e-6;

/**
 * The cells of grid row `row` that a disc of radius `reach` around (u, v)
 * reaches, all in cell units: their first and last column, within `c0`..`c1`,
 * written to `span`; false when it reaches none. The other cells hold no
 * point of the disc.
 */
function rowSpan(row: number, u: number, v: number, reach: number, c0: number, c1: number, span: Int32Array): boolean {
  const dv = (row > v ? row - v : v - row - 1) - SPAN_MARGIN;
  if (dv > reach) return false;
  const half = (dv > 0 ? Math.sqrt(Math.max(0, reach * reach - dv * dv)) : reach) + SPAN_MARGIN;
  span[0] = Math.max(c0, Math.floor(u - half));
  span[1] = Math.min(c1, Math.floor(u + half));
  return true;
}

/** Candidates bucketed in grid order: slot coordinates (z in horizontal units) and the grid. */
export interface EdgeSlots {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  /** Grid cell of each slot. */
  cell: Int32Array;
  /** 1 for slots at least `EDGE_MIN_HEIGHT_M` above ground. */
  edgeHigh: Uint8Array;
  count: number;
  grid: { cols: number; rows: number; start: Int32Array; cellSize: number };
}

/**
 * Slots to add to `building` (1 = building, judged on it as it stands, one
 * pass): at least `EDGE_MIN_HEIGHT_M` above ground, within `EDGE_REACH_M`
 * of a building slot, within the tolerance of the plane fitted on the
 * building slots within `PLANE_RADIUS_M`, at most `MAX_ABOVE_M` above them,
 * and passing the column test. `face` is the face
 * of each slot (-1 for none); `metre` is one metre in horizontal units;
 * `fitRadius` the radius of the plane fits (sparse clouds reach farther).
 *
 * @example
 * const edges = roofEdges(slots, faces.face, building, 0.1, 1, 0.9);
 * for (let q = 0; q < slots.count; q++) if (edges[q]) building[q] = 1;
 */
export function roofEdges(
  s: EdgeSlots,
  face: Int32Array,
  building: Uint8Array,
  roofPlanarity: number,
  metre: number,
  fitRadius: number,
): Uint8Array {
  const { x, y, z, cell, count } = s;
  const { cols, rows, start, cellSize } = s.grid;
  const out = new Uint8Array(count);
  const reach = Math.max(EDGE_REACH_M * metre, fitRadius);
  const planeRadius = Math.max(PLANE_RADIUS_M * metre, PLANE_RADII * fitRadius);
  const columnRadius = Math.max(COLUMN_RADIUS_M * metre, fitRadius / 2);
  const reach2 = reach * reach;
  const planeR2 = planeRadius * planeRadius;
  const column2 = columnRadius * columnRadius;
  const columnDz = COLUMN_DZ_M * metre;
  const maxAbove = MAX_ABOVE_M * metre;
  const faceTol = FACE_TOLERANCE * roofPlanarity;
  const facelessTol = FACELESS_TOLERANCE * roofPlanarity;
  const rings = Math.ceil(planeRadius / cellSize);
  const columnRings = Math.ceil(columnRadius / cellSize);
  // Radii in cell units, and the cells of a row a disc reaches (see `rowSpan`).
  const planeReach = planeRadius / cellSize;
  const columnReach = columnRadius / cellSize;
  const span = new Int32Array(2);
  // Building slots alone, in grid order (slots are): `bStart[k]` is the first of cell k.
  const cells = cols * rows;
  const bStart = new Int32Array(cells + 1);
  for (let q = 0; q < count; q++) if (building[q]) bStart[cell[q]! + 1]!++;
  for (let k = 0; k < cells; k++) bStart[k + 1]! += bStart[k]!;
  const bSlot = new Int32Array(bStart[cells]!);
  for (let q = 0, f = 0; q < count; q++) if (building[q]) bSlot[f++] = q;
  // Building slots per block of cells (2-D prefix sums, (rows + 1) × (cols + 1)): a slot whose block of
  // cells holds fewer than `PLANE_MIN_POINTS` of them has no plane (most slots, away from buildings).
  const stride = cols + 1;
  const prefix = new Int32Array((rows + 1) * stride);
  for (let r = 0; r < rows; r++) {
    let rowSum = 0;
    for (let c = 0; c < cols; c++) {
      rowSum += bStart[r * cols + c + 1]! - bStart[r * cols + c]!;
      prefix[(r + 1) * stride + c + 1] = prefix[r * stride + c + 1]! + rowSum;
    }
  }
  const normal = new Float64Array(3);
  for (let q = 0; q < count; q++) {
    if (building[q] || !s.edgeHigh[q]) continue;
    const k = cell[q]!;
    const row = (k / cols) | 0;
    const col = k - row * cols;
    const c0 = col - rings < 0 ? 0 : col - rings;
    const c1 = col + rings >= cols ? cols - 1 : col + rings;
    const r0 = row - rings < 0 ? 0 : row - rings;
    const r1 = row + rings >= rows ? rows - 1 : row + rings;
    const inBlock =
      prefix[(r1 + 1) * stride + c1 + 1]! -
      prefix[r0 * stride + c1 + 1]! -
      prefix[(r1 + 1) * stride + c0]! +
      prefix[r0 * stride + c0]!;
    if (inBlock < PLANE_MIN_POINTS) continue;
    const xq = x[q]!;
    const yq = y[q]!;
    const zq = z[q]!;
    const u = xq / cellSize;
    const v = yq / cellSize;
    // First the tests (a building slot in reach, enough of them, none far below the point), then the column
    // test, and only then the plane's sums, in the same order: most slots fail before the sums.
    let reached = false;
    let n = 0;
    let top = Number.NEGATIVE_INFINITY;
    for (let rr = r0; rr <= r1; rr++) {
      if (!rowSpan(rr, u, v, planeReach, c0, c1, span)) continue;
      const end = bStart[rr * cols + span[1]! + 1]!;
      for (let t = bStart[rr * cols + span[0]!]!; t < end; t++) {
        const j = bSlot[t]!;
        const dx = x[j]! - xq;
        const dy = y[j]! - yq;
        const d2 = dx * dx + dy * dy;
        if (d2 > planeR2) continue;
        const dz = z[j]! - zq;
        if (d2 <= reach2) reached = true;
        n++;
        if (dz > top) top = dz;
      }
    }
    if (!reached || n < PLANE_MIN_POINTS || -top > maxAbove) continue;
    // Column test over every slot.
    let over = 0;
    let below = 0;
    const d0 = col - columnRings < 0 ? 0 : col - columnRings;
    const d1 = col + columnRings >= cols ? cols - 1 : col + columnRings;
    const e1 = row + columnRings >= rows ? rows - 1 : row + columnRings;
    for (let rr = row - columnRings < 0 ? 0 : row - columnRings; rr <= e1; rr++) {
      if (!rowSpan(rr, u, v, columnReach, d0, d1, span)) continue;
      const end = start[rr * cols + span[1]! + 1]!;
      for (let j = start[rr * cols + span[0]!]!; j < end; j++) {
        const dx = x[j]! - xq;
        const dy = y[j]! - yq;
        if (dx * dx + dy * dy > column2) continue;
        const dz = z[j]! - zq;
        if (dz > columnDz) over++;
        else if (dz < -columnDz) below++;
      }
    }
    if (over > MAX_OVER) continue;
    const onFace = face[q]! >= 0;
    if (!onFace && below > 0) continue;
    let sx = 0;
    let sy = 0;
    let sz = 0;
    let sxx = 0;
    let syy = 0;
    let szz = 0;
    let sxy = 0;
    let sxz = 0;
    let syz = 0;
    for (let rr = r0; rr <= r1; rr++) {
      if (!rowSpan(rr, u, v, planeReach, c0, c1, span)) continue;
      const end = bStart[rr * cols + span[1]! + 1]!;
      for (let t = bStart[rr * cols + span[0]!]!; t < end; t++) {
        const j = bSlot[t]!;
        const dx = x[j]! - xq;
        const dy = y[j]! - yq;
        if (dx * dx + dy * dy > planeR2) continue;
        const dz = z[j]! - zq;
        sx += dx;
        sy += dy;
        sz += dz;
        sxx += dx * dx;
        syy += dy * dy;
        szz += dz * dz;
        sxy += dx * dy;
        sxz += dx * dz;
        syz += dy * dz;
      }
    }
    const mx = sx / n;
    const my = sy / n;
    const mz = sz / n;
    planeOfSums(n, mx, my, mz, sxx, sxy, sxz, syy, syz, szz, normal);
    // The point is the origin: its distance to the plane through the mean.
    const d = Math.abs(normal[0]! * mx + normal[1]! * my + normal[2]! * mz);
    if (d <= (onFace ? faceTol : facelessTol)) out[q] = 1;
  }
  return out;
}
