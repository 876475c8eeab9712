import type { CrsUnits, ProjectPoint } from './project-crs.js';

/**
 * An elevation profile along a drawn line: the points within a corridor
 * either side of it, as distance along the line and elevation, and their
 * summary per distance bin. Everything is in the project CRS, lengths and
 * heights in metres.
 */

/** A point of the corridor, metres. */
export interface ProfileSample {
  /** Distance from the line's start along the line (0..length). */
  along: number;
  /** Signed distance from the line (left positive). */
  offset: number;
  /** Elevation: project Z in metres. */
  elevation: number;
  /** ASPRS class code. */
  classification: number;
}

/** Summary of the samples of one distance bin. */
export interface ProfileBin {
  /** Centre of the bin along the line, metres. */
  along: number;
  count: number;
  min: number;
  max: number;
  mean: number;
}

/** Columns of points in project coordinates (X, Y, Z in project units). */
export interface ProjectColumns {
  count: number;
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  classification: Uint8Array;
}

/**
 * The points of `columns` within `halfWidth` metres of the segment a→b (a
 * rectangle: points beyond either end are left out), sorted by distance
 * along the line.
 *
 * @example
 * corridorSamples(cols, { x: 0, y: 0, z: 0 }, { x: 100, y: 0, z: 0 }, 1, { horizontal: 1, vertical: 1 });
 */
export function corridorSamples(
  columns: ProjectColumns,
  a: ProjectPoint,
  b: ProjectPoint,
  halfWidth: number,
  units: CrsUnits,
): ProfileSample[] {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = Math.hypot(dx, dy);
  if (!(length > 0) || !(halfWidth >= 0)) return [];
  const ux = dx / length;
  const uy = dy / length;
  // In project units: the corridor's half width and length.
  const half = halfWidth / units.horizontal;
  const out: ProfileSample[] = [];
  for (let i = 0; i < columns.count; i++) {
    const px = columns.x[i]! - a.x;
    const py = columns.y[i]! - a.y;
    const along = px * ux + py * uy;
    if (along < 0 || along > length) continue;
    const offset = ux * py - uy * px;
    if (Math.abs(offset) > half) continue;
    out.push({
      along: along * units.horizontal,
      offset: offset * units.horizontal,
      elevation: columns.z[i]! * units.vertical,
      classification: columns.classification[i]!,
    });
  }
  return out.sort((p, q) => p.along - q.along);
}

/**
 * The samples summarised per bin of `binWidth` metres from 0 to `length`;
 * bins without samples are left out.
 */
export function binProfile(samples: readonly ProfileSample[], length: number, binWidth: number): ProfileBin[] {
  if (!(binWidth > 0) || !(length >= 0)) return [];
  const n = Math.max(1, Math.ceil(length / binWidth));
  const count = new Uint32Array(n);
  const min = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const max = new Float64Array(n).fill(Number.NEGATIVE_INFINITY);
  const sum = new Float64Array(n);
  for (const s of samples) {
    const i = Math.min(n - 1, Math.max(0, Math.floor(s.along / binWidth)));
    count[i]!++;
    if (s.elevation < min[i]!) min[i] = s.elevation;
    if (s.elevation > max[i]!) max[i] = s.elevation;
    sum[i]! += s.elevation;
  }
  const bins: ProfileBin[] = [];
  for (let i = 0; i < n; i++) {
    if (count[i] === 0) continue;
    const hi = Math.min(length, (i + 1) * binWidth);
    bins.push({
      along: (i * binWidth + hi) / 2,
      count: count[i]!,
      min: min[i]!,
      max: max[i]!,
      mean: sum[i]! / count[i]!,
    });
  }
  return bins;
}

/**
 * A bin width that gives about `target` bins over `length` metres, rounded
 * to 1, 2 or 5 × a power of ten (at least 1 cm).
 */
export function niceBinWidth(length: number, target = 200): number {
  const raw = Math.max(0.01, length / Math.max(1, target));
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (raw <= m * p) return m * p;
  return 10 * p;
}

/**
 * At most `max` samples, evenly spread over the list (every k-th), so a chart
 * stays fast whatever the corridor holds; the list is returned as is when short.
 */
export function thinSamples<T>(samples: readonly T[], max: number): T[] {
  if (samples.length <= max) return [...samples];
  const out: T[] = [];
  const step = samples.length / max;
  for (let i = 0; i < max; i++) out.push(samples[Math.floor(i * step)]!);
  return out;
}
