import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import type { Manifest } from './run-products.js';
import { gdal, hasGdal } from './test-gdal.js';
import { planScale } from './topographic-map.product.js';

describe('topographic map', () => {
  it('picks the smallest plan scale that fits the extent on an A1 sheet', () => {
    expect(planScale(300, 250)).toBe(500);
    expect(planScale(340, 265)).toBe(1000);
    expect(planScale(100, 80)).toBe(200);
    expect(planScale(2500, 2000)).toBe(5000);
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
