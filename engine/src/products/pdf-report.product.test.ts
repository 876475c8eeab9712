import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { createRaster } from '../raster/raster.js';
import { creationDate, drawPolyline, MAP_STEP_PT, validCells } from './pdf-report.product.js';
import type { Manifest } from './run-products.js';

const hasPoppler = existsSync('/usr/bin/pdftotext') && existsSync('/usr/bin/pdfimages');

async function report(lang: string) {
  const out = mkdtempSync(path.join(tmpdir(), `nuage-report-${lang}-`));
  const lines: string[] = [];
  const args = ['process', realFile('fusa.laz'), out, '--products', 'report,contours,tree-crowns,quality'];
  const code = await runCli([...args, '--lang', lang], { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  expect(code, lines.join('\n')).toBe(0);
  const manifest: Manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8'));
  const entry = manifest.artifacts.find((a) => a.type === 'PDF_REPORT')!;
  return { file: path.join(out, entry.path), entry, manifest };
}

describe.runIf(hasRealData())('PDF report', () => {
  it('is an A4 PDF with selectable text, a sharp map and every product, in English', async () => {
    const { file, entry, manifest } = await report('en-US');
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(entry).toMatchObject({ format: 'PDF', epsg: null });
    expect(entry.count).toBeGreaterThanOrEqual(2);
    // The report runs after what it shows: its product table lists them.
    const before = manifest.products.map((p) => p.id);
    expect(before.indexOf('report')).toBe(before.length - 1);
    if (!hasPoppler) return;
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    for (const s of [
      'LiDAR project report',
      'fusa.laz',
      '277,573',
      'WGS 84 / UTM zone 54S (EPSG:32754)',
      'Points per class',
      'Cohen’s kappa',
      'Forest inventory',
      'Tree crowns',
      'Contour lines',
      'Page 1 of',
    ]) {
      expect(text, s).toContain(s);
    }
    const pages = execFileSync('pdfinfo', [file]).toString();
    expect(pages).toMatch(/Page size:\s+595\.2\d? x 841\.8\d? pts \(A4\)/);
    // The map image: at least 150 pixels per inch on the page.
    const images = execFileSync('pdfimages', ['-list', file]).toString().trim().split('\n').slice(2);
    expect(images.length).toBeGreaterThanOrEqual(1);
    const ppi = Number(images[0]!.trim().split(/\s+/)[12]);
    expect(ppi).toBeGreaterThanOrEqual(150);
  }, 60_000);

  it('speaks French when the user does', async () => {
    const { file } = await report('fr');
    if (!hasPoppler) return;
    const text = execFileSync('pdftotext', [file, '-']).toString();
    for (const s of ['Rapport de projet LiDAR', '277 573', 'Points par classe', 'Inventaire forestier', 'Houppiers']) {
      expect(text, s).toContain(s);
    }
    expect(text).not.toContain('Points per class');
  }, 60_000);
});

describe('contours on the report map', () => {
  /** The operators drawn, as [op, x, y]. */
  function record(c: number[], step: number) {
    const ops: Array<[string, number, number]> = [];
    drawPolyline(
      { moveTo: (x, y) => ops.push(['m', x, y]), lineTo: (x, y) => ops.push(['l', x, y]) },
      c,
      (x) => x * 0.01,
      (y) => 500 - y * 0.01,
      step,
    );
    return ops;
  }

  it('keeps the first and last vertices and those at least a step apart on the page', () => {
    // 1,001 vertices 1 m apart along x: 0.01 pt apart on the page at this scale.
    const c: number[] = [];
    for (let i = 0; i <= 1000; i++) c.push(i, 7 * Math.sin(i / 50));
    const ops = record(c, MAP_STEP_PT);
    expect(ops[0]).toEqual(['m', 0, 500 - 0]);
    expect(ops.at(-1)![0]).toBe('l');
    expect(ops.at(-1)![1]).toBeCloseTo(10, 9);
    expect(ops.length).toBeLessThan(60);
    expect(ops.length).toBeGreaterThan(40);
    for (let k = 1; k < ops.length - 1; k++) {
      const d = Math.hypot(ops[k]![1] - ops[k - 1]![1], ops[k]![2] - ops[k - 1]![2]);
      expect(d).toBeGreaterThanOrEqual(MAP_STEP_PT);
      expect(d).toBeLessThan(MAP_STEP_PT + 0.02);
    }
    // A step of zero draws every vertex, as before; a line of one vertex draws nothing.
    expect(record(c, 0)).toHaveLength(1001);
    expect(record([5, 5], MAP_STEP_PT)).toHaveLength(0);
  });
});

describe('the file creation date of the summary', () => {
  it('reads the day of the year as a date, in the reader language', () => {
    expect(creationDate(2010, 40, 'en-US')).toBe('February 9, 2010');
    expect(creationDate(2010, 40, 'fr')).toBe('9 février 2010');
    expect(creationDate(2024, 366, 'en-US')).toBe('December 31, 2024');
    expect(creationDate(2023, 366, 'en-US')).toBe('2023');
    expect(creationDate(2018, 0, 'fr')).toBe('2018');
    expect(creationDate(0, 12, 'en-US')).toBeNull();
  });
});

describe('validCells', () => {
  it('keeps the cells that are not nodata, in order, times the unit, as float32 (as filter and map did)', () => {
    const dtm = createRaster(3, 2, 0, 2, 1, null);
    dtm.data.set([1.5, dtm.nodata, 2.25, Number.NaN, 100.1, dtm.nodata]);
    const metres = validCells(dtm, 0.3048);
    expect(metres).toBeInstanceOf(Float32Array);
    const expected = dtm.data.filter((v) => v !== dtm.nodata).map((v) => v * 0.3048);
    expect(Array.from(metres)).toEqual(Array.from(expected));
    expect(metres.length).toBe(4);
    expect(metres[0]).toBe(Math.fround(1.5 * 0.3048));
    expect(Number.isNaN(metres[2])).toBe(true);
    expect(Array.from(validCells(dtm, 1))).toEqual([1.5, 2.25, Number.NaN, Math.fround(100.1)]);
  });
});
