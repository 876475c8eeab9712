import { geoidUndulation } from '@nuage/engine/crs/geoid.js';
import { createRaster } from '@nuage/engine/raster/raster.js';
import { describe, expect, it } from 'vitest';
import { sampleRaster, undulationGrid } from './measure.service.js';

describe('sampleRaster', () => {
  // 3 × 2 cells of 2 m from (1000, 500): cell centres at x 1001, 1003, 1005 and y 499, 497.
  const r = createRaster(3, 2, 1000, 500, 2, null);
  r.data.set([10, 12, 14, 20, 22, -9999]);

  it('is bilinear between cell centres and exact on them', () => {
    expect(sampleRaster(r, 1001, 499)).toBe(10);
    expect(sampleRaster(r, 1002, 499)).toBeCloseTo(11, 12);
    expect(sampleRaster(r, 1002, 498)).toBeCloseTo(16, 12);
  });

  it('takes the cell’s own value near nodata or the edge, and null off the raster or on nodata', () => {
    expect(sampleRaster(r, 1004.5, 498.5)).toBe(14); // a neighbour is nodata
    expect(sampleRaster(r, 1000.2, 499.9)).toBe(10); // the edge: no neighbour beyond
    expect(sampleRaster(r, 1005, 497)).toBeNull();
    expect(sampleRaster(r, 999, 499)).toBeNull();
    expect(sampleRaster(r, 1001, 501)).toBeNull();
  });
});

describe('undulationGrid', () => {
  it('holds EGM96 N on nodes over the padded footprint (Delft: about 43.5 m)', () => {
    const g = undulationGrid({ west: 4.35, south: 52.0, east: 4.38, north: 52.02 });
    expect(g.west).toBeLessThan(4.35);
    expect(g.north).toBeGreaterThan(52.02);
    expect(g.values).toHaveLength(g.nx * g.ny);
    expect(g.values[0]).toBeCloseTo(geoidUndulation(g.west, g.south), 3);
    expect(g.values.at(-1)).toBeCloseTo(geoidUndulation(g.east, g.north), 3);
    for (const v of g.values) expect(v).toBeGreaterThan(42);
    for (const v of g.values) expect(v).toBeLessThan(45);
  });
});
