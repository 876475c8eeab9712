import path from 'node:path';
import { defineProduct } from '../core/product.js';
import type { Feature } from '../writers/geojson.writer.js';
import { productEntry } from './catalog.js';
import type { Conductor, MetricFrame, Tower } from './power-lines.conductors.js';
import { ConductorIndex, towerFootprints } from './power-lines.geometry.js';
import type { PowerLinesValue } from './power-lines.product.js';
import { featuresToWgs84, writeWgs84GeoJson } from './product-values.js';
import type { TreeTop, TreeTopsValue } from './tree-tops.product.js';

/** A tree that could hit a conductor if it fell towards it. */
export interface TreeAtRisk {
  treeId: number;
  /** Top of the tree, project CRS. */
  x: number;
  y: number;
  z: number;
  /** Height above ground, metres. */
  height: number;
  /** Horizontal distance from its base (under the top) to the nearest conductor, metres. */
  distance: number;
  /** height + buffer − distance, metres (≥ 0). */
  margin: number;
  /** Height of that conductor point above the tree's base, metres. */
  conductorHeight: number;
  /** The fall arc (radius height + buffer about the base) reaches a conductor in 3D. */
  reachesConductor: boolean;
  spanId: number;
  conductorId: number;
}

/**
 * Trees at risk of falling on a conductor: a tree is at risk when
 * `height + buffer ≥ d`, d the horizontal distance from its base (the point
 * under its top, on the ground) to the nearest conductor. It
 * `reachesConductor` when the arc it sweeps in falling reaches the wire:
 * `height + buffer ≥ √(d'² + hc'²)` for some conductor point at horizontal
 * distance d' and height hc' above the base (the nearest conductor in 3D).
 * Tops inside a tower's footprint (unlabelled tower parts) are left out.
 *
 * @example
 * const trees = treesAtRisk(tops.tops, lines.conductors, lines.frame, 1, lines.towers);
 */
export function treesAtRisk(
  tops: readonly TreeTop[],
  conductors: readonly Conductor[],
  frame: MetricFrame,
  bufferM: number,
  towers: readonly Tower[] = [],
): TreeAtRisk[] {
  const index = new ConductorIndex(conductors, 20);
  // A top inside a tower's footprint is the tower's, not a tree's.
  const inTower = towerFootprints(towers, frame);
  const out: TreeAtRisk[] = [];
  for (const t of tops) {
    if (!Number.isFinite(t.height) || !Number.isFinite(t.z)) continue;
    const X = (t.x - frame.ox) * frame.hu;
    const Y = (t.y - frame.oy) * frame.hu;
    const base = t.z * frame.vu - t.height;
    const reach = t.height + bufferM;
    const plan = index.nearestPlan(X, Y, reach);
    if (!plan || inTower(X, Y)) continue;
    const arc = index.nearest3d(X, Y, base, reach);
    const c = conductors[plan.conductor]!;
    out.push({
      treeId: t.treeId,
      x: t.x,
      y: t.y,
      z: t.z,
      height: t.height,
      distance: plan.distance,
      margin: reach - plan.distance,
      conductorHeight: plan.z - base,
      reachesConductor: arc !== null,
      spanId: c.spanId,
      conductorId: c.conductorId,
    });
  }
  return out;
}

const r2 = (v: number) => Math.round(v * 100) / 100;

/** GeoJSON points of trees at risk (project CRS, Z = top): treeId, height, distance, margin, reachesConductor. */
export function* treeFallFeatures(trees: readonly TreeAtRisk[]): Generator<Feature> {
  for (const t of trees) {
    yield {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [t.x, t.y, t.z] },
      properties: {
        treeId: t.treeId,
        height: r2(t.height),
        distance: r2(t.distance),
        margin: r2(t.margin),
        reachesConductor: t.reachesConductor,
        conductorHeight: r2(t.conductorHeight),
        spanId: t.spanId,
        conductorId: t.conductorId,
      },
    };
  }
}

/** What the tree-fall product hands on. */
export interface TreeFallRiskValue {
  trees: TreeAtRisk[];
  figures: { treesChecked: number; treesAtRisk: number; treesReachingConductor: number; heightBufferM: number };
}

/**
 * TREE_FALL_RISK: tree tops whose height plus `treeFallHeightBufferCm` reaches
 * the nearest conductor horizontally, flagged when the fall arc reaches it.
 */
export const treeFallRiskProduct = defineProduct<TreeFallRiskValue>({
  ...productEntry('tree-fall-risk'),
  needFailed: {
    code: 'TREE_FALL_NEEDS_LINES_AND_TREES',
    message: 'the tree-fall risk needs the power lines and the tree tops, and one of them could not be made',
  },
  async run(ctx) {
    const lines = ctx.need<PowerLinesValue>('power-lines');
    const { tops } = ctx.need<TreeTopsValue>('tree-tops');
    const bufferM = ctx.options.treeFallHeightBufferCm / 100;
    const trees = treesAtRisk(tops, lines.conductors, lines.frame, bufferM, lines.towers);
    const file = path.join(ctx.workDir, 'tree-fall-risk.geojson');
    const written = await writeWgs84GeoJson(file, treeFallFeatures(trees), lines.crs);
    const figures = {
      treesChecked: tops.length,
      treesAtRisk: trees.length,
      treesReachingConductor: trees.filter((t) => t.reachesConductor).length,
      heightBufferM: bufferM,
    };
    return {
      files: [{ path: file, format: 'GeoJSON', extension: 'geojson', epsg: 4326, count: written.features }],
      features: () => featuresToWgs84(treeFallFeatures(trees), lines.crs),
      value: { trees, figures },
      figures: {
        ...figures,
        ...(lines.conductors.length === 0 ? { message: 'no conductors: no tree-fall risk' } : {}),
      },
    };
  },
});
