import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { createRaster, type Raster } from '../raster/raster.js';
import type { Manifest } from './run-products.js';
import { gdal, hasGdal } from './test-gdal.js';
import { localExtremes, planScale } from './topographic-map.product.js';

/** Local highs and lows by their definition (radius 2 or more): every cell of the disk compared, in row order. */
function referenceExtremes(dtm: Raster, radius: number, prominence: number) {
  const { width: W, height: H, data, nodata } = dtm;
  const out: Array<{ x: number; y: number; z: number; kind: 'high' | 'low' }> = [];
  for (let r = radius; r < H - radius; r++) {
    for (let c = radius; c < W - radius; c++) {
      const v = data[r * W + c]!;
      if (v === nodata) continue;
      let isHigh = true;
      let isLow = true;
      let lo = v;
      let hi = v;
      for (let dr = -radius; dr <= radius; dr++) {
        for (let dc = -radius; dc <= radius; dc++) {
          if (dr * dr + dc * dc > radius * radius || (dr === 0 && dc === 0)) continue;
          const u = data[(r + dr) * W + c + dc]!;
          if (u === nodata) isHigh = isLow = false;
          if (u >= v) isHigh = false;
          if (u <= v) isLow = false;
          lo = Math.min(lo, u);
          hi = Math.max(hi, u);
        }
      }
      const x = dtm.originX + (c + 0.5) * dtm.resolution;
      const y = dtm.originY - (r + 0.5) * dtm.resolution;
      if (isHigh && v - lo >= prominence) out.push({ x, y, z: v, kind: 'high' });
      if (isLow && hi - v >= prominence) out.push({ x, y, z: v, kind: 'low' });
    }
  }
  return out;
}

describe('topographic map', () => {
  it('picks the smallest plan scale that fits the extent on an A1 sheet', () => {
    expect(planScale(300, 250)).toBe(500);
    expect(planScale(340, 265)).toBe(1000);
    expect(planScale(100, 80)).toBe(200);
    expect(planScale(2500, 2000)).toBe(5000);
  });

  it('finds the local highs and lows an every-cell search finds (plateaus, nodata, rounded heights)', () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const W = 120;
    const H = 90;
    const dtm = createRaster(W, H, 1000, 2000, 0.5, null);
    for (let r = 0; r < H; r++) {
      for (let c = 0; c < W; c++) {
        // Hills and hollows, heights rounded to 10 cm so that neighbours are often equal.
        const z = 50 + 4 * Math.sin(c / 9) * Math.cos(r / 7) + random() * 1.5;
        dtm.data[r * W + c] = Math.round(z * 10) / 10;
      }
    }
    for (let r = 40; r < 46; r++) for (let c = 60; c < 64; c++) dtm.data[r * W + c] = dtm.nodata;
    for (const radius of [2, 3, 6]) {
      for (const prominence of [0, 0.5, 2]) {
        expect(localExtremes(dtm, radius, prominence)).toEqual(referenceExtremes(dtm, radius, prominence));
      }
    }
    expect(referenceExtremes(dtm, 3, 0.5).length).toBeGreaterThan(5);
    // The first ones only, the scan stopping there.
    expect(localExtremes(dtm, 3, 0.5, 4)).toEqual(referenceExtremes(dtm, 3, 0.5).slice(0, 4));
  });

  it.runIf(hasRealData())(
    'draws contours at their elevation, labels, spot heights, buildings, trees and a title block in one 3D DXF',
    async () => {
      const out = mkdtempSync(path.join(tmpdir(), 'nuage-topo-'));
      const lines: string[] = [];
      const code = await runCli(
        [
          'process',
          realFile('fusa.laz'),
          out,
          '--products',
          'topographic-map,buildings,tree-crowns',
          '--contour-minor-cm',
          '50',
          '--contour-major-cm',
          '250',
        ],
        { out: (l) => lines.push(l), err: (l) => lines.push(l) },
      );
      expect(code, lines.join('\n')).toBe(0);
      const manifest: Manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
      const entry = manifest.artifacts.find((a) => a.type === 'TOPOGRAPHIC_MAP')!;
      expect(entry).toMatchObject({ format: 'DXF', epsg: 32754 });
      const file = path.join(out, entry.path);
      const text = readFileSync(file, 'latin1');
      expect(text).toContain('AC1015');
      for (const s of ['Scale / Echelle 1:500', 'EPSG:32754', 'fusa.laz', 'Legend / Legende'])
        expect(text).toContain(s);
      if (!hasGdal()) return;
      const values = gdal('ogrinfo', [
        '-q',
        '-dialect',
        'sqlite',
        '-sql',
        'SELECT Layer, COUNT(*) AS n FROM entities GROUP BY Layer',
        file,
      ])
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => l.split('=')[1]!.trim());
      const counts: Record<string, number> = {};
      for (let i = 0; i + 1 < values.length; i += 2) counts[values[i]!] = Number(values[i + 1]);
      for (const layer of [
        'CONTOURS_MAJOR',
        'CONTOURS_MINOR',
        'CONTOUR_LABELS',
        'SPOT_HEIGHTS',
        'BUILDINGS',
        'TREE_CROWNS',
        'TREE_TOPS',
        'FRAME',
        'TITLE_BLOCK',
      ]) {
        expect(counts[layer], layer).toBeGreaterThan(0);
      }
      // Every major contour lies at a multiple of 2.5 m.
      const majors = JSON.parse(
        gdal('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', file, '-where', "Layer = 'CONTOURS_MAJOR'"]),
      );
      for (const f of majors.features.slice(0, 20)) {
        const z = f.geometry.coordinates[0][2];
        expect(Math.abs(z / 2.5 - Math.round(z / 2.5)), String(z)).toBeLessThan(1e-6);
      }
    },
    60_000,
  );
});
