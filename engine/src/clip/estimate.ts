/**
 * What a clip will hold before it runs: points from the header's density over
 * the part of the area that overlaps the cloud's extent, bytes from the LAS
 * 1.4 record the writer will use. An estimate (point density varies), never
 * a count.
 */
import type { LasHeader } from '../readers/las-header.js';
import type { CompiledArea } from './area.js';

export interface ClipEstimate {
  /** Estimated points inside the area (classes and returns filters not applied). */
  points: number;
  /** Estimated size of the LAS file. */
  bytes: number;
  /** Surface of the area in square CRS units. */
  surface: number;
  /** Points per square CRS unit over the cloud's extent. */
  density: number;
  /** Fraction of the area's box inside the cloud's extent, in [0, 1]. */
  overlap: number;
}

/** The LAS 1.4 record length the writer uses for an input point format (6, 7 with RGB, 8 with NIR) plus extra bytes. */
export function outputRecordLength(header: Pick<LasHeader, 'pointFormat' | 'extraBytes'>): number {
  const f = header.pointFormat;
  const rgb = f === 2 || f === 3 || f === 5 || f === 7 || f === 8 || f === 10;
  const nir = f === 8 || f === 10;
  const base = nir ? 38 : rgb ? 36 : 30;
  return base + header.extraBytes.reduce((n, e) => n + e.size, 0);
}

/** Estimates the clip of `area` out of a cloud with this header. */
export function estimateClip(
  header: Pick<LasHeader, 'pointCount' | 'min' | 'max' | 'pointFormat' | 'extraBytes'>,
  area: CompiledArea,
): ClipEstimate {
  const w = header.max[0] - header.min[0];
  const h = header.max[1] - header.min[1];
  const extent = w * h;
  const density = extent > 0 ? header.pointCount / extent : 0;
  const b = area.bbox;
  const boxSurface = (b.maxX - b.minX) * (b.maxY - b.minY);
  const ix = Math.max(0, Math.min(b.maxX, header.max[0]) - Math.max(b.minX, header.min[0]));
  const iy = Math.max(0, Math.min(b.maxY, header.max[1]) - Math.max(b.minY, header.min[1]));
  const overlap = boxSurface > 0 ? Math.min(1, (ix * iy) / boxSurface) : 0;
  const points = Math.min(header.pointCount, Math.round(density * area.surface * overlap));
  const vlrBytes = 54 + 2048 + 54 + 192 * header.extraBytes.length;
  return {
    points,
    bytes: 375 + vlrBytes + points * outputRecordLength(header),
    surface: area.surface,
    density,
    overlap,
  };
}
