import type { PointChunk } from '../core/chunk.js';
import { DisjointSets } from '../core/disjoint-sets.js';
import type { PointGraph } from './surface.js';

/** Parameters of {@link acceptEmbankments}, in CRS units. */
export interface EmbankmentParameters {
  /** Largest height step between neighbours of one raised surface on flat ground. */
  step: number;
  /** Extra step per unit of horizontal distance. */
  stepSlope: number;
  /** TIN edges longer than this join nothing. */
  maxEdge: number;
  /** Shortest embankment (length of the raised surface's long axis). */
  minLength: number;
  /** Smallest ratio of length to width. */
  elongation: number;
  /** Narrowest embankment (hedges and tree rows are narrower). */
  minWidth: number;
  /** Least fall of the surface from its long axis to its sides (rise over run; flat and flat-roofed objects do not fall). */
  minCrossFall: number;
  /** Steepest median rise over run from the raised surface down to its ground neighbours. */
  maxSideSlope: number;
}

/** Fewest points of a raised surface tested (shorter runs cannot tell a long axis). */
const MIN_POINTS = 20;

/**
 * Embankments: a dam, a railway or road embankment is an earthwork 5–10 m
 * high and 10–20 m wide that the opening window, sized for buildings, cuts
 * off the terrain like a long gabled roof. On a sparse cloud its flanks
 * cannot be told from a building's walls (both rise within a spacing or two
 * of the foot), but its plan and section can: it runs on far longer than it
 * is wide, and it falls from its crest to both feet. A smooth surface
 * of non-ground points (joined by TIN edges with steps at most `step +
 * stepSlope × distance`) at least `minLength` long and `elongation` times
 * longer than wide, whose median rise over run to its ground neighbours is
 * at most `maxSideSlope` and whose height falls from its long axis to its
 * sides by at least `minCrossFall` (the section of a bank, not of a flat
 * roof or a deck), becomes ground; the raised-point check and the step
 * faces, which run after, settle the objects on its crest and the returns on
 * its flanks. An earthwork carrying a road or a track is at least
 * `minWidth` wide at its foot (a crest plus two flanks), wider than a hedge
 * or a row of bushes, which are long and low too. Returns the number of
 * points added.
 */
export function acceptEmbankments(
  cloud: PointChunk,
  exclude: Uint8Array | null,
  graph: PointGraph,
  ground: Uint8Array,
  p: EmbankmentParameters,
): number {
  const { count } = cloud;
  const raised = (i: number) => !ground[i] && !(exclude && exclude[i] !== 0);
  const root = raisedSurfaces(cloud, graph, raised, p);
  const members = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    if (!raised(i)) continue;
    const r = root[i]!;
    const list = members.get(r);
    if (list) list.push(i);
    else members.set(r, [i]);
  }
  // Every surface is judged against the ground as it came in, then the embankments join it.
  const banks = [...members.values()].filter(
    (points) => points.length >= MIN_POINTS && isEmbankment(cloud, graph, ground, points, p),
  );
  let added = 0;
  for (const points of banks) {
    for (const i of points) ground[i] = 1;
    added += points.length;
  }
  return added;
}

/** Root (a point index) of the smooth raised surface of every `raised` point, by union-find over TIN edges. */
function raisedSurfaces(
  cloud: PointChunk,
  graph: PointGraph,
  raised: (i: number) => boolean,
  p: EmbankmentParameters,
): Int32Array {
  const { x, y, z, count } = cloud;
  const sets = new DisjointSets(count);
  const maxEdge2 = p.maxEdge * p.maxEdge;
  for (let i = 0; i < count; i++) {
    if (!raised(i)) continue;
    for (let q = graph.start[i]!; q < graph.start[i + 1]!; q++) {
      const j = graph.neighbours[q]!;
      if (j < i || !raised(j)) continue;
      const d2 = (x[j]! - x[i]!) ** 2 + (y[j]! - y[i]!) ** 2;
      if (d2 > maxEdge2 || Math.abs(z[j]! - z[i]!) > p.step + p.stepSlope * Math.sqrt(d2)) continue;
      sets.union(i, j);
    }
  }
  for (let i = 0; i < count; i++) sets.parent[i] = sets.find(i);
  return sets.parent;
}

/**
 * Whether the raised surface `points` has an embankment's plan (long and
 * narrow, from the principal axes of its points, taken as a uniform strip),
 * cross-section (its height falls from the long axis to both sides) and
 * flanks (median rise over run to its ground neighbours).
 */
function isEmbankment(
  cloud: PointChunk,
  graph: PointGraph,
  ground: Uint8Array,
  points: number[],
  p: EmbankmentParameters,
): boolean {
  const axes = principalAxes(cloud, points);
  if (axes.length < p.minLength || axes.width < p.minWidth || axes.length < p.elongation * axes.width) return false;
  if (crossFall(cloud, points, axes) < p.minCrossFall) return false;
  const { x, y, z } = cloud;
  const maxEdge2 = p.maxEdge * p.maxEdge;
  const slopes: number[] = [];
  for (const i of points) {
    for (let q = graph.start[i]!; q < graph.start[i + 1]!; q++) {
      const j = graph.neighbours[q]!;
      if (!ground[j]) continue;
      const d2 = (x[j]! - x[i]!) ** 2 + (y[j]! - y[i]!) ** 2;
      if (d2 > maxEdge2 || d2 === 0) continue;
      slopes.push((z[i]! - z[j]!) / Math.sqrt(d2));
    }
  }
  if (slopes.length < MIN_POINTS) return false;
  slopes.sort((a, b) => a - b);
  return slopes[slopes.length >> 1]! <= p.maxSideSlope;
}

/** Centroid, long-axis direction (unit vector) and the length and width of a uniform strip with the points' spread. */
interface Axes {
  cx: number;
  cy: number;
  ux: number;
  uy: number;
  length: number;
  width: number;
}

/** {@link Axes} of `points` from their horizontal covariance. */
function principalAxes(cloud: PointChunk, points: number[]): Axes {
  const { x, y } = cloud;
  const n = points.length;
  const x0 = x[points[0]!]!;
  const y0 = y[points[0]!]!;
  let mx = 0;
  let my = 0;
  for (const i of points) {
    mx += x[i]! - x0;
    my += y[i]! - y0;
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const i of points) {
    const a = x[i]! - x0 - mx;
    const b = y[i]! - y0 - my;
    sxx += a * a;
    syy += b * b;
    sxy += a * b;
  }
  const half = (sxx + syy) / 2;
  const spread = Math.sqrt(Math.max(0, half * half - (sxx * syy - sxy * sxy)));
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  // A uniform strip of length L has variance L² / 12 along it.
  return {
    cx: x0 + mx,
    cy: y0 + my,
    ux: Math.cos(angle),
    uy: Math.sin(angle),
    length: Math.sqrt((12 * (half + spread)) / n),
    width: Math.sqrt((12 * Math.max(0, half - spread)) / n),
  };
}

/**
 * How much the surface falls per unit of distance from its long axis: minus
 * the coefficient of |across| in the least-squares fit z = a + b × along +
 * c × |across| (the `along` term takes up the terrain's slope along the
 * object). An earthwork falls from its crest to its feet; a flat roof, a
 * deck or a flat-topped object seen with its walls does not.
 */
function crossFall(cloud: PointChunk, points: number[], axes: Axes): number {
  const { x, y, z } = cloud;
  const n = points.length;
  const along = new Float64Array(n);
  const across = new Float64Array(n);
  let ma = 0;
  let mc = 0;
  let mz = 0;
  for (let k = 0; k < n; k++) {
    const i = points[k]!;
    const dx = x[i]! - axes.cx;
    const dy = y[i]! - axes.cy;
    along[k] = dx * axes.ux + dy * axes.uy;
    across[k] = Math.abs(dy * axes.ux - dx * axes.uy);
    ma += along[k]!;
    mc += across[k]!;
    mz += z[i]!;
  }
  ma /= n;
  mc /= n;
  mz /= n;
  let saa = 0;
  let sac = 0;
  let scc = 0;
  let saz = 0;
  let scz = 0;
  for (let k = 0; k < n; k++) {
    const a = along[k]! - ma;
    const c = across[k]! - mc;
    const dz = z[points[k]!]! - mz;
    saa += a * a;
    sac += a * c;
    scc += c * c;
    saz += a * dz;
    scz += c * dz;
  }
  const det = saa * scc - sac * sac;
  if (!(det > 0)) return 0;
  return -(saa * scz - sac * saz) / det;
}
