/**
 * Straight stretches of a group of wire returns in plan view.
 *
 * A conductor runs straight in plan between two supports: its returns lie
 * within a narrow band around one line over the whole span (the band's width
 * is that of the cross-arm's conductors, side by side). Curved edges (round
 * roofs, crown rims) hold many returns within a few metres but no line holds
 * them over a span. The stretches are found one after the other, the line
 * holding the most returns first (a deterministic RANSAC over pairs of the
 * group's returns), so a group joining two lines at a pole gives both.
 */

/** Shape of a straight stretch; lengths in the cloud's horizontal unit. */
export interface StretchShape {
  /** Half-width of the band around the line. */
  tolerance: number;
  /** Shortest stretch along the line. */
  minLength: number;
  /** Longest gap between consecutive returns along a stretch. */
  maxGap: number;
}

/** Returns of a group tried as the first point of a line, and as the second: at most 28 lines a stretch. */
const SPREAD = 8;

/**
 * Returns of `members` (indices into `cx`, `cy`) on straight lines in plan:
 * each line holds returns within `tolerance` of it over at least `minLength`
 * along it, without a gap over `maxGap`. Lines are tried through pairs of
 * returns at least `minLength / 2` apart; the one holding the most returns is
 * kept and its returns removed, until no line is long enough.
 */
export function straightStretches(
  members: readonly number[],
  cx: Float64Array,
  cy: Float64Array,
  shape: StretchShape,
): number[] {
  const kept: number[] = [];
  let rest = members.slice();
  while (rest.length >= 2) {
    const best = bestLine(rest, cx, cy, shape);
    if (!best) break;
    kept.push(...best.inliers);
    const on = new Set(best.inliers);
    rest = rest.filter((k) => !on.has(k));
  }
  return kept;
}

/** The line through two of `group` holding the most returns over at least `minLength`; null when none does. */
function bestLine(
  group: readonly number[],
  cx: Float64Array,
  cy: Float64Array,
  shape: StretchShape,
): { inliers: number[] } | null {
  const m = group.length;
  // Pairs (a, b) from an even spread of the group's returns (all pairs when it holds at most SPREAD returns).
  const tried = Math.min(m, SPREAD);
  let best: number[] | null = null;
  for (let i = 0; i < tried; i++) {
    const a = group[Math.floor((i * m) / tried)]!;
    for (let j = i + 1; j < tried; j++) {
      const b = group[Math.floor((j * m) / tried)]!;
      const dx = cx[b]! - cx[a]!;
      const dy = cy[b]! - cy[a]!;
      const len = Math.hypot(dx, dy);
      // Short baselines give poorly aimed lines; a line of the stretch has returns at least half of it apart.
      if (len < shape.minLength / 2) continue;
      const inliers = onLine(group, cx, cy, cx[a]!, cy[a]!, dx / len, dy / len, shape);
      if (inliers && (!best || inliers.length > best.length)) best = inliers;
    }
  }
  return best ? { inliers: best } : null;
}

/**
 * Returns of `group` within `tolerance` of the line through (ax, ay) along
 * (ux, uy), in the longest piece of it without a gap over `maxGap`; null when
 * that piece spans less than `minLength`. A line crossing a curved edge twice
 * holds returns at both crossings, far apart, with nothing between.
 */
function onLine(
  group: readonly number[],
  cx: Float64Array,
  cy: Float64Array,
  ax: number,
  ay: number,
  ux: number,
  uy: number,
  shape: StretchShape,
): number[] | null {
  const along: Array<{ k: number; s: number }> = [];
  for (const k of group) {
    const ex = cx[k]! - ax;
    const ey = cy[k]! - ay;
    if (Math.abs(ex * uy - ey * ux) <= shape.tolerance) along.push({ k, s: ex * ux + ey * uy });
  }
  along.sort((p, q) => p.s - q.s);
  let bestFrom = 0;
  let bestTo = -1;
  for (let from = 0, to = 0; to < along.length; to++) {
    if (to > from && along[to]!.s - along[to - 1]!.s > shape.maxGap) from = to;
    if (to - from > bestTo - bestFrom) {
      bestFrom = from;
      bestTo = to;
    }
  }
  if (bestTo < 0 || along[bestTo]!.s - along[bestFrom]!.s < shape.minLength) return null;
  return along.slice(bestFrom, bestTo + 1).map((p) => p.k);
}
