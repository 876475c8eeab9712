import { type GlbPoints, parseGlbPoints } from '../glb-points.js';
import { normaliseTileset, type TilesetJsonLike } from '../globe3d/tileset-json.js';

/**
 * Loads a point-cloud tileset for the 2D map: the tiles level by level from
 * the root (each tile adds points: ADD refinement) until a point budget is
 * reached, merged into one set of columns.
 */

interface TileLike {
  content?: { uri?: string };
  children?: TileLike[];
}

/** What the tiler writes in tileset.json `extras`. */
export interface SampledExtras {
  pointCount?: number;
  classCounts?: Record<string, number>;
  hasColor?: boolean;
  bboxWgs84?: { west: number; south: number; east: number; north: number; minHeight: number; maxHeight: number };
}

export interface SampledCloud extends GlbPoints {
  extras: SampledExtras;
  /** Tiles loaded and tiles in the tileset. */
  tilesLoaded: number;
  tilesTotal: number;
}

/** Most points the 2D map loads from one cloud. */
export const DEFAULT_POINT_BUDGET = 1_500_000;

function merge(parts: GlbPoints[]): GlbPoints {
  const count = parts.reduce((n, p) => n + p.count, 0);
  const ecef = new Float64Array(count * 3);
  const classification = new Uint8Array(count);
  const intensity = new Uint16Array(count);
  const hasColor = parts.length > 0 && parts.every((p) => p.rgb);
  const rgb = hasColor ? new Uint8Array(count * 3) : undefined;
  let at = 0;
  for (const p of parts) {
    ecef.set(p.ecef, at * 3);
    classification.set(p.classification, at);
    intensity.set(p.intensity, at);
    if (rgb && p.rgb) rgb.set(p.rgb, at * 3);
    at += p.count;
  }
  return { count, ecef, classification, intensity, ...(rgb ? { rgb } : {}) };
}

/**
 * Fetches tileset.json and its contents, breadth first, until `budget`
 * points are loaded; `onProgress` hears the number of contents still to load.
 */
export async function sampleTileset(
  url: string,
  options: {
    budget?: number;
    signal?: AbortSignal;
    onProgress?: (pending: number) => void;
    fetcher?: typeof fetch;
  } = {},
): Promise<SampledCloud> {
  const fetcher = options.fetcher ?? fetch;
  const budget = options.budget ?? DEFAULT_POINT_BUDGET;
  const res = await fetcher(url, { credentials: 'same-origin', signal: options.signal });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const { json } = normaliseTileset((await res.json()) as TilesetJsonLike, url);
  const root = json.root as TileLike | undefined;
  const extras = (json.extras ?? {}) as SampledExtras;
  if (!root) throw new Error(`${url}: the tileset has no root`);
  let tilesTotal = 0;
  const count = (t: TileLike) => {
    if (t.content?.uri) tilesTotal++;
    for (const c of t.children ?? []) count(c);
  };
  count(root);
  const parts: GlbPoints[] = [];
  let loaded = 0;
  let tilesLoaded = 0;
  let level: TileLike[] = [root];
  while (level.length > 0 && loaded < budget) {
    const uris = level.map((t) => t.content?.uri).filter((u): u is string => Boolean(u));
    // A few requests at a time: enough to hide latency, few enough for a small server.
    for (let i = 0; i < uris.length && loaded < budget; i += 4) {
      const batch = uris.slice(i, i + 4);
      options.onProgress?.(tilesTotal - tilesLoaded);
      const contents = await Promise.all(
        batch.map(async (uri) => {
          const r = await fetcher(uri, { credentials: 'same-origin', signal: options.signal });
          if (!r.ok) throw new Error(`${uri}: HTTP ${r.status}`);
          return parseGlbPoints(new Uint8Array(await r.arrayBuffer()));
        }),
      );
      for (const c of contents) {
        parts.push(c);
        loaded += c.count;
        tilesLoaded++;
      }
    }
    level = level.flatMap((t) => t.children ?? []);
  }
  options.onProgress?.(0);
  return { ...merge(parts), extras, tilesLoaded, tilesTotal };
}
