import { boxOfPoints, loadPointsInBox } from './corridor-points.js';
import { binProfile, corridorSamples, niceBinWidth, type ProfileBin, type ProfileSample } from './profile.js';
import type { ProjectCrs, ProjectPoint } from './project-crs.js';

/** A profile ready for its chart. */
export interface LoadedProfile {
  /** Horizontal length of the line, metres. */
  length: number;
  samples: ProfileSample[];
  bins: ProfileBin[];
  binWidth: number;
  tilesRead: number;
  /** True when the corridor met more tiles than were read (a very long line): the profile is partial. */
  truncated: boolean;
}

/**
 * The profile of the line a→b (project CRS) over a corridor `halfWidth`
 * metres either side: the tiles of the cloud at `tilesetUrl` that meet the
 * corridor's box (between `heights`, metres above the ellipsoid) are read,
 * their points turned into project coordinates and kept when inside the
 * corridor.
 */
export async function loadProfile(
  tilesetUrl: string,
  crs: ProjectCrs,
  a: ProjectPoint,
  b: ProjectPoint,
  halfWidth: number,
  heights: { min: number; max: number },
  options: { signal?: AbortSignal; fetcher?: typeof fetch; maxTiles?: number } = {},
): Promise<LoadedProfile> {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len = Math.hypot(dx, dy);
  const length = len * crs.units.horizontal;
  // The corridor's outline (every eighth of its length, both sides) at the lowest and highest heights.
  const half = halfWidth / crs.units.horizontal;
  const nx = len > 0 ? (-dy / len) * half : 0;
  const ny = len > 0 ? (dx / len) * half : 0;
  const corners: Array<[number, number, number]> = [];
  for (let i = 0; i <= 8; i++) {
    const t = i / 8;
    for (const side of [-1, 1]) {
      for (const h of [heights.min, heights.max]) {
        corners.push(
          crs.toEcef({ x: a.x + dx * t + side * nx, y: a.y + dy * t + side * ny, z: h / crs.units.vertical }),
        );
      }
    }
  }
  // Between outline points the Earth's curve lifts a chord by at most (L/8)²/(8R): well under this pad.
  const box = boxOfPoints(corners, 1 + (length / 8) ** 2 / (8 * 6_371_000));
  const points = await loadPointsInBox(tilesetUrl, box, options);
  const x = new Float64Array(points.count);
  const y = new Float64Array(points.count);
  const z = new Float64Array(points.count);
  for (let i = 0; i < points.count; i++) {
    const p = crs.fromEcef(points.ecef[i * 3]!, points.ecef[i * 3 + 1]!, points.ecef[i * 3 + 2]!);
    x[i] = p.x;
    y[i] = p.y;
    z[i] = p.z;
  }
  const samples = corridorSamples(
    { count: points.count, x, y, z, classification: points.classification },
    a,
    b,
    halfWidth,
    crs.units,
  );
  const binWidth = niceBinWidth(length);
  return {
    length,
    samples,
    bins: binProfile(samples, length, binWidth),
    binWidth,
    tilesRead: points.tilesRead,
    truncated: points.truncated,
  };
}
