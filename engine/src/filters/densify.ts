import Delaunator from 'delaunator';
import type { PointChunk } from '../core/chunk.js';
import { buildPointGrid } from './point-grid.js';

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
  const grid = buildPointGrid(x, y, count, p.cell, exclude ? (i) => exclude[i] === 0 : undefined);
  const order = grid.index;
  const ox = grid.minX;
  const oy = grid.minY;
  const sinMax = Math.sin(p.maxAngle);
  const sinSmooth = Math.sin(Math.max(p.maxAngle, p.smoothAngle ?? 0));
  const rough = p.roughness;
  const smoothRoughness = p.smoothRoughness ?? 0;
  let added = 0;
  for (let pass = 0; pass < p.iterations; pass++) {
    // TIN of the current ground, vertices in grid order (good locality for Delaunator and the walk).
    let n = 0;
    for (let k = 0; k < order.length; k++) if (ground[order[k]!]) n++;
    if (n < 3) return added;
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
    if (tri.length === 0) return added;
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
      const px = x[i]! - ox;
      const py = y[i]! - oy;
      const t = locate(px, py, coords, tri, half, hint);
      if (t < 0) {
        hint = -1 - t;
        continue;
      }
      hint = t;
      const a = vertex[tri[3 * t]!]!;
      const b = vertex[tri[3 * t + 1]!]!;
      const c = vertex[tri[3 * t + 2]!]!;
      const ax = x[a]! - ox;
      const ay = y[a]! - oy;
      const az = z[a]!;
      const ux = x[b]! - ox - ax;
      const uy = y[b]! - oy - ay;
      const uz = z[b]! - az;
      const vx = x[c]! - ox - ax;
      const vy = y[c]! - oy - ay;
      const vz = z[c]! - az;
      let nx = uy * vz - uz * vy;
      let ny = uz * vx - ux * vz;
      let nz = ux * vy - uy * vx;
      if (nz === 0) continue;
      if (nz < 0) {
        nx = -nx;
        ny = -ny;
        nz = -nz;
      }
      const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
      const d = ((px - ax) * nx + (py - ay) * ny + (z[i]! - az) * nz) / len;
      if (d <= 0) {
        accept.push(i);
        continue;
      }
      if (d > p.maxDistance) continue;
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
      if (d <= sin * Math.sqrt(nearest)) accept.push(i);
    }
    for (const i of accept) ground[i] = 1;
    added += accept.length;
    if (accept.length < Math.max(1, count * 1e-4)) break;
  }
  return added;
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
