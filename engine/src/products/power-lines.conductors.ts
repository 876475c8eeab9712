/**
 * Power-line vectors from a classified cloud: transmission towers from the
 * tower returns (15), and conductors from the wire returns (14) grouped per
 * span, each with a fitted catenary sampled every metre.
 *
 * Wire returns are linked into 3D pieces (returns within `link` of each
 * other), cut where a tower stands on their line, then grown into conductors:
 * the longest piece takes in the pieces that continue it (same line in plan,
 * on its profile in height, across gaps of up to `maxGap`, never across a
 * tower). A conductor still running over an unlabelled support (its profile
 * peaks there) is cut where two parabolas fit it much better than one.
 * Conductors that run side by side over the same stretch are one span;
 * within a span they are numbered by their offset across the line, then by
 * height.
 */
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import { type Raster, sampleBilinear } from '../raster/raster.js';
import {
  bestParabolaSplit,
  type CatenaryFit,
  catenarySag,
  fitCatenary,
  fitLine,
  fitParabola,
  profileZ,
} from './power-lines.catenary.js';
import type { CrsUnits } from './product-values.js';

/** ASPRS wire conductor. */
export const WIRE_CLASS = 14;
/** ASPRS transmission tower. */
export const TOWER_CLASS = 15;

/**
 * Local metric frame of a run: X = (x − ox)·hu, Y = (y − oy)·hu, Z = z·vu, so
 * every threshold is in metres whatever the CRS units.
 */
export interface MetricFrame {
  ox: number;
  oy: number;
  /** Horizontal CRS unit in metres. */
  hu: number;
  /** Vertical unit in metres. */
  vu: number;
}

/** A transmission tower. */
export interface Tower {
  towerId: number;
  /** Centre of its returns in plan, project CRS. */
  x: number;
  y: number;
  /** Elevation of its highest return (CRS vertical unit). */
  top: number;
  /** Height of the top above the terrain model, metres. */
  height: number;
  /** Largest plan distance of its returns from the centre, metres. */
  radius: number;
  /**
   * Its plan footprint (returns inside are the tower's, never vegetation):
   * the disc of `radius` and a band along its cross-arms, `halfLength` metres
   * along the line (direction `direction`, a unit vector in plan) and
   * `halfWidth` metres across it, 4 m past the outermost conductor attached.
   */
  direction: [number, number];
  halfLength: number;
  halfWidth: number;
  /** Found where conductors meet end to end, not from returns labelled tower (15). */
  inferred: boolean;
  /** Returns of the tower (labelled 15, or any above ground in the footprint when inferred). */
  points: number;
}

/** How a conductor ends: at a labelled tower, at a support found from its profile, or where its returns stop. */
export type ConductorEnd = 'tower' | 'support' | 'open';

/** One conductor of one span. */
export interface Conductor {
  spanId: number;
  /** 1.. within its span, by offset across the line then by height. */
  conductorId: number;
  /** The catenary sampled every metre: [x, y, z] in the project CRS. */
  coordinates: number[][];
  /** The same vertices in the run's metric frame (X, Y, Z interleaved). */
  local: Float64Array;
  /** 3D length, metres. */
  length: number;
  /** Lowest height of the conductor above the terrain model, metres (null off the DTM). */
  minHeightAboveGround: number | null;
  /** Largest vertical distance between the chord of the span and the conductor, metres. */
  sag: number;
  /** RMS vertical residual of the returns to the fitted profile, metres. */
  fitRmse: number;
  /** Wire returns of the conductor (indices into the cloud). */
  points: Int32Array;
  /** The fitted profile along the conductor: s (metres) from its first vertex. */
  fit: CatenaryFit;
  ends: [ConductorEnd, ConductorEnd];
}

/** What {@link extractPowerLines} found. */
export interface PowerLines {
  frame: MetricFrame;
  towers: Tower[];
  conductors: Conductor[];
  spans: number;
  wirePoints: number;
  /** Wire returns in no conductor (short or stray pieces). */
  strayWirePoints: number;
}

/** Options of {@link extractPowerLines}; metres. */
export interface PowerLineOptions {
  /** Wire returns closer than this are one piece. */
  link?: number;
  /** Longest gap in the returns bridged within a conductor. */
  maxGap?: number;
  /** Widest offset of a piece from the conductor it continues. */
  lateral?: number;
  /** Shortest conductor kept (plan length of its returns). */
  minLength?: number;
  /** Vertex spacing of the sampled catenary. */
  step?: number;
}

interface Axis {
  cx: number;
  cy: number;
  ux: number;
  uy: number;
  lo: number;
  hi: number;
}

/** Principal axis in plan of some points (local metres), oriented east (or north). */
function planAxis(X: Float64Array, Y: Float64Array, idx: ArrayLike<number>): Axis {
  const n = idx.length;
  let cx = 0;
  let cy = 0;
  for (let k = 0; k < n; k++) {
    cx += X[idx[k]!]!;
    cy += Y[idx[k]!]!;
  }
  cx /= n;
  cy /= n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let k = 0; k < n; k++) {
    const dx = X[idx[k]!]! - cx;
    const dy = Y[idx[k]!]! - cy;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  let ux = Math.cos(angle);
  let uy = Math.sin(angle);
  if (ux < -1e-12 || (Math.abs(ux) <= 1e-12 && uy < 0)) {
    ux = -ux;
    uy = -uy;
  }
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < n; k++) {
    const s = (X[idx[k]!]! - cx) * ux + (Y[idx[k]!]! - cy) * uy;
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  return { cx, cy, ux, uy, lo, hi };
}

const alongOf = (a: Axis, x: number, y: number) => (x - a.cx) * a.ux + (y - a.cy) * a.uy;
const acrossOf = (a: Axis, x: number, y: number) => (y - a.cy) * a.ux - (x - a.cx) * a.uy;

/** Connected groups of points within `link` of each other in 3D (voxel hash). */
function linkPoints(X: Float64Array, Y: Float64Array, Z: Float64Array, link: number): number[][] {
  const n = X.length;
  // Cells within ±2^15 of the frame origin (50 km at 1.5 m): one exact integer key each.
  const key = (a: number, b: number, c: number) => ((a + 32768) * 65536 + (b + 32768)) * 65536 + (c + 32768);
  const cells = new Map<number, number[]>();
  const cellOf = (i: number): [number, number, number] => [
    Math.floor(X[i]! / link),
    Math.floor(Y[i]! / link),
    Math.floor(Z[i]! / link),
  ];
  for (let i = 0; i < n; i++) {
    const k = key(...cellOf(i));
    const list = cells.get(k);
    if (list) list.push(i);
    else cells.set(k, [i]);
  }
  const group = new Int32Array(n).fill(-1);
  const groups: number[][] = [];
  const link2 = link * link;
  const stack: number[] = [];
  for (let i0 = 0; i0 < n; i0++) {
    if (group[i0] !== -1) continue;
    const members: number[] = [];
    group[i0] = groups.length;
    stack.push(i0);
    while (stack.length > 0) {
      const i = stack.pop()!;
      members.push(i);
      const [a, b, c] = cellOf(i);
      for (let da = -1; da <= 1; da++) {
        for (let db = -1; db <= 1; db++) {
          for (let dc = -1; dc <= 1; dc++) {
            const list = cells.get(key(a + da, b + db, c + dc));
            if (!list) continue;
            for (const j of list) {
              if (group[j] !== -1) continue;
              const d2 = (X[j]! - X[i]!) ** 2 + (Y[j]! - Y[i]!) ** 2 + (Z[j]! - Z[i]!) ** 2;
              if (d2 <= link2) {
                group[j] = groups.length;
                stack.push(j);
              }
            }
          }
        }
      }
    }
    groups.push(members);
  }
  return groups;
}

/** Towers from the tower returns: clusters in plan (1 m cells, gaps of one cell bridged), 5 m tall or more. */
function findTowers(
  X: Float64Array,
  Y: Float64Array,
  Z: Float64Array,
  groundAt: (X: number, Y: number) => number,
  frame: MetricFrame,
): Tower[] {
  const n = X.length;
  const cells = new Map<number, number[]>();
  const key = (a: number, b: number) => (a + 1048576) * 2097152 + (b + 1048576);
  for (let i = 0; i < n; i++) {
    const k = key(Math.floor(X[i]!), Math.floor(Y[i]!));
    const list = cells.get(k);
    if (list) list.push(i);
    else cells.set(k, [i]);
  }
  const seen = new Set<number>();
  const clusters: number[][] = [];
  for (const start of cells.keys()) {
    if (seen.has(start)) continue;
    seen.add(start);
    const queue = [start];
    const members: number[] = [];
    while (queue.length > 0) {
      const k = queue.pop()!;
      members.push(...cells.get(k)!);
      const a = Math.floor(k / 2097152) - 1048576;
      const b = (k % 2097152) - 1048576;
      for (let da = -2; da <= 2; da++) {
        for (let db = -2; db <= 2; db++) {
          const kk = key(a + da, b + db);
          if (!seen.has(kk) && cells.has(kk)) {
            seen.add(kk);
            queue.push(kk);
          }
        }
      }
    }
    clusters.push(members);
  }
  // Pieces of one tower split by missing returns: centres within 8 m are one tower.
  const centre = (m: number[]) => {
    let sx = 0;
    let sy = 0;
    for (const i of m) {
      sx += X[i]!;
      sy += Y[i]!;
    }
    return [sx / m.length, sy / m.length] as const;
  };
  let merged = true;
  while (merged) {
    merged = false;
    outer: for (let a = 0; a < clusters.length; a++) {
      for (let b = a + 1; b < clusters.length; b++) {
        const [ax, ay] = centre(clusters[a]!);
        const [bx, by] = centre(clusters[b]!);
        if (Math.hypot(ax - bx, ay - by) < 8) {
          clusters[a]!.push(...clusters[b]!);
          clusters.splice(b, 1);
          merged = true;
          break outer;
        }
      }
    }
  }
  const towers: Omit<Tower, 'towerId'>[] = [];
  for (const m of clusters) {
    let lo = Number.POSITIVE_INFINITY;
    let top = Number.NEGATIVE_INFINITY;
    for (const i of m) {
      lo = Math.min(lo, Z[i]!);
      top = Math.max(top, Z[i]!);
    }
    if (m.length < 10 || top - lo < 5) continue;
    const [cx, cy] = centre(m);
    let radius = 0;
    for (const i of m) radius = Math.max(radius, Math.hypot(X[i]! - cx, Y[i]! - cy));
    const g = groundAt(cx, cy);
    const ground = Number.isFinite(g) ? g : lo;
    towers.push({
      x: frame.ox + cx / frame.hu,
      y: frame.oy + cy / frame.hu,
      top: top / frame.vu,
      height: top - ground,
      radius: Math.min(radius, 25),
      direction: [1, 0],
      halfLength: Math.min(radius, 25),
      halfWidth: Math.min(radius, 25),
      inferred: false,
      points: m.length,
    });
  }
  towers.sort((a, b) => a.x - b.x || a.y - b.y);
  return towers.map((t, i) => ({ towerId: i + 1, ...t }));
}

/** An end of a conductor (metric frame), its line's direction, and the tower it hangs from (-1 for none). */
interface ConductorEndPoint {
  x: number;
  y: number;
  z: number;
  ux: number;
  uy: number;
  kind: ConductorEnd;
  tower: number;
}

/** Classes never part of a structure: ground, low point, water, high noise, wires. */
const NOT_STRUCTURE = new Set([2, 7, 9, 13, 14, 18]);

/** Whether a point (metric frame) lies in a tower's footprint ({@link Tower.halfWidth}). */
export function inFootprint(t: Tower, frame: MetricFrame, x: number, y: number): boolean {
  const dx = x - (t.x - frame.ox) * frame.hu;
  const dy = y - (t.y - frame.oy) * frame.hu;
  if (dx * dx + dy * dy <= t.radius * t.radius) return true;
  const [ux, uy] = t.direction;
  return Math.abs(dx * ux + dy * uy) <= t.halfLength && Math.abs(dy * ux - dx * uy) <= t.halfWidth;
}

/**
 * The towers with footprints reaching the conductors near them, plus the
 * supports found where conductors meet end to end (support ends within 25 m
 * of each other make one): centred among those ends, as tall as the highest
 * return in their footprint that is not ground, noise or wire. Renumbered by
 * position.
 */
function withSupports(
  towers: Tower[],
  ends: ConductorEndPoint[],
  cloud: PointChunk,
  groundAt: (X: number, Y: number) => number,
  frame: MetricFrame,
): Tower[] {
  const sites: Array<{ tower: Tower; x: number; y: number; ends: ConductorEndPoint[] }> = towers.map((t) => ({
    tower: { ...t },
    x: (t.x - frame.ox) * frame.hu,
    y: (t.y - frame.oy) * frame.hu,
    ends: ends.filter((e) => e.kind === 'tower' && towers[e.tower] === t),
  }));
  const groups: ConductorEndPoint[][] = [];
  for (const e of ends) {
    if (e.kind !== 'support') continue;
    const g = groups.find((o) => o.some((f) => Math.hypot(f.x - e.x, f.y - e.y) <= 25));
    if (g) g.push(e);
    else groups.push([e]);
  }
  const inferred = groups.map((g) => {
    const x = g.reduce((a, e) => a + e.x, 0) / g.length;
    const y = g.reduce((a, e) => a + e.y, 0) / g.length;
    const tower: Tower = {
      towerId: 0,
      x: frame.ox + x / frame.hu,
      y: frame.oy + y / frame.hu,
      top: Math.max(...g.map((e) => e.z)),
      height: Number.NaN,
      radius: 0,
      direction: [1, 0],
      halfLength: 0,
      halfWidth: 0,
      inferred: true,
      points: 0,
    };
    return { tower, x, y, ends: g };
  });
  for (const site of [...sites, ...inferred]) {
    const own = site.ends;
    if (own.length === 0) continue;
    let ux = 0;
    let uy = 0;
    for (const e of own) {
      const sign = e.ux * own[0]!.ux + e.uy * own[0]!.uy < 0 ? -1 : 1;
      ux += sign * e.ux;
      uy += sign * e.uy;
    }
    const norm = Math.hypot(ux, uy) || 1;
    ux /= norm;
    uy /= norm;
    // Conductors of the span ending close by (cut short by the survey's edge) hang from it too.
    let across = 0;
    for (const e of ends) {
      const a = (e.x - site.x) * ux + (e.y - site.y) * uy;
      const c = (e.y - site.y) * ux - (e.x - site.x) * uy;
      if (Math.abs(a) <= 15 && Math.abs(c) <= 25 && (own.includes(e) || e.kind === 'open')) {
        across = Math.max(across, Math.abs(c));
      }
    }
    const t = site.tower;
    t.direction = [ux, uy];
    t.halfLength = Math.max(t.radius, 4);
    t.halfWidth = Math.max(t.radius, across + 4);
  }
  if (inferred.length > 0) {
    const classes = cloud.classification;
    const ground = inferred.map((s) => groundAt(s.x, s.y));
    const reach = inferred.map((s) => Math.hypot(s.tower.halfLength, s.tower.halfWidth));
    for (let i = 0; i < cloud.count; i++) {
      if (classes && NOT_STRUCTURE.has(classes[i]!)) continue;
      const X = (cloud.x[i]! - frame.ox) * frame.hu;
      const Y = (cloud.y[i]! - frame.oy) * frame.hu;
      for (let k = 0; k < inferred.length; k++) {
        const site = inferred[k]!;
        if (Math.abs(X - site.x) > reach[k]! || Math.abs(Y - site.y) > reach[k]!) continue;
        if (!inFootprint(site.tower, frame, X, Y)) continue;
        const Z = cloud.z[i]! * frame.vu;
        if (Number.isFinite(ground[k]!) && Z - ground[k]! < 2) continue;
        site.tower.points++;
        // Attachment heights are in metres; keep the top in metres until the end.
        if (Z > site.tower.top) site.tower.top = Z;
      }
    }
    inferred.forEach((site, k) => {
      site.tower.height = site.tower.top - ground[k]!;
      site.tower.top /= frame.vu;
    });
  }
  const out = [...sites, ...inferred].map((s) => s.tower);
  out.sort((a, b) => a.x - b.x || a.y - b.y);
  return out.map((t, i) => ({ ...t, towerId: i + 1 }));
}

/**
 * Towers, conductors and spans of a classified cloud (classes 14 and 15),
 * heights against the DTM. No wire returns: no conductors (not an error).
 *
 * @example
 * const { conductors, towers } = extractPowerLines(cloud, dtm, units);
 */
export function extractPowerLines(
  cloud: PointChunk,
  dtm: Raster | null,
  units: CrsUnits,
  options: PowerLineOptions = {},
  context: StepContext = {},
): PowerLines {
  const link = options.link ?? 1.5;
  const maxGap = options.maxGap ?? 50;
  const lateral = options.lateral ?? 0.75;
  const minLength = options.minLength ?? 10;
  const step = options.step ?? 1;
  const classes = cloud.classification;
  const wires: number[] = [];
  const towerIdx: number[] = [];
  if (classes) {
    for (let i = 0; i < cloud.count; i++) {
      if (classes[i] === WIRE_CLASS) wires.push(i);
      else if (classes[i] === TOWER_CLASS) towerIdx.push(i);
    }
  }
  const first = wires[0] ?? towerIdx[0] ?? 0;
  const frame: MetricFrame = {
    ox: Math.floor(cloud.x[first] ?? 0),
    oy: Math.floor(cloud.y[first] ?? 0),
    hu: units.unitToMetre,
    vu: units.verticalUnitToMetre,
  };
  const groundAt = (X: number, Y: number): number => {
    if (!dtm) return Number.NaN;
    const g = sampleBilinear(dtm, frame.ox + X / frame.hu, frame.oy + Y / frame.hu);
    return Number.isNaN(g) || g === dtm.nodata ? Number.NaN : g * frame.vu;
  };
  const toLocal = (idx: number[]) => {
    const X = new Float64Array(idx.length);
    const Y = new Float64Array(idx.length);
    const Z = new Float64Array(idx.length);
    idx.forEach((i, k) => {
      X[k] = (cloud.x[i]! - frame.ox) * frame.hu;
      Y[k] = (cloud.y[i]! - frame.oy) * frame.hu;
      Z[k] = cloud.z[i]! * frame.vu;
    });
    return { X, Y, Z };
  };
  const t = toLocal(towerIdx);
  const towers = findTowers(t.X, t.Y, t.Z, groundAt, frame);
  const towerLocal = towers.map((tw) => ({
    X: (tw.x - frame.ox) * frame.hu,
    Y: (tw.y - frame.oy) * frame.hu,
    // Cross-arms reach past the returns labelled tower: outer phases hang up to ~15 m from the centre.
    reach: Math.max(tw.radius + 8, 15),
  }));
  if (wires.length === 0) {
    return { frame, towers, conductors: [], spans: 0, wirePoints: 0, strayWirePoints: 0 };
  }
  const { X, Y, Z } = toLocal(wires);

  // 1. Pieces of linked returns, cut at the towers standing on their line.
  const towersOn = (a: Axis, from: number, to: number): number[] => {
    const cuts: number[] = [];
    for (const tw of towerLocal) {
      if (Math.abs(acrossOf(a, tw.X, tw.Y)) > tw.reach) continue;
      const s = alongOf(a, tw.X, tw.Y);
      if (s > from && s < to) cuts.push(s);
    }
    return cuts.sort((p, q) => p - q);
  };
  const pieces: number[][] = [];
  for (const group of linkPoints(X, Y, Z, link)) {
    if (group.length < 2) continue;
    const axis = planAxis(X, Y, group);
    const cuts = towersOn(axis, axis.lo + 0.5, axis.hi - 0.5);
    if (cuts.length === 0) {
      pieces.push(group);
      continue;
    }
    const parts: number[][] = Array.from({ length: cuts.length + 1 }, () => []);
    for (const i of group) {
      const s = alongOf(axis, X[i]!, Y[i]!);
      let k = 0;
      while (k < cuts.length && s > cuts[k]!) k++;
      parts[k]!.push(i);
    }
    for (const p of parts) if (p.length > 0) pieces.push(p);
  }
  if (context.signal?.aborted) throw new Cancelled();

  // 2. Grow conductors from the largest pieces.
  pieces.sort((a, b) => b.length - a.length);
  const box = pieces.map((p) => {
    let x0 = Number.POSITIVE_INFINITY;
    let y0 = Number.POSITIVE_INFINITY;
    let x1 = Number.NEGATIVE_INFINITY;
    let y1 = Number.NEGATIVE_INFINITY;
    for (const i of p) {
      x0 = Math.min(x0, X[i]!);
      x1 = Math.max(x1, X[i]!);
      y0 = Math.min(y0, Y[i]!);
      y1 = Math.max(y1, Y[i]!);
    }
    return [x0, y0, x1, y1] as const;
  });
  const pieceAxis = pieces.map((p) => planAxis(X, Y, p));
  // RMS of returns about one parabola (a line under 30 m) along their own axis.
  const profileRmse = (idx: number[]): number => {
    if (idx.length < 4) return 0;
    const axis = planAxis(X, Y, idx);
    const s = idx.map((i) => alongOf(axis, X[i]!, Y[i]!));
    const z = idx.map((i) => Z[i]!);
    const keep = new Uint8Array(idx.length).fill(1);
    const fit = axis.hi - axis.lo >= 30 ? fitParabola(s, z) : null;
    let sum = 0;
    if (fit) {
      for (let k = 0; k < s.length; k++) {
        const tt = (s[k]! - fit.centre) / fit.scale;
        sum += (z[k]! - (fit.q[0] + fit.q[1] * tt + fit.q[2] * tt * tt)) ** 2;
      }
    } else {
      const line = fitLine(s, z, keep);
      for (let k = 0; k < s.length; k++) sum += (z[k]! - (line.c + line.slope * s[k]!)) ** 2;
    }
    return Math.sqrt(sum / idx.length);
  };
  const pieceRmse = pieces.map(profileRmse);
  const taken = new Uint8Array(pieces.length);
  const grown: number[][] = [];
  const median = (v: number[]) => {
    v.sort((a, b) => a - b);
    return v.length ? v[Math.floor(v.length / 2)]! : 0;
  };
  for (let seed = 0; seed < pieces.length; seed++) {
    if (taken[seed]) continue;
    taken[seed] = 1;
    const members = [...pieces[seed]!];
    let gx0 = box[seed]![0];
    let gy0 = box[seed]![1];
    let gx1 = box[seed]![2];
    let gy1 = box[seed]![3];
    for (;;) {
      const axis = planAxis(X, Y, members);
      const s = members.map((i) => alongOf(axis, X[i]!, Y[i]!));
      const zs = members.map((i) => Z[i]!);
      const extent = axis.hi - axis.lo;
      const parabola = extent >= 30 ? fitParabola(s, zs) : null;
      const line = parabola ? { c: 0, slope: 0 } : fitLine(s, zs, new Uint8Array(s.length).fill(1));
      const groupRmse = profileRmse(members);
      const model = (sv: number) => {
        if (!parabola) return line.c + line.slope * sv;
        const tt = (sv - parabola.centre) / parabola.scale;
        return parabola.q[0] + parabola.q[1] * tt + parabola.q[2] * tt * tt;
      };
      let best = -1;
      let bestGap = Number.POSITIVE_INFINITY;
      for (let f = 0; f < pieces.length; f++) {
        if (taken[f]) continue;
        const b = box[f]!;
        if (b[0] > gx1 + maxGap || b[2] < gx0 - maxGap || b[1] > gy1 + maxGap || b[3] < gy0 - maxGap) continue;
        const fa = pieceAxis[f]!;
        if (fa.hi - fa.lo >= 10 && Math.abs(fa.ux * axis.uy - fa.uy * axis.ux) > Math.sin((5 * Math.PI) / 180)) {
          continue;
        }
        // Quick bounds from the piece's own ends before looking at its returns.
        const e0 = alongOf(axis, fa.cx + fa.ux * fa.lo, fa.cy + fa.uy * fa.lo);
        const e1 = alongOf(axis, fa.cx + fa.ux * fa.hi, fa.cy + fa.uy * fa.hi);
        const roughGap = Math.max(0, Math.min(e0, e1) - axis.hi, axis.lo - Math.max(e0, e1));
        if (roughGap > maxGap + 2 || roughGap >= bestGap + 2) continue;
        const p = pieces[f]!;
        let lo = Number.POSITIVE_INFINITY;
        let hi = Number.NEGATIVE_INFINITY;
        for (const i of p) {
          const sv = alongOf(axis, X[i]!, Y[i]!);
          lo = Math.min(lo, sv);
          hi = Math.max(hi, sv);
        }
        const gap = Math.max(0, lo - axis.hi, axis.lo - hi);
        if (gap > maxGap || gap >= bestGap) continue;
        // Near the conductor's ends only: the piece must continue its line and its profile.
        const across: number[] = [];
        const dz: number[] = [];
        const w0 = axis.lo - gap - 20;
        const w1 = axis.hi + gap + 20;
        for (const i of p) {
          const sv = alongOf(axis, X[i]!, Y[i]!);
          if (sv < w0 || sv > w1) continue;
          across.push(Math.abs(acrossOf(axis, X[i]!, Y[i]!)));
          dz.push(Math.abs(Z[i]! - model(sv)));
        }
        if (across.length === 0 || median(across) > lateral || median(dz) > 0.4 + 0.03 * gap) continue;
        const between = lo > axis.hi ? [axis.hi, lo] : [hi, axis.lo];
        if (gap > 0 && towersOn(axis, between[0]! - 1, between[1]! + 1).length > 0) continue;
        // And one smooth profile must fit both (not a conductor of the next span over a missed support).
        const joint = profileRmse([...members, ...p]);
        if (joint > Math.max(0.3, 1.5 * Math.max(groupRmse, pieceRmse[f]!))) continue;
        best = f;
        bestGap = gap;
      }
      if (best < 0) break;
      taken[best] = 1;
      members.push(...pieces[best]!);
      gx0 = Math.min(gx0, box[best]![0]);
      gy0 = Math.min(gy0, box[best]![1]);
      gx1 = Math.max(gx1, box[best]![2]);
      gy1 = Math.max(gy1, box[best]![3]);
    }
    grown.push(members);
  }
  if (context.signal?.aborted) throw new Cancelled();

  // 3. Cut conductors running over a support the classification missed (a peak of the profile).
  interface Run {
    members: number[];
    ends: [ConductorEnd, ConductorEnd];
    /** Cut positions along the run's own axis at the supports, when cut there. */
    cutLo?: { x: number; y: number };
    cutHi?: { x: number; y: number };
  }
  const runs: Run[] = [];
  const cutAtSupports = (run: Run, depth: number) => {
    const axis = planAxis(X, Y, run.members);
    const order = run.members
      .map((i) => ({ i, s: alongOf(axis, X[i]!, Y[i]!) }))
      .sort((a, b) => a.s - b.s || a.i - b.i);
    const s = Float64Array.from(order, (o) => o.s);
    const z = Float64Array.from(order, (o) => Z[o.i]!);
    const split = depth < 8 ? bestParabolaSplit(s, z, 20) : null;
    const rmse = split ? Math.sqrt(split.single / s.length) : 0;
    if (split && rmse > 0.15 && split.split < 0.3 * split.single && split.slopeLeft - split.slopeRight > 0.02) {
      const at = { x: axis.cx + axis.ux * split.at, y: axis.cy + axis.uy * split.at };
      const left: Run = {
        members: order.slice(0, split.index).map((o) => o.i),
        ends: [run.ends[0], 'support'],
        ...(run.cutLo ? { cutLo: run.cutLo } : {}),
        cutHi: at,
      };
      const right: Run = {
        members: order.slice(split.index).map((o) => o.i),
        ends: ['support', run.ends[1]],
        cutLo: at,
        ...(run.cutHi ? { cutHi: run.cutHi } : {}),
      };
      cutAtSupports(left, depth + 1);
      cutAtSupports(right, depth + 1);
    } else runs.push(run);
  };
  for (const members of grown) cutAtSupports({ members, ends: ['open', 'open'] }, 0);

  // 4. Each run's extent: to the towers at its ends, or to the supports where it meets the next run of its line.
  interface Placed {
    run: Run;
    axis: Axis;
    from: number;
    to: number;
    ends: [ConductorEnd, ConductorEnd];
    /** Mean elevation of the returns within 5 m of each end. */
    zEnd: [number, number];
    /** Tower (index) each end hangs from, -1 for none. */
    endTower: [number, number];
  }
  const placed: Placed[] = [];
  let stray = 0;
  for (const run of runs) {
    const axis = planAxis(X, Y, run.members);
    if (axis.hi - axis.lo < minLength || run.members.length < 10) {
      stray += run.members.length;
      continue;
    }
    let from = axis.lo;
    let to = axis.hi;
    const ends: [ConductorEnd, ConductorEnd] = [...run.ends];
    if (run.cutLo) from = Math.min(from, alongOf(axis, run.cutLo.x, run.cutLo.y));
    if (run.cutHi) to = Math.max(to, alongOf(axis, run.cutHi.x, run.cutHi.y));
    const endTower: [number, number] = [-1, -1];
    towerLocal.forEach((tw, ti) => {
      if (Math.abs(acrossOf(axis, tw.X, tw.Y)) > tw.reach) return;
      const st = alongOf(axis, tw.X, tw.Y);
      if (st <= axis.lo + 1 && st >= axis.lo - 15 && ends[0] !== 'tower') {
        from = st;
        ends[0] = 'tower';
        endTower[0] = ti;
      } else if (st >= axis.hi - 1 && st <= axis.hi + 15 && ends[1] !== 'tower') {
        to = st;
        ends[1] = 'tower';
        endTower[1] = ti;
      }
    });
    const zEnd: [number, number] = [0, 0];
    const nEnd = [0, 0];
    for (const i of run.members) {
      const sv = alongOf(axis, X[i]!, Y[i]!);
      if (sv <= axis.lo + 5) {
        zEnd[0] += Z[i]!;
        nEnd[0]!++;
      }
      if (sv >= axis.hi - 5) {
        zEnd[1] += Z[i]!;
        nEnd[1]!++;
      }
    }
    placed.push({ run, axis, from, to, ends, zEnd: [zEnd[0] / nEnd[0]!, zEnd[1] / nEnd[1]!], endTower });
  }
  // Two runs meeting end to end on one line, at one height, hang from a support between them.
  const endPoint = (p: Placed, e: 0 | 1) => {
    const sv = e === 0 ? p.axis.lo : p.axis.hi;
    return { x: p.axis.cx + p.axis.ux * sv, y: p.axis.cy + p.axis.uy * sv, z: p.zEnd[e] };
  };
  for (const A of placed) {
    if (A.ends[1] !== 'open') continue;
    const ea = endPoint(A, 1);
    let best: Placed | null = null;
    let bestD = 30;
    for (const B of placed) {
      if (B === A || B.ends[0] !== 'open') continue;
      if (Math.abs(A.axis.ux * B.axis.uy - A.axis.uy * B.axis.ux) > Math.sin((5 * Math.PI) / 180)) continue;
      const eb = endPoint(B, 0);
      const gap = alongOf(A.axis, eb.x, eb.y) - A.axis.hi;
      const d = Math.hypot(eb.x - ea.x, eb.y - ea.y);
      if (gap < -2 || d > bestD) continue;
      if (Math.abs(acrossOf(A.axis, eb.x, eb.y)) > 2 || Math.abs(eb.z - ea.z) > 2) continue;
      best = B;
      bestD = d;
    }
    if (!best) continue;
    const eb = endPoint(best, 0);
    const mx = (ea.x + eb.x) / 2;
    const my = (ea.y + eb.y) / 2;
    A.to = Math.max(A.axis.hi, alongOf(A.axis, mx, my));
    A.ends[1] = 'support';
    best.from = Math.min(best.axis.lo, alongOf(best.axis, mx, my));
    best.ends[0] = 'support';
  }

  // 5. Catenary of each run over its extent, sampled every metre.
  const conductors: Omit<Conductor, 'spanId' | 'conductorId'>[] = [];
  const axes: Axis[] = [];
  for (const { run, axis, from, to, ends } of placed) {
    const s = new Float64Array(run.members.length);
    const z = new Float64Array(run.members.length);
    run.members.forEach((i, k) => {
      s[k] = alongOf(axis, X[i]!, Y[i]!) - from;
      z[k] = Z[i]!;
    });
    // A steep profile is an insulator string or a jumper, not a span of conductor.
    const fit = fitCatenary(s, z);
    const spanM = to - from;
    const slopeEnds = Math.abs(profileZ(fit, spanM) - profileZ(fit, 0)) / spanM;
    if (slopeEnds > 0.5) {
      stray += run.members.length;
      continue;
    }
    const steps = Math.max(1, Math.ceil(spanM / step - 1e-9));
    const local = new Float64Array((steps + 1) * 3);
    const coordinates: number[][] = [];
    let length = 0;
    let minHag = Number.POSITIVE_INFINITY;
    for (let k = 0; k <= steps; k++) {
      const sv = Math.min(spanM, k * step);
      const px = axis.cx + axis.ux * (from + sv);
      const py = axis.cy + axis.uy * (from + sv);
      const pz = profileZ(fit, sv);
      local[k * 3] = px;
      local[k * 3 + 1] = py;
      local[k * 3 + 2] = pz;
      coordinates.push([frame.ox + px / frame.hu, frame.oy + py / frame.hu, pz / frame.vu]);
      if (k > 0) {
        length += Math.hypot(px - local[k * 3 - 3]!, py - local[k * 3 - 2]!, pz - local[k * 3 - 1]!);
      }
      const g = groundAt(px, py);
      if (Number.isFinite(g)) minHag = Math.min(minHag, pz - g);
    }
    conductors.push({
      coordinates,
      local,
      length,
      minHeightAboveGround: Number.isFinite(minHag) ? minHag : null,
      sag: catenarySag(fit, 0, spanM),
      fitRmse: fit.rmse,
      points: Int32Array.from(run.members, (k) => wires[k]!),
      fit,
      ends,
    });
    axes.push({ ...axis, lo: from, hi: to });
  }

  // 6. Spans: conductors side by side (parallel, within 30 m across, overlapping along by half).
  const parent = conductors.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  for (let a = 0; a < axes.length; a++) {
    for (let b = a + 1; b < axes.length; b++) {
      const A = axes[a]!;
      const B = axes[b]!;
      if (Math.abs(A.ux * B.uy - A.uy * B.ux) > Math.sin((10 * Math.PI) / 180)) continue;
      const bmx = B.cx + B.ux * ((B.lo + B.hi) / 2);
      const bmy = B.cy + B.uy * ((B.lo + B.hi) / 2);
      if (Math.abs(acrossOf(A, bmx, bmy)) > 30) continue;
      const b0 = alongOf(A, B.cx + B.ux * B.lo, B.cy + B.uy * B.lo);
      const b1 = alongOf(A, B.cx + B.ux * B.hi, B.cy + B.uy * B.hi);
      const overlap = Math.min(A.hi, Math.max(b0, b1)) - Math.max(A.lo, Math.min(b0, b1));
      if (overlap >= 0.5 * Math.min(A.hi - A.lo, B.hi - B.lo)) parent[find(a)] = find(b);
    }
  }
  // Span order: along the main direction of all the wires; conductors across their span, then up.
  const all = planAxis(
    X,
    Y,
    Array.from({ length: X.length }, (_, i) => i),
  );
  const mid = (a: Axis) => [a.cx + a.ux * ((a.lo + a.hi) / 2), a.cy + a.uy * ((a.lo + a.hi) / 2)] as const;
  const groups = new Map<number, number[]>();
  conductors.forEach((_, i) => {
    const r = find(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  });
  const spanList = [...groups.values()].map((members) => {
    let sx = 0;
    let sy = 0;
    for (const i of members) {
      const [mx, my] = mid(axes[i]!);
      sx += mx;
      sy += my;
    }
    sx /= members.length;
    sy /= members.length;
    return { members, along: alongOf(all, sx, sy), across: acrossOf(all, sx, sy) };
  });
  spanList.sort((a, b) => a.along - b.along || a.across - b.across);
  const out: Conductor[] = [];
  spanList.forEach((span, si) => {
    const longest = span.members.reduce((a, b) => (axes[b]!.hi - axes[b]!.lo > axes[a]!.hi - axes[a]!.lo ? b : a));
    const ref = axes[longest]!;
    const keyed = span.members.map((i) => {
      const [mx, my] = mid(axes[i]!);
      const c = conductors[i]!;
      const zMid = c.local[Math.floor(c.local.length / 6) * 3 + 2]!;
      return { i, across: acrossOf(ref, mx, my), z: zMid };
    });
    // Across first (to half a metre: stacked conductors of one side sit nearly above each other), then up.
    keyed.sort((a, b) => Math.round(a.across * 2) - Math.round(b.across * 2) || a.z - b.z);
    keyed.forEach((k, ci) => {
      out.push({ spanId: si + 1, conductorId: ci + 1, ...conductors[k.i]! });
    });
  });
  return {
    frame,
    towers: withSupports(
      towers,
      placed.flatMap((p) =>
        ([0, 1] as const).map((e) => {
          const sv = e === 0 ? p.from : p.to;
          return {
            x: p.axis.cx + p.axis.ux * sv,
            y: p.axis.cy + p.axis.uy * sv,
            z: p.zEnd[e],
            ux: p.axis.ux,
            uy: p.axis.uy,
            kind: p.ends[e],
            tower: p.endTower[e],
          };
        }),
      ),
      cloud,
      groundAt,
      frame,
    ),
    conductors: out,
    spans: spanList.length,
    wirePoints: wires.length,
    strayWirePoints: stray + (wires.length - runs.reduce((n, r) => n + r.members.length, 0)),
  };
}
