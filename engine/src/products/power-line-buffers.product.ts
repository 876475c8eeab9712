import path from 'node:path';
import type { StepContext } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import { defineProduct } from '../core/product.js';
import { type GridPlacement, labelComponents, traceRegions } from '../raster/region-outlines.js';
import type { Feature } from '../writers/geojson.writer.js';
import { productEntry } from './catalog.js';
import type { Conductor, MetricFrame } from './power-lines.conductors.js';
import { ConductorIndex, type VegetationNearLines, vegetationNearLines } from './power-lines.geometry.js';
import type { PowerLinesValue } from './power-lines.product.js';
import { type ClassifiedCloud, type DtmValue, featuresToWgs84, writeWgs84GeoJson } from './product-values.js';

/** Cell size of the buffer rasters, metres. */
export const BUFFER_CELL_M = 0.5;

/** One part of a buffer zone (a zone around lines far apart has several). */
export interface BufferPart {
  /** Outer ring then holes, project CRS. */
  rings: number[][][];
  /** Plan area, m² (cells × cell area). */
  areaM2: number;
  /** Vegetation returns in this part within the zone's 3D distance of a conductor. */
  pointCount: number;
}

/** A buffer zone: the ground within `radiusM` (in plan) of a conductor. */
export interface BufferZone {
  /** 1 for the smallest radius. */
  zone: number;
  radiusM: number;
  parts: BufferPart[];
  areaM2: number;
  /** Vegetation returns within `radiusM` of a conductor in 3D. */
  pointCount: number;
}

/** Zone radii in metres from the option (centimetres), smallest first. */
export function zoneRadii(buffersCm: readonly number[]): number[] {
  return [...buffersCm].map((cm) => cm / 100).sort((a, b) => a - b);
}

/**
 * Plan distance (metres) from the centre of every cell of a 0.5 m grid to
 * the nearest conductor, up to `reach` (Infinity beyond), and where that
 * grid lies in the project CRS. The grid is north-up (row 0 north).
 */
export function conductorDistanceGrid(
  conductors: readonly Pick<Conductor, 'local'>[],
  frame: MetricFrame,
  reach: number,
  cell = BUFFER_CELL_M,
  context: StepContext = {},
): { distance: Float32Array; grid: GridPlacement; X0: number; Y1: number } | null {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const c of conductors) {
    for (let i = 0; i < c.local.length; i += 3) {
      x0 = Math.min(x0, c.local[i]!);
      x1 = Math.max(x1, c.local[i]!);
      y0 = Math.min(y0, c.local[i + 1]!);
      y1 = Math.max(y1, c.local[i + 1]!);
    }
  }
  if (!(x1 >= x0)) return null;
  const margin = reach + 2 * cell;
  const X0 = Math.floor((x0 - margin) / cell) * cell;
  const Y1 = Math.ceil((y1 + margin) / cell) * cell;
  const W = Math.ceil((x1 + margin - X0) / cell);
  const H = Math.ceil((Y1 - (y0 - margin)) / cell);
  const distance = new Float32Array(W * H).fill(Number.POSITIVE_INFINITY);
  const span = Math.ceil(reach / cell) + 1;
  let segments = 0;
  for (const c of conductors) {
    const v = c.local;
    for (let i = 0; i + 5 < v.length; i += 3) {
      if ((++segments & 0x3ff) === 0 && context.signal?.aborted) throw new Cancelled();
      const ax = v[i]!;
      const ay = v[i + 1]!;
      const dx = v[i + 3]! - ax;
      const dy = v[i + 4]! - ay;
      const len2 = dx * dx + dy * dy;
      const c0 = Math.max(0, Math.floor((Math.min(ax, ax + dx) - X0) / cell) - span);
      const c1 = Math.min(W - 1, Math.floor((Math.max(ax, ax + dx) - X0) / cell) + span);
      const r0 = Math.max(0, Math.floor((Y1 - Math.max(ay, ay + dy)) / cell) - span);
      const r1 = Math.min(H - 1, Math.floor((Y1 - Math.min(ay, ay + dy)) / cell) + span);
      for (let r = r0; r <= r1; r++) {
        const py = Y1 - (r + 0.5) * cell;
        for (let col = c0; col <= c1; col++) {
          const px = X0 + (col + 0.5) * cell;
          let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
          t = t < 0 ? 0 : t > 1 ? 1 : t;
          const ex = ax + t * dx - px;
          const ey = ay + t * dy - py;
          const d2 = ex * ex + ey * ey;
          const k = r * W + col;
          if (d2 < distance[k]!) distance[k] = d2;
        }
      }
    }
  }
  for (let k = 0; k < distance.length; k++) distance[k] = Math.sqrt(distance[k]!);
  const grid: GridPlacement = {
    width: W,
    height: H,
    originX: frame.ox + X0 / frame.hu,
    originY: frame.oy + Y1 / frame.hu,
    resolution: cell / frame.hu,
  };
  return { distance, grid, X0, Y1 };
}

/**
 * Buffer zones around the conductors: per radius, the plan-view area within
 * that radius of a conductor (the distance grid at 0.5 m thresholded and its
 * regions traced, so outlines are within a quarter cell of the exact buffer
 * after simplification), with the vegetation returns within that 3D distance
 * of the catenaries.
 *
 * @example
 * const zones = bufferZones(lines, near, [3, 6, 9]);
 */
export function bufferZones(
  lines: Pick<PowerLinesValue, 'conductors' | 'frame'>,
  near: VegetationNearLines,
  cloud: { x: Float64Array; y: Float64Array },
  radii: readonly number[],
  context: StepContext = {},
): BufferZone[] {
  const rmax = Math.max(0, ...radii);
  const field = conductorDistanceGrid(lines.conductors, lines.frame, rmax, BUFFER_CELL_M, context);
  if (!field) return radii.map((radiusM, k) => ({ zone: k + 1, radiusM, parts: [], areaM2: 0, pointCount: 0 }));
  const { distance, grid, X0, Y1 } = field;
  const { width: W, height: H } = grid;
  const { ox, oy, hu } = lines.frame;
  return radii.map((radiusM, k) => {
    const mask = new Uint8Array(W * H);
    for (let i = 0; i < mask.length; i++) mask[i] = distance[i]! <= radiusM ? 1 : 0;
    const { labels, count, cells } = labelComponents(mask, W, H);
    const polygons = traceRegions(labels, count, grid);
    const counts = new Int32Array(count + 1);
    let pointCount = 0;
    for (let p = 0; p < near.index.length; p++) {
      if (!(near.distance[p]! <= radiusM)) continue;
      pointCount++;
      const i = near.index[p]!;
      const c = Math.floor(((cloud.x[i]! - ox) * hu - X0) / BUFFER_CELL_M);
      const r = Math.floor((Y1 - (cloud.y[i]! - oy) * hu) / BUFFER_CELL_M);
      // The return is within the radius; its cell centre may lie a little beyond: look next door.
      let label = 0;
      for (let d = 0; d <= 2 && !label; d++) {
        for (let dr = -d; dr <= d && !label; dr++) {
          for (let dc = -d; dc <= d && !label; dc++) {
            const rr = r + dr;
            const cc = c + dc;
            if (rr >= 0 && rr < H && cc >= 0 && cc < W) label = labels[rr * W + cc]!;
          }
        }
      }
      counts[label || 1]!++;
    }
    const cellArea = BUFFER_CELL_M * BUFFER_CELL_M;
    const parts = polygons.map((p) => ({
      rings: p.rings,
      areaM2: cells[p.label]! * cellArea,
      pointCount: counts[p.label]!,
    }));
    return { zone: k + 1, radiusM, parts, areaM2: parts.reduce((s, p) => s + p.areaM2, 0), pointCount };
  });
}

/** GeoJSON polygons of buffer zones (project CRS), widest zone first: `zone`, `radiusM`, `pointCount`, `areaM2`. */
export function* bufferFeatures(zones: readonly BufferZone[]): Generator<Feature> {
  for (const z of [...zones].reverse()) {
    for (const p of z.parts) {
      yield {
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: p.rings },
        properties: {
          zone: z.zone,
          radiusM: z.radiusM,
          pointCount: p.pointCount,
          areaM2: Math.round(p.areaM2 * 100) / 100,
        },
      };
    }
  }
}

/** What the buffer product hands on. */
export interface PowerLineBuffersValue {
  zones: BufferZone[];
  figures: Record<string, unknown>;
}

/**
 * POWER_LINE_BUFFERS: per zone radius of `powerLineBuffersCm`, the plan-view
 * area within that radius of the conductors (0.5 m grid, traced) and the
 * vegetation returns within that 3D distance of the catenaries.
 */
export const powerLineBuffersProduct = defineProduct<PowerLineBuffersValue>({
  ...productEntry('power-line-buffers'),
  needFailed: {
    code: 'NO_POWER_LINES',
    message: 'the power lines could not be made, so neither can their buffer zones',
  },
  async run(ctx) {
    const { cloud } = ctx.need<ClassifiedCloud>('classify');
    const { dtm } = ctx.need<DtmValue>('dtm');
    const lines = ctx.need<PowerLinesValue>('power-lines');
    const radii = zoneRadii(ctx.options.powerLineBuffersCm);
    const index = new ConductorIndex(lines.conductors);
    const near = vegetationNearLines(cloud, dtm, lines.frame, index, Math.max(...radii), lines.towers, {
      signal: ctx.signal,
    });
    ctx.progress(0.4);
    const zones = bufferZones(lines, near, cloud, radii, { signal: ctx.signal });
    const file = path.join(ctx.workDir, 'power-line-buffers.geojson');
    const written = await writeWgs84GeoJson(file, bufferFeatures(zones), lines.crs);
    const figures = {
      zones: zones.map((z) => ({
        zone: z.zone,
        radiusM: z.radiusM,
        areaM2: Math.round(z.areaM2),
        pointCount: z.pointCount,
        parts: z.parts.length,
      })),
      ...(lines.conductors.length === 0 ? { message: 'no conductors: no buffer zones' } : {}),
    };
    return {
      files: [{ path: file, format: 'GeoJSON', extension: 'geojson', epsg: 4326, count: written.features }],
      features: () => featuresToWgs84(bufferFeatures(zones), lines.crs),
      value: { zones, figures },
      figures,
    };
  },
});
