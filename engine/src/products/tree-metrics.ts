/**
 * Accuracy of tree detection against a reference segmentation (a tree id per
 * point, such as lidR's `treeID`): tree-top F-score with one-to-one matching,
 * and crown intersection over union on the CHM grid.
 */
import type { PointChunk } from '../core/chunk.js';
import type { Raster } from '../raster/raster.js';
import type { CrownRaster } from './tree-crowns.product.js';
import type { TreeTop } from './tree-tops.product.js';

/** A reference tree: its id and highest point (height in metres above ground). */
export interface ReferenceTree {
  id: number;
  x: number;
  y: number;
  height: number;
}

/** The highest point of each reference tree (ids ≤ 0 are not trees). */
export function referenceTrees(cloud: PointChunk, ids: ArrayLike<number>, heights: Float32Array): ReferenceTree[] {
  const best = new Map<number, number>();
  for (let i = 0; i < cloud.count; i++) {
    const id = ids[i]!;
    if (!(id > 0) || Number.isNaN(heights[i]!)) continue;
    const j = best.get(id);
    if (j === undefined || heights[i]! > heights[j]!) best.set(id, i);
  }
  return [...best].map(([id, i]) => ({ id, x: cloud.x[i]!, y: cloud.y[i]!, height: heights[i]! }));
}

/** Matches of detected tops to reference trees. */
export interface TopMatching {
  pairs: Array<{ top: TreeTop; reference: ReferenceTree; distance: number }>;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  fScore: number;
  /** Root mean square of (detected − reference) height over the pairs, metres. */
  heightRmse: number;
}

/**
 * One-to-one matching, closest pairs first: a top matches a reference tree
 * within `horizontal` metres (CRS units × `unitToMetre`) and `vertical` metres of height.
 */
export function matchTops(
  tops: readonly TreeTop[],
  references: readonly ReferenceTree[],
  options: { horizontal?: number; vertical?: number; unitToMetre?: number } = {},
): TopMatching {
  const horizontal = options.horizontal ?? 1.5;
  const vertical = options.vertical ?? 2;
  const u = options.unitToMetre ?? 1;
  const candidates: Array<{ t: number; r: number; d: number }> = [];
  for (let t = 0; t < tops.length; t++) {
    for (let r = 0; r < references.length; r++) {
      const d = Math.hypot(tops[t]!.x - references[r]!.x, tops[t]!.y - references[r]!.y) * u;
      if (d <= horizontal && Math.abs(tops[t]!.height - references[r]!.height) <= vertical) {
        candidates.push({ t, r, d });
      }
    }
  }
  candidates.sort((a, b) => a.d - b.d);
  const usedT = new Uint8Array(tops.length);
  const usedR = new Uint8Array(references.length);
  const pairs: TopMatching['pairs'] = [];
  for (const c of candidates) {
    if (usedT[c.t] || usedR[c.r]) continue;
    usedT[c.t] = 1;
    usedR[c.r] = 1;
    pairs.push({ top: tops[c.t]!, reference: references[c.r]!, distance: c.d });
  }
  const tp = pairs.length;
  const precision = tops.length ? tp / tops.length : 0;
  const recall = references.length ? tp / references.length : 0;
  const fScore = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  const heightRmse = tp
    ? Math.sqrt(pairs.reduce((s, p) => s + (p.top.height - p.reference.height) ** 2, 0) / tp)
    : Number.NaN;
  return {
    pairs,
    truePositives: tp,
    falsePositives: tops.length - tp,
    falseNegatives: references.length - tp,
    precision,
    recall,
    fScore,
    heightRmse,
  };
}

/**
 * Intersection over union of each matched crown with its reference crown on
 * the CHM grid: the reference crown is the cells whose highest return belongs
 * to the reference tree. Returns one IoU per pair.
 */
export function crownIous(
  chm: Raster,
  highest: Int32Array,
  ids: ArrayLike<number>,
  crowns: CrownRaster,
  pairs: TopMatching['pairs'],
): number[] {
  const refCells = new Map<number, number>();
  const ours = new Map<number, number>();
  const both = new Map<string, number>();
  for (let k = 0; k < chm.width * chm.height; k++) {
    const i = highest[k]!;
    const ref = i >= 0 ? ids[i]! : 0;
    const id = crowns.labels[k]!;
    if (ref > 0) refCells.set(ref, (refCells.get(ref) ?? 0) + 1);
    if (id > 0) ours.set(id, (ours.get(id) ?? 0) + 1);
    if (ref > 0 && id > 0) {
      const key = `${id}:${ref}`;
      both.set(key, (both.get(key) ?? 0) + 1);
    }
  }
  return pairs.map((p) => {
    const a = ours.get(p.top.treeId) ?? 0;
    const b = refCells.get(p.reference.id) ?? 0;
    const i = both.get(`${p.top.treeId}:${p.reference.id}`) ?? 0;
    return a + b - i > 0 ? i / (a + b - i) : 0;
  });
}

/** Median of numbers (NaN when empty). */
export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
