import path from 'node:path';
import { defineProduct } from '../core/product.js';
import { type Raster, sampleBilinear } from '../raster/raster.js';
import { DxfDocument } from '../writers/dxf.writer.js';
import { productEntry } from './catalog.js';
import type { ContourLine } from './contours.product.js';
import type { DtmValue } from './product-values.js';
import type { TreeCrownsValue } from './tree-crowns.product.js';

/** Layers of the plan, with their AutoCAD colours. */
const LAYERS = {
  minor: ['CONTOURS_MINOR', 33],
  major: ['CONTOURS_MAJOR', 32],
  majorLabels: ['CONTOUR_LABELS', 32],
  spots: ['SPOT_HEIGHTS', 7],
  buildings: ['BUILDINGS', 1],
  crowns: ['TREE_CROWNS', 3],
  tops: ['TREE_TOPS', 94],
  power: ['POWER_LINES', 2],
  frame: ['FRAME', 7],
  title: ['TITLE_BLOCK', 7],
} as const;

/** Plan scales offered, smallest first (1:N). */
const SCALES = [200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 25000, 50000];

/** A1 landscape paper in metres, less a 20 mm margin and a 150 mm title block on the right. */
const SHEET = { width: 0.841 - 0.04 - 0.15, height: 0.594 - 0.04 };

/** The smallest listed scale that fits an extent (metres) on the sheet. */
export function planScale(widthM: number, heightM: number): number {
  for (const s of SCALES) if (widthM / s <= SHEET.width && heightM / s <= SHEET.height) return s;
  return SCALES.at(-1)!;
}

/** A round spacing near `target` (1, 2, 2.5 or 5 × a power of ten). */
function niceStep(target: number): number {
  const pow = 10 ** Math.floor(Math.log10(target));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * pow >= target) return m * pow;
  return 10 * pow;
}

/**
 * Local highs and lows of the DTM: cells highest (lowest) within `radius`
 * cells, standing out by `prominence`, in row order; the first `limit` of
 * them (the scan stops there).
 */
export function localExtremes(
  dtm: Raster,
  radius: number,
  prominence: number,
  limit = Number.POSITIVE_INFINITY,
): Array<{ x: number; y: number; z: number; kind: 'high' | 'low' }> {
  const { width: W, height: H, data, nodata } = dtm;
  const out: Array<{ x: number; y: number; z: number; kind: 'high' | 'low' }> = [];
  // The window's cells (offsets from its centre), nearest first: a 3×3 extreme that is none over the window
  // mostly meets a higher (lower) cell close by. Which cells stand out does not depend on the order.
  const cells: Array<{ offset: number; d2: number }> = [];
  for (let dr = -radius; dr <= radius; dr++) {
    for (let dc = -radius; dc <= radius; dc++) {
      const d2 = dr * dr + dc * dc;
      if (d2 <= radius * radius && d2 > 0) cells.push({ offset: dr * W + dc, d2 });
    }
  }
  const disk = Int32Array.from(
    cells.sort((a, b) => a.d2 - b.d2),
    (cell) => cell.offset,
  );
  for (let r = radius; r < H - radius && out.length < limit; r += 1) {
    for (let c = radius; c < W - radius && out.length < limit; c += 1) {
      const i = r * W + c;
      const v = data[i]!;
      if (v === nodata) continue;
      // Only a 3×3 extreme can be one over the whole window. Most cells lie on a slope: a neighbour above
      // and one below, most often found among the left and right ones, else the upper and lower ones.
      const west = data[i - 1]!;
      const east = data[i + 1]!;
      if ((west > v && east < v) || (west < v && east > v)) continue;
      const north = data[i - W]!;
      const south = data[i + W]!;
      if ((north > v && south < v) || (north < v && south > v)) continue;
      // Else the whole 3×3, stopping at the first neighbour above and one below.
      let above = 0;
      let below = 0;
      for (let dr = -1; dr <= 1 && !(above && below); dr++) {
        const row = (r + dr) * W + c;
        for (let dc = -1; dc <= 1; dc++) {
          const u = data[row + dc]!;
          if (u > v) above = 1;
          else if (u < v) below = 1;
        }
      }
      if (above && below) continue;
      if (!above && !below) continue;
      let isHigh = above === 0;
      let isLow = below === 0;
      let lo = v;
      let hi = v;
      for (let k = 0; k < disk.length; k++) {
        const u = data[i + disk[k]!]!;
        if (u === nodata) {
          isHigh = false;
          isLow = false;
          break;
        }
        if (u >= v) isHigh = false;
        if (u <= v) isLow = false;
        if (!isHigh && !isLow) break;
        if (u < lo) lo = u;
        if (u > hi) hi = u;
      }
      const x = dtm.originX + (c + 0.5) * dtm.resolution;
      const y = dtm.originY - (r + 0.5) * dtm.resolution;
      if (isHigh && v - lo >= prominence) out.push({ x, y, z: v, kind: 'high' });
      if (isLow && hi - v >= prominence) out.push({ x, y, z: v, kind: 'low' });
    }
  }
  return out;
}

/** What the plan drew, per layer. */
export interface TopographicMapFigures {
  scale: number;
  entities: number;
  contours: number;
  spotHeights: number;
  buildings: number;
  trees: number;
  powerLines: number;
}

/**
 * The surveyor's plan in one 3D DXF (project CRS, metres): minor and major
 * contours at their elevation (majors labelled along the line), spot heights on
 * a round grid and at local highs and lows, building outlines, tree crowns and
 * tops (labelled with their height), power lines in 3D, and a frame with a
 * title block (project, CRS, date, scale, north arrow, legend) sized for an A1
 * sheet at the chosen scale.
 */
export async function writeTopographicMap(
  file: string,
  data: {
    name: string;
    crsName: string;
    dtm: Raster;
    contours: ContourLine[];
    buildings?: Array<{ rings: number[][][]; groundZ: number | null }>;
    crowns?: TreeCrownsValue;
    powerLines?: Array<{ coordinates: number[][] }>;
    date: Date;
    verticalUnitToMetre: number;
  },
): Promise<{ bytes: number; figures: TopographicMapFigures }> {
  const { dtm } = data;
  const doc = new DxfDocument({ units: 'm' });
  const layer = (k: keyof typeof LAYERS) => doc.addLayer(LAYERS[k][0], LAYERS[k][1]);
  const minX = dtm.originX;
  const maxY = dtm.originY;
  const maxX = minX + dtm.width * dtm.resolution;
  const minY = maxY - dtm.height * dtm.resolution;
  const unitToMetre = dtm.crs?.horizontalUnitToMetre || 1;
  const scale = planScale((maxX - minX) * unitToMetre, (maxY - minY) * unitToMetre);
  // 2.5 mm text on paper, in drawing units.
  const text = (0.0025 * scale) / unitToMetre;
  const figures: TopographicMapFigures = {
    scale,
    entities: 0,
    contours: 0,
    spotHeights: 0,
    buildings: 0,
    trees: 0,
    powerLines: 0,
  };

  const minor = layer('minor');
  const major = layer('major');
  const labels = layer('majorLabels');
  for (const line of data.contours) {
    const c = line.coordinates;
    if (c.length < 4) continue;
    // Drawn from the line's own flat coordinates (no array per vertex): the polyline3d of its points at its elevation.
    doc.polylineAt(line.kind === 'major' ? major : minor, c, line.elevation, line.closed);
    figures.contours++;
    const points = c.length >> 1;
    if (line.kind !== 'major' || points < 3) continue;
    // The label sits on the middle of the line, along it, reading upwards.
    const m = Math.floor(points / 2);
    const ax = c[2 * m - 2]!;
    const ay = c[2 * m - 1]!;
    const bx = c[2 * m]!;
    const by = c[2 * m + 1]!;
    let angle = (Math.atan2(by - ay, bx - ax) * 180) / Math.PI;
    if (angle > 90) angle -= 180;
    if (angle < -90) angle += 180;
    const vu = data.verticalUnitToMetre;
    const label = `${Math.round(line.elevation * vu * 10) / 10}`;
    doc.text(labels, (ax + bx) / 2, (ay + by) / 2, line.elevation, text * 0.8, label, angle);
  }

  // Spot heights: a round grid of about eight by eight, then the local highs and lows.
  const spots = layer('spots');
  const step = niceStep(Math.max(maxX - minX, maxY - minY) / 8);
  for (let x = Math.ceil(minX / step) * step; x < maxX; x += step) {
    for (let y = Math.ceil(minY / step) * step; y < maxY; y += step) {
      const z = sampleBilinear(dtm, x, y);
      if (Number.isNaN(z)) continue;
      doc.point(spots, x, y, z);
      doc.text(spots, x + text * 0.4, y + text * 0.4, z, text * 0.7, (z * data.verticalUnitToMetre).toFixed(2));
      figures.spotHeights++;
    }
  }
  const radius = Math.min(40, Math.max(3, Math.round(step / 4 / dtm.resolution)));
  for (const e of localExtremes(dtm, radius, 1 / data.verticalUnitToMetre, 200)) {
    doc.point(spots, e.x, e.y, e.z);
    const mark = e.kind === 'high' ? '+' : '-';
    doc.text(
      spots,
      e.x + text * 0.4,
      e.y + text * 0.4,
      e.z,
      text * 0.7,
      `${mark}${(e.z * data.verticalUnitToMetre).toFixed(2)}`,
    );
    figures.spotHeights++;
  }

  if (data.buildings?.length) {
    const b = layer('buildings');
    for (const building of data.buildings) {
      const z = building.groundZ ?? 0;
      for (const ring of building.rings)
        doc.polyline3d(
          b,
          ring.map((p) => [p[0]!, p[1]!, z]),
          true,
        );
      figures.buildings++;
    }
  }
  if (data.crowns) {
    const crowns = layer('crowns');
    const tops = layer('tops');
    const byId = new Map(data.crowns.tops.tops.map((t) => [t.treeId, t]));
    for (const crown of data.crowns.crowns) {
      const top = byId.get(crown.treeId)!;
      const z = Number.isNaN(top.z) ? 0 : top.z;
      if (crown.ring)
        doc.polyline3d(
          crowns,
          crown.ring.map((p) => [p[0]!, p[1]!, z]),
          true,
        );
      doc.point(tops, top.x, top.y, z);
      doc.text(tops, top.x + text * 0.3, top.y + text * 0.3, z, text * 0.6, crown.height.toFixed(2));
      figures.trees++;
    }
  }
  if (data.powerLines?.length) {
    const power = layer('power');
    for (const line of data.powerLines) {
      doc.polyline3d(power, line.coordinates, false);
      figures.powerLines++;
    }
  }

  // Frame with a margin, and the title block to its right.
  const frame = layer('frame');
  const margin = text * 4;
  const fx0 = minX - margin;
  const fy0 = minY - margin;
  const fx1 = maxX + margin;
  const fy1 = maxY + margin;
  const z0 = 0;
  doc.polyline3d(
    frame,
    [
      [fx0, fy0, z0],
      [fx1, fy0, z0],
      [fx1, fy1, z0],
      [fx0, fy1, z0],
    ],
    true,
  );
  const title = layer('title');
  const bw = (0.15 * scale) / unitToMetre;
  const tx0 = fx1;
  const tx1 = fx1 + bw;
  doc.polyline3d(
    title,
    [
      [tx0, fy0, z0],
      [tx1, fy0, z0],
      [tx1, fy1, z0],
      [tx0, fy1, z0],
    ],
    true,
  );
  let y = fy1 - text * 3;
  const line = (s: string, h = text) => {
    doc.text(title, tx0 + text, y, z0, h, s);
    y -= h * 1.8;
  };
  line(data.name, text * 1.6);
  line('Topographic map / Plan topographique');
  line(`CRS: ${data.crsName}`);
  line(`Date: ${data.date.toISOString().slice(0, 10)}`);
  line(`Scale / Echelle 1:${scale}`);
  line('Heights in metres / Altitudes en metres');
  // North arrow.
  const ax = tx0 + bw / 2;
  const ay = y - text * 6;
  doc.polyline3d(
    title,
    [
      [ax, ay + text * 4, z0],
      [ax - text, ay, z0],
      [ax, ay + text, z0],
      [ax + text, ay, z0],
    ],
    true,
  );
  doc.text(title, ax - text * 0.35, ay + text * 4.6, z0, text * 1.2, 'N');
  y = ay - text * 3;
  // Legend: a sample of each drawn layer with its name.
  line('Legend / Legende', text * 1.2);
  for (const [key, label] of [
    ['major', 'Major contours / Courbes maitresses'],
    ['minor', 'Minor contours / Courbes intermediaires'],
    ['buildings', 'Buildings / Batiments'],
    ['crowns', 'Tree crowns / Houppiers'],
    ['power', 'Power lines / Lignes electriques'],
  ] as const) {
    const sample = doc.addLayer(LAYERS[key][0], LAYERS[key][1]);
    doc.polyline3d(sample, [
      [tx0 + text, y + text * 0.4, z0],
      [tx0 + text * 5, y + text * 0.4, z0],
    ]);
    doc.text(title, tx0 + text * 6, y, z0, text * 0.8, label);
    y -= text * 1.6;
  }
  doc.text(title, tx0 + text, y - text, z0, text * 0.7, '+/- spot height at a local high/low');
  figures.entities = doc.entityCount;
  return { bytes: await doc.write(file), figures };
}

/** TOPOGRAPHIC_MAP: the surveyor's plan as a 3D DXF (contours, spot heights, buildings, trees, power lines, title block). */
export const topographicMapProduct = defineProduct({
  ...productEntry('topographic-map'),
  async run(ctx) {
    const { dtm, crs, units } = ctx.need<DtmValue>('dtm');
    const { lines } = ctx.need<{ lines: ContourLine[] }>('contours');
    const buildings = ctx.use<{ buildings: Array<{ rings: number[][][]; groundZ: number | null }> }>('buildings');
    const crowns = ctx.use<TreeCrownsValue>('tree-crowns');
    const power = ctx.use<{ conductors?: Array<{ coordinates: number[][] }> }>('power-lines');
    const file = path.join(ctx.workDir, 'topographic-map.dxf');
    const { figures } = await writeTopographicMap(file, {
      name: ctx.input.name,
      crsName: crs.epsg ? `${crs.name} (EPSG:${crs.epsg})` : crs.name,
      dtm,
      contours: lines,
      ...(buildings?.buildings ? { buildings: buildings.buildings } : {}),
      ...(crowns ? { crowns } : {}),
      ...(power?.conductors ? { powerLines: power.conductors } : {}),
      date: new Date(),
      verticalUnitToMetre: units.verticalUnitToMetre,
    });
    return {
      files: [{ path: file, format: 'DXF', extension: 'dxf', epsg: crs.epsg, count: figures.entities }],
      figures: { ...figures },
    };
  },
});
