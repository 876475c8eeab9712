/**
 * Outlines of building footprints: boundary tracing of an occupancy raster,
 * Douglas–Peucker simplification and orthogonal regularisation (edges
 * snapped to the building's dominant direction, fitted by least squares on
 * the traced boundary, consecutive lines intersected; Sampath & Shan 2007
 * in spirit). Coordinates are flat `[x0, y0, x1, y1, ...]` arrays of open
 * rings (the first point is not repeated) in a y-up frame.
 */

/** An open ring: flat x, y pairs. */
export type Ring = Float64Array;

/**
 * Boundary rings of a binary raster (row 0 at the bottom, y up), traced along
 * the cell edges with the inside on the left: outer rings counterclockwise,
 * holes clockwise. Each ring is given by the midpoints of its cell edges (a
 * 45° staircase becomes a straight line), in cell units. The raster must be
 * free of diagonal-only contacts ({@link removeSaddles}) and have an empty
 * border row and column.
 *
 * @example
 * const rings = traceRings(mask, width, height);
 */
export function traceRings(mask: Uint8Array, width: number, height: number): Ring[] {
  const vw = width + 1;
  // Outgoing edge of each vertex: 0 none, 1 east, 2 north, 3 west, 4 south.
  const out = new Uint8Array(vw * (height + 1));
  let edges = 0;
  for (let r = 1; r < height - 1; r++) {
    for (let c = 1; c < width - 1; c++) {
      const k = r * width + c;
      if (!mask[k]) continue;
      if (!mask[k - width]) {
        out[r * vw + c] = 1;
        edges++;
      }
      if (!mask[k + 1]) {
        out[r * vw + c + 1] = 2;
        edges++;
      }
      if (!mask[k + width]) {
        out[(r + 1) * vw + c + 1] = 3;
        edges++;
      }
      if (!mask[k - 1]) {
        out[(r + 1) * vw + c] = 4;
        edges++;
      }
    }
  }
  const rings: Ring[] = [];
  const DX = [0, 1, 0, -1, 0];
  const DY = [0, 0, 1, 0, -1];
  for (let v0 = 0; v0 < out.length && edges > 0; v0++) {
    if (!out[v0]) continue;
    const pts: number[] = [];
    let v = v0;
    while (out[v]) {
      const d = out[v]!;
      out[v] = 0;
      edges--;
      const x = v % vw;
      const y = (v - x) / vw;
      pts.push(x + DX[d]! / 2, y + DY[d]! / 2);
      v = (y + DY[d]!) * vw + x + DX[d]!;
    }
    rings.push(Float64Array.from(pts));
  }
  return rings;
}

/**
 * Fills one empty cell of every 2×2 block whose cells touch only diagonally,
 * so each 4-connected region has simple, non-touching boundary rings.
 * Returns the cells filled.
 */
export function removeSaddles(mask: Uint8Array, width: number, height: number): number {
  let filled = 0;
  for (let changed = true; changed; ) {
    changed = false;
    for (let r = 0; r < height - 1; r++) {
      for (let c = 0; c < width - 1; c++) {
        const k = r * width + c;
        const a = mask[k]!;
        const b = mask[k + 1]!;
        const d = mask[k + width]!;
        const e = mask[k + width + 1]!;
        if (a && e && !b && !d) {
          mask[k + 1] = 1;
          filled++;
          changed = true;
        } else if (b && d && !a && !e) {
          mask[k] = 1;
          filled++;
          changed = true;
        }
      }
    }
  }
  return filled;
}

/** Signed area of an open ring (positive: counterclockwise). */
export function ringArea(ring: Ring): number {
  const n = ring.length / 2;
  let s = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) s += ring[2 * j]! * ring[2 * i + 1]! - ring[2 * i]! * ring[2 * j + 1]!;
  return s / 2;
}

function segDist2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

/**
 * Douglas–Peucker on a closed ring: indices of the vertices kept (sorted),
 * anchored on the two vertices farthest apart.
 */
export function douglasPeuckerRing(ring: Ring, tolerance: number): number[] {
  const n = ring.length / 2;
  if (n <= 3) return Array.from({ length: n }, (_, i) => i);
  // Anchors: the vertex farthest from vertex 0, then the one farthest from it.
  const far = (from: number) => {
    let best = 0;
    let bd = -1;
    for (let i = 0; i < n; i++) {
      const d = (ring[2 * i]! - ring[2 * from]!) ** 2 + (ring[2 * i + 1]! - ring[2 * from + 1]!) ** 2;
      if (d > bd) {
        bd = d;
        best = i;
      }
    }
    return best;
  };
  const a = far(far(0));
  const b = far(a);
  const keep = new Uint8Array(n);
  keep[a] = 1;
  keep[b] = 1;
  const tol2 = tolerance * tolerance;
  const stack: number[] = [a, b, b, a];
  while (stack.length > 0) {
    const j = stack.pop()!;
    const i = stack.pop()!;
    const span = (j - i + n) % n;
    if (span < 2) continue;
    const ax = ring[2 * i]!;
    const ay = ring[2 * i + 1]!;
    const bx = ring[2 * j]!;
    const by = ring[2 * j + 1]!;
    let worst = -1;
    let wd = -1;
    for (let s = 1; s < span; s++) {
      const k = (i + s) % n;
      const d = segDist2(ring[2 * k]!, ring[2 * k + 1]!, ax, ay, bx, by);
      if (d > wd) {
        wd = d;
        worst = k;
      }
    }
    if (wd > tol2) {
      keep[worst] = 1;
      stack.push(i, worst, worst, j);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(i);
  return out;
}

/** The ring's vertices at the given indices. */
export function pick(ring: Ring, indices: number[]): Ring {
  const out = new Float64Array(indices.length * 2);
  indices.forEach((k, i) => {
    out[2 * i] = ring[2 * k]!;
    out[2 * i + 1] = ring[2 * k + 1]!;
  });
  return out;
}

/**
 * Dominant direction of outlines (radians in [-π/4, π/4)): the mean of the
 * edge directions modulo 90° (angles × 4 on the unit circle), weighted by
 * squared edge length so long walls decide.
 */
export function dominantDirection(rings: Ring[]): number {
  let sx = 0;
  let sy = 0;
  for (const ring of rings) {
    const n = ring.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const dx = ring[2 * j]! - ring[2 * i]!;
      const dy = ring[2 * j + 1]! - ring[2 * i + 1]!;
      const w = dx * dx + dy * dy;
      const a = 4 * Math.atan2(dy, dx);
      sx += w * Math.cos(a);
      sy += w * Math.sin(a);
    }
  }
  return sx === 0 && sy === 0 ? 0 : Math.atan2(sy, sx) / 4;
}

/** Options of {@link regularizeRing}; lengths in the ring's unit. */
export interface RegularizeOptions {
  /** Building direction (radians): snapped edges run along it or across it. */
  direction: number;
  /** Edges within this angle (radians) of the building's axes are snapped to them. */
  snapAngle: number;
  /** Edges shorter than this are always snapped. */
  shortEdge: number;
  /** Consecutive parallel edges closer than this are merged into one line; farther apart, joined by a step. */
  offsetTolerance: number;
  /** Shorter edges are dropped (their neighbours meet instead). */
  minEdge: number;
}

interface Line {
  /** Unit direction. */
  ux: number;
  uy: number;
  /** Offset along the normal (-uy, ux). */
  o: number;
  /** Axis index 0..3 when snapped, -1 when free. */
  axis: number;
  /** Boundary points fitted (flat pairs). */
  pts: number[];
}

function fitOffset(line: Line): void {
  let s = 0;
  const m = line.pts.length / 2;
  for (let i = 0; i < m; i++) s += -line.uy * line.pts[2 * i]! + line.ux * line.pts[2 * i + 1]!;
  line.o = s / m;
}

/** Principal direction of points, oriented like (hx, hy). */
function fitDirection(pts: number[], hx: number, hy: number): [number, number] {
  const m = pts.length / 2;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < m; i++) {
    mx += pts[2 * i]!;
    my += pts[2 * i + 1]!;
  }
  mx /= m;
  my /= m;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < m; i++) {
    const dx = pts[2 * i]! - mx;
    const dy = pts[2 * i + 1]! - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  const a = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  let ux = Math.cos(a);
  let uy = Math.sin(a);
  if (ux * hx + uy * hy < 0) {
    ux = -ux;
    uy = -uy;
  }
  return [ux, uy];
}

function intersect(a: Line, b: Line): [number, number] | null {
  // Points p with n_a·p = o_a and n_b·p = o_b, n = (-uy, ux).
  const a1 = -a.uy;
  const b1 = a.ux;
  const a2 = -b.uy;
  const b2 = b.ux;
  const det = a1 * b2 - a2 * b1;
  if (Math.abs(det) < 1e-9) return null;
  return [(a.o * b2 - b.o * b1) / det, (a1 * b.o - a2 * a.o) / det];
}

/**
 * Orthogonal regularisation of a traced ring simplified to the vertices
 * `kept`: each edge becomes a line through the traced boundary points it
 * spans (least squares), its direction snapped to the building's axes when
 * close to them (or short); consecutive lines along the same axis are merged
 * (or joined by a perpendicular step when offset); the new vertices are the
 * intersections of consecutive lines. Returns null when the result is not a
 * usable ring (the caller keeps the simplified one).
 */
export function regularizeRing(ring: Ring, kept: number[], o: RegularizeOptions): Ring | null {
  const n = ring.length / 2;
  const k = kept.length;
  if (k < 3) return null;
  const quarter = Math.PI / 2;
  const lines: Line[] = [];
  for (let j = 0; j < k; j++) {
    const i0 = kept[j]!;
    const i1 = kept[(j + 1) % k]!;
    const pts: number[] = [];
    for (let s = 0, span = (i1 - i0 + n) % n || n; s <= span; s++) {
      const i = (i0 + s) % n;
      pts.push(ring[2 * i]!, ring[2 * i + 1]!);
    }
    const dx = ring[2 * i1]! - ring[2 * i0]!;
    const dy = ring[2 * i1 + 1]! - ring[2 * i0 + 1]!;
    const len = Math.hypot(dx, dy);
    if (len === 0) continue;
    const a = Math.atan2(dy, dx);
    const rel = (a - o.direction) / quarter;
    const axisF = Math.round(rel);
    const dev = Math.abs(rel - axisF) * quarter;
    let line: Line;
    if (dev <= o.snapAngle || len < o.shortEdge) {
      const axis = ((axisF % 4) + 4) % 4;
      const ang = o.direction + axis * quarter;
      line = { ux: Math.cos(ang), uy: Math.sin(ang), o: 0, axis, pts };
    } else {
      const [ux, uy] = fitDirection(pts, dx, dy);
      line = { ux, uy, o: 0, axis: -1, pts };
    }
    fitOffset(line);
    lines.push(line);
  }
  settle(lines, o.offsetTolerance, 4 * k + 8);
  // Edges shorter than `minEdge` (small tabs and notches, chamfers) go: their neighbours meet instead.
  for (let round = 0; round < 2 * k + 8 && lines.length > 4; round++) {
    const m = lines.length;
    const vx = new Float64Array(m);
    const vy = new Float64Array(m);
    let ok = true;
    for (let j = 0; j < m && ok; j++) {
      const p = intersect(lines[(j + m - 1) % m]!, lines[j]!);
      if (!p) ok = false;
      else {
        vx[j] = p[0];
        vy[j] = p[1];
      }
    }
    if (!ok) break;
    const edge = (j: number) => {
      const q = (j + 1) % m;
      return lines[j]!.ux * (vx[q]! - vx[j]!) + lines[j]!.uy * (vy[q]! - vy[j]!);
    };
    const tab = (j: number) => {
      // A short edge between two opposite snapped lines that are short too: a small tab or notch.
      const a = lines[(j + m - 1) % m]!;
      const b = lines[(j + 1) % m]!;
      if (a.ux * b.ux + a.uy * b.uy >= -0.9) return 0;
      const small = a.axis >= 0 && b.axis >= 0 && m > 6;
      return small && edge((j + m - 1) % m) < 4 * o.minEdge && edge((j + 1) % m) < 4 * o.minEdge ? 1 : -1;
    };
    let shortest = -1;
    let len = o.minEdge;
    for (let j = 0; j < m; j++) {
      const l = edge(j);
      if (l < len && tab(j) >= 0) {
        len = l;
        shortest = j;
      }
    }
    if (shortest < 0) break;
    if (tab(shortest) === 1) {
      // The tab's two sides go too: the lines on either side meet.
      const drop = new Set([(shortest + m - 1) % m, shortest, (shortest + 1) % m]);
      const kept = lines.filter((_, j) => !drop.has(j));
      lines.length = 0;
      lines.push(...kept);
    } else lines.splice(shortest, 1);
    settle(lines, o.offsetTolerance, 2 * k + 8);
  }
  if (lines.length < 3) return null;
  const m = lines.length;
  const out = new Float64Array(2 * m);
  for (let j = 0; j < m; j++) {
    const p = intersect(lines[(j + m - 1) % m]!, lines[j]!);
    if (!p) return null;
    out[2 * j] = p[0];
    out[2 * j + 1] = p[1];
  }
  return dropDegenerate(out);
}

/**
 * Merges or joins consecutive lines until every pair meets at a real angle:
 * parallel lines the same way closer than `offsetTolerance` (or free ones)
 * become one line; farther apart (or opposite: a spike) a perpendicular step
 * joins them through their shared boundary point.
 */
function settle(lines: Line[], offsetTolerance: number, rounds: number): void {
  const minSin = Math.sin((15 * Math.PI) / 180);
  for (let round = 0; round < rounds && lines.length >= 3; round++) {
    let changed = false;
    for (let j = 0; j < lines.length && lines.length >= 3; j++) {
      const a = lines[j]!;
      const bi = (j + 1) % lines.length;
      const b = lines[bi]!;
      const cross = a.ux * b.uy - a.uy * b.ux;
      const dot = a.ux * b.ux + a.uy * b.uy;
      if (Math.abs(cross) >= minSin) continue;
      const sameWay = dot > 0;
      if (sameWay && (Math.abs(a.o - b.o) < offsetTolerance || a.axis < 0 || b.axis < 0)) {
        // One line through both.
        const pts = a.pts.concat(b.pts);
        const merged: Line = { ux: a.ux, uy: a.uy, o: 0, axis: a.axis === b.axis ? a.axis : -1, pts };
        if (merged.axis < 0) {
          const [ux, uy] = fitDirection(pts, a.ux + b.ux, a.uy + b.uy);
          merged.ux = ux;
          merged.uy = uy;
        }
        fitOffset(merged);
        lines.splice(j, 1, merged);
        lines.splice(bi > j ? bi : 0, 1);
      } else {
        // A step (or a spike) between two parallel lines: a perpendicular through the shared point.
        const px = a.pts[a.pts.length - 2]!;
        const py = a.pts[a.pts.length - 1]!;
        // Direction from line a towards line b along a's normal (b's points tell the side).
        const nx = -a.uy;
        const ny = a.ux;
        let mb = 0;
        for (let i = 0; i < b.pts.length; i += 2) mb += nx * b.pts[i]! + ny * b.pts[i + 1]!;
        const side = mb / (b.pts.length / 2) - a.o >= 0 ? 1 : -1;
        const axis = a.axis >= 0 ? (a.axis + (side > 0 ? 1 : 3)) % 4 : -1;
        const step: Line = { ux: nx * side, uy: ny * side, o: 0, axis, pts: [px, py] };
        fitOffset(step);
        lines.splice(j + 1, 0, step);
      }
      changed = true;
      break;
    }
    if (!changed) break;
  }
}

/** Removes repeated vertices and vertices on a straight line through their neighbours. */
export function dropDegenerate(ring: Ring, eps = 1e-6): Ring {
  let pts = Array.from(ring);
  for (let changed = true; changed && pts.length >= 6; ) {
    changed = false;
    const n = pts.length / 2;
    for (let i = 0; i < n; i++) {
      const p = (i + n - 1) % n;
      const q = (i + 1) % n;
      const ax = pts[2 * i]! - pts[2 * p]!;
      const ay = pts[2 * i + 1]! - pts[2 * p + 1]!;
      const bx = pts[2 * q]! - pts[2 * i]!;
      const by = pts[2 * q + 1]! - pts[2 * i + 1]!;
      const la = Math.hypot(ax, ay);
      const lb = Math.hypot(bx, by);
      if (la < eps || lb < eps || Math.abs(ax * by - ay * bx) < eps * la * lb) {
        pts.splice(2 * i, 2);
        changed = true;
        break;
      }
    }
  }
  if (pts.length < 6) pts = [];
  return Float64Array.from(pts);
}

function segmentsCross(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/** True when no two edges of the rings cross and no ring has fewer than 3 vertices. */
export function ringsAreSimple(rings: Ring[]): boolean {
  const edges: number[] = [];
  const ringOf: number[] = [];
  const idx: number[] = [];
  const sizes: number[] = [];
  rings.forEach((ring, r) => {
    const n = ring.length / 2;
    sizes.push(n);
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      edges.push(ring[2 * i]!, ring[2 * i + 1]!, ring[2 * j]!, ring[2 * j + 1]!);
      ringOf.push(r);
      idx.push(i);
    }
  });
  if (sizes.some((s) => s < 3)) return false;
  const m = ringOf.length;
  for (let e = 0; e < m; e++) {
    for (let f = e + 1; f < m; f++) {
      if (ringOf[e] === ringOf[f]) {
        const n = sizes[ringOf[e]!]!;
        const d = Math.abs(idx[e]! - idx[f]!);
        if (d === 1 || d === n - 1) continue;
      }
      if (
        segmentsCross(
          edges[4 * e]!,
          edges[4 * e + 1]!,
          edges[4 * e + 2]!,
          edges[4 * e + 3]!,
          edges[4 * f]!,
          edges[4 * f + 1]!,
          edges[4 * f + 2]!,
          edges[4 * f + 3]!,
        )
      ) {
        return false;
      }
    }
  }
  return true;
}

/** Interior angles of a ring in degrees (0–360). */
export function ringAngles(ring: Ring): number[] {
  const n = ring.length / 2;
  const ccw = ringArea(ring) > 0;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = (i + n - 1) % n;
    const q = (i + 1) % n;
    const ax = ring[2 * p]! - ring[2 * i]!;
    const ay = ring[2 * p + 1]! - ring[2 * i + 1]!;
    const bx = ring[2 * q]! - ring[2 * i]!;
    const by = ring[2 * q + 1]! - ring[2 * i + 1]!;
    let a = (Math.atan2(ax * by - ay * bx, ax * bx + ay * by) * 180) / Math.PI;
    if (ccw) a = -a;
    out.push(a < 0 ? a + 360 : a);
  }
  return out;
}
