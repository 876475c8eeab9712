import { mulberry32 } from '@nuage/fixtures/synthetic/random.js';
import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { buildDtm } from '../products/dtm.product.js';
import { Coverage, clearBeyondReach } from './coverage.js';
import { createRaster, sampleBilinear } from './raster.js';

/** A 200 m square of ground every metre, with a 100 m lake (water points or none) and a 40 m roof. */
function scene(lakeWater: boolean): PointChunk {
  const x: number[] = [];
  const y: number[] = [];
  const z: number[] = [];
  const cls: number[] = [];
  for (let i = 0; i <= 200; i++) {
    for (let j = 0; j <= 200; j++) {
      const inLake = (i - 60) ** 2 + (j - 100) ** 2 < 50 ** 2;
      const onRoof = i >= 140 && i <= 180 && j >= 80 && j <= 120;
      if (inLake && !lakeWater) continue;
      x.push(1000 + i);
      y.push(2000 + j);
      z.push(inLake ? 10 : onRoof ? 22 : 10 + 0.01 * i);
      cls.push(inLake ? 9 : onRoof ? 6 : 2);
    }
  }
  return {
    count: x.length,
    x: Float64Array.from(x),
    y: Float64Array.from(y),
    z: Float64Array.from(z),
    classification: Uint8Array.from(cls),
  };
}

describe('DTM interpolation reach', () => {
  for (const lakeWater of [true, false]) {
    it(`leaves a lake ${lakeWater ? 'of water points' : 'with no return'} nodata and spans a roof`, async () => {
      const dtm = await buildDtm({ chunks: [scene(lakeWater)], crs: null }, { resolutionCm: 100, workers: 0 });
      // Lake centre, 50 m from the shore: nodata; 3 m inside the shore: interpolated (reach 5 m).
      expect(sampleBilinear(dtm, 1060.5, 2100.5)).toBeNaN();
      expect(sampleBilinear(dtm, 1013.5, 2100.5)).toBeCloseTo(10.13, 1);
      // Under the roof (no ground return, but roof returns): spanned by the TIN.
      expect(sampleBilinear(dtm, 1160.5, 2100.5)).toBeCloseTo(11.6, 1);
      // Open ground.
      expect(sampleBilinear(dtm, 1190.5, 2010.5)).toBeCloseTo(11.9, 1);
    });
  }

  it('clears cells by the distance to covered cells, whatever the reach', () => {
    const raster = createRaster(100, 10, 0, 10, 1, null);
    raster.data.fill(5);
    const coverage = new Coverage(1);
    coverage.add(10.5, 5.5);
    expect(clearBeyondReach(raster, coverage, 20)).toBe(100 * 10 - 31 * 10);
    expect(raster.data[5 * 100 + 30]).toBe(5);
    expect(raster.data[5 * 100 + 31]).toBe(raster.nodata);
    expect(raster.data[5 * 100 + 0]).toBe(5);
  });

  it('covers the same cells whether returns come one by one or many at once, dense or sparse', () => {
    const random = mulberry32(7);
    const n = 20_000;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    const cls = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      // Most returns in a 100 m square, a few kilometres away (a sparse extent), some negative coordinates.
      const far = i % 1000 === 0;
      x[i] = (far ? 5000 : -50) + random() * 100;
      y[i] = (far ? -3000 : 20) + random() * 100;
      cls[i] = i % 10 === 0 ? 9 : 2;
    }
    const skip = new Uint8Array(256);
    skip[9] = 1;
    const cells = (c: Coverage) => {
      const out: string[] = [];
      c.forEachCell((gx, gy) => out.push(`${gx},${gy}`));
      return out.sort();
    };
    const one = new Coverage(1.5);
    for (let i = 0; i < n; i++) if (cls[i] !== 9) one.add(x[i]!, y[i]!);
    const dense = new Coverage(1.5);
    dense.addMany(x.subarray(1, 1000), y.subarray(1, 1000), 999, cls.subarray(1, 1000), skip);
    dense.addMany(x.subarray(1000), y.subarray(1000), n - 1000, cls.subarray(1000), skip);
    dense.addMany(x.subarray(0, 1), y.subarray(0, 1), 1, cls.subarray(0, 1), skip);
    const sparse = new Coverage(1.5);
    sparse.addMany(x, y, n, cls, skip);
    expect(one.size).toBeGreaterThan(3000);
    expect(cells(dense)).toEqual(cells(one));
    expect(cells(sparse)).toEqual(cells(one));
    // Water returns cover nothing.
    const water = new Coverage(1.5);
    water.addMany(x.subarray(0, 1), y.subarray(0, 1), 1, cls.subarray(0, 1), skip);
    expect(water.size).toBe(0);
  });
});
