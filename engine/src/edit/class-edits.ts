/**
 * Classification edits (issue 23): regions drawn in the viewer — a lasso or a
 * box on the 3D view (`screen`, through a camera matrix) or a polygon on the
 * 2D map (`map`, longitude/latitude) — with filters, giving selected points a
 * new class. Edits apply in order on a cloud's classes; each reports how many
 * points it changed, by their class before.
 */
import { z } from 'zod';
import { chunkBounds, type PointChunk } from '../core/chunk.js';
import { CLASS_NAMES } from '../core/dimensions.js';
import { Cancelled, InvalidInput } from '../core/errors.js';
import { type CrsInfo, createTransformer } from '../crs/index.js';
import { type ColumnTransform, createTransformGrid } from '../tiler/ecef-grid-transform.js';
import { globeEcefTransform } from '../tiler/geoid-ecef.js';

/** Classes an edit may set or filter on: spec §3's list (LAS codes 0–28 without 8 and 12). */
export const EDITABLE_CLASSES: readonly number[] = Object.keys(CLASS_NAMES)
  .map(Number)
  .filter((c) => c !== 8 && c !== 12);

/** Most vertices of an edit's polygon. */
export const MAX_POLYGON_VERTICES = 2000;

const classCode = z
  .number()
  .int()
  .refine((c) => EDITABLE_CLASSES.includes(c), { message: 'not a class of the spec list (0–28 without 8 and 12)' });
const vertex = z.tuple([z.number().finite(), z.number().finite()]);
const polygon = z.array(vertex).min(3).max(MAX_POLYGON_VERTICES);

/** Where an edit applies (see the contract: issue 23). */
export const editRegionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('screen'),
    /** clip = projection × view (column-major, Cesium's Matrix4.toArray order), ECEF metres → clip space. */
    matrix: z.array(z.number().finite()).length(16),
    /** Normalized device coordinates. */
    polygon,
  }),
  z.object({ kind: z.literal('map'), /** [lon, lat], EPSG:4326. */ polygon }),
]);
export type EditRegion = z.infer<typeof editRegionSchema>;

/** What an edit does: region, filters and the class it sets. */
export const classEditRuleSchema = z.object({
  region: editRegionSchema,
  /** Only points of these current classes (all when absent or empty). */
  fromClasses: z.array(classCode).max(64).optional(),
  /** Z range in the cloud's CRS, inclusive; either end may be absent. */
  minZ: z.number().finite().nullable().optional(),
  maxZ: z.number().finite().nullable().optional(),
  toClass: classCode,
});
export type ClassEditRule = z.infer<typeof classEditRuleSchema>;

/** An edit as stored: a rule, an id and whether it counts (REVERTED edits are skipped). */
export const classEditSchema = classEditRuleSchema.extend({
  id: z.string().optional(),
  status: z.enum(['ACTIVE', 'REVERTED']).optional(),
});
export type ClassEdit = z.infer<typeof classEditSchema>;

/** What one edit changed: points in all and by their class before it. */
export interface EditChange {
  total: number;
  byClass: Record<string, number>;
}

/** Result of {@link applyClassEdits}. */
export interface ClassEditsResult {
  /** The new classes (a new array; the cloud's own is left alone). */
  classification: Uint8Array<ArrayBuffer>;
  /** Per edit, in the order given: what it changed; null for a REVERTED edit. */
  changed: Array<EditChange | null>;
}

/**
 * Checks edits (e.g. a JSON file's): the list, or `{ edits: [...] }`.
 * InvalidInput naming the first problem otherwise.
 */
export function parseClassEdits(value: unknown, field = 'edits'): ClassEdit[] {
  const list = Array.isArray(value) ? value : (value as { edits?: unknown } | null)?.edits;
  const parsed = z.array(classEditSchema).safeParse(list);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidInput(field, `${issue.path.join('.') || 'edits'}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * A point-in-polygon test (even-odd rule) over horizontal slabs: each slab
 * keeps the edges crossing it, so a test looks at a few edges whatever the
 * polygon's size.
 */
export interface PolygonTest {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  contains(x: number, y: number): boolean;
}

/** Builds the even-odd test of a polygon (closed implicitly). */
export function polygonTest(vertices: ReadonlyArray<readonly [number, number]>): PolygonTest {
  const n = vertices.length;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const [x, y] of vertices) {
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const slabs = Math.max(1, Math.min(1024, n));
  const height = (maxY - minY) / slabs || 1;
  const buckets: number[][] = Array.from({ length: slabs }, () => []);
  for (let i = 0; i < n; i++) {
    const a = vertices[i]![1];
    const b = vertices[(i + 1) % n]![1];
    const lo = Math.max(0, Math.min(slabs - 1, Math.floor((Math.min(a, b) - minY) / height)));
    const hi = Math.max(0, Math.min(slabs - 1, Math.floor((Math.max(a, b) - minY) / height)));
    for (let s = lo; s <= hi; s++) buckets[s]!.push(i);
  }
  const xs = Float64Array.from(vertices, (v) => v[0]);
  const ys = Float64Array.from(vertices, (v) => v[1]);
  return {
    minX,
    maxX,
    minY,
    maxY,
    contains(px, py) {
      if (!(px >= minX && px <= maxX && py >= minY && py <= maxY)) return false;
      const s = Math.min(slabs - 1, Math.floor((py - minY) / height));
      let inside = false;
      for (const i of buckets[s]!) {
        const j = i + 1 === n ? 0 : i + 1;
        const yi = ys[i]!;
        const yj = ys[j]!;
        if (yi > py !== yj > py) {
          const xi = xs[i]!;
          if (px < ((xs[j]! - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
        }
      }
      return inside;
    },
  };
}

/** Largest error of the interpolated ECEF positions against the exact transform, metres (0.1 mm). */
export const ECEF_TOLERANCE_M = 1e-4;
/** Largest error of the interpolated longitudes and latitudes, degrees (≈ 0.1 mm). */
export const LON_LAT_TOLERANCE_DEG = 1e-9;

/**
 * The exact transform interpolated on a verified grid over the cloud's extent
 * (ecef-grid-transform.ts, as the tiler does: proj4 costs 1–2 µs a point);
 * the exact transform itself when no grid reaches the tolerance.
 */
function gridded(exact: ColumnTransform, cloud: PointChunk, tolerance: number): ColumnTransform {
  const b = chunkBounds(cloud);
  return cloud.count < 10_000 ? exact : createTransformGrid(exact, b, { tolerance });
}

/**
 * Positions of the points as the tiler puts them on the globe: ECEF
 * (EPSG:4978), metres, through the tiler's transform (geoid handling
 * included), within {@link ECEF_TOLERANCE_M} of it.
 */
export function ecefOf(cloud: PointChunk, crs: CrsInfo): { x: Float64Array; y: Float64Array; z: Float64Array } {
  const n = cloud.count;
  const x = cloud.x.slice(0, n);
  const y = cloud.y.slice(0, n);
  const z = cloud.z.slice(0, n);
  gridded(globeEcefTransform(crs, createTransformer), cloud, ECEF_TOLERANCE_M).forward(x, y, z, n);
  return { x, y, z };
}

/** Longitude and latitude (EPSG:4326, degrees) of the points, within {@link LON_LAT_TOLERANCE_DEG}. */
export function lonLatOf(cloud: PointChunk, crs: CrsInfo): { lon: Float64Array; lat: Float64Array } {
  const n = cloud.count;
  const lon = cloud.x.slice(0, n);
  const lat = cloud.y.slice(0, n);
  gridded(createTransformer(crs, 'EPSG:4326'), cloud, LON_LAT_TOLERANCE_DEG).forward(lon, lat, cloud.z.slice(0, n), n);
  return { lon, lat };
}

/**
 * Applies edits in order to the cloud's classes: a point an ACTIVE edit
 * selects (region, then `fromClasses` on its class at that moment, then
 * `minZ`/`maxZ` on its Z) gets `toClass`; the edit's `changed` counts those
 * that were of another class. Screen regions test the point's ECEF position
 * through the matrix (c.w > 0, all depths); map regions its longitude and
 * latitude. REVERTED edits are skipped (changed: null).
 *
 * @example
 * const { classification, changed } = applyClassEdits(cloud, crs, [{ region, toClass: 6 }]);
 */
export function applyClassEdits(
  cloud: PointChunk,
  crs: CrsInfo,
  edits: readonly ClassEdit[],
  ctx: { signal?: AbortSignal; progress?: (f: number) => void } = {},
): ClassEditsResult {
  const n = cloud.count;
  const classes = new Uint8Array(n);
  if (cloud.classification) classes.set(cloud.classification.subarray(0, n));
  const active = edits.filter((e) => e.status !== 'REVERTED');
  const ecef = active.some((e) => e.region.kind === 'screen') ? ecefOf(cloud, crs) : undefined;
  const geo = active.some((e) => e.region.kind === 'map') ? lonLatOf(cloud, crs) : undefined;
  const changed: Array<EditChange | null> = [];
  let done = 0;
  for (const edit of edits) {
    if (edit.status === 'REVERTED') {
      changed.push(null);
      continue;
    }
    if (ctx.signal?.aborted) throw new Cancelled();
    const test = polygonTest(edit.region.polygon);
    const from = edit.fromClasses?.length ? new Set(edit.fromClasses) : undefined;
    const minZ = edit.minZ ?? -Infinity;
    const maxZ = edit.maxZ ?? Infinity;
    const to = edit.toClass;
    const byClass = new Map<number, number>();
    let total = 0;
    const take = (i: number) => {
      const c = classes[i]!;
      if (from && !from.has(c)) return;
      const zi = cloud.z[i]!;
      if (!(zi >= minZ && zi <= maxZ)) return;
      if (c === to) return;
      classes[i] = to;
      total++;
      byClass.set(c, (byClass.get(c) ?? 0) + 1);
    };
    if (edit.region.kind === 'screen') {
      const m = edit.region.matrix;
      const { x, y, z } = ecef!;
      for (let i = 0; i < n; i++) {
        const X = x[i]!;
        const Y = y[i]!;
        const Z = z[i]!;
        const w = m[3]! * X + m[7]! * Y + m[11]! * Z + m[15]!;
        if (!(w > 0)) continue;
        const cx = (m[0]! * X + m[4]! * Y + m[8]! * Z + m[12]!) / w;
        const cy = (m[1]! * X + m[5]! * Y + m[9]! * Z + m[13]!) / w;
        if (test.contains(cx, cy)) take(i);
      }
    } else {
      const { lon, lat } = geo!;
      for (let i = 0; i < n; i++) if (test.contains(lon[i]!, lat[i]!)) take(i);
    }
    changed.push({
      total,
      byClass: Object.fromEntries([...byClass].sort((a, b) => a[0] - b[0]).map(([c, k]) => [String(c), k])),
    });
    ctx.progress?.(++done / Math.max(1, active.length));
  }
  return { classification: classes, changed };
}

/** The classes whose points differ between two classifications (both the old and the new class of each). */
export function changedClasses(before: Uint8Array, after: Uint8Array): Set<number> {
  const out = new Set<number>();
  const n = Math.min(before.length, after.length);
  for (let i = 0; i < n; i++) {
    const a = before[i]!;
    const b = after[i]!;
    if (a !== b) {
      out.add(a);
      out.add(b);
    }
  }
  return out;
}
