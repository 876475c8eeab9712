/**
 * Outlines of raster regions: cells of a label grid traced into polygons
 * (outer ring counter-clockwise, holes clockwise, RFC 7946), simplified by
 * Douglas–Peucker. The grid is north-up like {@link Raster}: row 0 is the
 * northern row, cell (c, r) spans x ∈ [originX + c·res, originX + (c+1)·res]
 * and y ∈ [originY − (r+1)·res, originY − r·res].
 */

/** Where a label grid lies in the CRS. */
export interface GridPlacement {
  width: number;
  height: number;
  originX: number;
  originY: number;
  /** Cell size in CRS units. */
  resolution: number;
}

/** A traced polygon: outer ring then holes, each closed (first point repeated). */
export interface RegionPolygon {
  label: number;
  rings: number[][][];
  /** Area in square CRS units (cells × cell area, before simplification). */
  area: number;
}

/**
 * 4-connected components of the non-zero cells of a mask: `labels[k]` is the
 * component (1..count) of cell k, 0 outside the mask.
 */
export function labelComponents(
  mask: Uint8Array,
  width: number,
  height: number,
): { labels: Int32Array; count: number; cells: Int32Array } {
  const labels = new Int32Array(width * height);
  const sizes: number[] = [0];
  const stack: number[] = [];
  let count = 0;
  for (let k0 = 0; k0 < mask.length; k0++) {
    if (!mask[k0] || labels[k0]) continue;
    count++;
    let size = 0;
    labels[k0] = count;
    stack.push(k0);
    while (stack.length > 0) {
      const k = stack.pop()!;
      size++;
      const r = Math.floor(k / width);
      const c = k - r * width;
      if (c > 0 && mask[k - 1] && !labels[k - 1]) {
        labels[k - 1] = count;
        stack.push(k - 1);
      }
      if (c < width - 1 && mask[k + 1] && !labels[k + 1]) {
        labels[k + 1] = count;
        stack.push(k + 1);
      }
      if (r > 0 && mask[k - width] && !labels[k - width]) {
        labels[k - width] = count;
        stack.push(k - width);
      }
      if (r < height - 1 && mask[k + width] && !labels[k + width]) {
        labels[k + width] = count;
        stack.push(k + width);
      }
    }
    sizes.push(size);
  }
  return { labels, count, cells: Int32Array.from(sizes) };
}

/** Twice the signed area of a closed ring (counter-clockwise positive). */
export function ringArea2(ring: readonly number[][]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    a += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  }
  return a;
}

/** Douglas–Peucker on a closed ring (first point repeated at the end); keeps at least 4 points. */
export function simplifyClosedRing(ring: number[][], tolerance: number): number[][] {
  if (ring.length <= 5 || tolerance <= 0) return ring;
  const keep = new Uint8Array(ring.length);
  keep[0] = 1;
  keep[ring.length - 1] = 1;
  let far = 0;
  let farD = -1;
  for (let i = 1; i < ring.length - 1; i++) {
    const d = (ring[i]![0]! - ring[0]![0]!) ** 2 + (ring[i]![1]! - ring[0]![1]!) ** 2;
    if (d > farD) {
      farD = d;
      far = i;
    }
  }
  keep[far] = 1;
  const stack: Array<[number, number]> = [
    [0, far],
    [far, ring.length - 1],
  ];
  const t2 = tolerance * tolerance;
  while (stack.length > 0) {
    const [a, b] = stack.pop()!;
    const ax = ring[a]![0]!;
    const ay = ring[a]![1]!;
    const dx = ring[b]![0]! - ax;
    const dy = ring[b]![1]! - ay;
    const len2 = dx * dx + dy * dy;
    let best = -1;
    let bestD = t2;
    for (let i = a + 1; i < b; i++) {
      const px = ring[i]![0]! - ax;
      const py = ring[i]![1]! - ay;
      const d = len2 === 0 ? px * px + py * py : (px * dy - py * dx) ** 2 / len2;
      if (d > bestD) {
        bestD = d;
        best = i;
      }
    }
    if (best >= 0) {
      keep[best] = 1;
      stack.push([a, best], [best, b]);
    }
  }
  const out = ring.filter((_, i) => keep[i]);
  return out.length >= 4 && Math.abs(ringArea2(out)) > 0 ? out : ring;
}

/**
 * Traces every labelled region of a grid (`labels[k]` in 1..count, 0 for
 * none) into polygons, one per label: its outer boundary and its holes.
 * Regions should be 4-connected (see {@link labelComponents}); where two cells
 * of a label touch only at a corner the boundary turns left, so the traced
 * rings never cross. Rings are simplified by `simplify` CRS units (default
 * half a cell). A label whose boundary makes several outer rings keeps the
 * largest one.
 *
 * @example
 * const { labels, count } = labelComponents(mask, W, H);
 * const polygons = traceRegions(labels, count, { width: W, height: H, originX, originY, resolution: 0.5 });
 */
export function traceRegions(
  labels: Int32Array,
  count: number,
  grid: GridPlacement,
  simplify = grid.resolution / 2,
): RegionPolygon[] {
  const { width: W, height: H, originX, originY, resolution: res } = grid;
  // Directed boundary edges between grid corners with the region on the left:
  // per label, corner → outgoing edges packed as (to corner, direction 0 E, 1 N, 2 W, 3 S).
  const edges: Array<Map<number, number[]>> = Array.from({ length: count + 1 }, () => new Map());
  const cellsOf = new Int32Array(count + 1);
  const corner = (r: number, c: number) => r * (W + 1) + c;
  const add = (id: number, from: number, to: number, dir: number) => {
    const m = edges[id]!;
    const list = m.get(from);
    if (list) list.push(to, dir);
    else m.set(from, [to, dir]);
  };
  for (let r = 0; r < H; r++) {
    for (let c = 0; c < W; c++) {
      const id = labels[r * W + c]!;
      if (!id) continue;
      cellsOf[id]!++;
      if (r === H - 1 || labels[(r + 1) * W + c] !== id) add(id, corner(r + 1, c), corner(r + 1, c + 1), 0);
      if (c === W - 1 || labels[r * W + c + 1] !== id) add(id, corner(r + 1, c + 1), corner(r, c + 1), 1);
      if (r === 0 || labels[(r - 1) * W + c] !== id) add(id, corner(r, c + 1), corner(r, c), 2);
      if (c === 0 || labels[r * W + c - 1] !== id) add(id, corner(r, c), corner(r + 1, c), 3);
    }
  }
  const out: RegionPolygon[] = [];
  for (let id = 1; id <= count; id++) {
    const m = edges[id]!;
    const outers: number[][][] = [];
    const holes: number[][][] = [];
    while (m.size > 0) {
      const start = m.keys().next().value as number;
      const ring: number[][] = [];
      let at = start;
      let dir = -1;
      for (;;) {
        const list = m.get(at);
        if (!list || list.length === 0) break;
        // Prefer the left turn, then straight on, then the right turn.
        let pick = 0;
        if (list.length > 2 && dir >= 0) {
          let bestRank = 9;
          for (let e = 0; e < list.length; e += 2) {
            const rank = [1, 0, 3, 2].indexOf((list[e + 1]! - dir + 4) % 4);
            if (rank < bestRank) {
              bestRank = rank;
              pick = e;
            }
          }
        }
        const next = list[pick]!;
        dir = list[pick + 1]!;
        list.splice(pick, 2);
        if (list.length === 0) m.delete(at);
        const r = Math.floor(at / (W + 1));
        const c = at - r * (W + 1);
        // Drop corners on a straight run: only turns make vertices.
        const prev = ring.length >= 2 ? ring[ring.length - 1]! : null;
        const prev2 = ring.length >= 2 ? ring[ring.length - 2]! : null;
        const px = originX + c * res;
        const py = originY - r * res;
        const straight =
          prev && prev2 && ((prev2[0] === prev[0] && prev[0] === px) || (prev2[1] === prev[1] && prev[1] === py));
        if (straight) {
          prev![0] = px;
          prev![1] = py;
        } else ring.push([px, py]);
        at = next;
        if (at === start) break;
      }
      // The start corner may sit on a straight run: drop such vertices around the closure too.
      const open = ring.filter((p, i) => {
        const a = ring[(i + ring.length - 1) % ring.length]!;
        const b = ring[(i + 1) % ring.length]!;
        return !((a[0] === p[0] && p[0] === b[0]) || (a[1] === p[1] && p[1] === b[1]));
      });
      if (open.length < 3) continue;
      ring.length = 0;
      ring.push(...open, [open[0]![0]!, open[0]![1]!]);
      if (ringArea2(ring) > 0) outers.push(ring);
      else holes.push(ring);
    }
    if (outers.length === 0) continue;
    outers.sort((a, b) => ringArea2(b) - ringArea2(a));
    const rings = [outers[0]!, ...holes].map((r) => simplifyClosedRing(r, simplify));
    out.push({ label: id, rings, area: cellsOf[id]! * res * res });
  }
  return out;
}

/** Convex hull (counter-clockwise, closed) of points, by Andrew's monotone chain. */
export function convexHull(points: ReadonlyArray<readonly [number, number]>): number[][] {
  if (points.length < 3) return [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((q) => [q[0], q[1]]);
  const coords = new Float64Array(points.length * 2);
  for (const [i, q] of points.entries()) {
    coords[2 * i] = q[0];
    coords[2 * i + 1] = q[1];
  }
  const hull = convexHullIndices(
    points.map((_, i) => i),
    coords,
  ).map((i) => [coords[2 * i]!, coords[2 * i + 1]!]);
  hull.push([hull[0]![0]!, hull[0]![1]!]);
  return hull;
}

/**
 * Convex hull of the points `ids` of flat coordinates (x, y of point i at
 * 2i, 2i + 1), by Andrew's monotone chain: their ids counter-clockwise from
 * the lowest x (then y), not closed, no collinear ones. `ids` is not changed.
 */
export function convexHullIndices(ids: readonly number[], coords: ArrayLike<number>): number[] {
  const sorted = [...ids].sort((a, b) => coords[2 * a]! - coords[2 * b]! || coords[2 * a + 1]! - coords[2 * b + 1]!);
  if (sorted.length < 3) return sorted;
  const cross = (o: number, a: number, b: number) =>
    (coords[2 * a]! - coords[2 * o]!) * (coords[2 * b + 1]! - coords[2 * o + 1]!) -
    (coords[2 * a + 1]! - coords[2 * o + 1]!) * (coords[2 * b]! - coords[2 * o]!);
  const chain: number[] = [];
  for (const pass of [sorted, sorted.slice().reverse()]) {
    const start = chain.length;
    for (const i of pass) {
      while (chain.length >= start + 2 && cross(chain[chain.length - 2]!, chain[chain.length - 1]!, i) <= 0) {
        chain.pop();
      }
      chain.push(i);
    }
    chain.pop();
  }
  return chain;
}
