import path from 'node:path';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled } from '../core/errors.js';
import { defineProduct } from '../core/product.js';
import { convexHull, labelComponents, traceRegions } from '../raster/region-outlines.js';
import type { Feature } from '../writers/geojson.writer.js';
import { productEntry } from './catalog.js';
import { zoneRadii } from './power-line-buffers.product.js';
import type { MetricFrame } from './power-lines.conductors.js';
import { ConductorIndex, type VegetationNearLines, vegetationNearLines } from './power-lines.geometry.js';
import type { PowerLinesValue } from './power-lines.product.js';
import { type ClassifiedCloud, type DtmValue, featuresToWgs84, writeWgs84GeoJson } from './product-values.js';

/** Severity of a cluster by the zone it reaches: zone 1 high, 2 medium, 3 low. */
export const SEVERITIES = ['high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Returns closer than this in plan (metres) are one cluster. */
export const CLUSTER_LINK_M = 1;

/**
 * A cluster none of whose returns is farther than this from a conductor
 * (metres) is wire returns the classification labelled vegetation (a second
 * conductor of a bundle, spacers): a branch touching a wire brings the rest
 * of its crown within the zone too.
 */
export const WIRE_HUG_M = 1;

/** A cluster of vegetation too close to the conductors and too tall. */
export interface RiskCluster {
  clusterId: number;
  /** Smallest zone holding one of its returns (1 = nearest). */
  zone: number;
  severity: Severity;
  /** 3D distance of its nearest return to a conductor, metres. */
  minDistance: number;
  /** Height above ground of its highest return, metres. */
  maxHeight: number;
  pointCount: number;
  /** Its returns (indices into the cloud). */
  points: Int32Array;
  /** Outline in the project CRS (closed ring, counter-clockwise). */
  ring: number[][];
}

/**
 * Clusters of the vegetation returns that are within the widest zone (3D) of
 * a conductor and at least `clearanceM` above ground, connected in plan at
 * {@link CLUSTER_LINK_M}; each outlined on a 0.5 m grid (its returns' cells,
 * grown by a cell and closed), or by its convex hull when that grid splits.
 * Clusters hugging a conductor (within {@link WIRE_HUG_M}) are left out and
 * reported to `onWire`.
 *
 * @example
 * const clusters = riskClusters(cloud, near, frame, [3, 6, 9], 3);
 */
export function riskClusters(
  cloud: Pick<PointChunk, 'x' | 'y'>,
  near: VegetationNearLines,
  frame: MetricFrame,
  radii: readonly number[],
  clearanceM: number,
  context: StepContext = {},
  onWire?: (points: number) => void,
): RiskCluster[] {
  const rmax = Math.max(...radii);
  const sel: number[] = [];
  for (let p = 0; p < near.index.length; p++) {
    if (near.distance[p]! <= rmax && near.height[p]! >= clearanceM) sel.push(p);
  }
  const n = sel.length;
  const { ox, oy, hu } = frame;
  const X = Float64Array.from(sel, (p) => (cloud.x[near.index[p]!]! - ox) * hu);
  const Y = Float64Array.from(sel, (p) => (cloud.y[near.index[p]!]! - oy) * hu);
  // Union–find over a 1 m plan grid.
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const link = CLUSTER_LINK_M;
  const cells = new Map<number, number[]>();
  const keyOf = (a: number, b: number) => (a + 1048576) * 2097152 + (b + 1048576);
  for (let k = 0; k < n; k++) {
    const key = keyOf(Math.floor(X[k]! / link), Math.floor(Y[k]! / link));
    const list = cells.get(key);
    if (list) list.push(k);
    else cells.set(key, [k]);
  }
  let visited = 0;
  for (const [key, list] of cells) {
    if ((++visited & 0xfff) === 0 && context.signal?.aborted) throw new Cancelled();
    const a = Math.floor(key / 2097152) - 1048576;
    const b = (key % 2097152) - 1048576;
    for (let da = -1; da <= 1; da++) {
      for (let db = -1; db <= 1; db++) {
        const other = cells.get(keyOf(a + da, b + db));
        if (!other) continue;
        for (const i of list) {
          for (const j of other) {
            if (j <= i) continue;
            if ((X[i]! - X[j]!) ** 2 + (Y[i]! - Y[j]!) ** 2 > link * link) continue;
            const ri = find(i);
            const rj = find(j);
            if (ri !== rj) parent[ri] = rj;
          }
        }
      }
    }
  }
  const groups = new Map<number, number[]>();
  for (let k = 0; k < n; k++) {
    const r = find(k);
    const g = groups.get(r);
    if (g) g.push(k);
    else groups.set(r, [k]);
  }
  const out: Omit<RiskCluster, 'clusterId'>[] = [];
  for (const members of groups.values()) {
    let minDistance = Number.POSITIVE_INFINITY;
    let maxDistance = 0;
    let maxHeight = Number.NEGATIVE_INFINITY;
    for (const k of members) {
      minDistance = Math.min(minDistance, near.distance[sel[k]!]!);
      maxDistance = Math.max(maxDistance, near.distance[sel[k]!]!);
      maxHeight = Math.max(maxHeight, near.height[sel[k]!]!);
    }
    // Every return hugging a conductor: wire returns the classification missed, not a tree.
    if (maxDistance <= WIRE_HUG_M) {
      onWire?.(members.length);
      continue;
    }
    let zone = radii.findIndex((r) => minDistance <= r) + 1;
    if (zone === 0) zone = radii.length;
    out.push({
      zone,
      severity: SEVERITIES[Math.min(zone, 3) - 1]!,
      minDistance,
      maxHeight,
      pointCount: members.length,
      points: Int32Array.from(members, (k) => near.index[sel[k]!]!),
      ring: clusterOutline(X, Y, members, frame),
    });
  }
  out.sort((a, b) => a.zone - b.zone || a.minDistance - b.minDistance);
  return out.map((c, i) => ({ clusterId: i + 1, ...c }));
}

/** Outline of a cluster's returns (metric frame in, project CRS out). */
function clusterOutline(X: Float64Array, Y: Float64Array, members: number[], frame: MetricFrame): number[][] {
  const cell = 0.5;
  let x0 = Number.POSITIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  for (const k of members) {
    x0 = Math.min(x0, X[k]!);
    x1 = Math.max(x1, X[k]!);
    y0 = Math.min(y0, Y[k]!);
    y1 = Math.max(y1, Y[k]!);
  }
  const pad = 3;
  const X0 = Math.floor(x0 / cell) * cell - pad * cell;
  const Y1 = Math.ceil(y1 / cell) * cell + pad * cell;
  const W = Math.ceil((x1 - X0) / cell) + pad + 1;
  const H = Math.ceil((Y1 - y0) / cell) + pad + 1;
  let mask = new Uint8Array(W * H);
  for (const k of members) {
    const c = Math.floor((X[k]! - X0) / cell);
    const r = Math.floor((Y1 - Y[k]!) / cell);
    mask[r * W + c] = 1;
  }
  const morph = (src: Uint8Array, grow: boolean) => {
    const dst = new Uint8Array(W * H);
    for (let r = 1; r < H - 1; r++) {
      for (let c = 1; c < W - 1; c++) {
        let any = 0;
        let all = 1;
        for (let dr = -1; dr <= 1; dr++) {
          for (let dc = -1; dc <= 1; dc++) {
            const v = src[(r + dr) * W + c + dc]!;
            any |= v;
            all &= v;
          }
        }
        dst[r * W + c] = grow ? any : all;
      }
    }
    return dst;
  };
  // Grow each return's cell by one (returns 1 m apart then touch), then close small gaps.
  mask = morph(morph(morph(mask, true), true), false);
  const { labels, count } = labelComponents(mask, W, H);
  const grid = {
    width: W,
    height: H,
    originX: frame.ox + X0 / frame.hu,
    originY: frame.oy + Y1 / frame.hu,
    resolution: cell / frame.hu,
  };
  if (count === 1) {
    const [polygon] = traceRegions(labels, count, grid);
    if (polygon) return polygon.rings[0]!;
  }
  const corners: Array<[number, number]> = [];
  for (const k of members) {
    for (const [dx, dy] of [
      [-cell, -cell],
      [cell, -cell],
      [cell, cell],
      [-cell, cell],
    ] as const) {
      corners.push([frame.ox + (X[k]! + dx) / frame.hu, frame.oy + (Y[k]! + dy) / frame.hu]);
    }
  }
  return convexHull(corners);
}

/** GeoJSON polygons of risk clusters (project CRS): zone, severity, minDistance, maxHeight, pointCount. */
export function* riskFeatures(clusters: readonly RiskCluster[]): Generator<Feature> {
  for (const c of clusters) {
    yield {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [c.ring] },
      properties: {
        clusterId: c.clusterId,
        zone: c.zone,
        severity: c.severity,
        minDistance: Math.round(c.minDistance * 100) / 100,
        maxHeight: Math.round(c.maxHeight * 100) / 100,
        pointCount: c.pointCount,
      },
    };
  }
}

/** Figures of the vegetation risk. */
export function riskFigures(
  clusters: readonly RiskCluster[],
  radii: readonly number[],
  clearanceM: number,
  wireLike = { clusters: 0, points: 0 },
) {
  const perZone: Record<string, number> = {};
  radii.forEach((_, k) => {
    perZone[String(k + 1)] = clusters.filter((c) => c.zone === k + 1).length;
  });
  const min = clusters.reduce((m, c) => Math.min(m, c.minDistance), Number.POSITIVE_INFINITY);
  return {
    clusters: clusters.length,
    clustersPerZone: perZone,
    points: clusters.reduce((s, c) => s + c.pointCount, 0),
    minDistanceM: Number.isFinite(min) ? Math.round(min * 100) / 100 : null,
    clearanceHeightM: clearanceM,
    radiiM: [...radii],
    /** Clusters (and returns) left out as wire returns labelled vegetation. */
    wireLikeClusters: wireLike.clusters,
    wireLikePoints: wireLike.points,
  };
}

/** What the vegetation-risk product hands on. */
export interface VegetationRiskValue {
  clusters: RiskCluster[];
  figures: ReturnType<typeof riskFigures>;
}

/**
 * VEGETATION_RISK: vegetation (classes 3–5, and unclassified above 2 m)
 * within a buffer zone's 3D distance of a conductor and at least
 * `clearanceHeightCm` above ground, as clusters connected in plan at 1 m:
 * polygons with the zone they reach, severity, nearest distance and top height.
 */
export const vegetationRiskProduct = defineProduct<VegetationRiskValue>({
  ...productEntry('vegetation-risk'),
  needFailed: {
    code: 'NO_POWER_LINES',
    message: 'the power lines could not be made, so neither can the vegetation risk',
  },
  async run(ctx) {
    const { cloud } = ctx.need<ClassifiedCloud>('classify');
    const { dtm } = ctx.need<DtmValue>('dtm');
    const lines = ctx.need<PowerLinesValue>('power-lines');
    const radii = zoneRadii(ctx.options.powerLineBuffersCm);
    const clearanceM = ctx.options.clearanceHeightCm / 100;
    const index = new ConductorIndex(lines.conductors);
    const near = vegetationNearLines(cloud, dtm, lines.frame, index, Math.max(...radii), lines.towers, {
      signal: ctx.signal,
    });
    ctx.progress(0.5);
    const wireLike = { clusters: 0, points: 0 };
    const clusters = riskClusters(cloud, near, lines.frame, radii, clearanceM, { signal: ctx.signal }, (points) => {
      wireLike.clusters++;
      wireLike.points += points;
    });
    const file = path.join(ctx.workDir, 'vegetation-risk.geojson');
    const written = await writeWgs84GeoJson(file, riskFeatures(clusters), lines.crs);
    const figures = riskFigures(clusters, radii, clearanceM, wireLike);
    return {
      files: [{ path: file, format: 'GeoJSON', extension: 'geojson', epsg: 4326, count: written.features }],
      features: () => featuresToWgs84(riskFeatures(clusters), lines.crs),
      value: { clusters, figures },
      figures: {
        ...figures,
        ...(lines.conductors.length === 0 ? { message: 'no conductors: no vegetation risk' } : {}),
      },
    };
  },
});
