import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import { crsFromEpsg } from '../crs/index.js';
import { createRaster } from '../raster/raster.js';
import { hillshade } from './hillshade.product.js';
import { writeRasterTiles } from './raster-tiles.product.js';

describe('XYZ raster tiles', () => {
  it('covers the project in web mercator from one tile down to the cell size', async () => {
    const crs = crsFromEpsg(2154);
    // 400 m × 300 m at 1 m near Paris.
    const dtm = createRaster(400, 300, 650_000, 6_862_000, 1, { epsg: 2154 });
    dtm.data.set(analyticSurface(400, 300, 1));
    const shade = hillshade(dtm);
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-tiles-'));
    const result = await writeRasterTiles(shade, crs, 'shade', dir);
    // 1 m cells at latitude ~48.8°: zoom 17 pixels are 0.79 m.
    expect(result.maxZoom).toBe(17);
    expect(result.minZoom).toBeGreaterThanOrEqual(14);
    expect(result.bounds[0]).toBeGreaterThan(2.3);
    expect(result.bounds[0]).toBeLessThan(2.4);
    const top = path.join(dir, 'tiles', String(result.minZoom));
    expect(existsSync(top)).toBe(true);
    const x = readdirSync(top)[0]!;
    const y = readdirSync(path.join(top, x))[0]!;
    const png = readFileSync(path.join(top, x, y));
    expect(png.readUInt32BE(16)).toBe(256);
    const raw = inflateSync(png.subarray(41, 41 + png.readUInt32BE(33)));
    // Some pixels opaque (the project), some transparent (outside it).
    let opaque = 0;
    let clear = 0;
    for (let r = 0; r < 256; r++) {
      for (let c = 0; c < 256; c++) {
        const a = raw[r * 1025 + 1 + c * 4 + 3]!;
        if (a === 255) opaque++;
        else if (a === 0) clear++;
      }
    }
    expect(opaque).toBeGreaterThan(0);
    expect(clear).toBeGreaterThan(0);
    expect(result.tiles).toBeGreaterThan(4);
  });

  it('needs a CRS', async () => {
    const dtm = createRaster(10, 10, 0, 10, 1, null);
    await expect(writeRasterTiles(dtm, null, 'elevation', tmpdir())).rejects.toThrow(/CRS/);
  });
});
