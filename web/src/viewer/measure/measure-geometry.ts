import type { CrsUnits, ProjectPoint } from './project-crs.js';

/**
 * Distances and areas in the project CRS (the coordinates the LiDAR file
 * holds), turned into metres with the CRS units: horizontal lengths are
 * plane lengths of the projection, vertical ones differences of Z.
 */

/** One segment of a polyline, metres. */
export interface SegmentMeasure {
  /** Plane distance in the project CRS. */
  horizontal: number;
  /** Z of the end minus Z of the start (signed). */
  vertical: number;
  /** √(horizontal² + vertical²). */
  distance3d: number;
  /** Vertical over horizontal, percent; null for a vertical segment. */
  slopePercent: number | null;
}

/** A polyline's segments and totals, metres. */
export interface PolylineMeasure {
  segments: SegmentMeasure[];
  /** Sums over the segments. */
  horizontal: number;
  distance3d: number;
  /** Z of the last vertex minus Z of the first (signed). */
  vertical: number;
  /** Sum of the rises and of the falls along the line (both ≥ 0). */
  ascent: number;
  descent: number;
}

/** A polygon's horizontal area (m²) and perimeter (m, closed). */
export interface PolygonMeasure {
  area: number;
  perimeter: number;
}

/**
 * The distances between two project points.
 *
 * @example
 * measureSegment({ x: 0, y: 0, z: 0 }, { x: 3, y: 4, z: 12 }, { horizontal: 1, vertical: 1 });
 * // { horizontal: 5, vertical: 12, distance3d: 13, slopePercent: 240 }
 */
export function measureSegment(a: ProjectPoint, b: ProjectPoint, units: CrsUnits): SegmentMeasure {
  const horizontal = Math.hypot(b.x - a.x, b.y - a.y) * units.horizontal;
  const vertical = (b.z - a.z) * units.vertical;
  return {
    horizontal,
    vertical,
    distance3d: Math.hypot(horizontal, vertical),
    slopePercent: horizontal > 0 ? (vertical / horizontal) * 100 : null,
  };
}

/** Every segment of a polyline and the totals (zero for fewer than two vertices). */
export function measurePolyline(points: readonly ProjectPoint[], units: CrsUnits): PolylineMeasure {
  const segments: SegmentMeasure[] = [];
  for (let i = 1; i < points.length; i++) segments.push(measureSegment(points[i - 1]!, points[i]!, units));
  const sum = (f: (s: SegmentMeasure) => number) => segments.reduce((t, s) => t + f(s), 0);
  return {
    segments,
    horizontal: sum((s) => s.horizontal),
    distance3d: sum((s) => s.distance3d),
    vertical: points.length > 1 ? (points.at(-1)!.z - points[0]!.z) * units.vertical : 0,
    ascent: sum((s) => Math.max(0, s.vertical)),
    descent: sum((s) => Math.max(0, -s.vertical)),
  };
}

/**
 * The horizontal area (shoelace formula, m², whatever the winding) and the
 * closed perimeter of a polygon given by its vertices in the project CRS.
 * Fewer than three vertices have no area. A self-intersecting outline counts
 * its lobes with opposite signs, as the shoelace formula does.
 */
export function measurePolygon(points: readonly ProjectPoint[], units: CrsUnits): PolygonMeasure {
  const n = points.length;
  if (n < 2) return { area: 0, perimeter: 0 };
  // Relative to the first vertex: projected coordinates are large (10⁶ m), their products lose digits.
  const ox = points[0]!.x;
  const oy = points[0]!.y;
  let twice = 0;
  let perimeter = 0;
  for (let i = 0; i < n; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % n]!;
    twice += (a.x - ox) * (b.y - oy) - (b.x - ox) * (a.y - oy);
    if (n > 2 || i === 0) perimeter += Math.hypot(b.x - a.x, b.y - a.y);
  }
  return {
    area: n >= 3 ? (Math.abs(twice) / 2) * units.horizontal * units.horizontal : 0,
    perimeter: perimeter * units.horizontal * (n === 2 ? 2 : 1),
  };
}

/** The mean of positions (label anchor of a polygon or segment). */
export function centroidOf(points: readonly ProjectPoint[]): ProjectPoint {
  const n = Math.max(1, points.length);
  return {
    x: points.reduce((s, p) => s + p.x, 0) / n,
    y: points.reduce((s, p) => s + p.y, 0) / n,
    z: points.reduce((s, p) => s + p.z, 0) / n,
  };
}
