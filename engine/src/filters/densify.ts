import Delaunator from 'delaunator';
import type { PointChunk } from '../core/chunk.js';
import { buildMaskedPointGrid, type PointGrid } from './point-grid.js';

/** Parameters of {@link densifyGround}, in CRS units (angles in radians). */
export interface DensifyParameters {
  /** Largest angle between the facet and the line from a vertex to the candidate. */
  maxAngle: number;
  /** Largest angle for a candidate whose roughness is at most `smoothRoughness`. */
  smoothAngle?: number;
  /** Roughness (vertical units) under which a candidate is smooth. */
  smoothRoughness?: number;
  /** Roughness of every point (see `roughness` in surface.ts); NaN is rough. */
  roughness?: Float32Array;
  /** Largest distance of a candidate above the facet, vertical units. */
  maxDistance: number;
  /** Most densification passes (each rebuilds the TIN). */
  iterations: number;
  /** Grid cell for the candidate walk order (about the point spacing). */
  cell: number;
}

/**
 * Progressive TIN densification (Axelsson 2000) seeded by a first ground
 * labelling: a Delaunay TIN of the ground points is built, and every other
 * point (not excluded) lying inside a facet is added as ground when it is
 * below the facet, or above it by at most `maxDistance` with every angle
 * between the facet and the lines to the facet's vertices at most
 * `maxAngle`. The TIN is rebuilt and the test repeated, so ground grows up
 * convex breaks (embankment tops, ridges) that a morphological filter cuts,
 * while objects, whose points rise steeply from the terrain, stay out.
 * Only adds ground; returns the number of points added.
 */
export function densifyGround(
  cloud: PointChunk,
  exclude: Uint8Array | null,
  ground: Uint8Array,
  p: DensifyParameters,
): number {
  const { x, y, z, count } = cloud;
  const grid = buildMaskedPointGrid(x, y, count, p.cell, exclude, 0);
  const sinMax = Math.sin(p.maxAngle);
  const sinSmooth = Math.sin(Math.max(p.maxAngle, p.smoothAngle ?? 0));
  const rough = p.roughness;
  const smoothRoughness = p.smoothRoughness ?? 0;
  let added = 0;
  for (let pass = 0; pass < p.iterations; pass++) {
    const accept = candidatesInFacets(cloud, grid, ground, null, (i, a, b, c) => {
      const { nx, ny, nz } = facetNormal(cloud, a, b, c);
      if (nz === 0) return false;
      const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
      const d = ((x[i]! - x[a]!) * nx + (y[i]! - y[a]!) * ny + (z[i]! - z[a]!) * nz) / len;
      if (d <= 0) return true;
      if (d > p.maxDistance) return false;
      // Every angle at most maxAngle: d / |p - v| <= sin(maxAngle) for the nearest vertex.
      let nearest = Number.POSITIVE_INFINITY;
      for (const v of [a, b, c]) {
        const dx = x[v]! - x[i]!;
        const dy = y[v]! - y[i]!;
        const dz = z[v]! - z[i]!;
        const r2 = dx * dx + dy * dy + dz * dz;
        if (r2 < nearest) nearest = r2;
      }
      const sin = rough && rough[i]! <= smoothRoughness ? sinSmooth : sinMax;
      return d <= sin * Math.sqrt(nearest);
    });
    if (accept === null) return added;
    for (const i of accept) ground[i] = 1;
    added += accept.length;
    if (accept.length < Math.max(1, count * 1e-4)) break;
  }
  return added;
}

/** Parameters of {@link acceptStepFaces}, in CRS units. */
export interface StepFaceParameters {
  /** A facet steeper than this (rise over run) spans a terrain step. */
  slope: number;
  /** A candidate must lie this far above the facet's lowest vertex and below its highest, vertical units. */
  margin: number;
  /** Longest horizontal edge of such a facet: longer ones span whole objects (a narrow building on a slope), not a face. */
  maxEdge: number;
  /** Grid cell for the candidate walk order (about the point spacing). */
  cell: number;
}

/**
 * Step faces: the ground TIN spans a terrain step (a quarry wall, a cliff, a
 * steep bank) with facets from its foot to its top, and the returns on the
 * face itself, between the two, are too steep for the densification's angle
 * test. A point inside a facet steeper than `slope` whose height lies
 * strictly between the facet's lowest and highest vertex (by `margin`) is on
 * the face of a step whose foot and top are both ground: ground too. A
 * building wall never qualifies while its roof is not ground, and a facet
 * with an edge longer than `maxEdge` (one spanning a whole roof between
 * the ground below and above it on a hillside) is not a face; points level
 * with the top or the foot are left to the other tests. Only adds ground;
 * returns the number of points added.
 */
export function acceptStepFaces(
  cloud: PointChunk,
  exclude: Uint8Array | null,
  ground: Uint8Array,
  p: StepFaceParameters,
): number {
  const { x, y, z, count } = cloud;
  const grid = buildMaskedPointGrid(x, y, count, p.cell, exclude, 0);
  // A face point's facet has all its vertices within maxEdge of it, one more than `margin` lower
  // and one more than `margin` higher: only points with such ground around them are located
  // in the TIN (none on flat ground, and then no TIN at all).
  const near = buildMaskedPointGrid(x, y, count, Math.max(p.maxEdge, p.cell), ground, 1);
  const low = new Float64Array(near.cols * near.rows).fill(Number.POSITIVE_INFINITY);
  const high = new Float64Array(near.cols * near.rows).fill(Number.NEGATIVE_INFINITY);
  for (let k = 0; k < low.length; k++) {
    for (let q = near.start[k]!; q < near.start[k + 1]!; q++) {
      const zi = z[near.index[q]!]!;
      if (zi < low[k]!) low[k] = zi;
      if (zi > high[k]!) high[k] = zi;
    }
  }
  const candidate = new Uint8Array(count);
  let candidates = 0;
  const inv = 1 / near.cellSize;
  for (let q = 0; q < grid.index.length; q++) {
    const i = grid.index[q]!;
    if (ground[i]) continue;
    const c = Math.min(near.cols - 1, Math.floor((x[i]! - near.minX) * inv));
    const r = Math.min(near.rows - 1, Math.floor((y[i]! - near.minY) * inv));
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (let rr = Math.max(0, r - 1); rr <= Math.min(near.rows - 1, r + 1); rr++) {
      for (let cc = Math.max(0, c - 1); cc <= Math.min(near.cols - 1, c + 1); cc++) {
        lo = Math.min(lo, low[rr * near.cols + cc]!);
        hi = Math.max(hi, high[rr * near.cols + cc]!);
      }
    }
    if (lo < z[i]! - p.margin && hi > z[i]! + p.margin) {
      candidate[i] = 1;
      candidates++;
    }
  }
  if (candidates === 0) return 0;
  const slope2 = p.slope * p.slope;
  const maxEdge2 = p.maxEdge * p.maxEdge;
  const accept = candidatesInFacets(cloud, grid, ground, candidate, (i, a, b, c) => {
    const { nx, ny, nz } = facetNormal(cloud, a, b, c);
    if (!(nx * nx + ny * ny > slope2 * nz * nz)) return false;
    const edge2 = (u: number, v: number) => (x[u]! - x[v]!) ** 2 + (y[u]! - y[v]!) ** 2;
    if (Math.max(edge2(a, b), edge2(b, c), edge2(c, a)) > maxEdge2) return false;
    const zi = z[i]!;
    return zi > Math.min(z[a]!, z[b]!, z[c]!) + p.margin && zi < Math.max(z[a]!, z[b]!, z[c]!) - p.margin;
  });
  if (accept === null) return 0;
  for (const i of accept) ground[i] = 1;
  return accept.length;
}

/** Upward normal (nz >= 0, not normalised) of the facet through points a, b, c. */
function facetNormal(cloud: PointChunk, a: number, b: number, c: number): { nx: number; ny: number; nz: number } {
  const { x, y, z } = cloud;
  const ux = x[b]! - x[a]!;
  const uy = y[b]! - y[a]!;
  const uz = z[b]! - z[a]!;
  const vx = x[c]! - x[a]!;
  const vy = y[c]! - y[a]!;
  const vz = z[c]! - z[a]!;
  const nx = uy * vz - uz * vy;
  const ny = uz * vx - ux * vz;
  const nz = ux * vy - uy * vx;
  return nz < 0 ? { nx: -nx, ny: -ny, nz: -nz } : { nx, ny, nz };
}

/**
 * Builds a Delaunay TIN of the ground points of `grid` (vertices in grid
 * order, good locality for Delaunator and the walk) and calls
 * `test(i, a, b, c)` for every other point of the grid (of `only`, when
 * given) lying inside a facet (a, b, c: the facet's point indices). Returns
 * the points the test accepted, or null when the ground has no TIN (fewer
 * than 3 points, or all collinear). Does not change `ground`.
 */
function candidatesInFacets(
  cloud: PointChunk,
  grid: PointGrid,
  ground: Uint8Array,
  only: Uint8Array | null,
  test: (i: number, a: number, b: number, c: number) => boolean,
): number[] | null {
  const { x, y } = cloud;
  const order = grid.index;
  const ox = grid.minX;
  const oy = grid.minY;
  let n = 0;
  for (let k = 0; k < order.length; k++) if (ground[order[k]!]) n++;
  if (n < 3) return null;
  const vertex = new Int32Array(n);
  const coords = new Float64Array(2 * n);
  n = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    if (!ground[i]) continue;
    vertex[n] = i;
    coords[2 * n] = x[i]! - ox;
    coords[2 * n + 1] = y[i]! - oy;
    n++;
  }
  const tin = new Delaunator(coords);
  const tri = tin.triangles;
  const half = tin.halfedges;
  if (tri.length === 0) return null;
  // A triangle at every vertex: the walk to a candidate starts from the last ground vertex before it in grid order.
  const vertexTriangle = new Int32Array(n);
  for (let e = 0; e < tri.length; e++) vertexTriangle[tri[e]!] = (e / 3) | 0;
  const accept: number[] = [];
  let hint = 0;
  let seen = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    if (ground[i]) {
      hint = vertexTriangle[seen++]!;
      continue;
    }
    if (only && !only[i]) continue;
    const t = locate(x[i]! - ox, y[i]! - oy, coords, tri, half, hint);
    if (t < 0) {
      hint = -1 - t;
      continue;
    }
    hint = t;
    if (test(i, vertex[tri[3 * t]!]!, vertex[tri[3 * t + 1]!]!, vertex[tri[3 * t + 2]!]!)) accept.push(i);
  }
  return accept;
}

/**
 * Triangle of a Delaunay TIN containing (px, py), by a visibility walk from
 * triangle `start` over Delaunator's half-edges.
 * Outside the hull returns `-1 - t` with t the last triangle visited.
 */
function locate(
  px: number,
  py: number,
  coords: Float64Array,
  tri: Uint32Array,
  half: Int32Array,
  start: number,
): number {
  let t = start;
  const limit = tri.length;
  for (let steps = 0; steps < limit; steps++) {
    let next = -1;
    for (let k = 0; k < 3; k++) {
      const e = 3 * t + k;
      const a = tri[e]!;
      const b = tri[k === 2 ? 3 * t : e + 1]!;
      const ax = coords[2 * a]!;
      const ay = coords[2 * a + 1]!;
      const cross = (coords[2 * b]! - ax) * (py - ay) - (coords[2 * b + 1]! - ay) * (px - ax);
      // Delaunator's triangles turn clockwise (y up): the point is outside edge a→b when it lies to its left.
      if (cross > 0) {
        const opposite = half[e]!;
        if (opposite < 0) return -1 - t;
        next = Math.floor(opposite / 3);
        break;
      }
    }
    if (next < 0) return t;
    t = next;
  }
  return -1 - t;
}
