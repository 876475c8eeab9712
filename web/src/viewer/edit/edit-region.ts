import { MAX_REGION_VERTICES, type MapRegion, type ScreenPixel, type ScreenRegion } from './edit.types.js';

/**
 * The geometry of classification-edit selections, without Cesium: the clip
 * matrix of a view (column-major 4×4, as Cesium's `Matrix4.toArray`), pixels
 * to normalized device coordinates, lasso and box outlines, and the test the
 * server applies to each point (even-odd rule), so the client and its tests
 * select exactly as the server does.
 */

/** The product a × b of two column-major 4×4 matrices (16 numbers each). */
export function multiplyMatrices(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== 16 || b.length !== 16) throw new RangeError('a 4×4 matrix has 16 numbers');
  const out = new Array<number>(16).fill(0);
  for (let col = 0; col < 4; col++) {
    for (let row = 0; row < 4; row++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + row]! * b[col * 4 + k]!;
      out[col * 4 + row] = s;
    }
  }
  return out;
}

/** Clip coordinates [x, y, z, w] of an ECEF point (metres) through a column-major matrix. */
export function toClip(
  matrix: readonly number[],
  p: readonly [number, number, number],
): [number, number, number, number] {
  const [x, y, z] = p;
  const m = matrix;
  return [
    m[0]! * x + m[4]! * y + m[8]! * z + m[12]!,
    m[1]! * x + m[5]! * y + m[9]! * z + m[13]!,
    m[2]! * x + m[6]! * y + m[10]! * z + m[14]!,
    m[3]! * x + m[7]! * y + m[11]! * z + m[15]!,
  ];
}

/** Normalized device coordinates of a pixel of a `width` × `height` scene (CSS pixels, y down). */
export function pixelToNdc(px: number, py: number, width: number, height: number): [number, number] {
  return [(2 * px) / width - 1, 1 - (2 * py) / height];
}

/** The pixel (CSS, y down) of normalized device coordinates in a `width` × `height` scene. */
export function ndcToPixel(x: number, y: number, width: number, height: number): ScreenPixel {
  return [((x + 1) * width) / 2, ((1 - y) * height) / 2];
}

/**
 * Where an ECEF point lands on screen through a clip matrix: its pixel (CSS,
 * y down), or null when it is behind the eye (w ≤ 0).
 */
export function projectToPixel(
  matrix: readonly number[],
  p: readonly [number, number, number],
  width: number,
  height: number,
): ScreenPixel | null {
  const c = toClip(matrix, p);
  if (!(c[3] > 0)) return null;
  return ndcToPixel(c[0] / c[3], c[1] / c[3], width, height);
}

/** True when (x, y) is inside the polygon by the even-odd rule (the server's rule; edges count either way). */
export function insidePolygon(polygon: readonly (readonly [number, number])[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** True when a point is selected by a screen region: in front of the eye and inside its polygon. */
export function screenRegionContains(region: ScreenRegion, p: readonly [number, number, number]): boolean {
  const c = toClip(region.matrix, p);
  if (!(c[3] > 0)) return false;
  return insidePolygon(region.polygon, c[0] / c[3], c[1] / c[3]);
}

/** The four corners of a box dragged from `a` to `b` (pixels), clockwise on screen. */
export function boxOutline(a: ScreenPixel, b: ScreenPixel): ScreenPixel[] {
  return [
    [a[0], a[1]],
    [b[0], a[1]],
    [b[0], b[1]],
    [a[0], b[1]],
  ];
}

/** Twice the signed area of a polygon (shoelace), in its units squared. */
export function doubleArea(polygon: readonly (readonly [number, number])[]): number {
  let s = 0;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    s += polygon[j]![0] * polygon[i]![1] - polygon[i]![0] * polygon[j]![1];
  }
  return s;
}

/**
 * A lasso's outline as a polygon the server takes: pixels closer than
 * `minStep` to the last kept one dropped, then thinned evenly to at most
 * {@link MAX_REGION_VERTICES}; null when fewer than 3 vertices or less than
 * `minArea` square pixels are left (a click, not a selection).
 */
export function lassoOutline(points: readonly ScreenPixel[], minStep = 2, minArea = 16): ScreenPixel[] | null {
  const kept: ScreenPixel[] = [];
  for (const p of points) {
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1])) continue;
    const last = kept[kept.length - 1];
    if (!last || Math.hypot(p[0] - last[0], p[1] - last[1]) >= minStep) kept.push([p[0], p[1]]);
  }
  let out = kept;
  if (out.length > MAX_REGION_VERTICES) {
    const step = out.length / MAX_REGION_VERTICES;
    out = Array.from({ length: MAX_REGION_VERTICES }, (_, i) => kept[Math.floor(i * step)]!);
  }
  if (out.length < 3 || Math.abs(doubleArea(out)) / 2 < minArea) return null;
  return out;
}

/**
 * The screen region of an outline drawn on a `width` × `height` scene (CSS
 * pixels) seen through `projection` × `view` (column-major, as Cesium's
 * `camera.frustum.projectionMatrix` and `camera.viewMatrix`).
 */
export function screenRegionOf(
  projection: readonly number[],
  view: readonly number[],
  outline: readonly ScreenPixel[],
  width: number,
  height: number,
): ScreenRegion {
  if (!(width > 0 && height > 0)) throw new RangeError('the scene has no size');
  return {
    kind: 'screen',
    matrix: multiplyMatrices(projection, view),
    polygon: outline.map(([px, py]) => pixelToNdc(px, py, width, height)),
  };
}

/** The map region of a polygon drawn on the 2D map ([lon, lat] degrees); null under 3 vertices. */
export function mapRegionOf(vertices: readonly { lon: number; lat: number }[]): MapRegion | null {
  if (vertices.length < 3) return null;
  const polygon = vertices.slice(0, MAX_REGION_VERTICES).map((v) => [v.lon, v.lat] as [number, number]);
  return { kind: 'map', polygon };
}
