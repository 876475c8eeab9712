/**
 * GeoJSON (EPSG:4326, as OGC API Features serves it) flattened into lines,
 * points and polygons with heights, for the viewers, and the helpers of their
 * styles (labels, declutter). Contours and grids carry their `elevation` in
 * the file's vertical unit; `heightOf` turns it into the height the viewer
 * draws at, so contours lie on the cloud's ground.
 */
import type { VectorLabelStyle, VectorLayerDescription, VectorStyle, ViewerEvent } from './scene.types.js';

/** A FeatureCollection (the features only). */
export interface FeatureCollection {
  features: Feature[];
  /** More features were left unread: the collection holds the first {@link MAX_VIEWER_FEATURES} or so. */
  truncated?: boolean;
}

/** Most features a viewer reads of one layer (pages of 10,000); the rest are left, and the page says so. */
export const MAX_VIEWER_FEATURES = 200_000;

/**
 * A viewer's notice of layers read in part: `check` emits VECTOR_TRUNCATED
 * (the count drawn, in the page's locale) the first time a layer's
 * collection comes back truncated.
 */
export function truncationNotices(emit: (e: ViewerEvent) => void, locale: () => string) {
  const said = new Set<string>();
  return (layerId: string, collection: FeatureCollection): void => {
    if (!collection.truncated || said.has(layerId)) return;
    said.add(layerId);
    const drawn = new Intl.NumberFormat(locale()).format(collection.features.length);
    emit({ type: 'error', code: 'VECTOR_TRUNCATED', layerId, message: drawn });
  };
}

/** A line, a point or a polygon (outer ring then holes), in degrees and metres; `feature` indexes the collection. */
export type VectorShape =
  | { kind: 'line'; positions: Array<[number, number, number]>; feature: number }
  | { kind: 'point'; position: [number, number, number]; feature: number }
  | { kind: 'polygon'; rings: Array<Array<[number, number, number]>>; feature: number };

interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}

/** A GeoJSON feature as OGC API Features serves it. */
export interface Feature {
  geometry: Geometry | null;
  properties?: Record<string, unknown> | null;
}

/** Options of {@link vectorShapes}. */
export interface ShapeOptions {
  /** Elevation (file unit) of a feature from elsewhere (a join), tried first; null when unknown. */
  elevationOf?: (properties: Record<string, unknown>) => number | null;
  /** Property holding the feature's elevation (file unit); default `elevation`. The geometry's z comes next. */
  elevationProperty?: string;
  /** Keeps polygons as polygons (their rings) instead of their outlines as lines. */
  polygons?: boolean;
}

/** A finite number from a property value (numbers and numeric strings), else null. */
export function finiteNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === '' || typeof value === 'boolean') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * The shapes of a FeatureCollection, each with the index of its feature;
 * `heightOf` gets the feature's elevation (see {@link ShapeOptions}) or the
 * vertex's z, and returns metres.
 */
export function vectorShapes(
  collection: { features?: Feature[] },
  heightOf: (elevation: number | null) => number,
  options: ShapeOptions = {},
): VectorShape[] {
  const out: VectorShape[] = [];
  const property = options.elevationProperty ?? 'elevation';
  const features = collection.features ?? [];
  for (let index = 0; index < features.length; index++) {
    const feature = features[index]!;
    const properties = feature.properties ?? {};
    const fromProperty = options.elevationOf?.(properties) ?? finiteNumber(properties[property]);
    const point = (c: unknown): [number, number, number] | null => {
      if (!Array.isArray(c) || c.length < 2) return null;
      const [lon, lat, z] = c as number[];
      if (!Number.isFinite(lon) || !Number.isFinite(lat)) return null;
      const e = fromProperty ?? (Number.isFinite(z) ? z! : null);
      return [lon!, lat!, heightOf(e)];
    };
    const positionsOf = (cs: unknown) =>
      Array.isArray(cs) ? cs.map(point).filter((p): p is [number, number, number] => p !== null) : [];
    const line = (cs: unknown) => {
      const positions = positionsOf(cs);
      if (positions.length >= 2) out.push({ kind: 'line', positions, feature: index });
    };
    const polygon = (rings: unknown) => {
      if (!Array.isArray(rings)) return;
      if (!options.polygons) {
        for (const l of rings) line(l);
        return;
      }
      const kept = rings.map(positionsOf).filter((r) => r.length >= 3);
      // Without its outer ring a polygon is not drawn (a hole alone is no shape).
      if (kept.length > 0 && positionsOf(rings[0]).length >= 3)
        out.push({ kind: 'polygon', rings: kept, feature: index });
    };
    const visit = (g: Geometry | null | undefined) => {
      if (!g) return;
      const c = g.coordinates as unknown[];
      switch (g.type) {
        case 'Point': {
          const p = point(c);
          if (p) out.push({ kind: 'point', position: p, feature: index });
          break;
        }
        case 'MultiPoint':
          for (const pc of c ?? []) {
            const p = point(pc);
            if (p) out.push({ kind: 'point', position: p, feature: index });
          }
          break;
        case 'LineString':
          line(c);
          break;
        case 'MultiLineString':
          for (const l of c ?? []) line(l);
          break;
        case 'Polygon':
          polygon(c);
          break;
        case 'MultiPolygon':
          for (const poly of c ?? []) polygon(poly);
          break;
        case 'GeometryCollection':
          for (const sub of g.geometries ?? []) visit(sub);
          break;
      }
    };
    visit(feature.geometry);
  }
  return out;
}

/**
 * A lookup of `property` by `key` over a collection (the z of each tree top by
 * its treeId), for {@link ShapeOptions.elevationOf}.
 */
export function propertyLookup(
  collection: { features?: Feature[] },
  key: string,
  property: string,
): (properties: Record<string, unknown>) => number | null {
  const values = new Map<string, number>();
  for (const f of collection.features ?? []) {
    const k = f.properties?.[key];
    const v = finiteNumber(f.properties?.[property]);
    if (k !== undefined && k !== null && v !== null) values.set(String(k), v);
  }
  return (properties) => {
    const k = properties[key];
    return k === undefined || k === null ? null : (values.get(String(k)) ?? null);
  };
}

/** The first finite number among `names` in `properties`, else null (eave height, else ridge height). */
export function firstFinite(properties: Record<string, unknown>, names: readonly string[]): number | null {
  for (const name of names) {
    const v = finiteNumber(properties[name]);
    if (v !== null) return v;
  }
  return null;
}

/**
 * The text of a label: the number with the style's decimals in the locale's
 * notation and its unit (spec §9: a tree top shows its height in metres to 2
 * decimals, "23.45 m"); null when the property is not a number.
 *
 * @example
 * formatLabel(23.4567, { property: 'height', decimals: 2, unit: 'm' }) // "23.46 m"
 */
export function formatLabel(value: unknown, style: VectorLabelStyle, locale = 'en-US'): string | null {
  const n = finiteNumber(value);
  if (n === null) return null;
  const text = n.toLocaleString(locale, {
    minimumFractionDigits: style.decimals,
    maximumFractionDigits: style.decimals,
    useGrouping: false,
  });
  return style.unit ? `${text} ${style.unit}` : text;
}

/**
 * Indices of the `max` points nearest to `eye` and within `maxDistance` of it,
 * nearest first. `xyz` holds the points' Cartesian coordinates (metres, ECEF)
 * one after the other: the 3D viewer labels only these, so a layer of 20,000
 * trees keeps a few hundred labels whatever the camera.
 */
export function nearestIndices(
  xyz: Float64Array,
  eye: readonly [number, number, number],
  max: number,
  maxDistance: number,
): number[] {
  const limit = maxDistance * maxDistance;
  const near: Array<[number, number]> = [];
  for (let i = 0; i < xyz.length / 3; i++) {
    const dx = xyz[i * 3]! - eye[0];
    const dy = xyz[i * 3 + 1]! - eye[1];
    const dz = xyz[i * 3 + 2]! - eye[2];
    const d = dx * dx + dy * dy + dz * dz;
    if (d <= limit) near.push([d, i]);
  }
  near.sort((a, b) => a[0] - b[0]);
  return near.slice(0, max).map(([, i]) => i);
}

/** Size of a label's box on screen (CSS pixels): "23.45 m" in 13 px bold, with a little air. */
export const LABEL_BOX: readonly [number, number] = [56, 18];

/**
 * Labels that do not overlap on screen: by decreasing `priority` (the tallest
 * tree first), a label is kept when its box (`box` pixels, centred on its
 * anchor) overlaps no box kept before. Anchors are screen pixels, null for a
 * point off screen. Returns the kept indices in input order.
 */
export function placeLabels(
  anchors: ReadonlyArray<readonly [number, number] | null>,
  priority: ReadonlyArray<number>,
  box: readonly [number, number] = LABEL_BOX,
): number[] {
  const [w, h] = box;
  const order = anchors.map((_, i) => i).filter((i) => anchors[i] !== null);
  order.sort((a, b) => (priority[b] ?? 0) - (priority[a] ?? 0) || a - b);
  // Kept boxes by grid cell of one box: two boxes overlap only when their cells touch.
  const cells = new Map<string, Array<readonly [number, number]>>();
  const kept: number[] = [];
  for (const i of order) {
    const [x, y] = anchors[i]!;
    const cx = Math.floor(x / w);
    const cy = Math.floor(y / h);
    let free = true;
    for (let dx = -1; dx <= 1 && free; dx++) {
      for (let dy = -1; dy <= 1 && free; dy++) {
        for (const [ox, oy] of cells.get(`${cx + dx}:${cy + dy}`) ?? []) {
          if (Math.abs(ox - x) < w && Math.abs(oy - y) < h) {
            free = false;
            break;
          }
        }
      }
    }
    if (!free) continue;
    const key = `${cx}:${cy}`;
    cells.set(key, [...(cells.get(key) ?? []), [x, y]]);
    kept.push(i);
  }
  return kept.sort((a, b) => a - b);
}

/**
 * Labels of a 2D map that do not overlap at `zoom` ({@link placeLabels} on
 * Web Mercator pixels of 512-pixel tiles); none below `minZoom`.
 */
export function declutterLabels(
  lonLats: ReadonlyArray<readonly [number, number]>,
  priority: ReadonlyArray<number>,
  zoom: number,
  options: { box?: readonly [number, number]; minZoom?: number } = {},
): number[] {
  if (zoom < (options.minZoom ?? 0)) return [];
  const worldPx = 512 * 2 ** zoom;
  const anchors = lonLats.map(([lon, lat]): [number, number] => {
    const s = Math.sin((Math.max(-85, Math.min(85, lat)) * Math.PI) / 180);
    return [((lon + 180) / 360) * worldPx, (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * worldPx];
  });
  return placeLabels(anchors, priority, options.box);
}

/**
 * Pages of an OGC API Features `items` answer are followed through their
 * `next` link, up to `maxFeatures` (`truncated` when a page was left). A 404
 * on the first page is an empty collection: the API lists only vector assets
 * that have features, so a READY product that found nothing (no major contour
 * on flat ground) has none.
 */
export async function fetchAllFeatures(
  url: string,
  maxFeatures = MAX_VIEWER_FEATURES,
  fetcher: typeof fetch = fetch,
): Promise<FeatureCollection> {
  const features: Feature[] = [];
  let next: string | null = url;
  while (next && features.length < maxFeatures) {
    const res = await fetcher(next, { credentials: 'same-origin', headers: { Accept: 'application/geo+json' } });
    if (res.status === 404 && next === url) return { features: [] };
    if (!res.ok) throw new Error(`${next}: HTTP ${res.status}`);
    const page = (await res.json()) as { features?: Feature[]; links?: Array<{ rel: string; href: string }> };
    features.push(...(page.features ?? []));
    next = page.links?.find((l) => l.rel === 'next')?.href ?? null;
    if (!page.features?.length) return { features };
  }
  return next ? { features, truncated: true } : { features };
}

/**
 * The linear map from file elevations (the project's min..max, in the file's
 * vertical unit) to drawn heights (the cloud's min..max, metres); a constant
 * when either range is unknown or flat.
 */
export function elevationToHeight(
  elevation: { min: number; max: number } | undefined,
  heights: { min: number; max: number },
): (e: number | null) => number {
  if (!elevation || !(elevation.max > elevation.min) || !(heights.max > heights.min)) return () => heights.min;
  const scale = (heights.max - heights.min) / (elevation.max - elevation.min);
  return (e) => (e === null ? heights.min : heights.min + (e - elevation.min) * scale);
}

/**
 * The colour of a feature by its style: `colorBy` looks its property's value
 * up (as text: severity "high", zone "1", reachesConductor "true"), else the
 * style's colour.
 *
 * @example
 * featureColor({ kind: 'polygons', color: '#999', colorBy: { property: 'severity', colors: { high: '#f00' } } }, { severity: 'high' }) // "#f00"
 */
export function featureColor(
  style: Pick<VectorStyle, 'color' | 'colorBy'>,
  properties: Record<string, unknown> | null | undefined,
): string {
  const by = style.colorBy;
  if (!by) return style.color;
  const value = properties?.[by.property];
  if (value === undefined || value === null) return style.color;
  return by.colors[String(value)] ?? style.color;
}

/**
 * A product's GeoJSON file through its supplier: `url` answers `{ url }`
 * (file-supplier-url), the signed address of the file, which is then read.
 * The file keeps the heights of every vertex (the OGC items are 2D).
 */
export async function fetchSuppliedFeatures(url: string, fetcher: typeof fetch = fetch): Promise<FeatureCollection> {
  const res = await fetcher(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const supply = (await res.json()) as { url?: unknown };
  if (typeof supply.url !== 'string' || supply.url === '') throw new Error(`${url}: no file address in the answer`);
  const fileUrl = new URL(supply.url, new URL(url, globalThis.location?.href ?? 'http://localhost/')).href;
  const file = await fetcher(fileUrl, { credentials: 'same-origin', headers: { Accept: 'application/geo+json' } });
  if (!file.ok) throw new Error(`${fileUrl}: HTTP ${file.status}`);
  const body = (await file.json()) as { features?: Feature[] };
  if (!Array.isArray(body.features)) throw new Error(`${fileUrl}: not a GeoJSON FeatureCollection`);
  return { features: body.features };
}

/** The features of a vector layer: its GeoJSON file when it names one (3D), else its OGC items. */
export function fetchLayerFeatures(
  layer: Pick<VectorLayerDescription, 'url' | 'fileUrl'>,
  fetcher: typeof fetch = fetch,
): Promise<FeatureCollection> {
  const base = globalThis.document?.baseURI ?? globalThis.location?.href ?? 'http://localhost/';
  if (layer.fileUrl) return fetchSuppliedFeatures(new URL(layer.fileUrl, base).href, fetcher);
  return fetchAllFeatures(new URL(layer.url, base).href, undefined, fetcher);
}
