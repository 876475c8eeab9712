import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { openPointCloud } from '../readers/index.js';
import { processPointCloud } from './process.js';
import { gdal, hasGdal } from './test-gdal.js';

describe.runIf(hasRealData())('process (every terrain product) on real files', () => {
  it('turns fusa.laz into LAS, GeoTIFFs, GeoJSON, tiles and a quality report', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'nuage-process-'));
    const { artifacts, quality } = await processPointCloud(realFile('fusa.laz'), out, {
      dtmResolutionCm: 50,
      contourMinorCm: 50,
      contourMajorCm: 250,
      gridResolutionCm: 1000,
    });
    const types = artifacts.map((a) => a.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'CLASSIFIED_POINT_CLOUD',
        'DTM',
        'HILLSHADE_DTM',
        'SLOPE_MAP',
        'CONTOUR_LINE',
        'CONTOUR_LINE_MAJOR',
        'CONTOUR_LINE_MINOR',
        'GRID',
        'HILLSHADE_DTM_TILES',
        'SLOPE_MAP_TILES',
        'IMAGERY_DTM_TILES',
        'QUALITY_REPORT',
      ]),
    );
    for (const a of artifacts) expect(existsSync(a.path)).toBe(true);
    // Ground and DTM against the vendor's (lasclassify) ground.
    expect(quality.ground!.kappa).toBeGreaterThan(0.95);
    expect(quality.ground!.totalError).toBeLessThan(0.03);
    expect(quality.dtm!.openTerrain.rmse).toBeLessThan(0.15);
    expect(quality.classCounts[2]!.points).toBeGreaterThan(150_000);
    expect(quality.classCounts[6]!.points).toBeGreaterThan(20_000);
    // The classified LAS reads back with the same number of points and the CRS.
    const reader = await openPointCloud(path.join(out, 'classified.las'));
    expect(reader.header.pointCount).toBe(277_573);
    expect(reader.crs?.epsg).toBe(32754);
    await reader.close();
    const grid = JSON.parse(readFileSync(path.join(out, 'grid.geojson'), 'utf8'));
    expect(grid.features).toHaveLength(625);
    const report = JSON.parse(readFileSync(path.join(out, 'quality.json'), 'utf8'));
    expect(report.ground.kappa).toBeCloseTo(quality.ground!.kappa, 10);
    if (hasGdal()) {
      const info = JSON.parse(gdal('gdalinfo', ['-json', path.join(out, 'dtm.tif')]));
      expect(info.stac['proj:epsg']).toBe(32754);
      expect(info.bands[0].noDataValue).toBe(-9999);
    }
  });

  it('CLI verbs chain: dtm, hillshade, slope, contours, grid; bad input exits 2', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'nuage-cli-'));
    const lines: string[] = [];
    const errors: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => errors.push(l) };
    const dtm = path.join(out, 'dtm.tif');
    expect(await runCli(['dtm', realFile('autzen_trim.las'), dtm, '--resolution', '100'], io)).toBe(0);
    expect(await runCli(['hillshade', dtm, path.join(out, 'hs.tif')], io)).toBe(0);
    expect(await runCli(['slope', dtm, path.join(out, 'slope.tif')], io)).toBe(0);
    expect(await runCli(['contours', dtm, path.join(out, 'c.geojson'), '--minor', '100', '--major', '500'], io)).toBe(
      0,
    );
    expect(await runCli(['grid', dtm, path.join(out, 'g.geojson'), '--resolution', '1000'], io)).toBe(0);
    expect(lines.join('\n')).toMatch(/contour lines/);
    expect(await runCli(['dtm', realFile('autzen_trim.las'), dtm, '--resolution', '5'], io)).toBe(2);
    expect(await runCli(['contours', dtm, path.join(out, 'c.geojson'), '--minor', '500', '--major', '100'], io)).toBe(
      2,
    );
    expect(await runCli(['hillshade', path.join(out, 'missing.tif'), path.join(out, 'x.tif')], io)).toBe(2);
    expect(errors.every((e) => e.startsWith('error: '))).toBe(true);
  });
});
