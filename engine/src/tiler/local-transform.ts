import type { CrsInfo } from '../crs/index.js';
import { type ColumnTransform, type GridNodes, gridTransform } from './ecef-grid-transform.js';
import { globeEcefTransform } from './geoid-ecef.js';
import { ecefToLocal, type LocalFrame } from './local-frame.js';
import { extremesXY } from './point-loops.js';

/**
 * What a worker thread needs to rebuild the tiler's source-CRS → local ENU
 * transform: the CRS (exact transform, for points off the grid), the frame,
 * and the verified interpolation grid, whose arrays live in shared memory so
 * that sending it with every task copies nothing.
 */
export interface LocalTransformSpec {
  /** Unique per tiling in this process: a worker rebuilds the transform only when it changes. */
  id: number;
  /** Null only when the grid covers every point (the warm-up's). */
  crs: CrsInfo | null;
  frame: LocalFrame;
  /** Null: every point goes through the exact transform. */
  nodes: GridNodes | null;
}

/** The CRS module (proj4 and its definitions, a fifth of a second to load): loaded by a thread the first time it needs it. */
let crsModule: typeof import('../crs/index.js') | undefined;

/** The exact source → ECEF → local ENU transform (proj4, 1–2 µs a point); needs {@link loadExactTransforms} first. */
export function exactToLocal(crs: CrsInfo, frame: LocalFrame): ColumnTransform {
  if (!crsModule) throw new Error('the CRS module is not loaded (call loadExactTransforms first)');
  // The same geoid correction as the main thread's transform (tile-point-cloud.ts).
  const toEcef = globeEcefTransform(crs, crsModule.createTransformer);
  return {
    forward(x, y, z, n) {
      toEcef.forward(x, y, z, n);
      ecefToLocal(frame, x, y, z, n);
    },
  };
}

/** Loads what {@link exactToLocal} needs. */
export async function loadExactTransforms(): Promise<void> {
  crsModule ??= await import('../crs/index.js');
}

/**
 * Whether `forward` of the spec's transform may need the exact transform for
 * these points: always without a grid, else when one lies off it.
 */
export function needsExactTransform(spec: LocalTransformSpec, x: Float64Array, y: Float64Array, n: number): boolean {
  const g = spec.nodes;
  if (!g || n === 0) return g === null;
  const e = new Float64Array(4);
  extremesXY(x, y, n, e);
  // The grid transform's own test on the extremes (subtracting and dividing keep the order; NaN fails).
  const fx0 = (e[0]! - g.x0) / g.dx;
  const fx1 = (e[1]! - g.x0) / g.dx;
  const fy0 = (e[2]! - g.y0) / g.dy;
  const fy1 = (e[3]! - g.y0) / g.dy;
  return !(fx0 >= 0 && fy0 >= 0 && fx1 <= g.nx - 1 && fy1 <= g.ny - 1);
}

/** Copies grid nodes into shared memory (worker threads then read them in place). */
export function shareGridNodes(nodes: GridNodes): GridNodes {
  const share = (v: Float64Array): Float64Array => {
    const out = new Float64Array(new SharedArrayBuffer(v.byteLength));
    out.set(v);
    return out;
  };
  return { ...nodes, a: share(nodes.a), b: share(nodes.b) };
}

let cached: { id: number; transform: ColumnTransform } | undefined;

/** The transform a spec describes (the last one is kept: tasks of one tiling share it). */
export function localTransform(spec: LocalTransformSpec): ColumnTransform {
  if (cached?.id === spec.id) return cached.transform;
  let exact: ColumnTransform | undefined;
  // proj4 is only set up when a point falls off the grid.
  const lazyExact: ColumnTransform = {
    forward(x, y, z, n) {
      if (!spec.crs) throw new Error('a point lies off the grid of a transform without CRS');
      exact ??= exactToLocal(spec.crs, spec.frame);
      exact.forward(x, y, z, n);
    },
  };
  const transform = spec.nodes ? gridTransform(lazyExact, spec.nodes) : lazyExact;
  cached = { id: spec.id, transform };
  return transform;
}
