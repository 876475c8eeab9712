import { mulberry32 } from '@nuage/fixtures/synthetic/random.js';
import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { createRaster, sampleBilinear } from '../raster/raster.js';
import { buildChm } from './chm.product.js';

const units = { unitToMetre: 1, verticalUnitToMetre: 1 };

/** A DTM with nodata holes, a nodata corner and a NaN cell: every branch of the bilinear sample. */
function terrain(width: number, height: number) {
  const dtm = createRaster(width, height, 1000, 2000, 0.5, null);
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      dtm.data[r * width + c] = (r * 7 + c * 3) % 11 === 0 ? dtm.nodata : 50 + 0.3 * c - 0.2 * r + Math.sin(c + r);
    }
  }
  for (let r = 0; r < Math.min(3, height); r++) {
    for (let c = 0; c < Math.min(4, width); c++) dtm.data[r * width + c] = dtm.nodata;
  }
  dtm.data[width * height - 1] = Number.NaN;
  return dtm;
}

/** Points over and around the DTM (some outside it), on cell edges and centres too. */
function points(dtm: ReturnType<typeof terrain>, count: number): PointChunk {
  const rnd = mulberry32(11);
  const x = new Float64Array(count);
  const y = new Float64Array(count);
  const z = new Float64Array(count);
  const w = dtm.width * dtm.resolution;
  const h = dtm.height * dtm.resolution;
  for (let i = 0; i < count; i++) {
    const snap = i % 5 === 0 ? 0.25 : i % 5 === 1 ? 0.5 : 0;
    const fx = -1 + rnd() * (w + 2);
    const fy = -1 + rnd() * (h + 2);
    x[i] = dtm.originX + (snap ? Math.round(fx / snap) * snap : fx);
    y[i] = dtm.originY - (snap ? Math.round(fy / snap) * snap : fy);
    z[i] = 50 + rnd() * 30;
  }
  return { x, y, z, count, classification: new Uint8Array(count).fill(5) } as unknown as PointChunk;
}

describe('buildChm', () => {
  it.each([
    [40, 30],
    [1, 9],
    [9, 1],
    [1, 1],
  ])('takes heights above the bilinear DTM sample to the bit (%i x %i DTM)', (width, height) => {
    const dtm = terrain(width, height);
    const cloud = points(dtm, 4000);
    const { heights, chm } = buildChm(cloud, dtm, units, { resolution: 0.5 });
    let outside = 0;
    for (let i = 0; i < cloud.count; i++) {
      const g = sampleBilinear(dtm, cloud.x[i]!, cloud.y[i]!);
      const expected = Number.isNaN(g) || g === dtm.nodata ? Number.NaN : Math.fround(cloud.z[i]! - g);
      expect(Object.is(heights[i], expected)).toBe(true);
      if (Number.isNaN(expected)) outside++;
    }
    expect(outside).toBeGreaterThan(0);
    // Cells whose centre has no terrain stay empty, the others hold a height.
    for (let row = 0; row < chm.height; row++) {
      for (let c = 0; c < chm.width; c++) {
        const g = sampleBilinear(dtm, chm.originX + (c + 0.5) * 0.5, chm.originY - (row + 0.5) * 0.5);
        const empty = Number.isNaN(g) || g === dtm.nodata;
        expect(chm.data[row * chm.width + c] === chm.nodata).toBe(empty);
      }
    }
  });
});
