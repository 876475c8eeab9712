/**
 * Agreement of building footprints with a reference labelling (the vendor's
 * class 6): both rasterised on the same 0.5 m grid (cells aligned on
 * multiples of the cell). The reference footprint is the occupancy of the
 * reference building points closed by one cell (3×3); footprints are the
 * cells whose centre lies inside a polygon.
 */
import type { PointChunk } from '../core/chunk.js';
import { BUILDING_CELL_M, MIN_BUILDING_AREA_M2 } from './buildings.product.js';

/** What {@link footprintAgreement} measures (areas in m², distances in metres). */
export interface FootprintAgreement {
  /** Intersection over union of the two rasters. */
  iou: number;
  referenceAreaM2: number;
  footprintAreaM2: number;
  /** Connected reference footprints (4-connected cells) of at least {@link MIN_BUILDING_AREA_M2}. */
  referenceBuildings: number;
  /** Connected footprints (touching polygons count once) of at least that area. */
  footprintBuildings: number;
  polygons: number;
  /** Reference buildings covered at least half by footprints (object completeness). */
  referenceFound: number;
  /** Footprint buildings lying at least half on the reference (object correctness). */
  footprintsOnReference: number;
  /** |footprintBuildings − referenceBuildings| / referenceBuildings. */
  countError: number;
  /**
   * Mean distance from the outlines (sampled every 0.25 m) of the polygons
   * lying at least half on the reference to the nearest reference boundary
   * (cell edges between reference and other cells), capped at 5 m. Edges two
   * buildings share (footprint on both sides) are left out. NaN when no
   * polygon lies half on the reference.
   */
  outlineErrorM: number;
  /** The other way: boundary of the reference buildings we cover half of to the nearest outline (NaN: none). */
  referenceToOutlineM: number;
  /** Footprint area off the reference (false footprint), and of it, in footprints touching no reference cell. */
  falseAreaM2: number;
  falseAloneAreaM2: number;
  /** Reference area off the footprints (missed), and of it, in reference buildings no footprint touches. */
  missedAreaM2: number;
  missedAloneAreaM2: number;
}

interface SegmentIndex {
  seg: number[];
  buckets: Map<number, number[]>;
  size: number;
}

function indexSegments(seg: number[], size: number): SegmentIndex {
  const buckets = new Map<number, number[]>();
  for (let s = 0; s < seg.length; s += 4) {
    const c0 = Math.floor(Math.min(seg[s]!, seg[s + 2]!) / size);
    const c1 = Math.floor(Math.max(seg[s]!, seg[s + 2]!) / size);
    const r0 = Math.floor(Math.min(seg[s + 1]!, seg[s + 3]!) / size);
    const r1 = Math.floor(Math.max(seg[s + 1]!, seg[s + 3]!) / size);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const key = r * 1_000_003 + c;
        const list = buckets.get(key);
        if (list) list.push(s);
        else buckets.set(key, [s]);
      }
    }
  }
  return { seg, buckets, size };
}

/** Distance from (px, py) to the nearest indexed segment, at most `cap`. */
function nearest(ix: SegmentIndex, px: number, py: number, cap: number): number {
  const c = Math.floor(px / ix.size);
  const r = Math.floor(py / ix.size);
  let best = cap * cap;
  const maxRing = Math.ceil(cap / ix.size) + 1;
  for (let ring = 0; ring <= maxRing; ring++) {
    if ((ring - 1) * ix.size > Math.sqrt(best)) break;
    for (let dr = -ring; dr <= ring; dr++) {
      for (let dc = -ring; dc <= ring; dc++) {
        if (Math.max(Math.abs(dr), Math.abs(dc)) !== ring) continue;
        const list = ix.buckets.get((r + dr) * 1_000_003 + c + dc);
        if (!list) continue;
        for (const s of list) {
          const ax = ix.seg[s]!;
          const ay = ix.seg[s + 1]!;
          const dx = ix.seg[s + 2]! - ax;
          const dy = ix.seg[s + 3]! - ay;
          const l2 = dx * dx + dy * dy;
          let t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
          t = t < 0 ? 0 : t > 1 ? 1 : t;
          const d = (ax + t * dx - px) ** 2 + (ay + t * dy - py) ** 2;
          if (d < best) best = d;
        }
      }
    }
  }
  return Math.sqrt(best);
}

/** Closing (dilation then erosion) by a disc of `r` cells (3×3 for r = 1); the input's cells stay set. */
function closeDisc(mask: Uint8Array, cols: number, rows: number, r: number): Uint8Array {
  const se: number[] = [];
  const rr = (r + 0.5) * (r + 0.5);
  for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) if (dx * dx + dy * dy <= rr) se.push(dx, dy);
  const dil = new Uint8Array(mask.length);
  for (let y = r; y < rows - r; y++) {
    for (let x = r; x < cols - r; x++) {
      if (!mask[y * cols + x]) continue;
      for (let s = 0; s < se.length; s += 2) dil[(y + se[s + 1]!) * cols + x + se[s]!] = 1;
    }
  }
  const out = new Uint8Array(mask.length);
  for (let y = r; y < rows - r; y++) {
    for (let x = r; x < cols - r; x++) {
      const k = y * cols + x;
      if (!dil[k]) continue;
      let all = 1;
      for (let s = 0; s < se.length && all; s += 2) all = dil[(y + se[s + 1]!) * cols + x + se[s]!]!;
      out[k] = all;
    }
  }
  for (let k = 0; k < mask.length; k++) if (mask[k]) out[k] = 1;
  return out;
}

/** Labels 4-connected components of set cells; returns labels (-1 unset) and sizes. */
function components(mask: Uint8Array, cols: number): { label: Int32Array; sizes: number[] } {
  const label = new Int32Array(mask.length).fill(-1);
  const queue = new Int32Array(mask.length);
  const sizes: number[] = [];
  for (let k0 = 0; k0 < mask.length; k0++) {
    if (!mask[k0] || label[k0]! >= 0) continue;
    const l = sizes.length;
    let head = 0;
    let tail = 0;
    queue[tail++] = k0;
    label[k0] = l;
    while (head < tail) {
      const k = queue[head++]!;
      const c = k % cols;
      for (const n of [c > 0 ? k - 1 : -1, c < cols - 1 ? k + 1 : -1, k - cols, k + cols]) {
        if (n >= 0 && n < mask.length && mask[n] && label[n]! < 0) {
          label[n] = l;
          queue[tail++] = n;
        }
      }
    }
    sizes.push(tail);
  }
  return { label, sizes };
}

/**
 * Compares footprint polygons (GeoJSON Polygon coordinates in the cloud's
 * CRS) with the reference building points (`reference[i] === 6`), whose
 * occupancy is closed by a disc of `referenceClosing` cells (1: 3×3; a
 * sparse cloud needs about its point spacing to make roofs whole).
 *
 * @example
 * const q = footprintAgreement(cloud, vendor, buildings.map((b) => b.rings), 1);
 */
export function footprintAgreement(
  cloud: PointChunk,
  reference: Uint8Array,
  polygons: number[][][][],
  unitToMetre: number,
  referenceClosing = 1,
): FootprintAgreement {
  const cell = BUILDING_CELL_M / unitToMetre;
  const cellArea = BUILDING_CELL_M * BUILDING_CELL_M;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  const grow = (x: number, y: number) => {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  };
  for (let i = 0; i < cloud.count; i++) if (reference[i] === 6) grow(cloud.x[i]!, cloud.y[i]!);
  for (const p of polygons) for (const ring of p) for (const [x, y] of ring) grow(x!, y!);
  if (minX > maxX) {
    return {
      iou: 1,
      referenceAreaM2: 0,
      footprintAreaM2: 0,
      referenceBuildings: 0,
      footprintBuildings: 0,
      polygons: 0,
      referenceFound: 0,
      footprintsOnReference: 0,
      countError: 0,
      outlineErrorM: 0,
      referenceToOutlineM: 0,
      falseAreaM2: 0,
      falseAloneAreaM2: 0,
      missedAreaM2: 0,
      missedAloneAreaM2: 0,
    };
  }
  const pad = 4 + Math.round(referenceClosing);
  const x0 = (Math.floor(minX / cell) - pad) * cell;
  const y0 = (Math.floor(minY / cell) - pad) * cell;
  const cols = Math.floor((maxX - x0) / cell) + 1 + pad;
  const rows = Math.floor((maxY - y0) / cell) + 1 + pad;
  const n = cols * rows;

  // Reference: occupancy closed by one cell.
  const occ = new Uint8Array(n);
  for (let i = 0; i < cloud.count; i++) {
    if (reference[i] !== 6) continue;
    occ[Math.floor((cloud.y[i]! - y0) / cell) * cols + Math.floor((cloud.x[i]! - x0) / cell)] = 1;
  }
  const ref = closeDisc(occ, cols, rows, Math.max(1, Math.round(referenceClosing)));
  for (let k = 0; k < n; k++) if (occ[k]) ref[k] = 1;

  // Footprints: cells whose centre is inside a polygon (even-odd over its rings).
  const fp = new Uint8Array(n);
  const polyOf = new Int32Array(n).fill(-1);
  polygons.forEach((poly, pi) => {
    let pMinY = Number.POSITIVE_INFINITY;
    let pMaxY = Number.NEGATIVE_INFINITY;
    for (const [, y] of poly[0]!) {
      pMinY = Math.min(pMinY, y!);
      pMaxY = Math.max(pMaxY, y!);
    }
    const r0 = Math.max(0, Math.floor((pMinY - y0) / cell));
    const r1 = Math.min(rows - 1, Math.floor((pMaxY - y0) / cell));
    for (let r = r0; r <= r1; r++) {
      const yc = y0 + (r + 0.5) * cell;
      const xs: number[] = [];
      for (const ring of poly) {
        for (let i = 0; i + 1 < ring.length; i++) {
          const [ax, ay] = ring[i]! as [number, number];
          const [bx, by] = ring[i + 1]! as [number, number];
          if (ay > yc !== by > yc) xs.push(ax + ((yc - ay) * (bx - ax)) / (by - ay));
        }
      }
      xs.sort((a, b) => a - b);
      for (let s = 0; s + 1 < xs.length; s += 2) {
        const c0 = Math.max(0, Math.ceil((xs[s]! - x0) / cell - 0.5));
        const c1 = Math.min(cols - 1, Math.ceil((xs[s + 1]! - x0) / cell - 0.5) - 1);
        for (let c = c0; c <= c1; c++) {
          fp[r * cols + c] = 1;
          polyOf[r * cols + c] = pi;
        }
      }
    }
  });

  let inter = 0;
  let union = 0;
  let refCells = 0;
  let fpCells = 0;
  for (let k = 0; k < n; k++) {
    if (ref[k] && fp[k]) inter++;
    if (ref[k] || fp[k]) union++;
    refCells += ref[k]!;
    fpCells += fp[k]!;
  }
  const minCells = Math.ceil(MIN_BUILDING_AREA_M2 / cellArea);
  const refComp = components(ref, cols);
  const fpComp = components(fp, cols);
  const referenceBuildings = refComp.sizes.filter((s) => s >= minCells).length;
  const footprintBuildings = fpComp.sizes.filter((s) => s >= minCells).length;

  // Reference boundary: cell edges between reference and other cells.
  const refEdges: number[] = [];
  // Reference components overlapping our footprints by half their area.
  const refOverlap = new Int32Array(refComp.sizes.length);
  const polyCells = new Int32Array(polygons.length);
  const polyOnRef = new Int32Array(polygons.length);
  for (let k = 0; k < n; k++) {
    if (fp[k] && ref[k]) refOverlap[refComp.label[k]!]!++;
    const p = polyOf[k]!;
    if (p >= 0) {
      polyCells[p]!++;
      if (ref[k]) polyOnRef[p]!++;
    }
  }
  const fpOnRef = new Int32Array(fpComp.sizes.length);
  for (let k = 0; k < n; k++) if (fp[k] && ref[k]) fpOnRef[fpComp.label[k]!]!++;
  const referenceFound = refComp.sizes.filter((s, l) => s >= minCells && refOverlap[l]! >= 0.5 * s).length;
  const footprintsOnReference = fpComp.sizes.filter((s, l) => s >= minCells && fpOnRef[l]! >= 0.5 * s).length;
  let falseCells = 0;
  let falseAlone = 0;
  let missedCells = 0;
  let missedAlone = 0;
  for (let k = 0; k < n; k++) {
    if (fp[k] && !ref[k]) {
      falseCells++;
      if (fpOnRef[fpComp.label[k]!] === 0) falseAlone++;
    }
    if (ref[k] && !fp[k]) {
      missedCells++;
      if (refOverlap[refComp.label[k]!] === 0) missedAlone++;
    }
  }
  const refSamples: number[] = [];
  for (let r = 1; r < rows - 1; r++) {
    for (let c = 1; c < cols - 1; c++) {
      const k = r * cols + c;
      if (!ref[k]) continue;
      const xa = x0 + c * cell;
      const ya = y0 + r * cell;
      const l = refComp.label[k]!;
      const matched = refOverlap[l]! >= 0.5 * refComp.sizes[l]!;
      const edge = (ax: number, ay: number, bx: number, by: number) => {
        refEdges.push(ax, ay, bx, by);
        if (matched) refSamples.push((ax + bx) / 2, (ay + by) / 2);
      };
      if (!ref[k - cols]) edge(xa, ya, xa + cell, ya);
      if (!ref[k + cols]) edge(xa, ya + cell, xa + cell, ya + cell);
      if (!ref[k - 1]) edge(xa, ya, xa, ya + cell);
      if (!ref[k + 1]) edge(xa + cell, ya, xa + cell, ya + cell);
    }
  }
  const footprintAt = (x: number, y: number) => {
    const c = Math.floor((x - x0) / cell);
    const r = Math.floor((y - y0) / cell);
    return c >= 0 && r >= 0 && c < cols && r < rows && fp[r * cols + c] === 1;
  };
  const cap = 5 / unitToMetre;
  const refIndex = indexSegments(refEdges, 4 * cell);
  const outEdges: number[] = [];
  let sum = 0;
  let samples = 0;
  const step = 0.25 / unitToMetre;
  polygons.forEach((poly, pi) => {
    const matched = polyCells[pi]! > 0 && polyOnRef[pi]! >= 0.5 * polyCells[pi]!;
    for (const ring of poly) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const [ax, ay] = ring[i]! as [number, number];
        const [bx, by] = ring[i + 1]! as [number, number];
        outEdges.push(ax, ay, bx, by);
        if (!matched) continue;
        const len = Math.hypot(bx - ax, by - ay);
        if (len === 0) continue;
        const m = Math.max(1, Math.round(len / step));
        // Normal offset probing both sides: an edge with footprint on both sides is shared by two buildings.
        const nx = (-(by - ay) / len) * 0.75 * cell;
        const ny = ((bx - ax) / len) * 0.75 * cell;
        for (let s = 0; s < m; s++) {
          const t = (s + 0.5) / m;
          const px = ax + t * (bx - ax);
          const py = ay + t * (by - ay);
          if (footprintAt(px + nx, py + ny) && footprintAt(px - nx, py - ny)) continue;
          sum += nearest(refIndex, px, py, cap);
          samples++;
        }
      }
    }
  });
  const outIndex = indexSegments(outEdges, 4 * cell);
  let back = 0;
  for (let s = 0; s < refSamples.length; s += 2) back += nearest(outIndex, refSamples[s]!, refSamples[s + 1]!, cap);
  return {
    iou: union > 0 ? inter / union : 1,
    referenceAreaM2: refCells * cellArea,
    footprintAreaM2: fpCells * cellArea,
    referenceBuildings,
    footprintBuildings,
    polygons: polygons.length,
    referenceFound,
    footprintsOnReference,
    countError: referenceBuildings > 0 ? Math.abs(footprintBuildings - referenceBuildings) / referenceBuildings : 0,
    outlineErrorM: samples > 0 ? (sum / samples) * unitToMetre : Number.NaN,
    referenceToOutlineM: refSamples.length > 0 ? (back / (refSamples.length / 2)) * unitToMetre : Number.NaN,
    falseAreaM2: falseCells * cellArea,
    falseAloneAreaM2: falseAlone * cellArea,
    missedAreaM2: missedCells * cellArea,
    missedAloneAreaM2: missedAlone * cellArea,
  };
}
