import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { CLASS_NAMES } from '../core/dimensions.js';
import { defineProduct } from '../core/product.js';
import { type CloudMetadata, extractMetadata } from '../metadata/index.js';
import type { Raster } from '../raster/raster.js';
import { PdfPathBatch } from '../writers/pdf-paths.js';
import { encodePng } from '../writers/png.writer.js';
import { productEntry } from './catalog.js';
import type { ContourLine } from './contours.product.js';
import { hillshadeSampler } from './hillshade.product.js';
import type { ClassifiedCloud, DtmValue } from './product-values.js';
import type { QualityReport } from './quality.product.js';
import {
  assetName,
  CLASS_NAMES_FR,
  fill,
  REPORT_TEXTS,
  type ReportLanguage,
  type ReportTexts,
} from './report-texts.js';
import type { TreeCrownsValue } from './tree-crowns.product.js';

/** A4 in points, and the page margin. */
const PAGE = { width: 595.28, height: 841.89, margin: 50 };
const CONTENT = PAGE.width - 2 * PAGE.margin;
const INK = '#1f2933';
const MUTED = '#52606d';
const ACCENT = '#2f6f9f';

/** What the report shows, gathered from the products of the run. */
export interface ReportData {
  name: string;
  metadata: CloudMetadata;
  classCounts: Record<number, number>;
  dtm: Raster;
  contours?: ContourLine[];
  crowns?: TreeCrownsValue;
  buildings?: Array<{ rings: number[][][]; area: number }>;
  quality?: QualityReport;
  powerLines?: {
    figures: {
      conductors: number;
      spans: number;
      towers: number;
      totalLengthM: number;
      minClearanceM: number | null;
      maxSagM: number | null;
    };
    conductors: Array<{ coordinates: number[][] }>;
  };
  vegetationRisk?: {
    figures: { clusters: number; clustersPerZone: Record<string, number>; minDistanceM: number | null };
  };
  treeFallRisk?: { figures: { treesAtRisk: number; treesReachingConductor: number } };
  artifacts: ReadonlyArray<{ type: string; path: string; format: string; bytes: number; count: number }>;
  generatedAt: Date;
}

function formatNumber(v: number, language: ReportLanguage, digits = 0): string {
  // The standard PDF fonts have no narrow no-break space (French thousands): a plain space stands in.
  return new Intl.NumberFormat(language, { maximumFractionDigits: digits, minimumFractionDigits: digits })
    .format(v)
    .replace(/[\u202f\u00a0]/g, ' ');
}

function formatBytes(bytes: number, language: ReportLanguage): string {
  const units = language === 'fr' ? ['o', 'ko', 'Mo', 'Go'] : ['B', 'kB', 'MB', 'GB'];
  let v = bytes;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${formatNumber(v, language, u === 0 ? 0 : 1)} ${units[u]}`;
}

/** A section heading with space before it; a new page when less than `need` points remain. */
function heading(doc: PDFKit.PDFDocument, text: string, need = 120): void {
  if (doc.y + need > PAGE.height - PAGE.margin) doc.addPage();
  else doc.moveDown(0.8);
  doc.font('Helvetica-Bold').fontSize(13).fillColor(ACCENT).text(text, PAGE.margin, doc.y);
  doc.moveDown(0.3);
  doc.font('Helvetica').fontSize(10).fillColor(INK);
}

/** Two columns of label / value rows. */
function keyValues(doc: PDFKit.PDFDocument, rows: Array<[string, string]>): void {
  const labelWidth = 190;
  for (const [k, v] of rows) {
    const y = doc.y;
    doc.font('Helvetica').fillColor(MUTED).text(k, PAGE.margin, y, { width: labelWidth });
    const after = doc.y;
    doc.fillColor(INK).text(v, PAGE.margin + labelWidth, y, { width: CONTENT - labelWidth });
    doc.y = Math.max(after, doc.y) + 2;
  }
}

/** A table with a header row. */
function table(doc: PDFKit.PDFDocument, header: string[], rows: string[][], widths: number[]): void {
  const draw = (cells: string[], bold: boolean) => {
    if (doc.y + 16 > PAGE.height - PAGE.margin) {
      doc.addPage();
      // A table that runs on to the next page repeats its header there.
      if (!bold) draw(header, true);
    }
    const y = doc.y;
    let x = PAGE.margin;
    let bottom = y;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(9)
      .fillColor(INK);
    cells.forEach((c, i) => {
      doc.text(c, x + 2, y, { width: widths[i]! - 4 });
      bottom = Math.max(bottom, doc.y);
      x += widths[i]!;
    });
    doc
      .moveTo(PAGE.margin, bottom + 2)
      .lineTo(PAGE.margin + widths.reduce((a, b) => a + b, 0), bottom + 2)
      .lineWidth(bold ? 0.8 : 0.3)
      .strokeColor(bold ? INK : '#cbd2d9')
      .stroke();
    doc.y = bottom + 5;
  };
  draw(header, true);
  for (const r of rows) draw(r, false);
  doc.fontSize(10);
}

/** Horizontal bars with labels and values (classes). */
function horizontalBars(doc: PDFKit.PDFDocument, bars: Array<{ label: string; value: number }>, color: string): void {
  const labelWidth = 150;
  const valueWidth = 80;
  const barWidth = CONTENT - labelWidth - valueWidth;
  const max = Math.max(1, ...bars.map((b) => b.value));
  for (const b of bars) {
    if (doc.y + 16 > PAGE.height - PAGE.margin) doc.addPage();
    const y = doc.y;
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor(INK)
      .text(b.label, PAGE.margin, y + 1, { width: labelWidth - 6 });
    const w = Math.max(0.5, (b.value / max) * barWidth);
    doc.rect(PAGE.margin + labelWidth, y, w, 11).fill(color);
    doc.fillColor(MUTED).text(String(b.value), PAGE.margin + labelWidth + barWidth + 6, y + 1, { width: valueWidth });
    doc.y = y + 15;
  }
  doc.fontSize(10).fillColor(INK);
}

/** A histogram of values in `bins` equal bins, drawn as vertical bars with axis labels. */
function histogram(
  doc: PDFKit.PDFDocument,
  values: ArrayLike<number>,
  options: { bins?: number; min?: number; max?: number; unit: string; color: string; language: ReportLanguage },
): void {
  const height = 120;
  if (doc.y + height + 30 > PAGE.height - PAGE.margin) doc.addPage();
  let lo = options.min ?? Number.POSITIVE_INFINITY;
  let hi = options.max ?? Number.NEGATIVE_INFINITY;
  if (options.min === undefined || options.max === undefined) {
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      if (options.min === undefined && v < lo) lo = v;
      if (options.max === undefined && v > hi) hi = v;
    }
  }
  if (!(hi > lo)) hi = lo + 1;
  const bins = options.bins ?? 20;
  const counts = new Array<number>(bins).fill(0);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const b = Math.min(bins - 1, Math.max(0, Math.floor(((v - lo) / (hi - lo)) * bins)));
    counts[b]!++;
  }
  const max = Math.max(1, ...counts);
  const x0 = PAGE.margin + 40;
  const width = CONTENT - 40;
  const top = doc.y;
  const bw = width / bins;
  counts.forEach((c, i) => {
    const h = (c / max) * height;
    doc.rect(x0 + i * bw + 0.5, top + height - h, bw - 1, h).fill(options.color);
  });
  doc
    .moveTo(x0, top + height)
    .lineTo(x0 + width, top + height)
    .lineWidth(0.5)
    .strokeColor(MUTED)
    .stroke();
  doc.font('Helvetica').fontSize(8).fillColor(MUTED);
  doc.text(String(max), PAGE.margin, top - 3, { width: 36, align: 'right' });
  doc.text('0', PAGE.margin, top + height - 6, { width: 36, align: 'right' });
  for (let k = 0; k <= 4; k++) {
    const v = lo + ((hi - lo) * k) / 4;
    doc.text(`${formatNumber(v, options.language, 1)} ${options.unit}`, x0 + (width * k) / 4 - 30, top + height + 3, {
      width: 60,
      align: 'center',
    });
  }
  doc.fontSize(10).fillColor(INK);
  doc.y = top + height + 18;
}

/**
 * Smallest step between the vertices of a contour on the map, in points
 * (0.07 mm, a third of the finest line drawn): a DTM of 6 M cells traces
 * contours with vertices 0.02 pt apart on the page, 17 MB of drawing that no
 * printer or screen shows.
 */
export const MAP_STEP_PT = 0.2;

/**
 * A flat [x, y, x, y...] line onto the page (`tx`, `ty`): its first and last
 * vertices, and between them each vertex at least `step` from the last one
 * drawn. Lines of fewer than two vertices are skipped.
 */
export function drawPolyline(
  paths: Pick<PdfPathBatch, 'moveTo' | 'lineTo'>,
  c: ArrayLike<number>,
  tx: (x: number) => number,
  ty: (y: number) => number,
  step: number,
): void {
  if (c.length < 4) return;
  let lx = tx(c[0]!);
  let ly = ty(c[1]!);
  paths.moveTo(lx, ly);
  const step2 = step * step;
  const last = c.length - 2;
  for (let i = 2; i < c.length; i += 2) {
    const px = tx(c[i]!);
    const py = ty(c[i + 1]!);
    const dx = px - lx;
    const dy = py - ly;
    if (i < last && dx * dx + dy * dy < step2) continue;
    paths.lineTo(px, py);
    lx = px;
    ly = py;
  }
}

/**
 * The LAS header's creation date (year and day of the year, 1 = January 1st)
 * as a date in the reader's language; the year alone without a day; null
 * without a year.
 */
export function creationDate(year: number, day: number, language: ReportLanguage): string | null {
  if (!year) return null;
  if (!(day >= 1 && day <= 366)) return String(year);
  const date = new Date(Date.UTC(year, 0, day));
  if (date.getUTCFullYear() !== year) return String(year);
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/**
 * The DTM's cells that are not nodata, times `unitToMetre`, in a Float32Array
 * (the values `data.filter(...).map(...)` gives, counted then copied in two
 * loops: the typed array's filter and map took seconds on a DTM of 9 M cells).
 */
export function validCells(dtm: Raster, unitToMetre: number): Float32Array {
  const { data, nodata } = dtm;
  let count = 0;
  for (let i = 0; i < data.length; i++) if (data[i] !== nodata) count++;
  const out = new Float32Array(count);
  let at = 0;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v !== nodata) out[at++] = v * unitToMetre;
  }
  return out;
}

/** The map: hillshade image and the vectors over it, with a scale bar and a north arrow. */
function map(doc: PDFKit.PDFDocument, data: ReportData, texts: ReportTexts): void {
  const { dtm } = data;
  const extentW = dtm.width * dtm.resolution;
  const extentH = dtm.height * dtm.resolution;
  const boxW = CONTENT;
  const boxH = Math.min(400, (boxW * extentH) / extentW);
  const scale = Math.min(boxW / extentW, boxH / extentH);
  const drawW = extentW * scale;
  const drawH = extentH * scale;
  if (doc.y + drawH + 40 > PAGE.height - PAGE.margin) doc.addPage();
  const x0 = PAGE.margin + (boxW - drawW) / 2;
  const y0 = doc.y;
  // Hillshade at about 3 pixels per point (sharp when printed), at most 1600 pixels wide.
  // The shade of the sampled cells only (not of the whole DTM), each row's cells once: a row of the image
  // sampling the same DTM row as the one before it is a copy of that one.
  const shadeAt = hillshadeSampler(dtm);
  const px = Math.max(1, Math.min(1600, Math.round(drawW * 3)));
  const py = Math.max(1, Math.round((px * extentH) / extentW));
  const rgba = new Uint8Array(px * py * 4);
  const sampledColumn = new Int32Array(px);
  for (let c = 0; c < px; c++) sampledColumn[c] = Math.min(dtm.width - 1, Math.floor((c / px) * dtm.width));
  let previousRow = -1;
  for (let r = 0; r < py; r++) {
    const sr = Math.min(dtm.height - 1, Math.floor((r / py) * dtm.height));
    if (sr === previousRow) {
      rgba.copyWithin(r * px * 4, (r - 1) * px * 4, r * px * 4);
      continue;
    }
    previousRow = sr;
    let previousColumn = -1;
    let v = 0;
    for (let c = 0; c < px; c++) {
      const sc = sampledColumn[c]!;
      if (sc !== previousColumn) {
        v = shadeAt(sr, sc);
        previousColumn = sc;
      }
      const k = (r * px + c) * 4;
      const valid = v !== 0 && dtm.data[sr * dtm.width + sc] !== dtm.nodata;
      const g = valid ? 90 + (v / 255) * 165 : 255;
      rgba[k] = g;
      rgba[k + 1] = g;
      rgba[k + 2] = valid ? g * 0.98 : 255;
      rgba[k + 3] = 255;
    }
  }
  // Stored, not compressed: pdfkit inflates an RGBA PNG to split its alpha and deflates both parts itself, so
  // the PDF's bytes do not depend on this level, and compressing 7 MB of pixels twice took most of a second.
  doc.image(encodePng(px, py, rgba, 0), x0, y0, { width: drawW, height: drawH });
  const tx = (x: number) => x0 + (x - dtm.originX) * scale;
  const ty = (y: number) => y0 + (dtm.originY - y) * scale;
  doc.save();
  doc.rect(x0, y0, drawW, drawH).clip();
  // The vectors' paths go in batches (pdfkit would keep a buffer per vertex): flushed before each paint.
  const paths = new PdfPathBatch(doc);
  if (data.contours) {
    const minorCount = data.contours.filter((l) => l.kind === 'minor').length;
    for (const kind of ['minor', 'major'] as const) {
      if (kind === 'minor' && minorCount > 4000) continue;
      for (const line of data.contours) {
        if (line.kind !== kind) continue;
        drawPolyline(paths, line.coordinates, tx, ty, MAP_STEP_PT);
      }
      paths.flush();
      doc
        .lineWidth(kind === 'major' ? 0.7 : 0.25)
        .strokeColor(kind === 'major' ? '#6b3d14' : '#b07a45')
        .stroke();
    }
  }
  for (const b of data.buildings ?? []) {
    for (const ring of b.rings.slice(0, 1)) {
      paths.moveTo(tx(ring[0]![0]!), ty(ring[0]![1]!));
      for (const p of ring.slice(1)) paths.lineTo(tx(p[0]!), ty(p[1]!));
      paths.closePath();
    }
  }
  paths.flush();
  if (data.buildings?.length) doc.fillOpacity(0.45).fillAndStroke('#e4572e', '#a8321a');
  doc.fillOpacity(1);
  for (const line of data.powerLines?.conductors ?? []) {
    const c = line.coordinates;
    if (c.length < 2) continue;
    paths.moveTo(tx(c[0]![0]!), ty(c[0]![1]!));
    for (const p of c.slice(1)) paths.lineTo(tx(p[0]!), ty(p[1]!));
  }
  paths.flush();
  if (data.powerLines?.conductors.length) doc.lineWidth(0.8).strokeColor('#d9a400').stroke();
  if (data.crowns) {
    for (const crown of data.crowns.crowns) {
      const ring = crown.ring;
      if (!ring || ring.length < 3) continue;
      paths.moveTo(tx(ring[0]![0]!), ty(ring[0]![1]!));
      for (const p of ring.slice(1)) paths.lineTo(tx(p[0]!), ty(p[1]!));
      paths.closePath();
    }
    paths.flush();
    doc.lineWidth(0.3).strokeColor('#2f9e44').stroke();
    for (const t of data.crowns.tops.tops) paths.circle(tx(t.x), ty(t.y), 0.7);
    paths.flush();
    doc.fill('#1d5c2c');
  }
  doc.restore();
  doc.rect(x0, y0, drawW, drawH).lineWidth(0.6).strokeColor(INK).stroke();
  // North arrow.
  const nx = x0 + drawW - 16;
  const ny = y0 + 12;
  doc.save();
  doc
    .moveTo(nx, ny)
    .lineTo(nx - 5, ny + 16)
    .lineTo(nx, ny + 12)
    .lineTo(nx + 5, ny + 16)
    .closePath()
    .fillOpacity(0.9)
    .fillAndStroke('#ffffff', INK);
  doc.restore();
  doc
    .font('Helvetica-Bold')
    .fontSize(8)
    .fillColor(INK)
    .text(texts.north, nx - 10, ny + 17, { width: 20, align: 'center' });
  // Scale bar: a round length near a fifth of the map.
  const unitToMetre = dtm.crs?.horizontalUnitToMetre || 1;
  const target = (extentW * unitToMetre) / 5;
  const pow = 10 ** Math.floor(Math.log10(target));
  const nice =
    [1, 2, 5, 10]
      .map((m) => m * pow)
      .filter((m) => m <= target)
      .at(-1) ?? pow;
  const barPt = (nice / unitToMetre) * scale;
  const sy = y0 + drawH - 14;
  doc.rect(x0 + 8, sy, barPt, 4).fill(INK);
  doc.rect(x0 + 8 + barPt / 2, sy, barPt / 2, 4).fill('#ffffff');
  doc
    .rect(x0 + 8, sy, barPt, 4)
    .lineWidth(0.5)
    .strokeColor(INK)
    .stroke();
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor(INK)
    .text(`${nice >= 1000 ? `${nice / 1000} km` : `${nice} m`}`, x0 + 8, sy - 10, { width: barPt + 40 });
  doc.y = y0 + drawH + 6;
  doc.font('Helvetica').fontSize(8).fillColor(MUTED).text(texts.mapLegend, PAGE.margin, doc.y, { width: CONTENT });
  doc.fontSize(10).fillColor(INK);
}

/**
 * Writes the PDF report (A4, in `language`): summary, map, class, elevation
 * and tree-height charts, classification quality, forest and building
 * figures, power lines, and the table of products with their sizes.
 */
export async function writeReport(file: string, data: ReportData, language: ReportLanguage): Promise<number> {
  const texts = REPORT_TEXTS[language] as ReportTexts;
  // Loaded here, not at module load: pdfkit and its fonts cost every `nuage` command ~60 ms otherwise.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    bufferPages: true,
    lang: language,
    info: { Title: `${texts.title} — ${data.name}`, Author: 'Nuage', Creator: 'Nuage', CreationDate: data.generatedAt },
  });
  const out = createWriteStream(file);
  doc.pipe(out);
  const m = data.metadata;
  const num = (v: number, d = 0) => formatNumber(v, language, d);

  doc.font('Helvetica-Bold').fontSize(20).fillColor(INK).text(texts.title);
  doc.font('Helvetica').fontSize(14).fillColor(ACCENT).text(data.name);
  doc
    .fontSize(9)
    .fillColor(MUTED)
    .text(
      fill(texts.generated, {
        date: new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(data.generatedAt),
      }),
    );
  doc.fontSize(10).fillColor(INK);

  heading(doc, texts.summary);
  const vu = m.elevationUnitToMetre || 1;
  keyValues(doc, [
    [texts.file, m.fileBytes ? `${data.name} (${formatBytes(m.fileBytes, language)})` : data.name],
    [texts.points, num(m.pointCount)],
    [texts.area, fill(texts.hectares, { v: num(m.areaHectares, 2) })],
    [texts.crs, m.crs ? `${m.crs.name}${m.crs.epsg ? ` (EPSG:${m.crs.epsg})` : ''}` : texts.none],
    [texts.density, fill(texts.perSquareMetre, { v: num(m.pointDensity, 1) })],
    [texts.elevations, `${num(m.minElevation * vu, 2)} – ${num(m.maxElevation * vu, 2)} m`],
    [texts.lasVersion, m.lasVersion],
    [texts.software, m.generatingSoftware || texts.none],
    [texts.acquired, creationDate(m.creationYear, m.creationDay, language) ?? texts.none],
  ]);

  heading(doc, texts.map, 300);
  map(doc, data, texts);

  heading(doc, texts.classes);
  const names = language === 'fr' ? CLASS_NAMES_FR : CLASS_NAMES;
  horizontalBars(
    doc,
    Object.entries(data.classCounts)
      .sort((a, b) => Number(a[0]) - Number(b[0]))
      .map(([code, value]) => ({ label: `${code} ${names[Number(code)] ?? ''}`.trim(), value })),
    ACCENT,
  );

  heading(doc, texts.elevationHistogram, 200);
  histogram(doc, validCells(data.dtm, vu), { unit: 'm', color: '#8f5a2a', language });

  heading(doc, texts.quality);
  const q = data.quality;
  if (q?.ground) {
    keyValues(doc, [
      [texts.kappa, num(q.ground.kappa, 3)],
      [texts.totalError, `${num(q.ground.totalError * 100, 2)} %`],
      ...(q.dtm
        ? ([[texts.dtmRmse, fill(texts.metres, { v: num(q.dtm.openTerrain.rmse, 3) })]] as Array<[string, string]>)
        : []),
    ]);
  } else doc.fillColor(MUTED).text(texts.qualityNone).fillColor(INK);

  heading(doc, texts.forest);
  const trees = data.crowns?.crowns ?? [];
  if (trees.length > 0) {
    const heights = trees.map((t) => t.height);
    const mean = heights.reduce((a, b) => a + b, 0) / heights.length;
    const crown = trees.reduce((a, t) => a + t.crownArea, 0) / trees.length;
    keyValues(doc, [
      [texts.trees, num(trees.length)],
      [texts.meanHeight, fill(texts.metres, { v: num(mean, 2) })],
      [texts.maxHeight, fill(texts.metres, { v: num(Math.max(...heights), 2) })],
      [texts.meanCrown, fill(texts.squareMetres, { v: num(crown, 1) })],
    ]);
    doc.moveDown(0.4);
    const classes = [2, 5, 10, 15, 20, 25, 30, 40, Number.POSITIVE_INFINITY];
    const rows: string[][] = [];
    for (let k = 0; k < classes.length - 1; k++) {
      const n = heights.filter((h) => h >= classes[k]! && h < classes[k + 1]!).length;
      if (n === 0) continue;
      const label = Number.isFinite(classes[k + 1]!) ? `${classes[k]}–${classes[k + 1]} m` : `≥ ${classes[k]} m`;
      rows.push([label, num(n)]);
    }
    table(doc, [texts.heightClass, texts.count], rows, [160, 100]);
    heading(doc, texts.treeHistogram, 200);
    histogram(doc, heights, { unit: 'm', color: '#2f9e44', language, min: 2 });
  } else doc.fillColor(MUTED).text(texts.forestNone).fillColor(INK);

  heading(doc, texts.buildings);
  if (data.buildings && data.buildings.length > 0) {
    keyValues(doc, [
      [texts.buildingCount, num(data.buildings.length)],
      [
        texts.buildingArea,
        fill(texts.squareMetres, {
          v: num(
            data.buildings.reduce((a, b) => a + b.area, 0),
            0,
          ),
        }),
      ],
    ]);
  } else doc.fillColor(MUTED).text(texts.buildingsNone).fillColor(INK);

  heading(doc, texts.powerLines);
  const pl = data.powerLines?.figures;
  if (pl && pl.conductors > 0) {
    const metres = (v: number | null) => (v === null ? texts.none : fill(texts.metres, { v: num(v, 2) }));
    const rows: Array<[string, string]> = [
      [texts.lineLength, fill(texts.metres, { v: num(pl.totalLengthM, 0) })],
      [texts.conductorsSpans, `${num(pl.conductors)} / ${num(pl.spans)} / ${num(pl.towers)}`],
      [texts.minClearance, metres(pl.minClearanceM)],
      [texts.maxSag, metres(pl.maxSagM)],
    ];
    const vr = data.vegetationRisk?.figures;
    if (vr) {
      const zones = Object.entries(vr.clustersPerZone)
        .map(([zone, n]) => `${zone}: ${num(n)}`)
        .join(', ');
      rows.push([texts.riskClusters, `${num(vr.clusters)} (${zones})`]);
    }
    const tf = data.treeFallRisk?.figures;
    if (tf) rows.push([texts.treesAtRisk, `${num(tf.treesAtRisk)} / ${num(tf.treesReachingConductor)}`]);
    keyValues(doc, rows);
  } else doc.fillColor(MUTED).text(texts.powerLinesNone).fillColor(INK);

  heading(doc, texts.products);
  table(
    doc,
    [texts.product, texts.format, texts.size],
    data.artifacts.map((a) => [assetName(a.type, language), a.format, formatBytes(a.bytes, language)]),
    [220, 110, 100],
  );

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin: without the margin, writing there adds no page.
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(MUTED)
      .text(fill(texts.page, { n: i + 1, total: range.count }), PAGE.margin, PAGE.height - 35, {
        width: CONTENT,
        align: 'right',
        lineBreak: false,
      });
  }
  doc.end();
  await finished(out);
  return range.count;
}

/** PDF_REPORT: the project report (A4 PDF in the user's language), with whatever products the run made. */
export const pdfReportProduct = defineProduct({
  ...productEntry('report'),
  async run(ctx) {
    const classified = ctx.need<ClassifiedCloud>('classify');
    const { dtm } = ctx.need<DtmValue>('dtm');
    const metadata =
      classified.inputMetadata ??
      (await extractMetadata(ctx.input.path, ctx.input.epsg ? { epsg: ctx.input.epsg } : {}));
    const classCounts: Record<number, number> = {};
    const cls = classified.cloud.classification;
    if (cls) for (let i = 0; i < classified.cloud.count; i++) classCounts[cls[i]!] = (classCounts[cls[i]!] ?? 0) + 1;
    const contours = ctx.use<{ lines: ContourLine[] }>('contours');
    const crowns = ctx.use<TreeCrownsValue>('tree-crowns');
    const buildings = ctx.use<{ buildings: Array<{ rings: number[][][]; area: number }> }>('buildings');
    const quality = ctx.use<QualityReport>('quality');
    const powerLines = ctx.use<ReportData['powerLines']>('power-lines');
    const vegetationRisk = ctx.use<ReportData['vegetationRisk']>('vegetation-risk');
    const treeFallRisk = ctx.use<ReportData['treeFallRisk']>('tree-fall-risk');
    const file = path.join(ctx.workDir, 'report.pdf');
    const pages = await writeReport(
      file,
      {
        name: ctx.input.name,
        metadata,
        classCounts,
        dtm,
        ...(contours ? { contours: contours.lines } : {}),
        ...(crowns ? { crowns } : {}),
        ...(buildings?.buildings ? { buildings: buildings.buildings } : {}),
        ...(quality ? { quality } : {}),
        ...(powerLines ? { powerLines } : {}),
        ...(vegetationRisk ? { vegetationRisk } : {}),
        ...(treeFallRisk ? { treeFallRisk } : {}),
        artifacts: ctx.artifacts(),
        generatedAt: new Date(),
      },
      ctx.language,
    );
    return {
      files: [{ path: file, format: 'PDF', extension: 'pdf', epsg: null, count: pages }],
      figures: { pages, language: ctx.language },
    };
  },
});
