import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import { readGeoTiff } from '../raster/geotiff.reader.js';
import { createRaster, type Raster } from '../raster/raster.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { hillshade, hillshadeSampler } from './hillshade.product.js';
import { slope } from './slope.product.js';
import { gdal, hasGdal } from './test-gdal.js';

function dtmWithHole(): Raster {
  const width = 240;
  const height = 180;
  const dtm = createRaster(width, height, 500_000, 6_000_000, 0.5, { epsg: 2154 });
  dtm.data.set(analyticSurface(width, height, 0.5));
  for (let r = 50; r < 60; r++) for (let c = 100; c < 130; c++) dtm.data[r * width + c] = dtm.nodata;
  return dtm;
}

/** Mean absolute difference over interior cells valid in both, and the count of mask disagreements. */
function compare(a: Raster, b: Raster): { mad: number; cells: number; maskMismatch: number } {
  let sum = 0;
  let cells = 0;
  let maskMismatch = 0;
  for (let r = 1; r < a.height - 1; r++) {
    for (let c = 1; c < a.width - 1; c++) {
      const i = r * a.width + c;
      const va = a.data[i]!;
      const vb = b.data[i]!;
      const na = va === a.nodata;
      const nb = vb === b.nodata;
      if (na !== nb) maskMismatch++;
      if (na || nb) continue;
      sum += Math.abs(va - vb);
      cells++;
    }
  }
  return { mad: sum / cells, cells, maskMismatch };
}

describe('hillshade and slope (Horn)', () => {
  it('lights a plane facing the sun the same everywhere', () => {
    const dtm = createRaster(10, 10, 0, 10, 1, null);
    // A plane rising to the south-east faces north-west, towards the default sun.
    for (let r = 0; r < 10; r++) for (let c = 0; c < 10; c++) dtm.data[r * 10 + c] = (c + r) * 0.5;
    const shade = hillshade(dtm);
    const s = slope(dtm);
    const expectedSlope = (Math.atan(Math.hypot(0.5, 0.5)) * 180) / Math.PI;
    expect(s.data[55]).toBeCloseTo(expectedSlope, 4);
    expect(s.data[0]).toBe(s.nodata);
    expect(shade.data[0]).toBe(0);
    expect(shade.data[55]).toBeGreaterThan(240);
    expect(shade.data[44]).toBeCloseTo(shade.data[55]!, 5);
  });

  it('samples the same values as the whole hillshade, cell by cell (edges, holes, other light)', () => {
    const dtm = dtmWithHole();
    for (const options of [{}, { azimuth: 30, altitude: 60, zFactor: 2 }]) {
      const shade = hillshade(dtm, options);
      const shadeAt = hillshadeSampler(dtm, options);
      let mismatches = 0;
      let zeros = 0;
      for (let r = 0; r < dtm.height; r++) {
        for (let c = 0; c < dtm.width; c++) {
          const v = shadeAt(r, c);
          if (!Object.is(v, shade.data[r * dtm.width + c]!)) mismatches++;
          if (v === 0) zeros++;
        }
      }
      expect(mismatches).toBe(0);
      // The border (2 × 240 + 2 × 178 cells) and the hole grown by one cell (12 × 32) are nodata.
      expect(zeros).toBe(2 * 240 + 2 * 178 + 12 * 32);
    }
  });

  it.runIf(hasGdal())('equals gdaldem hillshade and slope on the same DTM', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-hs-'));
    const dtm = dtmWithHole();
    const dtmPath = path.join(dir, 'dtm.tif');
    await writeGeoTiff(dtmPath, dtm);
    gdal('gdaldem', ['hillshade', '-q', dtmPath, path.join(dir, 'hs.tif')]);
    gdal('gdaldem', ['slope', '-q', dtmPath, path.join(dir, 'slope.tif')]);
    const shadeGdal = await readGeoTiff(path.join(dir, 'hs.tif'));
    const slopeGdal = await readGeoTiff(path.join(dir, 'slope.tif'));

    const shade = hillshade(dtm);
    const shadeBytes = { ...shade, data: shade.data.map((v) => Math.round(v)) };
    const hs = compare(shadeBytes, shadeGdal);
    expect(hs.cells).toBeGreaterThan(40_000);
    expect(hs.maskMismatch).toBe(0);
    expect(hs.mad).toBeLessThan(1);

    const sl = compare(slope(dtm), slopeGdal);
    expect(sl.maskMismatch).toBe(0);
    expect(sl.mad).toBeLessThan(0.5);
  });

  it.runIf(hasGdal())('writes a hillshade GeoTIFF that gdalinfo reads as Byte with nodata 0', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-hs-'));
    const out = path.join(dir, 'hs.tif');
    await writeGeoTiff(out, hillshade(dtmWithHole()), { sampleType: 'uint8', deflate: true });
    const info = JSON.parse(gdal('gdalinfo', ['-json', out])) as {
      bands: { type: string; noDataValue: number }[];
      coordinateSystem: { wkt: string };
    };
    expect(info.bands[0]!.type).toBe('Byte');
    expect(info.bands[0]!.noDataValue).toBe(0);
    expect(info.coordinateSystem.wkt).toContain('Lambert-93');
  });
});
