import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { gatherCloud } from '../filters/cloud.js';
import { readGeoTiff } from '../raster/geotiff.reader.js';
import { openPointCloud } from '../readers/index.js';
import type { Manifest } from './run-products.js';
import { gdal, hasGdal } from './test-gdal.js';

describe.runIf(hasRealData())('DSM on a real file', () => {
  it('is the highest first return per DTM cell, above the ground, roofs well above it', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'nuage-dsm-'));
    const io = { out: () => {}, err: (l: string) => console.error(l) };
    expect(await runCli(['dsm', realFile('fusa.laz'), out, '--dtm-resolution-cm', '100'], io)).toBe(0);
    const manifest: Manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
    expect(manifest.products.map((p) => p.id)).toEqual(['classify', 'dtm', 'dsm']);
    const entry = manifest.artifacts.find((a) => a.type === 'DSM' && a.format === 'GTiff')!;
    expect(entry.epsg).toBe(32754);
    // Its XYZ tiles are rendered on demand from the COG in the tiles folder, as raster.json describes.
    const tiles = manifest.artifacts.find((a) => a.type === 'DSM' && a.format === 'XYZ')!;
    expect(tiles.bytes).toBeGreaterThan(statSync(path.join(out, entry.path)).size);
    const description = JSON.parse(readFileSync(path.join(out, tiles.path, 'raster.json'), 'utf8'));
    expect(description).toMatchObject({ ramp: 'elevation', epsg: 32754, source: 'source.tif' });
    const dsm = await readGeoTiff(path.join(out, entry.path));
    const dtm = await readGeoTiff(path.join(out, 'dtm', 'dtm.tif'));
    // Same grid as the DTM.
    for (const k of ['width', 'height', 'originX', 'originY', 'resolution'] as const) expect(dsm[k], k).toBe(dtm[k]);
    expect(entry.count).toBe(dsm.width * dsm.height);

    // Independently: the highest first return of every cell (noise left out), from the input.
    const reader = await openPointCloud(realFile('fusa.laz'));
    const cloud = await gatherCloud(reader.read({ workers: 0 }));
    await reader.close();
    const W = dsm.width;
    const top = new Float64Array(W * dsm.height).fill(Number.NEGATIVE_INFINITY);
    const building = new Uint8Array(W * dsm.height);
    const classified = await openPointCloud(path.join(out, 'classify', 'classified.las'));
    const ours = (await gatherCloud(classified.read({ workers: 0 }))).classification!;
    await classified.close();
    for (let i = 0; i < cloud.count; i++) {
      const c = Math.floor((cloud.x[i]! - dsm.originX) / dsm.resolution);
      const r = Math.floor((dsm.originY - cloud.y[i]!) / dsm.resolution);
      const k = r * W + c;
      if (cloud.classification![i] === 6) building[k] = 1;
      if (cloud.returnNumber![i]! > 1 || ours[i] === 7 || ours[i] === 18) continue;
      top[k] = Math.max(top[k]!, cloud.z[i]!);
    }
    let withReturns = 0;
    let equal = 0;
    let above = 0;
    let valid = 0;
    let roofs = 0;
    let highRoofs = 0;
    for (let k = 0; k < top.length; k++) {
      const s = dsm.data[k]!;
      const g = dtm.data[k]!;
      if (Number.isFinite(top[k]!)) {
        withReturns++;
        if (Math.abs(s - top[k]!) < 1e-3) equal++;
      }
      if (s === dsm.nodata || g === dtm.nodata) continue;
      valid++;
      if (s >= g - 0.1) above++;
      if (building[k]) {
        roofs++;
        if (s - g > 2) highRoofs++;
      }
    }
    expect(withReturns).toBeGreaterThan(50_000);
    expect(equal).toBe(withReturns);
    expect(above / valid).toBeGreaterThan(0.99);
    expect(roofs).toBeGreaterThan(1000);
    expect(highRoofs / roofs).toBeGreaterThan(0.9);
    if (hasGdal()) {
      const info = JSON.parse(gdal('gdalinfo', ['-json', path.join(out, entry.path)]));
      expect(info.stac['proj:epsg']).toBe(32754);
      expect(info.bands[0].noDataValue).toBe(-9999);
      expect(info.metadata.IMAGE_STRUCTURE.LAYOUT).toBe('COG');
      expect(info.bands[0].block).toEqual([256, 256]);
    }
  });
});
