/**
 * Clip areas in the point cloud's CRS: polygons (with holes, several parts),
 * axis-aligned boxes and corridors (a polyline buffered by a width). Each
 * compiles to a bounding box (what the readers skip by) and a `contains(x, y)`
 * test that runs per point, so it is kept cheap: polygon edges are bucketed by
 * horizontal bands, corridor segments carry their own boxes.
 */
import { InvalidInput } from '../core/errors.js';
import type { ReadBounds } from '../readers/point-cloud-reader.js';

/** A ring: [x, y] vertices, closed or not (the closing edge is implied). */
export type Ring = ReadonlyArray<readonly [number, number]>;

/** What to keep, in the point cloud's CRS. */
export type ClipArea =
  /** Polygons, each an outer ring then its holes (even-odd rule within a polygon). */
  | { kind: 'polygon'; polygons: ReadonlyArray<ReadonlyArray<Ring>> }
  | { kind: 'box'; minX: number; minY: number; maxX: number; maxY: number }
  /** Points at most width/2 from the polyline (in CRS units). */
  | { kind: 'corridor'; line: Ring; width: number };

/** A clip area ready to test points. */
export interface CompiledArea {
  readonly area: ClipArea;
  /** Box around the area (what the readers skip by). */
  readonly bbox: ReadBounds;
  /** Surface in square CRS units. */
  readonly surface: number;
  /** True when (x, y) is inside (polygon boundary points count as inside or outside, never both). */
  contains(x: number, y: number): boolean;
}

/** Horizontal bands of the polygon index; more bands than edges never helps. */
const MAX_BANDS = 1024;

function finite(v: number, field: string): number {
  if (!Number.isFinite(v)) throw new InvalidInput(field, `coordinate ${v} is not a finite number`);
  return v;
}

/** The ring's vertices without a repeated closing vertex. */
function openRing(ring: Ring, field: string): Array<[number, number]> {
  const pts = ring.map(([x, y], i) => [finite(x, `${field}[${i}]`), finite(y, `${field}[${i}]`)] as [number, number]);
  if (pts.length > 1) {
    const a = pts[0]!;
    const b = pts[pts.length - 1]!;
    if (a[0] === b[0] && a[1] === b[1]) pts.pop();
  }
  if (pts.length < 3) throw new InvalidInput(field, `a ring needs at least 3 distinct vertices, got ${pts.length}`);
  return pts;
}

function ringArea(ring: ReadonlyArray<readonly [number, number]>): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  }
  return Math.abs(sum) / 2;
}

function compilePolygons(area: Extract<ClipArea, { kind: 'polygon' }>): CompiledArea {
  if (area.polygons.length === 0) throw new InvalidInput('area', 'the polygon has no ring');
  // Edges as flat arrays: x0, y0, x1, y1 per edge, with the polygon they belong to.
  const ex0: number[] = [];
  const ey0: number[] = [];
  const ex1: number[] = [];
  const ey1: number[] = [];
  const owner: number[] = [];
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let surface = 0;
  area.polygons.forEach((rings, p) => {
    if (rings.length === 0) throw new InvalidInput(`area.polygons[${p}]`, 'the polygon has no ring');
    rings.forEach((ring, r) => {
      const pts = openRing(ring, `area.polygons[${p}][${r}]`);
      const a = ringArea(pts);
      if (r === 0 && !(a > 0)) throw new InvalidInput(`area.polygons[${p}]`, 'the outer ring encloses no surface');
      surface += r === 0 ? a : -a;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const [x0, y0] = pts[j]!;
        const [x1, y1] = pts[i]!;
        if (r === 0) {
          minX = Math.min(minX, x1);
          maxX = Math.max(maxX, x1);
          minY = Math.min(minY, y1);
          maxY = Math.max(maxY, y1);
        }
        if (y0 === y1) continue; // horizontal edges never cross a horizontal ray
        ex0.push(x0);
        ey0.push(y0);
        ex1.push(x1);
        ey1.push(y1);
        owner.push(p);
      }
    });
  });
  const edges = ex0.length;
  const bands = Math.max(1, Math.min(MAX_BANDS, edges));
  const bandHeight = (maxY - minY) / bands || 1;
  const bandOf = (y: number) => Math.min(bands - 1, Math.max(0, Math.floor((y - minY) / bandHeight)));
  const lists: number[][] = Array.from({ length: bands }, () => []);
  for (let e = 0; e < edges; e++) {
    const lo = bandOf(Math.min(ey0[e]!, ey1[e]!));
    const hi = bandOf(Math.max(ey0[e]!, ey1[e]!));
    for (let b = lo; b <= hi; b++) lists[b]!.push(e);
  }
  const band = lists.map((l) => Int32Array.from(l));
  const polygons = area.polygons.length;
  const parity = new Uint8Array(polygons);
  return {
    area,
    bbox: { minX, minY, maxX, maxY },
    surface: Math.max(0, surface),
    contains(x, y) {
      if (x < minX || x > maxX || y < minY || y > maxY) return false;
      const list = band[bandOf(y)]!;
      if (polygons === 1) {
        let inside = false;
        for (let k = 0; k < list.length; k++) {
          const e = list[k]!;
          const y0 = ey0[e]!;
          const y1 = ey1[e]!;
          if (y0 > y !== y1 > y) {
            const xc = ex0[e]! + ((y - y0) * (ex1[e]! - ex0[e]!)) / (y1 - y0);
            if (x < xc) inside = !inside;
          }
        }
        return inside;
      }
      parity.fill(0);
      for (let k = 0; k < list.length; k++) {
        const e = list[k]!;
        const y0 = ey0[e]!;
        const y1 = ey1[e]!;
        if (y0 > y !== y1 > y) {
          const xc = ex0[e]! + ((y - y0) * (ex1[e]! - ex0[e]!)) / (y1 - y0);
          if (x < xc) parity[owner[e]!]! ^= 1;
        }
      }
      for (let p = 0; p < polygons; p++) if (parity[p]) return true;
      return false;
    },
  };
}

function compileCorridor(area: Extract<ClipArea, { kind: 'corridor' }>): CompiledArea {
  const { width } = area;
  if (!(Number.isFinite(width) && width > 0))
    throw new InvalidInput('width', `must be a positive number, got ${width}`);
  const pts = area.line.map(([x, y], i) => [finite(x, `line[${i}]`), finite(y, `line[${i}]`)] as const);
  if (pts.length < 2)
    throw new InvalidInput('line', `a corridor needs a line of at least 2 vertices, got ${pts.length}`);
  const half = width / 2;
  const r2 = half * half;
  const n = pts.length - 1;
  const sx = new Float64Array(n);
  const sy = new Float64Array(n);
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  const len2 = new Float64Array(n);
  const box = new Float64Array(4 * n);
  let length = 0;
  for (let i = 0; i < n; i++) {
    const [x0, y0] = pts[i]!;
    const [x1, y1] = pts[i + 1]!;
    sx[i] = x0;
    sy[i] = y0;
    dx[i] = x1 - x0;
    dy[i] = y1 - y0;
    len2[i] = dx[i]! * dx[i]! + dy[i]! * dy[i]!;
    length += Math.sqrt(len2[i]!);
    box[4 * i] = Math.min(x0, x1) - half;
    box[4 * i + 1] = Math.min(y0, y1) - half;
    box[4 * i + 2] = Math.max(x0, x1) + half;
    box[4 * i + 3] = Math.max(y0, y1) + half;
  }
  if (!(length > 0)) throw new InvalidInput('line', 'the corridor line has no length');
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, box[4 * i]!);
    minY = Math.min(minY, box[4 * i + 1]!);
    maxX = Math.max(maxX, box[4 * i + 2]!);
    maxY = Math.max(maxY, box[4 * i + 3]!);
  }
  return {
    area,
    bbox: { minX, minY, maxX, maxY },
    // Length × width plus the round ends; overlaps at sharp turns are counted twice (an upper bound).
    surface: length * width + Math.PI * r2,
    contains(x, y) {
      if (x < minX || x > maxX || y < minY || y > maxY) return false;
      for (let i = 0; i < n; i++) {
        const b = 4 * i;
        if (x < box[b]! || y < box[b + 1]! || x > box[b + 2]! || y > box[b + 3]!) continue;
        const px = x - sx[i]!;
        const py = y - sy[i]!;
        const l2 = len2[i]!;
        let t = l2 > 0 ? (px * dx[i]! + py * dy[i]!) / l2 : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const qx = px - t * dx[i]!;
        const qy = py - t * dy[i]!;
        if (qx * qx + qy * qy <= r2) return true;
      }
      return false;
    },
  };
}

/**
 * Compiles a clip area (InvalidInput naming the field when it is degenerate:
 * fewer than 3 vertices, no surface, no length, a non-positive width).
 *
 * @example
 * const area = compileArea({ kind: 'box', minX: 0, minY: 0, maxX: 10, maxY: 10 });
 * area.contains(5, 5); // true
 */
export function compileArea(area: ClipArea): CompiledArea {
  switch (area.kind) {
    case 'polygon':
      return compilePolygons(area);
    case 'corridor':
      return compileCorridor(area);
    case 'box': {
      const minX = finite(area.minX, 'bbox.minX');
      const minY = finite(area.minY, 'bbox.minY');
      const maxX = finite(area.maxX, 'bbox.maxX');
      const maxY = finite(area.maxY, 'bbox.maxY');
      if (!(maxX > minX && maxY > minY)) {
        throw new InvalidInput('bbox', `the box is empty: max must exceed min (${minX},${minY},${maxX},${maxY})`);
      }
      return {
        area,
        bbox: { minX, minY, maxX, maxY },
        surface: (maxX - minX) * (maxY - minY),
        contains: (x, y) => x >= minX && x <= maxX && y >= minY && y <= maxY,
      };
    }
    default:
      throw new InvalidInput('kind', `unknown clip area kind ${(area as { kind: unknown }).kind}`);
  }
}
