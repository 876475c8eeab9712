import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import { gdal, hasGdal } from '../products/test-gdal.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { bufferByteSource, fileByteSource } from './byte-source.js';
import { openCog } from './cog.reader.js';
import { createRaster } from './raster.js';

describe('COG reader', () => {
  const dtm = createRaster(700, 500, 650_000, 6_862_000, 1, { epsg: 2154 });
  dtm.data.set(analyticSurface(700, 500, 1));
  for (let i = 0; i < 500; i++) dtm.data[i * 700 + 3] = dtm.nodata;

  it('reads windows across tile edges and outside the image (nodata there)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-cog-read-'));
    const file = path.join(dir, 'dtm.tif');
    await writeGeoTiff(file, dtm, { deflate: true });
    const source = await fileByteSource(file);
    try {
      const cog = await openCog(source);
      expect([cog.originX, cog.originY, cog.nodata, cog.crs?.epsg]).toEqual([650_000, 6_862_000, -9999, 2154]);
      const win = await cog.readWindow(0, 250, 240, 20, 30);
      for (let r = 0; r < 30; r++) {
        for (let c = 0; c < 20; c++) expect(win[r * 20 + c]).toBe(dtm.data[(240 + r) * 700 + 250 + c]);
      }
      const edge = await cog.readWindow(0, 690, -5, 20, 10);
      expect(edge[0]).toBe(-9999);
      expect(edge[5 * 20]).toBe(dtm.data[690]);
      expect(edge[5 * 20 + 15]).toBe(-9999);
      await expect(cog.readWindow(9, 0, 0, 1, 1)).rejects.toThrow(/no level 9/);
    } finally {
      await source.close?.();
    }
  });

  it.runIf(hasGdal())('reads COGs GDAL writes, with either predictor, overviews included', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-cog-read-'));
    const plain = path.join(dir, 'plain.tif');
    await writeGeoTiff(plain, dtm, { overviews: false });
    for (const predictor of ['2', '3']) {
      const cogPath = path.join(dir, `gdal-${predictor}.tif`);
      gdal('gdal_translate', [
        '-q',
        '-of',
        'COG',
        '-co',
        'COMPRESS=DEFLATE',
        '-co',
        `PREDICTOR=${predictor === '2' ? 'STANDARD' : 'FLOATING_POINT'}`,
        '-co',
        'BLOCKSIZE=512',
        plain,
        cogPath,
      ]);
      // Predictor 2 on floats differences the 32-bit words as integers.
      expect(gdal('gdalinfo', [cogPath])).toContain(`PREDICTOR=${predictor}`);
      const cog = await openCog(bufferByteSource(readFileSync(cogPath)));
      expect(cog.levels[0]!.blockWidth).toBe(512);
      expect(cog.levels.length).toBeGreaterThan(1);
      const all = await cog.readWindow(0, 0, 0, 700, 500);
      let differ = 0;
      for (let i = 0; i < all.length; i++) if (all[i] !== dtm.data[i]) differ++;
      expect(differ, `predictor ${predictor}`).toBe(0);
      const overview = await cog.readWindow(1, 0, 0, cog.levels[1]!.width, cog.levels[1]!.height);
      expect(overview[100 * cog.levels[1]!.width + 100]).toBeCloseTo(dtm.data[200 * 700 + 200]!, 0);
    }
  });
});
