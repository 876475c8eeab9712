import { describe, expect, it } from 'vitest';
import { createRaster } from './raster.js';
import { rasterizeTin } from './tin.js';
import { rasterizeTinParallel } from './tin-parallel.js';

describe('rasterizeTinParallel', () => {
  it('equals the single-thread TIN raster when bands run in worker threads', async () => {
    const n = 60_000;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    const z = new Float64Array(n);
    let seed = 1;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < n; i++) {
      x[i] = rnd() * 200;
      y[i] = rnd() * 150;
      z[i] = 50 + Math.sin(x[i]! / 15) * 4 + y[i]! * 0.05;
    }
    const single = createRaster(400, 300, 0, 150, 0.5, null);
    rasterizeTin(x, y, z, n, single);
    const banded = createRaster(400, 300, 0, 150, 0.5, null);
    await rasterizeTinParallel(x, y, z, n, banded, { workers: 2, minPoints: 10_000 });
    let valid = 0;
    for (let i = 0; i < single.data.length; i++) {
      expect(banded.data[i]).toBeCloseTo(single.data[i]!, 5);
      if (single.data[i] !== single.nodata) valid++;
    }
    expect(valid).toBeGreaterThan(110_000);
  });
});
