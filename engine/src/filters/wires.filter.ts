/**
 * Power-line points: wire conductors (14) and transmission towers (15).
 *
 * Wires are thin, nearly horizontal and well above the ground: a return is a
 * wire candidate when the returns around it (within `radius`, among the
 * returns high enough) lie along a line (PCA linearity of the neighbourhood,
 * nearly horizontal first axis). Candidates are grouped by proximity, and a
 * group long enough in plan view is a run of conductor; wire returns then
 * grow to their close neighbours that lie on the same line. Towers are the
 * tall structures at the ends of the wire runs: the non-wire returns stacked
 * from near the ground up to the wires under a wire end, where the wires hang
 * from a support (they rise towards it from each side, see `bearsWeight`;
 * runs cut where a wire crosses a crown do not), without the columns of
 * crowns beside it (scattered neighbourhoods below the wires, see
 * `scattered`). Sparse wires (distribution lines sampled a return every
 * metre or two, passing street trees and roof edges, where a small
 * neighbourhood is too thin or too mixed for its PCA) are found by a tube
 * test: a straight, nearly level line through the return holds several
 * returns over a few metres and little around it (see {@link tubeSupport});
 * such returns count when they meet a wire found before, or lie on straight
 * stretches in plan view as long as a span (see {@link straightStretches}).
 * On request, beside the wires found, a tube holding some of their returns
 * may cross more clutter (a street tree, a bundle of conductors). Last, a
 * wire return with nothing seen under it is an opaque surface, a roof
 * scanned in sparse rows, not a wire (see `wires-shadow.ts`).
 */
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import { type LowestReturns, lowestReturnsNear, seenBelow } from './wires-shadow.js';
import { straightStretches } from './wires-straight.js';

/** Options of {@link findWires}; lengths in metres. */
export interface WireOptions {
  /** Lowest wire above ground. */
  minHeight?: number;
  /** Neighbourhood radius of the linearity test. */
  radius?: number;
  /** Smallest linearity (λ1 − λ2) / λ1 of a wire neighbourhood. */
  linearity?: number;
  /** Radius of a tower around the meeting point of wire ends, metres. */
  towerRadius?: number;
  /** Fewest returns in a neighbourhood to judge its shape. */
  minNeighbours?: number;
  /** Shortest run of conductor in plan view. */
  minLength?: number;
  /**
   * Also find sparse wires with the tube test (see {@link tubeSupport}); on by default. It makes this filter
   * about 1.5 to 2.3 times slower (CPU) on the Williams, wires.laz, fusa and bcts tiles (2.3 to 3.3 times
   * before only the returns that may join a long group were tested, see {@link sparseReturns}); it finds no wire
   * in the forests nor on fusa.laz (whose corner holds a real, unlabelled line it leaves: too short a stretch).
   */
  sparse?: boolean;
  /**
   * With `sparse`, also the tube test beside the wires found ({@link SUPPORTED_TUBE}): off by default, it trades
   * precision for recall (Williams: recall 0.256 → 0.274, precision 0.803 → 0.776), the returns it adds being
   * mostly leaves within 2 m of a conductor.
   */
  besideWires?: boolean;
  unitToMetre?: number;
  verticalUnitToMetre?: number;
}

/** What {@link findWires} found: 14 (conductor), 15 (tower) or 0 per point, and the runs. */
export interface WireResult {
  classes: Uint8Array;
  wirePoints: number;
  towerPoints: number;
  /** Runs of conductor: point indices of each connected group. */
  runs: Int32Array[];
}

/** Length of wire (metres) from a run's end over which its slope at that end is measured. */
const SLOPE_REACH = 25;

/**
 * Least rise of the wires towards a support (metre per metre, summed over its two sides): a support of spans of
 * length L under catenaries of parameter a gives about L / 2a per side (0.09 for 300 m at a = 1700 m, 0.05
 * for 40 m at a = 400 m); wires lost from view and found again give 0 or less, up to the noise of the fit.
 */
const MIN_SUPPORT_RISE = 0.01;

/** Radius (metres) of the neighbourhood that tells a crown from a lattice tower. */
const CROWN_RADIUS = 1.5;

/**
 * Smallest λ3 / λ1 of a crown's neighbourhood: leaves and twigs fill a volume, a lattice tower's bars and
 * plates lie along lines and planes (on the AHN pylon, 86 % of its returns have less than 0.2 around them).
 */
const CROWN_SCATTER = 0.2;

/** Returns around a wire return beyond which a neighbourhood is canopy or roof, not wire. */
const MAX_NEIGHBOURS = 400;

/**
 * Lowest sparse wire above ground, metres. Distribution conductors and service drops hang at least about 4.7 m
 * over roads (NESC clearances; Williams' labelled wires: 5th percentile 4.9 m); below, a straight sparse row of
 * returns is more often an eave or a fence (fusa.laz's eaves at 3.0–3.4 m).
 */
const SPARSE_MIN_HEIGHT = 4.5;

/**
 * Shortest straight stretch in plan view, metres, of sparse wire returns that meet no wire found before: about a
 * span of a distribution line (30 to 60 m) seen in part. Crown rims, roof edges and curved eaves hold sparse
 * rows of returns over a few metres, not along one line over a span.
 */
const SPARSE_MIN_STRETCH = 25;

/** Half-width in plan view, metres, of a straight stretch: the conductors of a cross-arm, side by side. */
const STRETCH_TOLERANCE = 0.5;

/**
 * Longest gap, metres, between consecutive returns of a straight stretch: sparse wires are sampled every metre or
 * two, and lost over a few metres where they cross a crown; a line crossing a curved edge twice is not a stretch.
 */
const STRETCH_MAX_GAP = 8;

/** Width, metres, of the columns in which the lowest return is kept for the opacity test (see `wires-shadow.ts`). */
export const SHADOW_CELL = 0.5;

/**
 * Reach in plan and least drop, metres, of a return seen under a wire return: under a wire the ground (or a
 * crown, a car, a roof it crosses) is seen within a metre; under a roof, nothing but near its edges.
 */
const SHADOW_REACH = 1;
const SHADOW_DROP = 0.5;

/** Eigen decomposition of a symmetric 3×3 matrix (Jacobi); eigenvalues descending with their vectors. */
export function eigenSymmetric3(m: Float64Array): { values: [number, number, number]; vectors: number[][] } {
  const a = [
    [m[0]!, m[1]!, m[2]!],
    [m[1]!, m[3]!, m[4]!],
    [m[2]!, m[4]!, m[5]!],
  ];
  const v = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (let sweep = 0; sweep < 12; sweep++) {
    const off = a[0]![1]! ** 2 + a[0]![2]! ** 2 + a[1]![2]! ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = a[p]![q]!;
        if (Math.abs(apq) < 1e-30) continue;
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < 3; k++) {
          const akp = a[k]![p]!;
          const akq = a[k]![q]!;
          a[k]![p] = c * akp - s * akq;
          a[k]![q] = s * akp + c * akq;
        }
        for (let k = 0; k < 3; k++) {
          const apk = a[p]![k]!;
          const aqk = a[q]![k]!;
          a[p]![k] = c * apk - s * aqk;
          a[q]![k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = v[k]![p]!;
          const vkq = v[k]![q]!;
          v[k]![p] = c * vkp - s * vkq;
          v[k]![q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = [0, 1, 2].sort((i, j) => a[j]![j]! - a[i]![i]!);
  return {
    values: order.map((i) => a[i]![i]!) as [number, number, number],
    vectors: order.map((i) => [v[0]![i]!, v[1]![i]!, v[2]![i]!]),
  };
}

/**
 * {@link eigenSymmetric3} without allocation, the same arithmetic: writes the eigenvalues, descending, to
 * `out[0..2]` and the first eigenvector to `out[3..5]`; `a` and `v` are 9-long scratch arrays.
 */
function eigenTop(m: Float64Array, out: Float64Array, a: Float64Array, v: Float64Array): void {
  a[0] = m[0]!;
  a[1] = m[1]!;
  a[2] = m[2]!;
  a[3] = m[1]!;
  a[4] = m[3]!;
  a[5] = m[4]!;
  a[6] = m[2]!;
  a[7] = m[4]!;
  a[8] = m[5]!;
  v.fill(0);
  v[0] = 1;
  v[4] = 1;
  v[8] = 1;
  for (let sweep = 0; sweep < 12; sweep++) {
    const off = a[1]! ** 2 + a[2]! ** 2 + a[5]! ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = a[p * 3 + q]!;
        if (Math.abs(apq) < 1e-30) continue;
        const theta = (a[q * 3 + q]! - a[p * 3 + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < 3; k++) {
          const akp = a[k * 3 + p]!;
          const akq = a[k * 3 + q]!;
          a[k * 3 + p] = c * akp - s * akq;
          a[k * 3 + q] = s * akp + c * akq;
        }
        for (let k = 0; k < 3; k++) {
          const apk = a[p * 3 + k]!;
          const aqk = a[q * 3 + k]!;
          a[p * 3 + k] = c * apk - s * aqk;
          a[q * 3 + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = v[k * 3 + p]!;
          const vkq = v[k * 3 + q]!;
          v[k * 3 + p] = c * vkp - s * vkq;
          v[k * 3 + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  // Descending, ties in axis order (as the stable sort of eigenSymmetric3).
  let i0 = 0;
  let i1 = 1;
  let i2 = 2;
  if (a[i1 * 4]! > a[i0 * 4]!) [i0, i1] = [i1, i0];
  if (a[i2 * 4]! > a[i1 * 4]!) {
    [i1, i2] = [i2, i1];
    if (a[i1 * 4]! > a[i0 * 4]!) [i0, i1] = [i1, i0];
  }
  out[0] = a[i0 * 4]!;
  out[1] = a[i1 * 4]!;
  out[2] = a[i2 * 4]!;
  out[3] = v[i0]!;
  out[4] = v[3 + i0]!;
  out[5] = v[6 + i0]!;
}

/**
 * Every return of a set bucketed in cubic cells of side `cell` (cell
 * (⌊x / cell⌋, ⌊y / cell⌋, ⌊z / cell⌋)), in flat typed arrays: the returns
 * sorted by column (x, y cell), then by cell height, then by index, so a
 * cell's returns are contiguous; an open-addressing hash finds a column's
 * cells. A query visits the cells in (dx, dy, dz) order and each cell's
 * returns in index order. It replaced a `Map` from a 52-bit cell key to
 * arrays, whose lookups (27 a query, the keys heap numbers) took most of the
 * wire filter's time: 3.3 of 8.5 main-thread seconds classifying a forest
 * tile with no wire (bcts_1.laz).
 */
export class VoxelIndex {
  /** Sorted position → return index. */
  private readonly order: Int32Array;
  /** Coordinates by sorted position: a query reads them in order, not scattered over the arrays. */
  private readonly sx: Float64Array;
  private readonly sy: Float64Array;
  private readonly sz: Float64Array;
  /** Heights by sorted position, each column's in order (see {@link crowdedCylinder}); built when needed. */
  private byHeight?: Float64Array;
  /** Room for {@link moreThan}'s walk. */
  private scratch = new Int32Array(16);
  /** Per cell: its z cell, and its first sorted position (one more entry: the end). */
  private readonly cellZ: Int32Array;
  private readonly cellStart: Int32Array;
  /** Column hash: x and y cells of each slot, its first cell and cell count (count 0: empty slot). */
  private slotX: Int32Array;
  private slotY: Int32Array;
  private slotFirst: Int32Array;
  private readonly slotCount: Int32Array;
  private mask: number;

  constructor(
    x: Float64Array,
    y: Float64Array,
    z: Float64Array,
    readonly cell: number,
  ) {
    const n = x.length;
    const gx = new Int32Array(n);
    const gy = new Int32Array(n);
    const gz = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      gx[i] = Math.floor(x[i]! / cell);
      gy[i] = Math.floor(y[i]! / cell);
      gz[i] = Math.floor(z[i]! / cell);
    }
    // Columns: hash slots, numbered in order of first appearance. The table grows to stay at most half full: sized
    // by the columns, not the returns (a forest holds tens of returns a column: 2n slots were most of its bytes).
    let size = 1024;
    this.mask = size - 1;
    this.slotX = new Int32Array(size);
    this.slotY = new Int32Array(size);
    this.slotFirst = new Int32Array(size);
    let used = new Uint8Array(size);
    const column = new Int32Array(n);
    let columnCount = 0;
    for (let i = 0; i < n; i++) {
      let h = this.hash(gx[i]!, gy[i]!);
      while (used[h] && (this.slotX[h] !== gx[i] || this.slotY[h] !== gy[i])) h = (h + 1) & this.mask;
      if (!used[h]) {
        if (2 * (columnCount + 1) > size) {
          // Twice the slots, the columns put back; then the new column's slot again.
          const [oldX, oldY, oldFirst, oldUsed] = [this.slotX, this.slotY, this.slotFirst, used];
          size *= 2;
          this.mask = size - 1;
          this.slotX = new Int32Array(size);
          this.slotY = new Int32Array(size);
          this.slotFirst = new Int32Array(size);
          used = new Uint8Array(size);
          for (let s = 0; s < oldUsed.length; s++) {
            if (!oldUsed[s]) continue;
            let g = this.hash(oldX[s]!, oldY[s]!);
            while (used[g]) g = (g + 1) & this.mask;
            used[g] = 1;
            this.slotX[g] = oldX[s]!;
            this.slotY[g] = oldY[s]!;
            this.slotFirst[g] = oldFirst[s]!;
          }
          h = this.hash(gx[i]!, gy[i]!);
          while (used[h]) h = (h + 1) & this.mask;
        }
        used[h] = 1;
        this.slotX[h] = gx[i]!;
        this.slotY[h] = gy[i]!;
        this.slotFirst[h] = columnCount++; // column number until the cells are known
      }
      column[i] = this.slotFirst[h]!;
    }
    // Each column's slot, by column number.
    const slotOfColumn = new Int32Array(columnCount);
    for (let s = 0; s < size; s++) if (used[s]) slotOfColumn[this.slotFirst[s]!] = s;
    this.slotCount = new Int32Array(size);
    // Returns by column (a counting sort, stable: index order), then by z cell within each column.
    const columns = columnCount;
    const columnStart = new Int32Array(columns + 1);
    for (let i = 0; i < n; i++) columnStart[column[i]! + 1]!++;
    for (let c = 0; c < columns; c++) columnStart[c + 1]! += columnStart[c]!;
    const order = new Int32Array(n);
    const fill = columnStart.slice(0, columns);
    for (let i = 0; i < n; i++) order[fill[column[i]!]!++] = i;
    const cellZ: number[] = [];
    const cellStart: number[] = [];
    // A counting sort by z cell, for the columns whose cells span little height: stable, as the comparison sort.
    let counts = new Int32Array(64);
    let moved = new Int32Array(64);
    for (let c = 0; c < columns; c++) {
      const lo = columnStart[c]!;
      const hi = columnStart[c + 1]!;
      let zMin = gz[order[lo]!]!;
      let zMax = zMin;
      let sorted = true;
      for (let p = lo + 1; p < hi; p++) {
        const zc = gz[order[p]!]!;
        if (zc < gz[order[p - 1]!]!) sorted = false;
        if (zc < zMin) zMin = zc;
        else if (zc > zMax) zMax = zc;
      }
      const span = zMax - zMin + 1;
      if (sorted) {
        // Already in z-cell order, ties in index order.
      } else if (span <= 4 * (hi - lo) + 64) {
        if (counts.length < span + 1) counts = new Int32Array(2 * span + 1);
        if (moved.length < hi - lo) moved = new Int32Array(2 * (hi - lo));
        counts.fill(0, 0, span + 1);
        for (let p = lo; p < hi; p++) counts[gz[order[p]!]! - zMin + 1]!++;
        for (let b = 0; b < span; b++) counts[b + 1]! += counts[b]!;
        for (let p = lo; p < hi; p++) moved[counts[gz[order[p]!]! - zMin]!++] = order[p]!;
        order.set(moved.subarray(0, hi - lo), lo);
      } else {
        // Stable for equal z cells: ties keep index order.
        order.subarray(lo, hi).sort((a, b) => gz[a]! - gz[b]! || a - b);
      }
      const h = slotOfColumn[c]!;
      this.slotFirst[h] = cellZ.length;
      for (let p = lo; p < hi; p++) {
        const zc = gz[order[p]!]!;
        if (p === lo || zc !== cellZ[cellZ.length - 1]) {
          cellZ.push(zc);
          cellStart.push(p);
        }
      }
      this.slotCount[h] = cellZ.length - this.slotFirst[h]!;
    }
    cellStart.push(n);
    this.order = order;
    this.sx = new Float64Array(n);
    this.sy = new Float64Array(n);
    this.sz = new Float64Array(n);
    for (let p = 0; p < n; p++) {
      const i = order[p]!;
      this.sx[p] = x[i]!;
      this.sy[p] = y[i]!;
      this.sz[p] = z[i]!;
    }
    this.cellZ = Int32Array.from(cellZ);
    this.cellStart = Int32Array.from(cellStart);
  }

  private hash(ax: number, ay: number): number {
    return (Math.imul(ax, 0x9e3779b1) ^ Math.imul(ay, 0x85ebca77)) & this.mask;
  }

  /** First cell and cell count of column (ax, ay); count 0 when it holds no return. */
  private column(ax: number, ay: number): number {
    let h = this.hash(ax, ay);
    while (this.slotCount[h]! > 0) {
      if (this.slotX[h] === ax && this.slotY[h] === ay) return h;
      h = (h + 1) & this.mask;
    }
    return -1;
  }

  /**
   * Calls `f` with every return of the cells (cx + dx, cy + dy, cz + dz), |dx|, |dy| ≤ `span` and
   * |dz| ≤ `zSpan`, cell by cell in that order; stops when `f` returns true.
   */
  cells(cx: number, cy: number, cz: number, span: number, zSpan: number, f: (j: number) => unknown): void {
    const { order, cellZ, cellStart } = this;
    for (let dx = -span; dx <= span; dx++) {
      for (let dy = -span; dy <= span; dy++) {
        const h = this.column(cx + dx, cy + dy);
        if (h < 0) continue;
        const first = this.slotFirst[h]!;
        const last = first + this.slotCount[h]!;
        for (let c = first; c < last; c++) {
          const zc = cellZ[c]!;
          if (zc < cz - zSpan) continue;
          if (zc > cz + zSpan) break;
          for (let p = cellStart[c]!, end = cellStart[c + 1]!; p < end; p++) if (f(order[p]!) === true) return;
        }
      }
    }
  }

  /**
   * Whether the columns lying wholly within `r` horizontally of (px, py, pz) hold more than `limit` returns
   * within `zHalf` vertically of it (by the tests of {@link gatherCylinder}, counted by binary search on their
   * heights): a lower bound of the returns in that cylinder.
   */
  crowdedCylinder(px: number, py: number, pz: number, r: number, zHalf: number, limit: number): boolean {
    const hz = this.heights();
    const c = this.cell;
    const span = Math.ceil(r / c);
    const cx = Math.floor(px / c);
    const cy = Math.floor(py / c);
    // A hair inside the exact bound: every return of such a column passes the caller's own distance test.
    const inner = r * r * (1 - 1e-9);
    const { cellStart } = this;
    let count = 0;
    for (let dx = -span; dx <= span; dx++) {
      const fx = Math.max(Math.abs((cx + dx) * c - px), Math.abs((cx + dx + 1) * c - px));
      for (let dy = -span; dy <= span; dy++) {
        const fy = Math.max(Math.abs((cy + dy) * c - py), Math.abs((cy + dy + 1) * c - py));
        if (fx * fx + fy * fy > inner) continue;
        const h = this.column(cx + dx, cy + dy);
        if (h < 0) continue;
        const first = this.slotFirst[h]!;
        const end = cellStart[first + this.slotCount[h]!]!;
        // First return of the column with z − pz ≥ −zHalf, then the first with z − pz > zHalf (z − pz grows with z).
        let lo = cellStart[first]!;
        let hi = end;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (hz[mid]! - pz < -zHalf) lo = mid + 1;
          else hi = mid;
        }
        const from = lo;
        hi = end;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (hz[mid]! - pz > zHalf) hi = mid;
          else lo = mid + 1;
        }
        count += lo - from;
        if (count > limit) return true;
      }
    }
    return false;
  }

  /** Heights by sorted position, each column's returns in height order (its cells already are). */
  private heights(): Float64Array {
    if (this.byHeight) return this.byHeight;
    const z = this.sz.slice();
    const { cellStart } = this;
    for (let cell = 0; cell + 1 < cellStart.length; cell++) z.subarray(cellStart[cell]!, cellStart[cell + 1]!).sort();
    this.byHeight = z;
    return z;
  }

  /**
   * The returns within `r` horizontally and `zHalf` vertically of (px, py, pz), `skip` left out, relative to
   * that point (`ex`, `ey`, `ez`) with their indices (`near`), cell by cell in (dx, dy, dz) order and in index
   * order within a cell; stops past `cap` of them. Returns their count (`cap` + 1 when it stopped). Typed
   * arrays, no callback: the tube test gathers hundreds of returns for each return it tries.
   */
  gatherCylinder(
    px: number,
    py: number,
    pz: number,
    r: number,
    zHalf: number,
    skip: number,
    cap: number,
    ex: Float64Array,
    ey: Float64Array,
    ez: Float64Array,
    near: Int32Array,
  ): number {
    const c = this.cell;
    const span = Math.ceil(r / c);
    const cx = Math.floor(px / c);
    const cy = Math.floor(py / c);
    const zLo = Math.floor((pz - zHalf) / c);
    const zHi = Math.floor((pz + zHalf) / c);
    const r2 = r * r;
    const { order, cellZ, cellStart, sx, sy, sz } = this;
    let m = 0;
    for (let dx = -span; dx <= span; dx++) {
      const hx = dx < 0 ? px - (cx + dx + 1) * c : dx > 0 ? (cx + dx) * c - px : 0;
      for (let dy = -span; dy <= span; dy++) {
        const hy = dy < 0 ? py - (cy + dy + 1) * c : dy > 0 ? (cy + dy) * c - py : 0;
        if (hx * hx + hy * hy > r2) continue;
        const h = this.column(cx + dx, cy + dy);
        if (h < 0) continue;
        const first = this.slotFirst[h]!;
        const last = first + this.slotCount[h]!;
        for (let cell = first; cell < last; cell++) {
          const zc = cellZ[cell]!;
          if (zc < zLo) continue;
          if (zc > zHi) break;
          for (let p = cellStart[cell]!, end = cellStart[cell + 1]!; p < end; p++) {
            const qx = sx[p]! - px;
            const qy = sy[p]! - py;
            const qz = sz[p]! - pz;
            if (qz > zHalf || qz < -zHalf || qx * qx + qy * qy > r2) continue;
            const j = order[p]!;
            if (j === skip) continue;
            if (m === cap) return m + 1;
            ex[m] = qx;
            ey[m] = qy;
            ez[m] = qz;
            near[m] = j;
            m++;
          }
        }
      }
    }
    return m;
  }

  /**
   * The indexed points within `r` of (px, py, pz) in {@link near}'s order, into `out` (at least `limit` + 1
   * long); stops past `limit` of them. Returns their count (`limit` + 1 when it stopped).
   */
  collect(px: number, py: number, pz: number, r: number, out: Int32Array, limit: number): number {
    const c = this.cell;
    const span = Math.ceil(r / c);
    const cx = Math.floor(px / c);
    const cy = Math.floor(py / c);
    const cz = Math.floor(pz / c);
    const r2 = r * r;
    const { order, cellZ, cellStart, sx, sy, sz } = this;
    let m = 0;
    for (let dx = -span; dx <= span; dx++) {
      const hx = dx < 0 ? px - (cx + dx + 1) * c : dx > 0 ? (cx + dx) * c - px : 0;
      for (let dy = -span; dy <= span; dy++) {
        const hy = dy < 0 ? py - (cy + dy + 1) * c : dy > 0 ? (cy + dy) * c - py : 0;
        const h2 = hx * hx + hy * hy;
        if (h2 > r2) continue;
        const h = this.column(cx + dx, cy + dy);
        if (h < 0) continue;
        const first = this.slotFirst[h]!;
        const last = first + this.slotCount[h]!;
        for (let cell = first; cell < last; cell++) {
          const zc = cellZ[cell]!;
          if (zc < cz - span) continue;
          if (zc > cz + span) break;
          const hz = zc < cz ? pz - (zc + 1) * c : zc > cz ? zc * c - pz : 0;
          if (h2 + hz * hz > r2) continue;
          for (let p = cellStart[cell]!, end = cellStart[cell + 1]!; p < end; p++) {
            const ex = sx[p]! - px;
            const ey = sy[p]! - py;
            const ez = sz[p]! - pz;
            if (ex * ex + ey * ey + ez * ez <= r2) {
              out[m++] = order[p]!;
              if (m > limit) return m;
            }
          }
        }
      }
    }
    return m;
  }

  /** Whether more than `limit` indexed points lie within `r` of (px, py, pz) (the same walk as {@link collect}). */
  moreThan(px: number, py: number, pz: number, r: number, limit: number): boolean {
    if (this.scratch.length <= limit) this.scratch = new Int32Array(limit + 1);
    return this.collect(px, py, pz, r, this.scratch, limit) > limit;
  }

  /** Calls `f` with every indexed point within `r` of (px, py, pz); stops when `f` returns true. */
  near(px: number, py: number, pz: number, r: number, f: (j: number) => unknown): void {
    const c = this.cell;
    const span = Math.ceil(r / c);
    const cx = Math.floor(px / c);
    const cy = Math.floor(py / c);
    const cz = Math.floor(pz / c);
    const r2 = r * r;
    const { order, cellZ, cellStart, sx, sy, sz } = this;
    for (let dx = -span; dx <= span; dx++) {
      // Cells wholly farther than r are skipped (their returns cannot be within r).
      const hx = dx < 0 ? px - (cx + dx + 1) * c : dx > 0 ? (cx + dx) * c - px : 0;
      for (let dy = -span; dy <= span; dy++) {
        const hy = dy < 0 ? py - (cy + dy + 1) * c : dy > 0 ? (cy + dy) * c - py : 0;
        const h2 = hx * hx + hy * hy;
        if (h2 > r2) continue;
        const h = this.column(cx + dx, cy + dy);
        if (h < 0) continue;
        const first = this.slotFirst[h]!;
        const last = first + this.slotCount[h]!;
        for (let cell = first; cell < last; cell++) {
          const zc = cellZ[cell]!;
          if (zc < cz - span) continue;
          if (zc > cz + span) break;
          const hz = zc < cz ? pz - (zc + 1) * c : zc > cz ? zc * c - pz : 0;
          if (h2 + hz * hz > r2) continue;
          for (let p = cellStart[cell]!, end = cellStart[cell + 1]!; p < end; p++) {
            const ex = sx[p]! - px;
            const ey = sy[p]! - py;
            const ez = sz[p]! - pz;
            if (ex * ex + ey * ey + ez * ez <= r2 && f(order[p]!) === true) return;
          }
        }
      }
    }
  }
}

/** Length of a group of returns along its main horizontal direction. */
function planLength(cx: Float64Array, cy: Float64Array, members: number[]): number {
  let mx = 0;
  let my = 0;
  for (const a of members) {
    mx += cx[a]!;
    my += cy[a]!;
  }
  mx /= members.length;
  my /= members.length;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (const a of members) {
    const dx = cx[a]! - mx;
    const dy = cy[a]! - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const a of members) {
    const s = (cx[a]! - mx) * ux + (cy[a]! - my) * uy;
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  return hi - lo;
}

/** Parameters of a {@link tubeSupport} test; lengths in metres. */
interface TubeTest {
  /** Horizontal reach around the tested return. */
  reach: number;
  /** Radius of the tube (across and up). */
  radius: number;
  /** Half-size of the box around the tube where other returns are clutter (across and up). */
  box: number;
  /** Fewest returns in the tube, the tested one included. */
  minReturns: number;
  /** Shortest extent of the tube's returns along it. */
  minExtent: number;
  /** Most returns in the box, outside the tube, per tube return. */
  clutter: number;
  /** Returns within reach past which the place is a canopy or a roof. */
  maxNeighbours: number;
  /** Returns within a metre (the tested one included) past which the return is inside a canopy or on a roof. */
  maxClose: number;
  /** Fewest returns of the supporting set (wires found before) in the tube; 0 when no support is asked. */
  minSupport: number;
  /** Lines tried through each return. */
  trials: number;
}

/**
 * Local test of sparse wires: a short, thin tube with little around it. Canopies fill the box around any line
 * through them (about 25 returns around per tube return), roofs about 4, side-by-side conductors about 2.
 */
const LOCAL_TUBE: TubeTest = {
  reach: 8,
  radius: 0.3,
  box: 1.5,
  minReturns: 6,
  minExtent: 6,
  clutter: 2,
  // Past 250 returns within reach, the place is mostly canopy or roof: 400 found 3 % more of Williams' wire
  // returns for 1.4 times the time.
  maxNeighbours: 250,
  maxClose: 9,
  minSupport: 0,
  // 16 found 2 % more of Williams' wire returns, at a lower precision (0.798 against 0.803), for 1.1 times the
  // time.
  trials: 8,
};

/**
 * Tube test beside the wires found: a tube holding at least three of their returns is a wire, even where it
 * crosses more clutter (the edge of a street tree, a bundle of conductors: more than 9 returns within a metre).
 */
const SUPPORTED_TUBE: TubeTest = {
  ...LOCAL_TUBE,
  clutter: 3,
  maxNeighbours: 400,
  maxClose: 12,
  minSupport: 3,
  trials: 16,
};

/**
 * Returns (not in `skip`) through which a straight line, nearly level
 * (slope ≤ 0.3), holds at least `minReturns` returns within `radius` over
 * `minExtent` (`minSupport` of them in `support`), with at most `clutter`
 * other returns per tube return in the box around it (see {@link tubeTester}).
 */
function tubeSupport(
  cx: Float64Array,
  cy: Float64Array,
  cz: Float64Array,
  skip: Uint8Array,
  index: VoxelIndex,
  test: TubeTest,
  units: { hu: number; vu: number },
  context: StepContext,
  support?: Uint8Array,
): Uint8Array {
  const n = cx.length;
  const found = new Uint8Array(n);
  const tube = tubeTester(cx, cy, cz, skip, index, test, units, support);
  for (let k = 0; k < n; k++) {
    if ((k & 0x3fff) === 0 && context.signal?.aborted) throw new Cancelled();
    if (tube(k)) found[k] = 1;
  }
  return found;
}

/**
 * The tube test of one return: whether a straight line through it, nearly
 * level (slope ≤ 0.3), holds at least `minReturns` returns within `radius`
 * over `minExtent` (`minSupport` of them in `support`), with at most
 * `clutter` other returns per tube return in the box around it; false for
 * the returns of `skip`. Lines are tried through the return and its
 * neighbours 2 m and more away. A return's answer depends on it alone, not
 * on the returns tested before (the returns crowded within a metre are
 * counted once, the same whenever asked).
 */
function tubeTester(
  cx: Float64Array,
  cy: Float64Array,
  cz: Float64Array,
  skip: Uint8Array,
  index: VoxelIndex,
  test: TubeTest,
  units: { hu: number; vu: number },
  support?: Uint8Array,
): (k: number) => boolean {
  const { hu, vu } = units;
  const n = cx.length;
  const crowd = 1 / hu;
  const reach = test.reach / hu;
  const tube = test.radius / hu;
  const tubeZ = test.radius / vu;
  const box = test.box / hu;
  const boxZ = test.box / vu;
  const minExtent = test.minExtent / hu;
  const minTrial = 2 / hu;
  // Slope ≤ 0.3 in metres per metre, in the cloud's units.
  const maxRise = (0.3 * hu) / vu;
  // The returns within reach and within the box's height: the voxel index's cells, a few layers high.
  const cap = test.maxNeighbours;
  const clutter = test.clutter;
  const minTrial2 = minTrial * minTrial;
  const maxRise2 = maxRise * maxRise;
  // Farther across than both the tube and the box: neither in the tube nor around it.
  const acrossCut = Math.max(tube, box);
  const ex = new Float64Array(cap);
  const ey = new Float64Array(cap);
  const ez = new Float64Array(cap);
  const near = new Int32Array(cap);
  const held = new Uint8Array(cap);
  const trials = new Int32Array(cap);
  // Returns inside a canopy or on a roof (too many returns within a metre) are neither tested nor tried as lines.
  // Counted when first needed (0 unknown, 1 free, 2 crowded): beside the wires, few returns are ever looked at.
  const state = new Uint8Array(n);
  const crowded = (j: number): boolean => {
    if (state[j] === 0) state[j] = index.moreThan(cx[j]!, cy[j]!, cz[j]!, crowd, test.maxClose) ? 2 : 1;
    return state[j] === 2;
  };
  return (k: number): boolean => {
    if (skip[k] || crowded(k)) return false;
    const px = cx[k]!;
    const py = cy[k]!;
    const pz = cz[k]!;
    // More than `cap` others (the return itself may be counted) in columns wholly within reach: the gathering
    // below would stop past `cap` and skip the return; counting by heights is far cheaper in a canopy.
    if (index.crowdedCylinder(px, py, pz, reach, boxZ, cap + 1)) return false;
    const m = index.gatherCylinder(px, py, pz, reach, boxZ, k, cap, ex, ey, ez, near);
    if (m > cap || m < test.minReturns - 1) return false;
    if (support) for (let a = 0; a < m; a++) held[a] = support[near[a]!]!;
    let tried = 0;
    for (let a = 0; a < m; a++) {
      const h2 = ex[a]! * ex[a]! + ey[a]! * ey[a]!;
      if (h2 >= minTrial2 && ez[a]! * ez[a]! <= maxRise2 * h2 && !crowded(near[a]!)) trials[tried++] = a;
    }
    const step = Math.max(1, Math.ceil(tried / test.trials));
    for (let t = 0; t < tried; t += step) {
      const a = trials[t]!;
      const len = Math.hypot(ex[a]!, ey[a]!);
      const ux = ex[a]! / len;
      const uy = ey[a]! / len;
      const rise = ez[a]! / len;
      let inTube = 1;
      let around = 0;
      let supported = 0;
      let lo = 0;
      let hi = 0;
      for (let b = 0; b < m; b++) {
        const across = Math.abs(ey[b]! * ux - ex[b]! * uy);
        if (across > acrossCut) continue;
        const s = ex[b]! * ux + ey[b]! * uy;
        const up = Math.abs(ez[b]! - rise * s);
        if (across <= tube && up <= tubeZ) {
          inTube++;
          if (support) supported += held[b]!;
          if (s < lo) lo = s;
          else if (s > hi) hi = s;
        } else if (across <= box && up <= boxZ) {
          around++;
          // Even were every return left in the tube, too much clutter: this line fails (the test below too).
          if (around > clutter * (inTube + m - 1 - b)) break;
        }
      }
      if (
        inTube >= test.minReturns &&
        hi - lo >= minExtent &&
        around <= clutter * inTube &&
        supported >= test.minSupport
      ) {
        return true;
      }
    }
    return false;
  };
}

/**
 * Strips of the plane that every long group of returns crosses: lines `link`
 * wide (a little more) along x and y, cutting the plane into square cells.
 * Two returns linked within `link` are less than a strip's width apart, so a
 * group of linked returns with no return in a strip lies in one cell, within
 * less than `minLength` (the cell's side less a strip, times √2) in plan.
 * Returns whether a coordinate (x or y, relative to the cloud's first point)
 * lies in a strip: a return lies in one when its x or its y does.
 */
function stripCut(link: number, minLength: number): (v: number) => boolean {
  // Margins of a millionth keep both bounds strict through rounding.
  const half = (link / 2) * (1 + 1e-6);
  const side = 2 * half + (minLength / Math.SQRT2) * (1 - 1e-6);
  return (v) => {
    const f = v / side - Math.floor(v / side);
    return Math.min(f, 1 - f) * side <= half;
  };
}

/**
 * The returns passing the local tube test ({@link LOCAL_TUBE}, see
 * {@link tubeTester}) in the groups of such returns (linked within `link`)
 * that may hold a sparse wire: those with a return within `link` of a `wire`
 * return, or spanning `minStretch` or more in plan view; 0 for the others.
 * Only the returns that can be in such a group are tested (the test of a
 * return depends on it alone): those beside a wire or in the strips of
 * {@link stripCut}, then the groups of those passing, through their links.
 * In a forest, where the returns passing are few and scattered, that leaves
 * out about three returns in four.
 */
function sparseReturns(
  cx: Float64Array,
  cy: Float64Array,
  cz: Float64Array,
  skip: Uint8Array,
  wire: Uint8Array,
  index: VoxelIndex,
  units: { hu: number; vu: number },
  link: number,
  minStretch: number,
  context: StepContext,
): Uint8Array {
  const n = cx.length;
  const tube = tubeTester(cx, cy, cz, skip, index, LOCAL_TUBE, units);
  // 0 not tested yet, 1 failed, 2 passed.
  const state = new Uint8Array(n);
  let tested = 0;
  const passes = (k: number): boolean => {
    if (state[k] === 0) {
      if ((tested++ & 0x3fff) === 0 && context.signal?.aborted) throw new Cancelled();
      state[k] = tube(k) ? 2 : 1;
    }
    return state[k] === 2;
  };
  const besideWire = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    if (!wire[k]) continue;
    index.near(cx[k]!, cy[k]!, cz[k]!, link, (j) => {
      besideWire[j] = 1;
    });
  }
  const inStrip = stripCut(link, minStretch);
  const kept = new Uint8Array(n);
  const group: number[] = [];
  for (let k = 0; k < n; k++) {
    if (kept[k] || skip[k] || !(besideWire[k] || inStrip(cx[k]!) || inStrip(cy[k]!)) || !passes(k)) continue;
    kept[k] = 1;
    group.length = 0;
    group.push(k);
    for (let q = 0; q < group.length; q++) {
      const a = group[q]!;
      index.near(cx[a]!, cy[a]!, cz[a]!, link, (j) => {
        if (!kept[j] && passes(j)) {
          kept[j] = 1;
          group.push(j);
        }
      });
    }
  }
  return kept;
}

/**
 * Returns whose voxel-index cell lies within `reach` (horizontally, one cell
 * up or down) of a cell holding a marked return: those a tube test around the
 * marked returns can reach.
 */
function withinReach(
  index: VoxelIndex,
  cx: Float64Array,
  cy: Float64Array,
  cz: Float64Array,
  marked: Uint8Array,
  reach: number,
): Uint8Array {
  const cell = index.cell;
  const span = Math.ceil(reach / cell);
  const near = new Uint8Array(cx.length);
  for (let k = 0; k < cx.length; k++) {
    if (!marked[k]) continue;
    index.cells(Math.floor(cx[k]! / cell), Math.floor(cy[k]! / cell), Math.floor(cz[k]! / cell), span, 1, (j) => {
      near[j] = 1;
    });
  }
  return near;
}

/**
 * Which of the returns `points` (indices into `cloud`, the whole cloud) have
 * nothing seen under them (see `wires-shadow.ts`): 1 for those, in the order
 * of `points`. The lowest returns are looked up in the columns around those
 * returns only, with the cloud's first point as origin.
 */
export function opaqueReturns(cloud: PointChunk, points: Int32Array, options: WireOptions = {}): Uint8Array {
  const hu = options.unitToMetre ?? 1;
  const vu = options.verticalUnitToMetre ?? hu;
  const { x, y, z, count } = cloud;
  const m = points.length;
  const dark = new Uint8Array(m);
  if (m === 0) return dark;
  const px = new Float64Array(m);
  const py = new Float64Array(m);
  for (let t = 0; t < m; t++) {
    px[t] = x[points[t]!]!;
    py[t] = y[points[t]!]!;
  }
  const reach = SHADOW_REACH / hu;
  const table = lowestReturnsNear(x, y, z, count, x[0] ?? 0, y[0] ?? 0, SHADOW_CELL / hu, px, py, m, reach);
  for (let t = 0; t < m; t++) {
    if (!seenBelow(table, px[t]!, py[t]!, z[points[t]!]!, reach, SHADOW_DROP / vu)) dark[t] = 1;
  }
  return dark;
}

/**
 * Finds wire conductors and towers among the returns high above the ground.
 * `excluded` marks returns that cannot be either (ground, noise). `lowest`
 * holds the lowest return of each column of the whole cloud (looked up in
 * `cloud` when absent); `'deferred'` leaves the opacity test to the caller,
 * when `cloud` holds the candidates only (see {@link opaqueReturns}: wire
 * returns it finds opaque are then neither wire nor tower, and `runs` keeps
 * them).
 *
 * @example
 * const { classes } = findWires(cloud, hag, excluded, { unitToMetre: 1 });
 */
export function findWires(
  cloud: PointChunk,
  hag: Float32Array,
  excluded: Uint8Array,
  options: WireOptions = {},
  context: StepContext = {},
  lowest?: LowestReturns | 'deferred',
): WireResult {
  const hu = options.unitToMetre ?? 1;
  const vu = options.verticalUnitToMetre ?? hu;
  const minHeight = (options.minHeight ?? 3) / vu;
  const radius = (options.radius ?? 2) / hu;
  const minLinearity = options.linearity ?? 0.9;
  const minLength = (options.minLength ?? 10) / hu;
  const { x, y, z, count } = cloud;
  const classes = new Uint8Array(count);
  // Coordinates relative to the first point keep the voxel keys small.
  const ox = x[0] ?? 0;
  const oy = y[0] ?? 0;
  const oz = z[0] ?? 0;
  let n = 0;
  for (let i = 0; i < count; i++) if (!excluded[i] && hag[i]! >= minHeight) n++;
  const candidates = new Int32Array(n);
  for (let i = 0, k = 0; i < count; i++) if (!excluded[i] && hag[i]! >= minHeight) candidates[k++] = i;
  // The candidates a run of the last returns, already relative to the first (the wire worker's task, whose first
  // return is there for the origin only): their coordinates as they are, not a copy.
  const from = count - n;
  const relative = n > 0 && candidates[0] === from && ox === 0 && oy === 0 && oz === 0;
  const cx = relative ? x.subarray(from) : new Float64Array(n);
  const cy = relative ? y.subarray(from) : new Float64Array(n);
  const cz = relative ? z.subarray(from) : new Float64Array(n);
  if (!relative) {
    for (let k = 0; k < n; k++) {
      const i = candidates[k]!;
      cx[k] = x[i]! - ox;
      cy[k] = y[i]! - oy;
      cz[k] = z[i]! - oz;
    }
  }
  const index = new VoxelIndex(cx, cy, cz, radius);

  // 1. Linear neighbourhoods, tested when first needed (0 not yet, 1 not linear, 2 linear).
  const linear = new Uint8Array(n);
  const cov = new Float64Array(6);
  const neighbours: number[] = [];
  const found = new Int32Array(MAX_NEIGHBOURS + 1);
  const eigen = new Float64Array(6);
  const scratchA = new Float64Array(9);
  const scratchV = new Float64Array(9);
  let tested = 0;
  const isLinear = (k: number): boolean => {
    if (linear[k] !== 0) return linear[k] === 2;
    if ((tested++ & 0x3fff) === 0 && context.signal?.aborted) throw new Cancelled();
    linear[k] = 1;
    // Dense neighbourhoods (canopy, roofs) are never a wire: stop counting past 400.
    const m = index.collect(cx[k]!, cy[k]!, cz[k]!, radius, found, MAX_NEIGHBOURS);
    if (m < (options.minNeighbours ?? 3) || m > MAX_NEIGHBOURS) return false;
    let mx = 0;
    let my = 0;
    let mz = 0;
    for (let t = 0; t < m; t++) {
      const j = found[t]!;
      mx += cx[j]!;
      my += cy[j]!;
      mz += cz[j]!;
    }
    mx /= m;
    my /= m;
    mz /= m;
    cov.fill(0);
    for (let t = 0; t < m; t++) {
      const j = found[t]!;
      const dx = cx[j]! - mx;
      const dy = cy[j]! - my;
      const dz = cz[j]! - mz;
      cov[0]! += dx * dx;
      cov[1]! += dx * dy;
      cov[2]! += dx * dz;
      cov[3]! += dy * dy;
      cov[4]! += dy * dz;
      cov[5]! += dz * dz;
    }
    // λ1λ2 + λ1λ3 + λ2λ3 (the principal minors' sum) is at most 0.21 (λ1 + λ2 + λ3)² when λ2, λ3 ≤ 0.1 λ1, as
    // linearity 0.9 asks: past 0.25 (a margin far above rounding), a volume or a plane, with no eigenvalue needed.
    if (minLinearity >= 0.9) {
      const trace = cov[0]! + cov[3]! + cov[5]!;
      const minors =
        cov[0]! * cov[3]! -
        cov[1]! * cov[1]! +
        (cov[0]! * cov[5]! - cov[2]! * cov[2]!) +
        (cov[3]! * cov[5]! - cov[4]! * cov[4]!);
      if (minors > 0.25 * trace * trace) return false;
    }
    eigenTop(cov, eigen, scratchA, scratchV);
    if (!(eigen[0]! > 0)) return false;
    const lin = (eigen[0]! - eigen[1]!) / eigen[0]!;
    if (lin >= minLinearity && Math.abs(eigen[5]!) < 0.6) linear[k] = 2;
    return linear[k] === 2;
  };
  // 2. Runs: linear returns linked within the radius; long runs in plan view are wires. Only the runs that
  // can be long are looked for (see `stripCut`): those with a return in the strips.
  const link = radius * 1.5;
  const inStrip = stripCut(link, minLength);
  /** 1 for the linear returns of the runs found. */
  const reached = new Uint8Array(n);
  /** Smallest index of the run of the linear return `k`, its returns reached (tested as they are met). */
  const reach = (k: number): number => {
    let first = k;
    const group = [k];
    reached[k] = 1;
    for (let q = 0; q < group.length; q++) {
      const a = group[q]!;
      index.near(cx[a]!, cy[a]!, cz[a]!, link, (j) => {
        if (!reached[j] && isLinear(j)) {
          reached[j] = 1;
          group.push(j);
          if (j < first) first = j;
        }
      });
    }
    return first;
  };
  const inRun = new Uint8Array(n);
  const stack: number[] = [];
  /** The run from its smallest index, its returns in the order of a walk from there. */
  const runFrom = (k: number): number[] => {
    const members: number[] = [];
    inRun[k] = 1;
    stack.push(k);
    while (stack.length > 0) {
      const a = stack.pop()!;
      members.push(a);
      index.near(cx[a]!, cy[a]!, cz[a]!, link, (j) => {
        if (linear[j] === 2 && !inRun[j]) {
          inRun[j] = 1;
          stack.push(j);
        }
      });
    }
    return members;
  };
  const starts: number[] = [];
  for (let k = 0; k < n; k++) {
    if (!reached[k] && (inStrip(cx[k]!) || inStrip(cy[k]!)) && isLinear(k)) starts.push(reach(k));
  }
  starts.sort((a, b) => a - b);
  const foundRuns: Array<{ start: number; members: number[]; length: number }> = [];
  const wire = new Uint8Array(n);
  for (const k of starts) {
    const members = runFrom(k);
    const length = planLength(cx, cy, members);
    foundRuns.push({ start: k, members, length });
    if (length >= minLength) for (const a of members) wire[a] = 1;
  }

  // 3. Growth: close returns whose neighbourhood is mostly wire join the wire.
  // Only returns within that reach of a wire return can have wire neighbours: those are the ones tried.
  const grow = (keepOut?: Uint8Array) => {
    const tried = new Uint8Array(n);
    for (let pass = 0; pass < 3; pass++) {
      const add: number[] = [];
      const beside: number[] = [];
      tried.fill(0);
      for (let a = 0; a < n; a++) {
        if (!wire[a]) continue;
        index.near(cx[a]!, cy[a]!, cz[a]!, radius * 0.6, (j) => {
          if (!tried[j] && !wire[j] && !keepOut?.[j]) {
            tried[j] = 1;
            beside.push(j);
          }
        });
      }
      for (const k of beside) {
        let w = 0;
        let all = 0;
        index.near(cx[k]!, cy[k]!, cz[k]!, radius * 0.6, (j) => {
          all++;
          w += wire[j]!;
        });
        if (w >= 2 && w * 2 >= all) add.push(k);
      }
      if (add.length === 0) break;
      for (const k of add) wire[k] = 1;
    }
  };
  grow();
  // The short runs whose first return the growth made wire: runs of conductor too.
  const grown: number[] = [];
  for (let k = 0; k < n; k++) if (wire[k] && !reached[k] && isLinear(k)) grown.push(reach(k));
  grown.sort((a, b) => a - b);
  for (const k of grown) {
    const members = runFrom(k);
    foundRuns.push({ start: k, members, length: planLength(cx, cy, members) });
  }
  foundRuns.sort((a, b) => a.start - b.start);
  const runs = foundRuns.map((r) => Int32Array.from(r.members));
  const runLengths = foundRuns.map((r) => r.length);

  // 4. Towers: below the ends of wire runs, the returns stacked from near the ground to the wires.
  const tower = new Uint8Array(n);
  const cellSize = 1 / hu;
  const colKey = (a: number, b: number) => (a & 0xffff) * 65536 + (b & 0xffff);
  const wireRuns = runs.filter((r) => r.length > 0 && wire[r[0]!]);
  // Tower sites: where the ends of two or more long wire runs meet (every conductor of a span ends at its
  // towers); short runs (a wire seen in pieces) end anywhere.
  const ends: number[] = [];
  /** Horizontal direction from each end into its run (x, y pairs). */
  const endDirection: number[] = [];
  /** Slope of the wire (metre per metre) rising towards each end. */
  const endRise: number[] = [];
  const slopeReach = SLOPE_REACH / hu;
  /** Least-squares slope dz/ds of the run's returns with s (along u) in [from, to]; 0 with too few returns. */
  const endSlope = (r: Int32Array, ux: number, uy: number, from: number, to: number): number => {
    let m = 0;
    let ss = 0;
    let sz = 0;
    let sss = 0;
    let ssz = 0;
    for (const k of r) {
      const s = cx[k]! * ux + cy[k]! * uy;
      if (s < from || s > to) continue;
      const d = s - from;
      m++;
      ss += d;
      sz += cz[k]!;
      sss += d * d;
      ssz += d * cz[k]!;
    }
    const det = m * sss - ss * ss;
    return m >= 5 && det > 0 ? (((m * ssz - ss * sz) / det) * vu) / hu : 0;
  };
  for (let r0 = 0; r0 < runs.length; r0++) {
    const r = runs[r0]!;
    if (!wire[r[0]!] || runLengths[r0]! < 2.5 * minLength) continue;
    let mx = 0;
    let my = 0;
    for (const k of r) {
      mx += cx[k]!;
      my += cy[k]!;
    }
    mx /= r.length;
    my /= r.length;
    let sxx = 0;
    let sxy = 0;
    let syy = 0;
    for (const k of r) {
      sxx += (cx[k]! - mx) ** 2;
      sxy += (cx[k]! - mx) * (cy[k]! - my);
      syy += (cy[k]! - my) ** 2;
    }
    const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
    const ux = Math.cos(angle);
    const uy = Math.sin(angle);
    let a = r[0]!;
    let b = r[0]!;
    for (const k of r) {
      const s = cx[k]! * ux + cy[k]! * uy;
      if (s < cx[a]! * ux + cy[a]! * uy) a = k;
      if (s > cx[b]! * ux + cy[b]! * uy) b = k;
    }
    const sa = cx[a]! * ux + cy[a]! * uy;
    const sb = cx[b]! * ux + cy[b]! * uy;
    ends.push(a, b);
    endDirection.push(ux, uy, -ux, -uy);
    // Rise towards each end: the slope of the run's last metres, upwards as they near the end.
    endRise.push(-endSlope(r, ux, uy, sa, sa + slopeReach), endSlope(r, ux, uy, sb - slopeReach, sb));
  }
  const siteReach = 12 / hu;
  /**
   * Whether the wires ending at a site hang from a support there. A support bears the weight of the wires:
   * a catenary rises towards it from each side, so the slopes rising towards the site, summed over its two
   * sides, are positive (about span / 2a on each side). Where a wire is only lost from view (through a
   * crown) it runs on with the same, or slightly greater, slope: the two sides cancel or sum below zero.
   * Ends from one side only (a line's last support, a tile's edge) must rise towards the site.
   */
  const bearsWeight = (group: number[]): boolean => {
    const first = group[0]!;
    const rx = endDirection[2 * first]!;
    const ry = endDirection[2 * first + 1]!;
    const sum = [0, 0];
    const count = [0, 0];
    for (const g of group) {
      const side = endDirection[2 * g]! * rx + endDirection[2 * g + 1]! * ry > 0 ? 0 : 1;
      sum[side]! += endRise[g]!;
      count[side]!++;
    }
    const rise = count[1]! > 0 ? sum[0]! / count[0]! + sum[1]! / count[1]! : sum[0]! / count[0]!;
    return rise > MIN_SUPPORT_RISE;
  };
  const sites: Array<{ x: number; y: number; top: number; bottom: number; topHag: number; ends: number }> = [];
  const usedEnd = new Uint8Array(ends.length);
  for (let e = 0; e < ends.length; e++) {
    if (usedEnd[e]) continue;
    const group = [e];
    usedEnd[e] = 1;
    for (let f = e + 1; f < ends.length; f++) {
      if (usedEnd[f]) continue;
      const d = Math.hypot(cx[ends[f]!]! - cx[ends[e]!]!, cy[ends[f]!]! - cy[ends[e]!]!);
      if (d <= siteReach) {
        group.push(f);
        usedEnd[f] = 1;
      }
    }
    if (group.length < 2) continue;
    let sx = 0;
    let sy = 0;
    let top = Number.NEGATIVE_INFINITY;
    let bottom = Number.POSITIVE_INFINITY;
    let topHag = Number.NEGATIVE_INFINITY;
    for (const g of group) {
      sx += cx[ends[g]!]!;
      sy += cy[ends[g]!]!;
      top = Math.max(top, cz[ends[g]!]!);
      bottom = Math.min(bottom, cz[ends[g]!]!);
      topHag = Math.max(topHag, hag[candidates[ends[g]!]!]!);
    }
    if (!bearsWeight(group)) continue;
    sites.push({ x: sx / group.length, y: sy / group.length, top, bottom, topHag, ends: group.length });
  }
  const towerRadius = (options.towerRadius ?? 8) / hu;
  const crownReach = CROWN_RADIUS / hu;
  /**
   * Whether the returns (not wire) within {@link CROWN_RADIUS} of a return fill a volume (λ3 / λ1 above
   * {@link CROWN_SCATTER}) as in a crown, where the bars and plates of a lattice tower lie along lines and planes.
   */
  const scattered = (k: number): boolean => {
    neighbours.length = 0;
    index.near(cx[k]!, cy[k]!, cz[k]!, crownReach, (j) => {
      if (!wire[j]) neighbours.push(j);
    });
    const m = neighbours.length;
    if (m < 4) return false;
    let mx = 0;
    let my = 0;
    let mz = 0;
    for (const j of neighbours) {
      mx += cx[j]! * hu;
      my += cy[j]! * hu;
      mz += cz[j]! * vu;
    }
    mx /= m;
    my /= m;
    mz /= m;
    cov.fill(0);
    for (const j of neighbours) {
      const dx = cx[j]! * hu - mx;
      const dy = cy[j]! * hu - my;
      const dz = cz[j]! * vu - mz;
      cov[0]! += dx * dx;
      cov[1]! += dx * dy;
      cov[2]! += dx * dz;
      cov[3]! += dy * dy;
      cov[4]! += dy * dz;
      cov[5]! += dz * dz;
    }
    eigenTop(cov, eigen, scratchA, scratchV);
    return eigen[0]! > 0 && eigen[2]! > CROWN_SCATTER * eigen[0]!;
  };
  for (const site of sites) {
    // The returns (not wire) within the tower's radius in plan, not far above the wires: from the voxel index's
    // columns around the site, every height (what follows is the same in any order).
    const candidatesAt: number[] = [];
    const members: number[] = [];
    let minH = Number.POSITIVE_INFINITY;
    const c = index.cell;
    index.cells(Math.floor(site.x / c), Math.floor(site.y / c), 0, Math.ceil(towerRadius / c), 2 ** 30, (k) => {
      if (wire[k] || Math.hypot(cx[k]! - site.x, cy[k]! - site.y) > towerRadius) return;
      if (cz[k]! > site.top + 6 / vu) return;
      candidatesAt.push(k);
    });
    // Crowns beside the support, under its wires: 1 m columns where the returns below the lowest wire end lie
    // in scattered neighbourhoods. Above it, the cross-arms, insulators and peak stay the support's.
    const crownCells = new Map<number, number>();
    for (const k of candidatesAt) {
      if (cz[k]! >= site.bottom) continue;
      const key = colKey(Math.floor(cx[k]! / cellSize), Math.floor(cy[k]! / cellSize));
      // More than three scattered returns in four: a column of the lattice holds a few knots, a crown little else.
      crownCells.set(key, (crownCells.get(key) ?? 0) + (scattered(k) ? 1 : -3));
    }
    for (const k of candidatesAt) {
      const crown = crownCells.get(colKey(Math.floor(cx[k]! / cellSize), Math.floor(cy[k]! / cellSize))) ?? 0;
      if (cz[k]! < site.bottom && crown > 0) continue;
      members.push(k);
      minH = Math.min(minH, hag[candidates[k]!]!);
    }
    // A structure standing from near the ground up to the wires: returns in most 1 m slices of that height.
    const slices = Math.max(1, Math.floor((site.topHag - minH) * vu));
    const filled = new Uint8Array(slices);
    for (const k of members) {
      const h = hag[candidates[k]!]! * vu - minH * vu;
      if (h >= 0 && h < slices) filled[Math.floor(h)] = 1;
    }
    let covered = 0;
    for (const f of filled) covered += f;
    if (members.length >= 20 && minH * vu <= 10 && covered >= 0.7 * slices) for (const k of members) tower[k] = 1;
  }
  // 5. Sparse wires: where a small neighbourhood holds other things too (street trees, roof edges) or too few
  // returns for its shape to tell, returns on straight, nearly level tubes with little around them, linked in
  // runs joining a wire found above or straight over a span in plan view.
  const sparseLow = SPARSE_MIN_HEIGHT / vu;
  /** Returns the sparse tests skip: wire or tower already, or too low for a sparse wire. */
  const sparseSkip = (): Uint8Array => {
    const skip = new Uint8Array(n);
    for (let k = 0; k < n; k++) skip[k] = wire[k]! | tower[k]! | (hag[candidates[k]!]! < sparseLow ? 1 : 0);
    return skip;
  };
  if (options.sparse ?? true) {
    const minStretch = SPARSE_MIN_STRETCH / hu;
    const sparse = sparseReturns(cx, cy, cz, sparseSkip(), wire, index, { hu, vu }, link, minStretch, context);
    const seen = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      if (!sparse[k] || seen[k]) continue;
      const members: number[] = [k];
      seen[k] = 1;
      let touchesWire = false;
      for (let q = 0; q < members.length; q++) {
        const a = members[q]!;
        index.near(cx[a]!, cy[a]!, cz[a]!, link, (j) => {
          if (wire[j]) touchesWire = true;
          if (sparse[j] && !seen[j]) {
            seen[j] = 1;
            members.push(j);
          }
        });
      }
      const kept = touchesWire
        ? members
        : straightStretches(members, cx, cy, {
            tolerance: STRETCH_TOLERANCE / hu,
            minLength: minStretch,
            maxGap: STRETCH_MAX_GAP / hu,
          });
      for (const a of kept) wire[a] = 1;
    }
    grow(tower);
  }
  // 6. On request, beside the wires found (within the tube's reach), tubes holding some of their returns.
  if ((options.sparse ?? true) && options.besideWires) {
    const skip = sparseSkip();
    const near = withinReach(index, cx, cy, cz, wire, SUPPORTED_TUBE.reach / hu);
    for (let k = 0; k < n; k++) if (!near[k]) skip[k] = 1;
    const supported = tubeSupport(cx, cy, cz, skip, index, SUPPORTED_TUBE, { hu, vu }, context, wire);
    for (let k = 0; k < n; k++) if (supported[k]) wire[k] = 1;
  }
  // 7. Nothing seen under a return: an opaque surface (a roof scanned in sparse rows), not a wire.
  const opaque = new Uint8Array(n);
  if (lowest !== 'deferred' && wire.includes(1)) {
    if (lowest) {
      for (let k = 0; k < n; k++) {
        const i = candidates[k]!;
        if (wire[k] && !seenBelow(lowest, x[i]!, y[i]!, z[i]!, SHADOW_REACH / hu, SHADOW_DROP / vu)) {
          wire[k] = 0;
          opaque[k] = 1;
        }
      }
    } else {
      const wires: number[] = [];
      for (let k = 0; k < n; k++) if (wire[k]) wires.push(k);
      const points = Int32Array.from(wires, (k) => candidates[k]!);
      const dark = opaqueReturns(cloud, points, options);
      for (let t = 0; t < wires.length; t++) {
        if (dark[t]) {
          wire[wires[t]!] = 0;
          opaque[wires[t]!] = 1;
        }
      }
    }
  }
  let wirePoints = 0;
  let towerPoints = 0;
  for (let k = 0; k < n; k++) {
    const i = candidates[k]!;
    if (wire[k]) {
      classes[i] = 14;
      wirePoints++;
    } else if (tower[k]) {
      classes[i] = 15;
      towerPoints++;
    }
  }
  return {
    classes,
    wirePoints,
    towerPoints,
    runs: wireRuns.map((r) =>
      Int32Array.from(
        r.filter((k) => !opaque[k]),
        (k) => candidates[k]!,
      ),
    ),
  };
}
