import { type GlbPoints, parseGlbPoints } from '../glb-points.js';
import { normaliseTileset, type TilesetJsonLike } from '../globe3d/tileset-json.js';

/**
 * Reads the points of a point-cloud tileset (the Nuage tiler's 3D Tiles, ADD
 * refinement: every point is in exactly one tile) that fall in an ECEF box:
 * only the tiles whose bounding volume meets the box are fetched, at every
 * depth, so a profile gets every point of its corridor at full density while
 * the rest of the cloud stays on the server. Contents come through the
 * browser's HTTP cache, where the viewer's own requests have put most of them.
 */

/** An axis-aligned box in ECEF metres. */
export interface EcefBox {
  min: [number, number, number];
  max: [number, number, number];
}

interface TileLike {
  boundingVolume?: { box?: number[]; sphere?: number[] };
  content?: { uri?: string };
  children?: TileLike[];
}

/** What {@link loadPointsInBox} read. */
export interface BoxPoints extends GlbPoints {
  tilesRead: number;
  /** True when `maxTiles` stopped the reading before every tile meeting the box was read. */
  truncated: boolean;
}

/** The ECEF box of a tile's bounding volume (an oriented box or a sphere); null when it has none. */
export function tileBox(tile: TileLike): EcefBox | null {
  const b = tile.boundingVolume?.box;
  if (b && b.length === 12) {
    const ext = [0, 1, 2].map((k) => Math.abs(b[3 + k]!) + Math.abs(b[6 + k]!) + Math.abs(b[9 + k]!));
    return {
      min: [b[0]! - ext[0]!, b[1]! - ext[1]!, b[2]! - ext[2]!],
      max: [b[0]! + ext[0]!, b[1]! + ext[1]!, b[2]! + ext[2]!],
    };
  }
  const s = tile.boundingVolume?.sphere;
  if (s && s.length === 4) {
    return { min: [s[0]! - s[3]!, s[1]! - s[3]!, s[2]! - s[3]!], max: [s[0]! + s[3]!, s[1]! + s[3]!, s[2]! + s[3]!] };
  }
  return null;
}

/** True when two boxes share a point. */
export function boxesMeet(a: EcefBox, b: EcefBox): boolean {
  for (let k = 0; k < 3; k++) if (a.max[k]! < b.min[k]! || b.max[k]! < a.min[k]!) return false;
  return true;
}

/** The smallest box holding every point, grown by `pad` metres. */
export function boxOfPoints(points: ReadonlyArray<readonly [number, number, number]>, pad = 0): EcefBox {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (const p of points) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, p[k]! - pad);
      max[k] = Math.max(max[k]!, p[k]! + pad);
    }
  }
  return { min, max };
}

/**
 * Loads the points of the tileset at `url` that lie in `box`: the tiles
 * meeting the box, four requests at a time, at most `maxTiles` of them
 * (coarse levels first). Points are filtered to the box.
 */
export async function loadPointsInBox(
  url: string,
  box: EcefBox,
  options: { maxTiles?: number; signal?: AbortSignal; fetcher?: typeof fetch } = {},
): Promise<BoxPoints> {
  const fetcher = options.fetcher ?? fetch;
  const maxTiles = options.maxTiles ?? 400;
  const res = await fetcher(url, { credentials: 'same-origin', signal: options.signal });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const { json } = normaliseTileset((await res.json()) as TilesetJsonLike, url);
  const root = json.root as TileLike | undefined;
  if (!root) throw new Error(`${url}: the tileset has no root`);
  const uris: string[] = [];
  let truncated = false;
  let level: TileLike[] = [root];
  while (level.length > 0) {
    const next: TileLike[] = [];
    for (const t of level) {
      const tb = tileBox(t);
      if (tb && !boxesMeet(tb, box)) continue;
      if (t.content?.uri) {
        if (uris.length >= maxTiles) {
          truncated = true;
          continue;
        }
        uris.push(t.content.uri);
      }
      next.push(...(t.children ?? []));
    }
    level = next;
  }
  const parts: GlbPoints[] = [];
  for (let i = 0; i < uris.length; i += 4) {
    const batch = await Promise.all(
      uris.slice(i, i + 4).map(async (uri) => {
        const r = await fetcher(uri, { credentials: 'same-origin', signal: options.signal });
        if (!r.ok) throw new Error(`${uri}: HTTP ${r.status}`);
        return parseGlbPoints(new Uint8Array(await r.arrayBuffer()));
      }),
    );
    for (const p of batch) parts.push(filterToBox(p, box));
  }
  return { ...concat(parts), tilesRead: uris.length, truncated };
}

function filterToBox(p: GlbPoints, box: EcefBox): GlbPoints {
  const keep: number[] = [];
  for (let i = 0; i < p.count; i++) {
    const x = p.ecef[i * 3]!;
    const y = p.ecef[i * 3 + 1]!;
    const z = p.ecef[i * 3 + 2]!;
    if (x >= box.min[0] && x <= box.max[0] && y >= box.min[1] && y <= box.max[1] && z >= box.min[2] && z <= box.max[2])
      keep.push(i);
  }
  const ecef = new Float64Array(keep.length * 3);
  const classification = new Uint8Array(keep.length);
  const intensity = new Uint16Array(keep.length);
  keep.forEach((i, j) => {
    ecef[j * 3] = p.ecef[i * 3]!;
    ecef[j * 3 + 1] = p.ecef[i * 3 + 1]!;
    ecef[j * 3 + 2] = p.ecef[i * 3 + 2]!;
    classification[j] = p.classification[i]!;
    intensity[j] = p.intensity[i]!;
  });
  return { count: keep.length, ecef, classification, intensity };
}

function concat(parts: GlbPoints[]): GlbPoints {
  const count = parts.reduce((n, p) => n + p.count, 0);
  const ecef = new Float64Array(count * 3);
  const classification = new Uint8Array(count);
  const intensity = new Uint16Array(count);
  let at = 0;
  for (const p of parts) {
    ecef.set(p.ecef, at * 3);
    classification.set(p.classification, at);
    intensity.set(p.intensity, at);
    at += p.count;
  }
  return { count, ecef, classification, intensity };
}
