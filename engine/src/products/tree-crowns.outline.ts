/**
 * Crown outlines: the outer ring of each label of a crown raster, traced the
 * way `traceRegions` traces it (same corners, same start, same turns,
 * same simplification), with the boundary held in typed arrays instead of a
 * map of edge lists per label. A forest CHM has tens of thousands of crowns
 * and millions of boundary corners; only the outer ring is wanted, so holes
 * are traced (they decide nothing but must be taken off the boundary) and
 * dropped unsimplified.
 */
import { type GridPlacement, simplifyClosedRing } from '../raster/region-outlines.js';

/**
 * The simplified outer ring (closed, counter-clockwise, CRS units) of every
 * label 1..`count` of `labels`, index = label; null for a label without cells.
 * Equal to `traceRegions(labels, count, grid, simplify)[i].rings[0]` for the
 * polygon of each label. Labels outside 1..`count` are not allowed.
 *
 * @example
 * const rings = traceOuterRings(crowns.labels, tops.length, chm);
 */
export function traceOuterRings(
  labels: Int32Array,
  count: number,
  grid: GridPlacement,
  simplify = grid.resolution / 2,
): Array<number[][] | null> {
  const { width: W, height: H, originX, originY, resolution: res } = grid;
  const out: Array<number[][] | null> = new Array(count + 1).fill(null);
  // Cells of each label in scan order (a counting sort): the order traceRegions meets them in.
  const cellStart = new Int32Array(count + 2);
  for (let k = 0; k < W * H; k++) {
    const id = labels[k]!;
    if (id) cellStart[id + 1]!++;
  }
  let most = 0;
  for (let id = 1; id <= count; id++) {
    if (cellStart[id + 1]! > most) most = cellStart[id + 1]!;
    cellStart[id + 1]! += cellStart[id]!;
  }
  const cellsByLabel = new Int32Array(cellStart[count + 1]!);
  const fill = cellStart.slice(0, count + 1);
  for (let k = 0; k < W * H; k++) {
    const id = labels[k]!;
    if (id) cellsByLabel[fill[id]!++] = k;
  }
  // Directed boundary edges (region on the left) of the label being traced: per grid corner a
  // bit per outgoing direction (0 E, 1 N, 2 W, 3 S) and the direction added first; corners
  // listed in the order of their first edge (the map's key order in traceRegions).
  const N1 = W + 1;
  const step = [1, -N1, -1, N1];
  const outgoing = new Uint8Array(N1 * (H + 1));
  const firstDir = new Uint8Array(N1 * (H + 1));
  const order = new Int32Array(4 * most);
  let orderLength = 0;
  const add = (from: number, dir: number) => {
    if (outgoing[from] === 0) {
      order[orderLength++] = from;
      firstDir[from] = dir;
    }
    outgoing[from] = outgoing[from]! | (1 << dir);
  };
  // Ring vertices (at most one per boundary edge, 4 per cell), the closure filter's picks, the best outer ring.
  const xs = new Float64Array(4 * most);
  const ys = new Float64Array(4 * most);
  const keep = new Int32Array(4 * most);
  const bestX = new Float64Array(4 * most);
  const bestY = new Float64Array(4 * most);
  for (let id = 1; id <= count; id++) {
    const c0 = cellStart[id]!;
    const c1 = cellStart[id + 1]!;
    if (c0 === c1) continue;
    orderLength = 0;
    for (let i = c0; i < c1; i++) {
      const k = cellsByLabel[i]!;
      const r = (k / W) | 0;
      const c = k - r * W;
      if (r === H - 1 || labels[k + W] !== id) add((r + 1) * N1 + c, 0);
      if (c === W - 1 || labels[k + 1] !== id) add((r + 1) * N1 + c + 1, 1);
      if (r === 0 || labels[k - W] !== id) add(r * N1 + c + 1, 2);
      if (c === 0 || labels[k - 1] !== id) add(r * N1 + c, 3);
    }
    let bestArea = Number.NEGATIVE_INFINITY;
    let bestLength = 0;
    let cursor = 0;
    for (;;) {
      while (cursor < orderLength && outgoing[order[cursor]!] === 0) cursor++;
      if (cursor === orderLength) break;
      const start = order[cursor]!;
      let length = 0;
      let at = start;
      let dir = -1;
      for (;;) {
        const bits = outgoing[at]!;
        if (bits === 0) break;
        let pick: number;
        if ((bits & (bits - 1)) === 0) pick = 31 - Math.clz32(bits);
        else if (dir < 0) pick = firstDir[at]!;
        else {
          // Prefer the left turn, then straight on, then the right turn, then back.
          const left = (dir + 1) & 3;
          const right = (dir + 3) & 3;
          if (bits & (1 << left)) pick = left;
          else if (bits & (1 << dir)) pick = dir;
          else if (bits & (1 << right)) pick = right;
          else pick = (dir + 2) & 3;
        }
        outgoing[at] = bits & ~(1 << pick);
        dir = pick;
        const r = Math.floor(at / N1);
        const c = at - r * N1;
        const px = originX + c * res;
        const py = originY - r * res;
        // Drop corners on a straight run: only turns make vertices.
        if (
          length >= 2 &&
          ((xs[length - 2] === xs[length - 1] && xs[length - 1] === px) ||
            (ys[length - 2] === ys[length - 1] && ys[length - 1] === py))
        ) {
          xs[length - 1] = px;
          ys[length - 1] = py;
        } else {
          xs[length] = px;
          ys[length] = py;
          length++;
        }
        at += step[pick]!;
        if (at === start) break;
      }
      // The start corner may sit on a straight run: drop such vertices around the closure too.
      let kept = 0;
      for (let i = 0; i < length; i++) {
        const a = (i + length - 1) % length;
        const b = (i + 1) % length;
        const x = xs[i]!;
        const y = ys[i]!;
        if (!((xs[a] === x && x === xs[b]) || (ys[a] === y && y === ys[b]))) keep[kept++] = i;
      }
      if (kept < 3) continue;
      // Twice the signed area of the closed ring, summed as ringArea2 sums it.
      const first = keep[0]!;
      let area = 0;
      for (let i = 0, j = kept; i <= kept; j = i++) {
        const pi = i === kept ? first : keep[i]!;
        const pj = j === kept ? first : keep[j]!;
        area += (xs[pj]! - xs[pi]!) * (ys[pj]! + ys[pi]!);
      }
      if (!(area > 0) || !(area > bestArea)) continue;
      bestArea = area;
      bestLength = kept;
      for (let i = 0; i < kept; i++) {
        bestX[i] = xs[keep[i]!]!;
        bestY[i] = ys[keep[i]!]!;
      }
    }
    if (bestLength === 0) continue;
    const ring: number[][] = new Array(bestLength + 1);
    for (let i = 0; i < bestLength; i++) ring[i] = [bestX[i]!, bestY[i]!];
    ring[bestLength] = [bestX[0]!, bestY[0]!];
    out[id] = simplifyClosedRing(ring, simplify);
  }
  return out;
}
