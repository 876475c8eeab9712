import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { buildDtm } from '../products/dtm.product.js';
import { createRaster, sampleBilinear } from './raster.js';
import { Coverage, clearBeyondReach } from './tin.js';

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
});
