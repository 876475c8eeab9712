/**
 * The globe's terrain from the project's own DTM: heightmap tiles the API
 * makes from the DTM GeoTIFF (api/src/services/terrain.service.ts), heights
 * above the WGS84 ellipsoid (the geoid undulation added to orthometric
 * heights, as the point cloud's tiles have it), on Cesium's geographic tiling
 * scheme. Outside the DTM the terrain is flat at a fallback height (the
 * cloud's lowest point, as before there was a DTM); below the DTM's own
 * resolution (`maxLevel`) tiles are interpolated here from their ancestor, so
 * the server makes no tile finer than the DTM.
 */
import { CustomHeightmapTerrainProvider } from 'cesium';

/** Samples per tile side (the API's TERRAIN_TILE_SIZE). */
export const TERRAIN_TILE_SIZE = 65;
const MAGIC = 'NTH1';
const HEADER_BYTES = 8;

/** What terrain-url answers (api/src/routes/terrain.routes.ts `TerrainUrl`). */
export interface TerrainInfo {
  /** Tile URL template with `{z}`, `{x}`, `{y}`. */
  url: string;
  west: number;
  south: number;
  east: number;
  north: number;
  maxLevel: number;
  minHeight: number;
  maxHeight: number;
  verticalReference?: { heights: string; name: string | null; geoidModel: string | null };
}

/**
 * A tile's heights: checks the header (`NTH1`, width and height), reads the
 * float32 samples and puts `fallback` where the DTM has none (NaN: outside it).
 * @throws Error for bytes that are not a terrain tile of the expected size.
 */
export function decodeTerrainTile(bytes: ArrayBuffer, fallback: number, size = TERRAIN_TILE_SIZE): Float32Array {
  if (bytes.byteLength < HEADER_BYTES) throw new Error('not a terrain tile (too short)');
  const view = new DataView(bytes);
  const magic = String.fromCharCode(view.getUint8(0), view.getUint8(1), view.getUint8(2), view.getUint8(3));
  if (magic !== MAGIC) throw new Error(`not a terrain tile (magic "${magic}")`);
  const width = view.getUint16(4, true);
  const height = view.getUint16(6, true);
  if (width !== size || height !== size)
    throw new Error(`terrain tile of ${width}×${height}, expected ${size}×${size}`);
  if (bytes.byteLength !== HEADER_BYTES + width * height * 4) throw new Error('terrain tile truncated');
  const out = new Float32Array(width * height);
  for (let i = 0; i < out.length; i++) {
    const v = view.getFloat32(HEADER_BYTES + i * 4, true);
    out[i] = Number.isFinite(v) ? v : fallback;
  }
  return out;
}

/**
 * The heights of tile (x, y) at `dz` levels below a tile whose heights are
 * `parent` (its ancestor: x >> dz, y >> dz), bilinearly: the same samples
 * layout (row 0 north, edges on the tile's edges).
 */
export function subTileHeights(
  parent: Float32Array,
  dz: number,
  x: number,
  y: number,
  size = TERRAIN_TILE_SIZE,
): Float32Array {
  const scale = 2 ** dz;
  const ox = x - Math.floor(x / scale) * scale;
  const oy = y - Math.floor(y / scale) * scale;
  const last = size - 1;
  const out = new Float32Array(size * size);
  for (let j = 0; j < size; j++) {
    const fy = ((oy + j / last) * last) / scale;
    const r = Math.min(Math.floor(fy), last - 1);
    const ty = fy - r;
    for (let i = 0; i < size; i++) {
      const fx = ((ox + i / last) * last) / scale;
      const c = Math.min(Math.floor(fx), last - 1);
      const tx = fx - c;
      const a = r * size + c;
      out[j * size + i] =
        (1 - ty) * ((1 - tx) * parent[a]! + tx * parent[a + 1]!) +
        ty * ((1 - tx) * parent[a + size]! + tx * parent[a + size + 1]!);
    }
  }
  return out;
}

/** West, south, east, north (degrees) of a tile of the geographic tiling scheme. */
export function geographicTileRectangle(x: number, y: number, level: number): [number, number, number, number] {
  const size = 180 / 2 ** level;
  const west = -180 + x * size;
  const north = 90 - y * size;
  return [west, north - size, west + size, north];
}

/** Ancestor tiles kept in memory (each 17 kB). */
const MAX_CACHED = 256;

/**
 * A Cesium terrain provider over a project's DTM tiles: tiles away from the
 * DTM are flat at `fallbackHeight` without a request; a tile that cannot be
 * fetched is flat too (the scene goes on; `onError` is told once).
 */
export function createDtmTerrainProvider(
  info: TerrainInfo,
  fallbackHeight: number,
  options: { fetcher?: typeof fetch; onError?: (err: Error) => void } = {},
): CustomHeightmapTerrainProvider {
  const fetcher = options.fetcher ?? fetch.bind(globalThis);
  const size = TERRAIN_TILE_SIZE;
  const flat = new Float32Array(size * size).fill(fallbackHeight);
  const cache = new Map<string, Promise<Float32Array>>();
  let told = false;
  const fetchTile = (x: number, y: number, level: number): Promise<Float32Array> => {
    const key = `${level}/${x}/${y}`;
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const url = info.url.replace('{z}', String(level)).replace('{x}', String(x)).replace('{y}', String(y));
    const pending = fetcher(url)
      .then(async (res) => {
        if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
        return decodeTerrainTile(await res.arrayBuffer(), fallbackHeight, size);
      })
      .catch((err: Error) => {
        cache.delete(key);
        if (!told) {
          told = true;
          options.onError?.(err);
        }
        return flat;
      });
    cache.set(key, pending);
    while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
    return pending;
  };
  const provider = new CustomHeightmapTerrainProvider({
    width: size,
    height: size,
    callback: (x, y, level) => {
      const [west, south, east, north] = geographicTileRectangle(x, y, level);
      if (east < info.west || west > info.east || north < info.south || south > info.north) return flat;
      if (level <= info.maxLevel) return fetchTile(x, y, level);
      const dz = level - info.maxLevel;
      return fetchTile(Math.floor(x / 2 ** dz), Math.floor(y / 2 ** dz), info.maxLevel).then((parent) =>
        parent === flat ? flat : subTileHeights(parent, dz, x, y, size),
      );
    },
  });
  return provider;
}

/**
 * The terrain of the project a signed tileset URL belongs to
 * (`terrain-url-from-tiles-url`: the URL is the credential, share links
 * included); null when the project has no READY DTM or the API cannot say.
 */
export async function fetchTerrainInfo(tilesetUrl: string, fetcher: typeof fetch = fetch): Promise<TerrainInfo | null> {
  const base = globalThis.document?.baseURI ?? globalThis.location?.href ?? 'http://localhost/';
  const absolute = new URL(tilesetUrl, base);
  const endpoint = new URL('/api/assets/custom-tiler/terrain-url-from-tiles-url', absolute.origin);
  endpoint.searchParams.set('tilesUrl', absolute.href);
  try {
    const res = await fetcher(endpoint.href, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (!res.ok) return null;
    const info = (await res.json()) as TerrainInfo;
    if (typeof info.url !== 'string' || ![info.west, info.south, info.east, info.north].every(Number.isFinite)) {
      return null;
    }
    return { ...info, url: new URL(info.url, absolute).href.replace(/%7B/g, '{').replace(/%7D/g, '}') };
  } catch {
    return null;
  }
}
