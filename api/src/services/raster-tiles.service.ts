import { createHash } from 'node:crypto';
import {
  RASTER_TILE_DESCRIPTION,
  type RasterTileDescription,
  rasterTileDescriptionSchema,
} from '@nuage/engine/products/raster-tiles.product.js';
import type { ByteSource } from '@nuage/engine/raster/byte-source.js';
import { EMPTY_TILE_PNG, MAX_TILE_ZOOM } from '@nuage/engine/raster/tile-render.js';
import {
  assetKey,
  checkKey,
  type ObjectInfo,
  type ObjectStore,
  parseAssetRunPrefix,
  rasterTileKey,
  readAll,
  StorageError,
} from '@nuage/tiles-cache';
import type { AppDeps } from '../context.js';
import { sourceId, tileRenderPool } from './tile-render.pool.js';
import { coversTile, type MercatorExtent, type TileSourceRef } from './tile-render.task.js';

/**
 * Raster map tiles rendered on demand. A raster product stores, under its
 * run's tiles prefix, `raster.json` (ramp, value range, CRS) and names its
 * Cloud-Optimized GeoTIFF there: the asset's own GeoTIFF download (one object
 * for both), or `source.tif` beside it (runs stored before, and products
 * whose COG is another asset's file). The first request of
 * `<prefix><z>/<x>/<y>.png` renders the tile from the COG (range reads of the
 * one level and window it needs) on a thread of the tile render pool
 * (tile-render.pool.ts: the main thread only routes and reads), and stores
 * the PNG under that key in the tiles store (memory front, then the file
 * store or bucket): later requests, on any API process, are served from
 * there with their ETag. Keys of a run never change, so nothing cached can be
 * stale. Runs stored before on-demand tiles (pre-rendered pyramids, no
 * `raster.json`) are served as stored.
 */

/** Raster descriptions kept per process (the render threads keep the opened COGs). */
const OPEN_SOURCES = 16;
/** Decoded blocks a render thread keeps per raster it has open. */
const SOURCE_CACHE_BYTES = 4 * 1024 * 1024;

export { EMPTY_TILE_PNG };

/** ETag of {@link EMPTY_TILE_PNG}. */
export const EMPTY_TILE_ETAG = `"${createHash('sha1').update(EMPTY_TILE_PNG).digest('hex').slice(0, 16)}"`;

interface Opened {
  description: RasterTileDescription;
  /** The COG as render tasks name it, and its bytes for the render threads' ranged reads. */
  ref: TileSourceRef;
  bytes: ByteSource;
  /** The raster's web mercator extent, once a render thread has opened it: empty tiles are answered here. */
  merc?: MercatorExtent;
}

/** Byte source over an object of a store, through ranged gets. */
function storeByteSource(store: ObjectStore, key: string, size: number): ByteSource {
  return {
    size,
    async read(offset, length) {
      const end = Math.min(size, offset + length) - 1;
      if (end < offset) return new Uint8Array(0);
      const got = await store.get(key, { range: { start: offset, end } });
      return readAll(got.body);
    },
  };
}

const opened = new WeakMap<object, Map<string, Promise<Opened | null>>>();
const rendering = new WeakMap<object, Map<string, Promise<ObjectInfo | null>>>();

function perStore<T>(map: WeakMap<object, Map<string, T>>, deps: AppDeps): Map<string, T> {
  let m = map.get(deps.storage);
  if (!m) {
    m = new Map();
    map.set(deps.storage, m);
  }
  return m;
}

/**
 * The key of the COG that `raster.json` under `prefix` names: beside it
 * (`source.tif`), or a file of the same asset (its GeoTIFF download, stored
 * once); null for anything else.
 */
export function rasterSourceKey(prefix: string, source: string): string | null {
  if (!source.includes('/')) return checkKey(prefix + source);
  const parts = parseAssetRunPrefix(prefix);
  return parts && source.startsWith(assetKey(parts.projectId, parts.assetId)) ? checkKey(source) : null;
}

async function open(deps: AppDeps, prefix: string): Promise<Opened | null> {
  const text = await deps.storage.objects
    .get(checkKey(prefix + RASTER_TILE_DESCRIPTION))
    .then((got) => readAll(got.body))
    .catch((err) => {
      if (err instanceof StorageError) return null;
      throw err;
    });
  if (!text) return null;
  const description = rasterTileDescriptionSchema.parse(JSON.parse(text.toString('utf8')));
  const key = rasterSourceKey(prefix, description.source);
  if (!key) return null;
  const info = await deps.storage.objects.head(key);
  if (!info) return null;
  const path = deps.storage.localPath(key);
  return {
    description,
    ref: { id: sourceId(deps.storage.objects, key), size: info.size, ...(path ? { path } : {}) },
    bytes: storeByteSource(deps.storage.objects, key, info.size),
  };
}

/** The run's raster source (opened once per process, the most recent {@link OPEN_SOURCES} kept); null for pre-rendered runs. */
function openedSource(deps: AppDeps, prefix: string): Promise<Opened | null> {
  const cache = perStore(opened, deps);
  let hit = cache.get(prefix);
  if (hit) {
    cache.delete(prefix);
    cache.set(prefix, hit);
    return hit;
  }
  hit = open(deps, prefix);
  cache.set(prefix, hit);
  hit.catch(() => cache.delete(prefix));
  while (cache.size > OPEN_SOURCES) cache.delete(cache.keys().next().value!);
  return hit;
}

/** What a raster tile request comes to. */
export type RasterTileOutcome =
  /** The PNG is in the tiles store under `key` (`rendered`: made by this request). */
  | { kind: 'stored'; key: string; rendered: boolean }
  /** The tile does not touch the raster: {@link EMPTY_TILE_PNG}. */
  | { kind: 'empty' }
  /** Not a tile of an on-demand raster (an older run's pyramid, another file): serve the key as stored. */
  | { kind: 'static' };

const TILE_PATH = /^(\d{1,2})\/(\d{1,9})\/(\d{1,9})\.png$/;

/**
 * Answers `<prefix><rest>` of a raster tiles URL whose signature was checked:
 * an address outside the tile matrix is `null` (404); a tile of an on-demand
 * raster is found in the tiles store or rendered and stored there first
 * (concurrent requests for the same tile render it once).
 */
export async function rasterTile(deps: AppDeps, prefix: string, rest: string): Promise<RasterTileOutcome | null> {
  const m = TILE_PATH.exec(rest);
  if (!m) return { kind: 'static' };
  const [z, x, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (z > MAX_TILE_ZOOM || x >= 2 ** z || y >= 2 ** z) return null;
  const key = rasterTileKey(prefix, z, x, y);
  if (await deps.storage.tiles.head(key)) return { kind: 'stored', key, rendered: false };
  const src = await openedSource(deps, prefix);
  if (!src) return { kind: 'static' };
  if (src.merc && !coversTile(src.merc, z, x, y)) return { kind: 'empty' };
  const inFlight = perStore(rendering, deps);
  let job = inFlight.get(key);
  if (!job) {
    job = (async () => {
      const result = await tileRenderPool().run(
        {
          kind: 'raster',
          source: src.ref,
          proj4: src.description.proj4,
          range: src.description.range,
          cacheBytes: SOURCE_CACHE_BYTES,
          ramp: src.description.ramp,
          z,
          x,
          y,
        },
        src.bytes,
      );
      if (result.kind === 'heights') throw new Error('a raster tile came back as heights');
      src.merc = result.merc;
      if (result.kind === 'empty') return null;
      const png = Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
      return deps.storage.tiles.put(key, png, { contentType: 'image/png' });
    })();
    inFlight.set(key, job);
    job.finally(() => inFlight.delete(key)).catch(() => {});
  }
  return (await job) ? { kind: 'stored', key, rendered: true } : { kind: 'empty' };
}
