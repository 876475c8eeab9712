/**
 * Distances to the conductors: a plan grid of the sampled catenaries'
 * segments (metric frame), nearest conductor in 3D and in plan, and the
 * vegetation returns near the lines that the buffer, vegetation-risk and
 * tree-fall products share.
 */
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import { type Raster, sampleBilinear } from '../raster/raster.js';
import { type Conductor, inFootprint, type MetricFrame, type Tower } from './power-lines.conductors.js';

/** The nearest conductor to a point. */
export interface Nearest {
  /** Distance in metres (3D or in plan). */
  distance: number;
  /** Index into the conductors. */
  conductor: number;
  /** Position of the nearest conductor point (metric frame). */
  x: number;
  y: number;
  z: number;
}

/**
 * Segments of the conductors' polylines bucketed on a plan grid (metric
 * frame, `cell` metres): queries look at the cells within their radius only.
 */
export class ConductorIndex {
  private readonly seg: Float64Array;
  private readonly owner: Int32Array;
  private readonly start: Int32Array;
  private readonly items: Int32Array;
  private readonly stamp: Int32Array;
  private query = 0;
  readonly x0: number;
  readonly y0: number;
  readonly cols: number;
  readonly rows: number;
  readonly segments: number;

  constructor(
    conductors: readonly Pick<Conductor, 'local'>[],
    readonly cell = 10,
  ) {
    let n = 0;
    for (const c of conductors) n += Math.max(0, c.local.length / 3 - 1);
    this.segments = n;
    this.seg = new Float64Array(n * 6);
    this.owner = new Int32Array(n);
    let k = 0;
    let x0 = Number.POSITIVE_INFINITY;
    let y0 = Number.POSITIVE_INFINITY;
    let x1 = Number.NEGATIVE_INFINITY;
    let y1 = Number.NEGATIVE_INFINITY;
    conductors.forEach((c, ci) => {
      const v = c.local;
      for (let i = 0; i + 5 < v.length; i += 3) {
        this.seg.set(v.subarray(i, i + 6), k * 6);
        this.owner[k] = ci;
        x0 = Math.min(x0, v[i]!, v[i + 3]!);
        x1 = Math.max(x1, v[i]!, v[i + 3]!);
        y0 = Math.min(y0, v[i + 1]!, v[i + 4]!);
        y1 = Math.max(y1, v[i + 1]!, v[i + 4]!);
        k++;
      }
    });
    this.x0 = n ? x0 : 0;
    this.y0 = n ? y0 : 0;
    this.cols = n ? Math.floor((x1 - x0) / cell) + 1 : 0;
    this.rows = n ? Math.floor((y1 - y0) / cell) + 1 : 0;
    const cells = this.cols * this.rows;
    const counts = new Int32Array(cells + 1);
    const cellsOf = (s: number, f: (c: number) => void) => {
      const o = s * 6;
      const c0 = Math.floor((Math.min(this.seg[o]!, this.seg[o + 3]!) - this.x0) / cell);
      const c1 = Math.floor((Math.max(this.seg[o]!, this.seg[o + 3]!) - this.x0) / cell);
      const r0 = Math.floor((Math.min(this.seg[o + 1]!, this.seg[o + 4]!) - this.y0) / cell);
      const r1 = Math.floor((Math.max(this.seg[o + 1]!, this.seg[o + 4]!) - this.y0) / cell);
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) f(r * this.cols + c);
    };
    for (let s = 0; s < n; s++) cellsOf(s, (c) => counts[c + 1]!++);
    for (let c = 0; c < cells; c++) counts[c + 1]! += counts[c]!;
    this.start = counts;
    this.items = new Int32Array(counts[cells]!);
    const fill = counts.slice(0, cells);
    for (let s = 0; s < n; s++) {
      cellsOf(s, (c) => {
        this.items[fill[c]!++] = s;
      });
    }
    this.stamp = new Int32Array(n);
  }

  /**
   * Nearest segment within `radius` of (x, y, z): in 3D, or in plan when
   * `plan` (z ignored). Scans the cells within the radius, each segment once.
   */
  private nearest(x: number, y: number, z: number, radius: number, plan: boolean): Nearest | null {
    if (this.segments === 0) return null;
    const c0 = Math.max(0, Math.floor((x - radius - this.x0) / this.cell));
    const c1 = Math.min(this.cols - 1, Math.floor((x + radius - this.x0) / this.cell));
    const r0 = Math.max(0, Math.floor((y - radius - this.y0) / this.cell));
    const r1 = Math.min(this.rows - 1, Math.floor((y + radius - this.y0) / this.cell));
    if (c0 > c1 || r0 > r1) return null;
    const q = ++this.query;
    const g = this.seg;
    let best = radius * radius;
    let hit = -1;
    let hitT = 0;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * this.cols + c;
        for (let p = this.start[cell]!; p < this.start[cell + 1]!; p++) {
          const s = this.items[p]!;
          if (this.stamp[s] === q) continue;
          this.stamp[s] = q;
          const o = s * 6;
          const ax = g[o]!;
          const ay = g[o + 1]!;
          const az = plan ? 0 : g[o + 2]!;
          const dx = g[o + 3]! - ax;
          const dy = g[o + 4]! - ay;
          const dz = plan ? 0 : g[o + 5]! - az;
          const pz = plan ? 0 : z;
          const len2 = dx * dx + dy * dy + dz * dz;
          let t = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy + (pz - az) * dz) / len2 : 0;
          t = t < 0 ? 0 : t > 1 ? 1 : t;
          const ex = ax + t * dx - x;
          const ey = ay + t * dy - y;
          const ez = az + t * dz - pz;
          const d2 = ex * ex + ey * ey + ez * ez;
          if (d2 <= best) {
            best = d2;
            hit = s;
            hitT = t;
          }
        }
      }
    }
    if (hit < 0) return null;
    const o = hit * 6;
    return {
      distance: Math.sqrt(best),
      conductor: this.owner[hit]!,
      x: g[o]! + hitT * (g[o + 3]! - g[o]!),
      y: g[o + 1]! + hitT * (g[o + 4]! - g[o + 1]!),
      z: g[o + 2]! + hitT * (g[o + 5]! - g[o + 2]!),
    };
  }

  /**
   * A 1 m plan grid over the conductors marking the cells within `radius`
   * (plus a cell's half diagonal) of one in plan: points outside it cannot
   * be within `radius` in 3D, so most of a cloud is passed over at once.
   */
  planMask(radius: number): (x: number, y: number) => boolean {
    if (this.segments === 0) return () => false;
    const reach = radius + Math.SQRT1_2;
    const x0 = this.x0 - reach - 1;
    const y0 = this.y0 - reach - 1;
    const W = Math.ceil(this.cols * this.cell + 2 * reach + 2) + 1;
    const H = Math.ceil(this.rows * this.cell + 2 * reach + 2) + 1;
    const mask = new Uint8Array(W * H);
    const g = this.seg;
    const span = Math.ceil(reach) + 1;
    for (let s = 0; s < this.segments; s++) {
      const o = s * 6;
      const ax = g[o]!;
      const ay = g[o + 1]!;
      const dx = g[o + 3]! - ax;
      const dy = g[o + 4]! - ay;
      const len2 = dx * dx + dy * dy;
      const c0 = Math.max(0, Math.floor(Math.min(ax, ax + dx) - x0) - span);
      const c1 = Math.min(W - 1, Math.floor(Math.max(ax, ax + dx) - x0) + span);
      const r0 = Math.max(0, Math.floor(Math.min(ay, ay + dy) - y0) - span);
      const r1 = Math.min(H - 1, Math.floor(Math.max(ay, ay + dy) - y0) + span);
      for (let r = r0; r <= r1; r++) {
        const py = y0 + r + 0.5;
        for (let c = c0; c <= c1; c++) {
          const k = r * W + c;
          if (mask[k]) continue;
          const px = x0 + c + 0.5;
          let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
          t = t < 0 ? 0 : t > 1 ? 1 : t;
          const ex = ax + t * dx - px;
          const ey = ay + t * dy - py;
          if (ex * ex + ey * ey <= reach * reach) mask[k] = 1;
        }
      }
    }
    return (x, y) => {
      const c = Math.floor(x - x0);
      const r = Math.floor(y - y0);
      return c >= 0 && r >= 0 && c < W && r < H && mask[r * W + c] === 1;
    };
  }

  /** Nearest conductor within `radius` metres in 3D, or null. */
  nearest3d(x: number, y: number, z: number, radius: number): Nearest | null {
    return this.nearest(x, y, z, radius, false);
  }

  /** Nearest conductor within `radius` metres in plan (its elevation there in `z`), or null. */
  nearestPlan(x: number, y: number, radius: number): Nearest | null {
    return this.nearest(x, y, 0, radius, true);
  }
}

/**
 * Plan footprints of the towers (metric frame): returns inside one are parts
 * of the tower the classification left unlabelled, not vegetation.
 */
export function towerFootprints(towers: readonly Tower[], frame: MetricFrame): (x: number, y: number) => boolean {
  return (x, y) => towers.some((t) => inFootprint(t, frame, x, y));
}

/** Vegetation classes: low, medium and high vegetation. */
export const VEGETATION_CLASSES = new Set([3, 4, 5]);
/** Unclassified returns higher than this above ground (metres) count as vegetation too. */
export const UNCLASSIFIED_VEGETATION_HEIGHT = 2;

/**
 * A vegetation return: class 3, 4 or 5, or unclassified (1) more than 2 m
 * above the terrain model (trees the classification left unlabelled).
 */
export function isVegetation(cls: number, heightAboveGround: number): boolean {
  return VEGETATION_CLASSES.has(cls) || (cls === 1 && heightAboveGround > UNCLASSIFIED_VEGETATION_HEIGHT);
}

/** Vegetation returns within some 3D distance of a conductor. */
export interface VegetationNearLines {
  /** Indices into the cloud. */
  index: Int32Array;
  /** 3D distance to the nearest conductor, metres. */
  distance: Float64Array;
  /** Height above the terrain model, metres. */
  height: Float64Array;
  /** Nearest conductor (index into the conductors). */
  conductor: Int32Array;
}

/**
 * The vegetation returns within `radius` metres (3D) of the conductors, with
 * their distance and height above the DTM; returns inside a tower's
 * footprint are left out (see {@link towerFootprints}).
 *
 * @example
 * const near = vegetationNearLines(cloud, dtm, lines.frame, index, 9, lines.towers);
 */
export function vegetationNearLines(
  cloud: PointChunk,
  dtm: Raster,
  frame: MetricFrame,
  index: ConductorIndex,
  radius: number,
  towers: readonly Tower[] = [],
  context: StepContext = {},
): VegetationNearLines {
  const inTower = towerFootprints(towers, frame);
  const classes = cloud.classification;
  const idx: number[] = [];
  const dist: number[] = [];
  const hags: number[] = [];
  const owner: number[] = [];
  if (!classes || index.segments === 0) {
    return {
      index: new Int32Array(0),
      distance: new Float64Array(0),
      height: new Float64Array(0),
      conductor: new Int32Array(0),
    };
  }
  const { ox, oy, hu, vu } = frame;
  const close = index.planMask(radius);
  for (let i = 0; i < cloud.count; i++) {
    if ((i & 0xffff) === 0 && context.signal?.aborted) throw new Cancelled();
    const c = classes[i]!;
    if (c !== 1 && !VEGETATION_CLASSES.has(c)) continue;
    const x = (cloud.x[i]! - ox) * hu;
    const y = (cloud.y[i]! - oy) * hu;
    if (!close(x, y) || inTower(x, y)) continue;
    const g = sampleBilinear(dtm, cloud.x[i]!, cloud.y[i]!);
    if (Number.isNaN(g) || g === dtm.nodata) continue;
    const h = (cloud.z[i]! - g) * vu;
    if (!isVegetation(c, h)) continue;
    const near = index.nearest3d(x, y, cloud.z[i]! * vu, radius);
    if (!near) continue;
    idx.push(i);
    dist.push(near.distance);
    hags.push(h);
    owner.push(near.conductor);
  }
  return {
    index: Int32Array.from(idx),
    distance: Float64Array.from(dist),
    height: Float64Array.from(hags),
    conductor: Int32Array.from(owner),
  };
}
