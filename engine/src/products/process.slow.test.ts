import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { openPointCloud } from '../readers/index.js';
import type { Manifest } from './run-products.js';
import { gdal, hasGdal } from './test-gdal.js';

function cli() {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    lines,
    errors,
    run: (args: string[]) => runCli(args, { out: (l) => lines.push(l), err: (l) => errors.push(l) }),
  };
}

const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));

describe.runIf(hasRealData())('nuage process and product verbs on real files', () => {
  it('turns fusa.laz into every product with a manifest', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'nuage-process-'));
    const { run, errors } = cli();
    expect(await run(['process', realFile('fusa.laz'), out, '--dtm-resolution-cm', '50'])).toBe(0);
    expect(errors).toEqual([]);
    const manifest = manifestOf(out);
    const types = new Set(manifest.artifacts.map((a) => a.type));
    for (const t of [
      'CLASSIFIED_POINT_CLOUD',
      'DTM',
      'HILLSHADE_DTM',
      'SLOPE_MAP',
      'IMAGERY_DTM',
      'CONTOUR_LINE',
      'CONTOUR_LINE_MAJOR',
      'CONTOUR_LINE_MINOR',
      'GRID',
      'QUALITY_REPORT',
    ]) {
      expect(types, t).toContain(t);
    }
    expect(manifest.products.every((p) => p.status === 'READY')).toBe(true);
    for (const a of manifest.artifacts) expect(existsSync(path.join(out, a.path)), a.path).toBe(true);
    const las = manifest.artifacts.find((a) => a.format === 'LAS')!;
    expect(las).toMatchObject({ type: 'CLASSIFIED_POINT_CLOUD', epsg: 32754, count: 277_573 });
    const tiles = manifest.artifacts.find((a) => a.format === '3DTiles')!;
    expect(existsSync(path.join(out, tiles.path, 'tileset.json'))).toBe(true);
    const grid = manifest.artifacts.find((a) => a.type === 'GRID')!;
    expect(grid).toMatchObject({ format: 'GeoJSON', epsg: 4326, count: 625 });
    expect(JSON.parse(readFileSync(path.join(out, grid.path), 'utf8')).features).toHaveLength(625);
    const dtm = manifest.artifacts.find((a) => a.type === 'DTM')!;
    expect(dtm.format).toBe('GTiff');
    expect(manifest.options).toMatchObject({ dtmResolutionCm: 50, contourMinorCm: 50, contourMajorCm: 250 });
    // Ground and DTM against the vendor's (lasclassify) ground.
    const quality = JSON.parse(readFileSync(path.join(out, 'quality', 'quality.json'), 'utf8'));
    expect(quality.ground.kappa).toBeGreaterThan(0.95);
    expect(quality.ground.totalError).toBeLessThan(0.03);
    expect(quality.dtm.openTerrain.rmse).toBeLessThan(0.15);
    expect(quality.classCounts[2].points).toBeGreaterThan(150_000);
    expect(quality.classCounts[6].points).toBeGreaterThan(20_000);
    const reader = await openPointCloud(path.join(out, las.path));
    expect(reader.header.pointCount).toBe(277_573);
    expect(reader.crs?.epsg).toBe(32754);
    await reader.close();
    if (hasGdal()) {
      const info = JSON.parse(gdal('gdalinfo', ['-json', path.join(out, dtm.path)]));
      expect(info.stac['proj:epsg']).toBe(32754);
      expect(info.bands[0].noDataValue).toBe(-9999);
      expect(info.size[0] * info.size[1]).toBe(dtm.count);
    }
  });

  it('product verbs chain from a DTM file; --products takes prerequisites; bad input exits 2', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'nuage-cli-'));
    const { run, lines, errors } = cli();
    const dtmDir = path.join(out, 'dtm-run');
    expect(await run(['dtm', realFile('autzen_trim.las'), dtmDir, '--dtm-resolution-cm', '100'])).toBe(0);
    const dtmRun = manifestOf(dtmDir);
    expect(dtmRun.products.map((p) => p.id)).toEqual(['classify', 'dtm']);
    const dtm = path.join(dtmDir, 'dtm', 'dtm.tif');
    for (const verb of ['hillshade', 'slope', 'grid']) {
      expect(await run([verb, dtm, path.join(out, verb)]), verb).toBe(0);
      // Made from the DTM file: the point cloud is never read again.
      expect(manifestOf(path.join(out, verb)).products.map((p) => p.id)).toEqual([verb]);
    }
    expect(
      await run(['contours', dtm, path.join(out, 'c'), '--contour-minor-cm', '100', '--contour-major-cm', '500']),
    ).toBe(0);
    const contours = manifestOf(path.join(out, 'c')).artifacts[0]!;
    expect(contours).toMatchObject({ type: 'CONTOUR_LINE', format: 'GeoJSON', epsg: 4326 });
    expect(contours.count).toBeGreaterThan(10);
    expect(lines.join('\n')).toMatch(/CONTOUR_LINE/);
    expect(await run(['dtm', realFile('autzen_trim.las'), dtmDir, '--dtm-resolution-cm', '5'])).toBe(2);
    expect(errors.at(-1)).toMatch(/--dtm-resolution-cm.*20 and 3000/);
    expect(
      await run(['contours', dtm, path.join(out, 'c2'), '--contour-minor-cm', '500', '--contour-major-cm', '100']),
    ).toBe(2);
    expect(errors.at(-1)).toMatch(/--contour-major-cm.*greater than the minor/);
    expect(await run(['hillshade', path.join(out, 'missing.tif'), path.join(out, 'x')])).toBe(2);
    expect(await run(['process', dtm, path.join(out, 'p'), '--products', 'nothing'])).toBe(2);
    expect(errors.at(-1)).toMatch(/unknown product "nothing"/);
    expect(errors.every((e) => e.startsWith('error: '))).toBe(true);
  });
});
