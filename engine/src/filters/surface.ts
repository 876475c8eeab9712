import Delaunator from 'delaunator';
import type { PointChunk } from '../core/chunk.js';
import { buildMaskedPointGrid } from './point-grid.js';

/**
 * The neighbourhood graph of a cloud: the edges of a 2D Delaunay TIN of every
 * non-excluded point, as adjacency lists (`neighbours[start[i] .. start[i + 1]]`
 * are the points sharing a TIN edge with point i). Excluded points have none.
 */
export interface PointGraph {
  start: Int32Array;
  neighbours: Int32Array;
}

/** Builds the {@link PointGraph} of the points not excluded (vertices in grid order for locality). */
export function pointGraph(cloud: PointChunk, exclude: Uint8Array | null, cell: number): PointGraph {
  const { x, y, count } = cloud;
  const grid = buildMaskedPointGrid(x, y, count, cell, exclude, 0);
  const order = grid.index;
  const n = order.length;
  const start = new Int32Array(count + 1);
  if (n < 3) return { start, neighbours: new Int32Array(0) };
  const coords = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    coords[2 * k] = x[order[k]!]! - grid.minX;
    coords[2 * k + 1] = y[order[k]!]! - grid.minY;
  }
  const { triangles: tri, halfedges: half } = new Delaunator(coords);
  // Every undirected edge once: the half-edge whose twin is absent or has a larger index.
  const degree = new Int32Array(count);
  const each = (visit: (a: number, b: number) => void) => {
    for (let e = 0; e < tri.length; e++) {
      const twin = half[e]!;
      if (twin >= 0 && twin < e) continue;
      const a = order[tri[e]!]!;
      const b = order[tri[e % 3 === 2 ? e - 2 : e + 1]!]!;
      visit(a, b);
    }
  };
  each((a, b) => {
    degree[a]!++;
    degree[b]!++;
  });
  for (let i = 0; i < count; i++) start[i + 1] = start[i]! + degree[i]!;
  const fill = start.slice(0, count);
  const neighbours = new Int32Array(start[count]!);
  each((a, b) => {
    neighbours[fill[a]!++] = b;
    neighbours[fill[b]!++] = a;
  });
  return { start, neighbours };
}

/**
 * Local roughness of every point: the RMS residual of the least-squares plane
 * through the point and its TIN neighbours (vertical units). Terrain, even
 * steep, is locally planar; vegetation and object edges are not. NaN where
 * fewer than 3 neighbours or a degenerate neighbourhood.
 */
export function roughness(cloud: PointChunk, graph: PointGraph): Float32Array {
  const { x, y, z, count } = cloud;
  const out = new Float32Array(count).fill(Number.NaN);
  for (let i = 0; i < count; i++) {
    const s = graph.start[i]!;
    const e = graph.start[i + 1]!;
    const n = e - s + 1;
    if (n < 4) continue;
    // Centred on the point for precision.
    const x0 = x[i]!;
    const y0 = y[i]!;
    const z0 = z[i]!;
    let mx = 0;
    let my = 0;
    let mz = 0;
    for (let p = s; p < e; p++) {
      const j = graph.neighbours[p]!;
      mx += x[j]! - x0;
      my += y[j]! - y0;
      mz += z[j]! - z0;
    }
    mx /= n;
    my /= n;
    mz /= n;
    let sxx = (0 - mx) ** 2;
    let sxy = mx * my;
    let syy = (0 - my) ** 2;
    let sxz = mx * mz;
    let syz = my * mz;
    for (let p = s; p < e; p++) {
      const j = graph.neighbours[p]!;
      const a = x[j]! - x0 - mx;
      const b = y[j]! - y0 - my;
      const c = z[j]! - z0 - mz;
      sxx += a * a;
      sxy += a * b;
      syy += b * b;
      sxz += a * c;
      syz += b * c;
    }
    const det = sxx * syy - sxy * sxy;
    if (!(Math.abs(det) > 1e-12 * (sxx + syy) ** 2)) continue;
    const gx = (sxz * syy - syz * sxy) / det;
    const gy = (syz * sxx - sxz * sxy) / det;
    let ss = (-mz + gx * mx + gy * my) ** 2;
    for (let p = s; p < e; p++) {
      const j = graph.neighbours[p]!;
      const r = z[j]! - z0 - mz - gx * (x[j]! - x0 - mx) - gy * (y[j]! - y0 - my);
      ss += r * r;
    }
    out[i] = Math.sqrt(ss / n);
  }
  return out;
}

/** How neighbouring points join one smooth surface, in CRS units. */
export interface SegmentParameters {
  /** Largest height step between neighbours on flat ground. */
  step: number;
  /** Extra step per unit of horizontal distance (the steepest surface followed, rise over run). */
  stepSlope: number;
  /** TIN edges longer than this join nothing (gaps, hull fans). */
  maxEdge: number;
}

/**
 * Smooth segments: connected components of the TIN graph over edges whose
 * height difference is at most `step + stepSlope × distance`. A roof is cut
 * from the ground around it by its walls; the terrain, steep banks included,
 * stays one surface. Returns a segment id per point (-1 for excluded points).
 */
export function smoothSegments(cloud: PointChunk, graph: PointGraph, p: SegmentParameters): Int32Array {
  const { x, y, z, count } = cloud;
  const parent = new Int32Array(count);
  for (let i = 0; i < count; i++) parent[i] = i;
  const find = (a: number): number => {
    let r = a;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[a] !== r) {
      const next = parent[a]!;
      parent[a] = r;
      a = next;
    }
    return r;
  };
  const maxEdge2 = p.maxEdge * p.maxEdge;
  for (let i = 0; i < count; i++) {
    for (let q = graph.start[i]!; q < graph.start[i + 1]!; q++) {
      const j = graph.neighbours[q]!;
      if (j < i) continue;
      const dx = x[j]! - x[i]!;
      const dy = y[j]! - y[i]!;
      const d2 = dx * dx + dy * dy;
      if (d2 > maxEdge2) continue;
      if (Math.abs(z[j]! - z[i]!) > p.step + p.stepSlope * Math.sqrt(d2)) continue;
      const a = find(i);
      const b = find(j);
      if (a !== b) parent[a] = b;
    }
  }
  const segment = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    segment[i] = graph.start[i] === graph.start[i + 1] ? -1 : find(i);
  }
  return segment;
}
