import { describe, expect, it } from 'vitest';
import { createRaster } from './raster.js';
import { rasterizeTin } from './tin.js';
import { rasterizeTinExact, rasterizeTinParallel } from './tin-parallel.js';

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

describe('rasterizeTinExact', () => {
  it('equals the single-thread TIN raster bit for bit: holes across band edges, a notch, cocircular points', async () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const x: number[] = [];
    const y: number[] = [];
    const z: number[] = [];
    while (x.length < 40_000) {
      // Centimetre coordinates (cocircular quadruples happen), a 60 m pond across the middle, the north-east corner empty.
      const px = Math.round(rnd() * 20_000) / 100;
      const py = Math.round(rnd() * 15_000) / 100;
      if ((px - 100) ** 2 + (py - 75) ** 2 < 900 || (px > 140 && py > 110)) continue;
      x.push(px);
      y.push(py);
      z.push(Math.round((50 + Math.sin(px / 15) * 4 + py * 0.05) * 100) / 100);
    }
    const n = x.length;
    const xs = Float64Array.from(x);
    const ys = Float64Array.from(y);
    const zs = Float64Array.from(z);
    const single = createRaster(400, 300, 0, 150, 0.5, null, Number.NaN);
    rasterizeTin(xs, ys, zs, n, single);
    for (const workers of [2, 3]) {
      const banded = createRaster(400, 300, 0, 150, 0.5, null, Number.NaN);
      await rasterizeTinExact(xs, ys, zs, n, banded, { workers, minPoints: 5_000 });
      expect(Buffer.from(banded.data.buffer).equals(Buffer.from(single.data.buffer))).toBe(true);
    }
  });
});
