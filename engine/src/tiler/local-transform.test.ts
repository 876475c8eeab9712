import { describe, expect, it } from 'vitest';
import { createTransformer, crsFromEpsg } from '../crs/index.js';
import { createTransformGrid } from './ecef-grid-transform.js';
import { globeEcefTransform } from './geoid-ecef.js';
import { ecefToLocal, enuFrameAt, geodeticToEcef } from './local-frame.js';
import {
  exactToLocal,
  type LocalTransformSpec,
  loadExactTransforms,
  localTransform,
  needsExactTransform,
  shareGridNodes,
} from './local-transform.js';

describe('localTransform (the tiler workers’ transform)', () => {
  const crs = crsFromEpsg(2154);
  const frame = enuFrameAt(...geodeticToEcef(2.5, 46.6, 200));
  // Lambert-93 heights are taken as orthometric: the workers add the geoid undulation as the main thread does.
  const exact = globeEcefTransform(crs, createTransformer);
  const toLocal = {
    forward(x: Float64Array, y: Float64Array, z: Float64Array, n: number) {
      exact.forward(x, y, z, n);
      ecefToLocal(frame, x, y, z, n);
    },
  };
  const bounds = { minX: 480_000, minY: 6_630_000, maxX: 490_000, maxY: 6_640_000, minZ: 0, maxZ: 500 };
  const grid = createTransformGrid(toLocal, bounds);
  // Two points on the grid, one off it (LAS coordinates are always finite: integers scaled).
  const points = () => ({
    x: Float64Array.of(481_000.5, 489_999, 400_000),
    y: Float64Array.of(6_631_000.25, 6_639_999, 6_635_000),
    z: Float64Array.of(12, 480, 100),
  });

  it('rebuilds the main thread’s grid from shared memory, the exact transform only off the grid', async () => {
    const spec: LocalTransformSpec = { id: -1, crs, frame, nodes: shareGridNodes(grid.nodes!) };
    expect(spec.nodes!.a.buffer).toBeInstanceOf(SharedArrayBuffer);
    const on = points();
    expect(needsExactTransform(spec, on.x, on.y, 2)).toBe(false);
    expect(needsExactTransform(spec, on.x, on.y, 3)).toBe(true);
    const nan = { x: Float64Array.of(Number.NaN), y: Float64Array.of(6_635_000) };
    expect(needsExactTransform(spec, nan.x, nan.y, 1)).toBe(true);
    await loadExactTransforms();
    const mine = points();
    localTransform(spec).forward(mine.x, mine.y, mine.z, 3);
    const main = points();
    grid.forward(main.x, main.y, main.z, 3);
    expect([...mine.x]).toEqual([...main.x]);
    expect([...mine.y]).toEqual([...main.y]);
    expect([...mine.z]).toEqual([...main.z]);
  });

  it('transforms every point exactly when there is no grid', async () => {
    const spec: LocalTransformSpec = { id: -2, crs, frame, nodes: null };
    const p = points();
    expect(needsExactTransform(spec, p.x, p.y, 1)).toBe(true);
    await loadExactTransforms();
    localTransform(spec).forward(p.x, p.y, p.z, 3);
    const e = points();
    exactToLocal(crs, frame).forward(e.x, e.y, e.z, 3);
    expect([...p.x]).toEqual([...e.x]);
    const q = points();
    toLocal.forward(q.x, q.y, q.z, 3);
    expect(p.z[1]!).toBeCloseTo(q.z[1]!, 9);
  });
});
