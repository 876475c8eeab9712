import { assetKey, assetRunPrefix, ObjectNotFound, readAll } from '@nuage/tiles-cache';
import {
  findCollectionAccess,
  findCollectionAccessWithTile,
  vectorTile,
  vectorTileFeatures,
} from '../db/queries/features.queries.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { encodeMvt } from './mvt-encoder.js';
import {
  type Collection,
  collectionPlan,
  invalidParameter,
  type OgcCredentials,
  ogcCollection,
} from './ogc.service.js';

/**
 * Vector tiles of OGC API collections (OGC API - Tiles, WebMercatorQuad, MVT):
 * made by PostGIS (ST_AsMVT) on first request and kept in the tiles store
 * (memory front, then the file store or bucket) under the run of the asset
 * that stored the features:
 *
 *   projects/<p>/assets/<a>/m<run>/WebMercatorQuad/<z>/<x>/<y>.mvt
 *
 * A new processing writes the features under a new run, so its tiles get new
 * keys (the old ones are deleted when the first tile of the new run is made),
 * and nothing cached can be stale.
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

const inFlight = new Map<string, Promise<{ bytes: Buffer; etag: string }>>();
const cleaned = new Set<string>();

/** Deletes the cached tiles of the asset's earlier runs (once per run and process; best effort). */
async function dropEarlierRuns(deps: AppDeps, col: Collection, run: string): Promise<void> {
  const marker = `${col.row.asset_id}/${run}`;
  if (cleaned.has(marker)) return;
  cleaned.add(marker);
  const base = assetKey(col.row.project_id, col.row.asset_id);
  const stale = new Set<string>();
  for await (const o of deps.storage.tiles.list(base)) {
    const segment = o.key.slice(base.length).split('/')[0] ?? '';
    if (segment.startsWith('m') && segment !== run) stale.add(segment);
  }
  for (const s of stale) await deps.storage.tiles.deletePrefix(`${base}${s}/`);
}

function tileKey(col: Collection, t: { z: number; x: number; y: number }): string {
  return `${assetRunPrefix(col.row.project_id, col.row.asset_id, tileRun(col))}${TILE_MATRIX_SET}/${t.z}/${t.x}/${t.y}.mvt`;
}

/** The stored tile of `key`, or null. */
async function storedTile(deps: AppDeps, key: string): Promise<{ bytes: Buffer; etag: string } | null> {
  try {
    const got = await deps.storage.tiles.get(key);
    return { bytes: await readAll(got.body), etag: got.etag };
  } catch (err) {
    if (!(err instanceof ObjectNotFound)) throw err;
    return null;
  }
}

/**
 * Makes the tile of `key` once (`make`), stores it and answers it with the
 * store's entity tag; concurrent requests for the same tile wait for the one that makes it.
 */
function makeOnce(
  deps: AppDeps,
  col: Collection,
  key: string,
  make: () => Promise<Buffer>,
): Promise<{ bytes: Buffer; etag: string }> {
  let making = inFlight.get(key);
  if (!making) {
    making = (async () => {
      const bytes = await make();
      const info = await deps.storage.tiles.put(key, bytes, { contentType: MVT_TYPE });
      dropEarlierRuns(deps, col, tileRun(col)).catch((err) =>
        deps.log.warn({ err, key }, 'could not delete earlier vector tiles'),
      );
      return { bytes, etag: info.etag };
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, making);
  }
  return making;
}

/**
 * One vector tile of a collection (empty when no feature reaches it) and its
 * entity tag, from the store or made once (concurrent requests for the same
 * tile wait for the one that makes it).
 */
export async function collectionTile(
  deps: AppDeps,
  col: Collection,
  t: { z: number; x: number; y: number },
): Promise<{ bytes: Buffer; etag: string }> {
  const key = tileKey(col, t);
  return (await storedTile(deps, key)) ?? makeOnce(deps, col, key, () => makeVectorTile(deps, col, t));
}

/**
 * A tile request: the collection its credentials may read (as
 * {@link ogcCollection}: same errors, in the same order, then the address's)
 * and the tile (as {@link collectionTile}).
 *
 * With a token and a collection seen before, the tile is looked for in the
 * store under that version's key, and the access query alone is run (a stored
 * tile) or with the query that makes the tile (one round trip instead of two);
 * the tile is handed out only when the credentials let the request read the
 * collection and it is still that version — otherwise the request is answered
 * as without the plan.
 */
export async function ogcCollectionTile(
  deps: AppDeps,
  creds: OgcCredentials,
  id: string,
  address: { z: string; y: string; x: string },
): Promise<{ col: Collection; tile: { bytes: Buffer; etag: string } }> {
  const plan = collectionPlan(creds, id);
  if (plan && !withoutMvt.has(deps.database)) {
    let t: { z: number; x: number; y: number } | null = null;
    try {
      t = parseTileAddress(address.z, address.y, address.x);
    } catch {
      // A bad address is told after the credentials, as without a plan.
    }
    if (t) {
      const key = tileKey(plan.seen, t);
      const stored = await storedTile(deps, key);
      if (stored) {
        const col = plan.confirm(await findCollectionAccess(deps.database, plan.ask));
        if (col) return { col, tile: stored };
      } else if (!inFlight.has(key)) {
        const ask = { assetId: plan.seen.row.asset_id, ...t, layer: tileLayerName(plan.seen) };
        const found = await findCollectionAccessWithTile(deps.database, plan.ask, ask);
        const col = plan.confirm(found.access);
        if (col) return { col, tile: await makeOnce(deps, col, key, async () => found.tile) };
      }
    }
  }
  const col = await ogcCollection(deps, creds, id);
  const t = parseTileAddress(address.z, address.y, address.x);
  return { col, tile: await collectionTile(deps, col, t) };
}
