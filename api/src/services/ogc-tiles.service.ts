import { assetRunPrefix } from '@nuage/tiles-cache';
import { vectorTile, vectorTileFeatures } from '../db/queries/features.queries.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { encodeMvt } from './mvt-encoder.js';
import { type Collection, invalidParameter } from './ogc.service.js';

/**
 * Vector tiles of OGC API collections (OGC API - Tiles, WebMercatorQuad, MVT):
 * made by PostGIS (ST_AsMVT) on first request and held in the memory front
 * of the tiles store (not written to the store: see collectionTile) under the
 * run of the asset that stored the features:
 *
 *   projects/<p>/assets/<a>/m<run>/WebMercatorQuad/<z>/<x>/<y>.mvt
 *
 * A new processing writes the features under a new run, so its tiles get new
 * keys (the old ones age out of the memory), and nothing cached can be stale.
 */

export const TILE_MATRIX_SET = 'WebMercatorQuad';
export const TILE_MATRIX_SET_URI = 'http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad';
export const MVT_TYPE = 'application/vnd.mapbox-vector-tile';
/** Deepest zoom served (OGC tile matrix id). */
export const MAX_ZOOM = 24;

/** The run segment a collection's tiles are cached under. */
export function tileRun(col: Collection): string {
  return col.row.run ? `m${col.row.run}` : `m_${new Date(col.row.updated_at).getTime()}`;
}

/** The MVT layer of a collection: its asset type in lower case (one style fits every project's contours). */
export function tileLayerName(col: Collection): string {
  return col.row.type.toLowerCase();
}

/** Parses a tile address; 400 naming the parameter that is not a whole number, 404 outside the tile matrix. */
export function parseTileAddress(z: string, y: string, x: string): { z: number; x: number; y: number } {
  const whole = (name: string, v: string) => {
    if (!/^\d{1,9}$/.test(v)) throw invalidParameter(name, `must be a whole number (got ${v.slice(0, 20)})`);
    return Number(v);
  };
  const zoom = whole('tileMatrix', z);
  const row = whole('tileRow', y);
  const col = whole('tileCol', x);
  const size = 2 ** Math.min(zoom, 31);
  if (zoom > MAX_ZOOM || row >= size || col >= size) {
    throw new AppError(404, 'NOT_FOUND', `no tile ${zoom}/${row}/${col} in ${TILE_MATRIX_SET} (zoom 0 to ${MAX_ZOOM})`);
  }
  return { z: zoom, x: col, y: row };
}

/** Databases whose PostGIS has no protobuf support (ST_AsMVT missing): the embedded one. */
const withoutMvt = new WeakSet<object>();

/**
 * Makes one tile: PostGIS's ST_AsMVT, or, where PostGIS was built without
 * protobuf (PGlite), PostGIS clipping and scaling with the tile encoded here.
 * `encoder` forces one way (tests compare them).
 */
export async function makeVectorTile(
  deps: AppDeps,
  col: Collection,
  t: { z: number; x: number; y: number },
  encoder: 'auto' | 'postgis' | 'js' = 'auto',
): Promise<Buffer> {
  const { db } = deps.database;
  const q = { assetId: col.row.asset_id, ...t };
  const layer = tileLayerName(col);
  if (encoder === 'postgis' || (encoder === 'auto' && !withoutMvt.has(deps.database))) {
    try {
      return await vectorTile(deps.database, { ...q, layer });
    } catch (err) {
      if (encoder === 'postgis' || !/protobuf/i.test((err as Error).message)) throw err;
      withoutMvt.add(deps.database);
      deps.log.info('PostGIS has no protobuf support: vector tiles are encoded by the API');
    }
  }
  const rows = await vectorTileFeatures(db, q);
  const bytes = encodeMvt(
    layer,
    rows.map((r) => ({
      id: r.id,
      properties: JSON.parse(r.properties) as Record<string, unknown>,
      geometry: r.geometry ? JSON.parse(r.geometry) : null,
    })),
  );
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Tiles being made: concurrent requests of one tile share it. */
const inFlight = new Map<string, Promise<{ bytes: Buffer; etag: string }>>();

/**
 * One vector tile of a collection (empty when no feature reaches it) and its
 * entity tag: held in the memory front of the tiles store (LRU, shared with
 * the raster tiles' bytes), or made once (concurrent requests for the same
 * tile wait for the one that makes it) and held.
 *
 * Never written to the store itself: PostGIS makes a tile again in a few
 * milliseconds, while a file a tile cost this API more than everything else
 * it does for a first request (0.1 to 1.3 ms of kernel time a tile on this
 * machine's disk, a request to the bucket on S3), which held the first
 * requests' throughput to 0.74 of the raw query's behind HTTP. Martin, a
 * PostGIS tile server, keeps its tiles in memory only too.
 */
export async function collectionTile(
  deps: AppDeps,
  col: Collection,
  t: { z: number; x: number; y: number },
): Promise<{ bytes: Buffer; etag: string }> {
  const run = tileRun(col);
  const key = `${assetRunPrefix(col.row.project_id, col.row.asset_id, run)}${TILE_MATRIX_SET}/${t.z}/${t.x}/${t.y}.mvt`;
  const held = deps.storage.tiles.recall(key);
  if (held) return { bytes: held.bytes, etag: held.info.etag };
  let making = inFlight.get(key);
  if (!making) {
    making = makeVectorTile(deps, col, t)
      .then((bytes) => {
        // The run and the address (a run's features never change, so neither do its tiles), and the length.
        const etag = `"${run}.${t.z}.${t.x}.${t.y}.${bytes.byteLength}"`;
        deps.storage.tiles.hold(key, bytes, { etag, contentType: MVT_TYPE });
        return { bytes, etag };
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, making);
  }
  return making;
}
