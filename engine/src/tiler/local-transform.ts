import { type CrsInfo, createTransformer } from '../crs/index.js';
import { type ColumnTransform, type GridNodes, gridTransform } from './ecef-grid-transform.js';
import { ecefToLocal, type LocalFrame } from './local-frame.js';

/**
 * What a worker thread needs to rebuild the tiler's source-CRS → local ENU
 * transform: the CRS (exact transform, for points off the grid), the frame,
 * and the verified interpolation grid, whose arrays live in shared memory so
 * that sending it with every task copies nothing.
 */
export interface LocalTransformSpec {
  /** Unique per tiling in this process: a worker rebuilds the transform only when it changes. */
  id: number;
  crs: CrsInfo;
  frame: LocalFrame;
  /** Null: every point goes through the exact transform. */
  nodes: GridNodes | null;
}

/** The exact source → ECEF → local ENU transform (proj4, 1–2 µs a point). */
export function exactToLocal(crs: CrsInfo, frame: LocalFrame): ColumnTransform {
  const toEcef = createTransformer(crs, 'EPSG:4978');
  return {
    forward(x, y, z, n) {
      toEcef.forward(x, y, z, n);
      ecefToLocal(frame, x, y, z, n);
    },
  };
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
      exact ??= exactToLocal(spec.crs, spec.frame);
      exact.forward(x, y, z, n);
    },
  };
  const transform = spec.nodes ? gridTransform(lazyExact, spec.nodes) : lazyExact;
  cached = { id: spec.id, transform };
  return transform;
}
