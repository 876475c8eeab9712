/**
 * GeoJSON (EPSG:4326, as OGC API Features serves it) flattened into lines and
 * points with heights, for the viewers. Contours and grids carry their
 * `elevation` in the file's vertical unit; `heightOf` turns it into the
 * height the viewer draws at, so contours lie on the cloud's ground.
 */

/** A line or a point, in degrees and metres. */
export type VectorShape =
  | { kind: 'line'; positions: Array<[number, number, number]> }
  | { kind: 'point'; position: [number, number, number] };

interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}

interface Feature {
  geometry: Geometry | null;
  properties?: Record<string, unknown> | null;
}

/** The shapes of a FeatureCollection; `heightOf` gets the feature's elevation property (or z) and returns metres. */
export function vectorShapes(
  collection: { features?: Feature[] },
  heightOf: (elevation: number | null) => number,
): VectorShape[] {
  const out: VectorShape[] = [];
  for (const feature of collection.features ?? []) {
    const elevation = Number(feature.properties?.elevation);
    const fromProperty = Number.isFinite(elevation) ? elevation : null;
    const point = (c: unknown): [number, number, number] | null => {
      if (!Array.isArray(c) || c.length < 2) return null;
      const [lon, lat, z] = c as number[];
      if (!Number.isFinite(lon) || !Number.isFinite(lat)) return null;
      const e = fromProperty ?? (Number.isFinite(z) ? z! : null);
      return [lon!, lat!, heightOf(e)];
    };
    const line = (cs: unknown) => {
      if (!Array.isArray(cs)) return;
      const positions = cs.map(point).filter((p): p is [number, number, number] => p !== null);
      if (positions.length >= 2) out.push({ kind: 'line', positions });
    };
    const visit = (g: Geometry | null | undefined) => {
      if (!g) return;
      const c = g.coordinates as unknown[];
      switch (g.type) {
        case 'Point': {
          const p = point(c);
          if (p) out.push({ kind: 'point', position: p });
          break;
        }
        case 'MultiPoint':
          for (const pc of c ?? []) {
            const p = point(pc);
            if (p) out.push({ kind: 'point', position: p });
          }
          break;
        case 'LineString':
          line(c);
          break;
        case 'MultiLineString':
        case 'Polygon':
          for (const l of c ?? []) line(l);
          break;
        case 'MultiPolygon':
          for (const poly of c ?? []) for (const l of (poly as unknown[]) ?? []) line(l);
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

/** Pages of an OGC API Features `items` answer are followed through their `next` link, up to `maxFeatures`. */
export async function fetchAllFeatures(
  url: string,
  maxFeatures = 200_000,
  fetcher: typeof fetch = fetch,
): Promise<{ features: Feature[] }> {
  const features: Feature[] = [];
  let next: string | null = url;
  while (next && features.length < maxFeatures) {
    const res = await fetcher(next, { credentials: 'same-origin', headers: { Accept: 'application/geo+json' } });
    if (!res.ok) throw new Error(`${next}: HTTP ${res.status}`);
    const page = (await res.json()) as { features?: Feature[]; links?: Array<{ rel: string; href: string }> };
    features.push(...(page.features ?? []));
    next = page.links?.find((l) => l.rel === 'next')?.href ?? null;
    if (!page.features?.length) break;
  }
  return { features };
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
