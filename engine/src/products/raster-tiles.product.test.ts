import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import { crsFromEpsg } from '../crs/index.js';
import { fileByteSource } from '../raster/byte-source.js';
import { createRaster } from '../raster/raster.js';
import { openRasterTileSource, renderRasterTilePixels } from '../raster/tile-render.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { hillshade } from './hillshade.product.js';
import { rasterTileDescriptionSchema, writeRasterTileSource } from './raster-tiles.product.js';

describe('XYZ raster tiles', () => {
  it('covers the project in web mercator from one tile down to the cell size, rendered from the COG', async () => {
    const crs = crsFromEpsg(2154);
    // 400 m × 300 m at 1 m near Paris.
    const dtm = createRaster(400, 300, 650_000, 6_862_000, 1, { epsg: 2154 });
    dtm.data.set(analyticSurface(400, 300, 1));
    const shade = hillshade(dtm);
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-tiles-'));
    const cog = path.join(dir, 'hillshade.tif');
    await writeGeoTiff(cog, shade, { sampleType: 'uint8', deflate: true });
    const result = await writeRasterTileSource(cog, shade, crs, 'shade', dir);
    // 1 m cells at latitude ~48.8°: zoom 17 pixels are 0.79 m.
    expect(result.maxZoom).toBe(17);
    expect(result.minZoom).toBeGreaterThanOrEqual(14);
    expect(result.bounds[0]).toBeGreaterThan(2.3);
    expect(result.bounds[0]).toBeLessThan(2.4);
    // No pyramid is drawn: the folder holds the COG and its description.
    expect(existsSync(path.join(dir, 'tiles', String(result.minZoom)))).toBe(false);
    expect(statSync(path.join(dir, 'tiles', 'source.tif')).size).toBe(statSync(cog).size);
    const description = rasterTileDescriptionSchema.parse(
      JSON.parse(readFileSync(path.join(dir, 'tiles', 'raster.json'), 'utf8')),
    );
    expect(description).toMatchObject({ ramp: 'shade', epsg: 2154, minZoom: result.minZoom, maxZoom: 17 });
    // The top tile renders from the folder's COG: some pixels opaque (the project), some transparent (outside it).
    const source = await fileByteSource(path.join(dir, 'tiles', 'source.tif'));
    try {
      const opened = await openRasterTileSource(source, { proj4: description.proj4, range: description.range });
      const [west, south, east, north] = description.bounds;
      const z = result.minZoom;
      const n = 2 ** z;
      const lon = (west + east) / 2;
      const lat = ((south + north) / 2) * (Math.PI / 180);
      const x = Math.floor(((lon + 180) / 360) * n);
      const y = Math.floor(((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * n);
      const { rgba, visible } = await renderRasterTilePixels(opened, description.ramp, z, x, y);
      let clear = 0;
      for (let i = 3; i < rgba.length; i += 4) if (rgba[i] === 0) clear++;
      expect(visible).toBeGreaterThan(0);
      expect(clear).toBeGreaterThan(0);
      expect(visible + clear).toBe(256 * 256);
    } finally {
      await source.close?.();
    }
  });

  it('needs a CRS', async () => {
    const dtm = createRaster(10, 10, 0, 10, 1, null);
    await expect(writeRasterTileSource('none.tif', dtm, null, 'elevation', tmpdir())).rejects.toThrow(/CRS/);
  });
});
