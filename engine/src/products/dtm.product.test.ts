import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { terrainScene } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import { readGeoTiff } from '../raster/geotiff.reader.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { buildDtm, sparseResolution } from './dtm.product.js';
import { buildGridPoints } from './grid.product.js';
import { gdal, hasGdal } from './test-gdal.js';

describe('DTM and point grid', () => {
  const scene = terrainScene({ size: 100, density: 6, seed: 5, noise: false });
  const classification = Uint8Array.from(scene.truth);
  const chunk = { ...scene.chunk, classification };

  it('interpolates the ground TIN at cell centres, spanning the building', async () => {
    const dtm = await buildDtm({ chunks: [chunk], crs: { epsg: 2154 } }, { resolutionCm: 50 });
    expect(dtm.resolution).toBe(0.5);
    expect(dtm.width).toBe(200);
    let sum = 0;
    let cells = 0;
    let underBuilding = 0;
    for (let r = 2; r < dtm.height - 2; r++) {
      for (let c = 2; c < dtm.width - 2; c++) {
        const v = dtm.data[r * dtm.width + c]!;
        expect(v).not.toBe(dtm.nodata);
        const x = dtm.originX + (c + 0.5) * dtm.resolution;
        const y = dtm.originY - (r + 0.5) * dtm.resolution;
        const d = v - scene.groundZ(x, y);
        sum += d * d;
        cells++;
        const b = scene.building;
        if (x > b.minX + 1 && x < b.maxX - 1 && y > b.minY + 1 && y < b.maxY - 1) {
          underBuilding++;
          expect(Math.abs(d)).toBeLessThan(0.3);
        }
      }
    }
    expect(underBuilding).toBeGreaterThan(500);
    expect(Math.sqrt(sum / cells)).toBeLessThan(0.1);
  });

  it('keeps the requested cells for dense clouds, grows them for a few returns over a wide area', async () => {
    const km = { minX: 0, minY: 0, maxX: 1000, maxY: 1000 };
    // 1 km² at 0.5 m = 4 M cells: fine for 300 k points (16 cells per point), not for 6 k.
    expect(sparseResolution(km, 300_000, 0.5)).toBe(0.5);
    const sparse = sparseResolution(km, 6_000, 0.5);
    expect(sparse).toBe(1); // a whole multiple of the request, within a million cells
    expect((1000 / sparse) ** 2).toBeLessThanOrEqual(1_000_000);
    // The DTM of 2,500 ground points spread over 5 km × 5 km has about a million cells, not 100 M.
    const n = 2500;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    const z = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = (i % 50) * 100;
      y[i] = Math.floor(i / 50) * 100;
      z[i] = 10 + x[i]! * 0.01;
    }
    const classification = new Uint8Array(n).fill(2);
    const dtm = await buildDtm(
      { chunks: [{ count: n, x, y, z, classification }], crs: null },
      { resolutionCm: 50, reachMetres: 200 },
    );
    expect(dtm.width * dtm.height).toBeLessThanOrEqual(1_100_000);
    expect(dtm.resolution).toBe(5);
    // Still the right surface: z = 10 + 0.01 x at a cell centre.
    const col = 100;
    const row = 100;
    const value = dtm.data[row * dtm.width + col]!;
    const cx = dtm.originX + (col + 0.5) * dtm.resolution;
    expect(value).toBeCloseTo(10 + cx * 0.01, 3);
  });

  it('refuses form ranges and clouds without ground', async () => {
    await expect(buildDtm({ chunks: [chunk], crs: null }, { resolutionCm: 10 })).rejects.toThrow();
    const noGround = { ...chunk, classification: new Uint8Array(chunk.count).fill(1) };
    await expect(buildDtm({ chunks: [noGround], crs: null })).rejects.toThrow(/ground points/);
  });

  it.runIf(hasGdal())('writes a float32 GeoTIFF with nodata and EPSG that gdalinfo reads', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-dtm-'));
    const dtm = await buildDtm({ chunks: [chunk], crs: { epsg: 2154 } }, { resolutionCm: 100 });
    const file = path.join(dir, 'dtm.tif');
    await writeGeoTiff(file, dtm, { deflate: true });
    const info = JSON.parse(gdal('gdalinfo', ['-json', '-stats', file])) as {
      size: number[];
      geoTransform: number[];
      bands: { type: string; noDataValue: number; minimum: number; maximum: number }[];
      stac: { 'proj:epsg': number };
    };
    expect(info.size).toEqual([dtm.width, dtm.height]);
    expect(info.geoTransform).toEqual([dtm.originX, 1, 0, dtm.originY, 0, -1]);
    expect(info.bands[0]!.type).toBe('Float32');
    expect(info.bands[0]!.noDataValue).toBe(-9999);
    expect(info.stac['proj:epsg']).toBe(2154);
    expect(info.bands[0]!.minimum).toBeGreaterThan(99);
    const back = await readGeoTiff(file);
    expect(back.data).toEqual(dtm.data);
  });

  it('samples one grid point per cell at the ground elevation', async () => {
    const dtm = await buildDtm({ chunks: [chunk], crs: { epsg: 2154 } }, { resolutionCm: 50 });
    const points = [...buildGridPoints(dtm, { resolutionCm: 1000 })];
    expect(points).toHaveLength(100);
    for (const p of points) {
      const [x, y, z] = p.geometry.coordinates as [number, number, number];
      expect((x - 5) % 10).toBeCloseTo(0, 6);
      expect(Math.abs(z - scene.groundZ(x, y))).toBeLessThan(0.1);
    }
    expect(() => [...buildGridPoints(dtm, { resolutionCm: 50 })]).toThrow();
  });
});
