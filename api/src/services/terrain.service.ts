import { GEOID_MODEL, geoidUndulation, type VerticalReference, verticalReference } from '@nuage/engine/crs/geoid.js';
import { crsFromEpsg } from '@nuage/engine/crs/index.js';
import { type ByteSource, fileByteSource } from '@nuage/engine/raster/byte-source.js';
import { openCog } from '@nuage/engine/raster/cog.reader.js';
import { checkKey, splitAssetRunKey } from '@nuage/tiles-cache';
import type { AppDeps } from '../context.js';
import { findAssetFile } from '../db/queries/assets.queries.js';
import { findProject } from '../db/queries/projects.queries.js';
import { AppError } from '../errors.js';
import { storeSource } from '../jobs/store-io.js';
import type { Viewer } from './access.service.js';
import { assetFor } from './assets.service.js';
import { grantForViewer } from './share-grants.service.js';
import { sourceId, tileRenderPool } from './tile-render.pool.js';
import {
  encodeTerrainTile,
  outsideFootprint,
  TERRAIN_TILE_SIZE,
  type TerrainSource,
  type TileSourceRef,
  terrainSource,
} from './tile-render.task.js';
import { signedTilesBase, splitGrantPath, verifyTilesSignature } from './tiles.service.js';

export {
  encodeTerrainTile,
  TERRAIN_HEADER_BYTES,
  TERRAIN_MAGIC,
  TERRAIN_TILE_SIZE,
  terrainSamples,
  tileRectangle,
} from './tile-render.task.js';

/**
 * Terrain from the project's DTM, for Cesium (`CustomHeightmapTerrainProvider`
 * on the geographic tiling scheme: level z has 2^(z+1) × 2^z tiles, x from
 * 180° W eastwards, y from 90° N southwards). A tile is
 * {@link TERRAIN_TILE_SIZE}² heights in metres above the WGS84 ellipsoid,
 * row 0 along the tile's north edge, column 0 along its west edge, the edge
 * samples on the tile's edges (shared with the neighbours). Each sample is the
 * DTM (project CRS, file vertical unit) interpolated bilinearly at the
 * sample's position, in metres, plus the EGM96 geoid undulation when the
 * project's heights are orthometric (crs/geoid.ts); NaN outside the DTM (the
 * client puts its fallback height there).
 *
 * Binary format (little-endian): `NTH1` (4 bytes), width and height
 * (uint16 each), then width × height float32 samples, row-major.
 *
 * Tiles are made on first request from the stored DTM GeoTIFF (its
 * overviews, when it has them, for coarse tiles), on a thread of the tile
 * render pool (tile-render.pool.ts; tiles wholly outside the DTM are answered
 * here), and kept in the store beside it, under the DTM run's prefix:
 * `<run prefix>terrain-v1/<z>/<x>/<y>.heights`.
 * The URLs are signed like the other tile URLs (tiles.service.ts): the
 * signature covers that run prefix, a share link's grant included.
 */

/** Deepest level served, whatever the DTM resolution (level 22: ~2 cm between samples). */
const MAX_LEVEL_CAP = 22;
/** Folder of the cached tiles under the DTM run's prefix (bump when the format changes). */
const CACHE_FOLDER = 'terrain-v1';

/** What the web needs to build the terrain provider. */
export interface TerrainUrl {
  /** Tile URL template: `{z}`, `{x}`, `{y}` to replace. */
  url: string;
  /** The DTM's footprint, degrees (tiles outside it are all fallback). */
  west: number;
  south: number;
  east: number;
  north: number;
  /** Deepest level with its own samples (the DTM's resolution); deeper tiles are interpolated by the client. */
  maxLevel: number;
  /** Lowest and highest ellipsoidal height of the terrain, metres. */
  minHeight: number;
  maxHeight: number;
  /** The vertical reference of the DTM's heights (see crs/geoid.ts). */
  verticalReference: VerticalReference;
}

interface OpenedDtm extends TerrainSource {
  /** The GeoTIFF as render tasks name it, and its bytes for the render threads' ranged reads. */
  ref: TileSourceRef;
  bytes: ByteSource;
  minHeight: number;
  maxHeight: number;
  maxLevel: number;
  close(): Promise<void>;
}

/** Opened DTMs by store key (a few: a viewer opens one project at a time). */
const opened = new Map<string, Promise<OpenedDtm>>();
const MAX_OPEN = 8;

const notADtm = () => new AppError(404, 'NO_TILES', 'terrain comes from a DTM asset: this asset is not one');

/** A byte source over a stored object that, like a file, answers short reads at its end. */
function storedBytes(deps: AppDeps, key: string, size: number): ByteSource {
  const inner = storeSource(deps.storage.objects, key, size);
  return {
    size,
    read: (offset, length) => inner.read(offset, Math.max(0, Math.min(length, size - offset))),
  };
}

async function openDtm(deps: AppDeps, key: string, reference: VerticalReference | null): Promise<OpenedDtm> {
  const local = deps.storage.localPath(key);
  const info = local ? null : await deps.storage.objects.head(key);
  if (!local && !info) throw new AppError(404, 'FILE_NOT_FOUND', 'the DTM GeoTIFF is not in the store');
  const source = local ? await fileByteSource(local) : storedBytes(deps, key, info!.size);
  try {
    const cog = await openCog(source);
    const epsg = cog.crs?.epsg;
    if (!epsg) throw new AppError(409, 'ASSET_NOT_READY', 'the DTM GeoTIFF has no EPSG code');
    const crs = crsFromEpsg(epsg);
    const ref = reference ?? verticalReference(crs);
    const geometry = terrainSource(cog, crs, ref);
    const { footprint } = geometry;
    const full = cog.levels[0]!;
    // Height range from the coarsest level (a few thousand cells at most with overviews).
    const coarse = cog.levels.length - 1;
    const level = cog.levels[coarse]!;
    const cells = await cog.readWindow(coarse, 0, 0, level.width, level.height);
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const v of cells) {
      if (v === cog.nodata || Number.isNaN(v)) continue;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const centreLon = (footprint.west + footprint.east) / 2;
    const centreLat = (footprint.south + footprint.north) / 2;
    const n = ref.geoidModel === GEOID_MODEL ? geoidUndulation(centreLon, centreLat) : 0;
    const unit = crs.verticalUnitToMetre;
    // Sample spacing at level z is (180 / 2^z) / 64 degrees of latitude: as fine as the DTM's cells, not finer.
    const cellMetres = full.resolution * crs.horizontalUnitToMetre;
    const maxLevel = Math.max(
      0,
      Math.min(MAX_LEVEL_CAP, Math.ceil(Math.log2((111_320 * 180) / ((TERRAIN_TILE_SIZE - 1) * cellMetres)))),
    );
    return {
      ...geometry,
      ref: { id: sourceId(deps.storage.objects, key), size: source.size, ...(local ? { path: local } : {}) },
      bytes: source,
      minHeight: Number.isFinite(min) ? min * unit + n : n,
      maxHeight: Number.isFinite(max) ? max * unit + n : n,
      maxLevel,
      close: async () => {
        await source.close?.();
      },
    };
  } catch (err) {
    await source.close?.();
    throw err;
  }
}

function openedDtm(deps: AppDeps, key: string, reference: VerticalReference | null): Promise<OpenedDtm> {
  let hit = opened.get(key);
  if (hit) {
    opened.delete(key);
    opened.set(key, hit);
    return hit;
  }
  hit = openDtm(deps, key, reference);
  opened.set(key, hit);
  hit.catch(() => opened.delete(key));
  while (opened.size > MAX_OPEN) {
    const [oldest, pending] = opened.entries().next().value as [string, Promise<OpenedDtm>];
    opened.delete(oldest);
    pending.then((d) => d.close()).catch(() => undefined);
  }
  return hit;
}

/** The vertical reference recorded with the project's point cloud (metadata extraction), if any. */
async function projectVerticalReference(deps: AppDeps, projectId: string): Promise<VerticalReference | null> {
  const cloud = await deps.database.db
    .selectFrom('assets')
    .select('metadata')
    .where('project_id', '=', projectId)
    .where('type', '=', 'POINT_CLOUD')
    .executeTakeFirst();
  const recorded = (cloud?.metadata as { verticalReference?: VerticalReference } | null)?.verticalReference;
  if (!recorded || (recorded.heights !== 'orthometric' && recorded.heights !== 'ellipsoidal')) return null;
  const { heights, name, epsg, source, geoidModel } = recorded;
  return { heights, name, epsg, source, geoidModel };
}

/** The DTM GeoTIFF of a DTM asset the viewer may read: its key, run prefix and the vertical reference to use. */
async function dtmOf(
  deps: AppDeps,
  viewer: Viewer,
  assetId: string,
): Promise<{ key: string; prefix: string; projectId: string; grant: string | undefined }> {
  const asset = await assetFor(deps, viewer, assetId, 'read');
  if (asset.type !== 'DTM') throw notADtm();
  const project = await findProject(deps.database.db, asset.project_id);
  if (!project) throw new AppError(404, 'ASSET_NOT_FOUND', 'no such asset');
  if (project.status !== 'READY') {
    throw new AppError(409, 'PROJECT_NOT_READY', `project is not ready (${project.status})`, {
      status: project.status,
    });
  }
  if (asset.status !== 'READY') {
    throw new AppError(409, 'ASSET_NOT_READY', `the asset is not ready (${asset.status})`, { status: asset.status });
  }
  const file = await findAssetFile(deps.database.db, asset.id, 'tif');
  const split = file ? splitAssetRunKey(file.key) : null;
  if (!file || !split) throw new AppError(404, 'FILE_NOT_FOUND', 'the DTM has no GeoTIFF');
  return {
    key: file.key,
    prefix: split.prefix,
    projectId: asset.project_id,
    grant: grantForViewer(viewer, asset.project_id),
  };
}

/**
 * `terrain-url`: the signed tile URL template of a DTM asset's terrain and
 * what the client needs around it (footprint, levels, height range, vertical
 * reference), for the owner, an admin or a share-token holder.
 */
export async function terrainUrl(deps: AppDeps, viewer: Viewer, assetId: string): Promise<TerrainUrl> {
  return signedTerrain(deps, await dtmOf(deps, viewer, assetId));
}

async function signedTerrain(
  deps: AppDeps,
  dtm: { key: string; prefix: string; projectId: string; grant: string | undefined },
): Promise<TerrainUrl> {
  const d = await openedDtm(deps, dtm.key, await projectVerticalReference(deps, dtm.projectId));
  const base = await signedTilesBase(deps, dtm.prefix, undefined, 's', dtm.grant);
  // Same signature as the prefix's tile URLs; served by the terrain route instead of /tiles.
  const marker = '/tiles/s/';
  const at = base.indexOf(marker);
  const url = `${base.slice(0, at)}/api/terrain/${base.slice(at + marker.length)}{z}/{x}/{y}.heights`;
  return {
    url,
    ...d.footprint,
    maxLevel: d.maxLevel,
    minHeight: d.minHeight,
    maxHeight: d.maxHeight,
    verticalReference: d.reference,
  };
}

/**
 * `terrain-url-from-tiles-url`: the terrain of the project whose signed tile
 * URL (a point cloud's tileset.json, a raster template…) is given, for a
 * viewer that holds only that URL. The URL is checked as a tile request is
 * (signature, expiry, share grant); the terrain URL carries the same grant.
 * 404 NO_TILES when the project has no READY DTM.
 */
export async function terrainUrlFromTilesUrl(deps: AppDeps, tilesUrl: string): Promise<TerrainUrl> {
  let path: string;
  try {
    path = decodeURIComponent(new URL(tilesUrl, 'http://localhost').pathname);
  } catch {
    throw new AppError(403, 'TILE_URL_INVALID', 'this tile URL is not valid');
  }
  const m = /\/tiles\/(?:s|raster)\/([^/]+)\/([^/]+)\/(.+)$/.exec(path);
  const g = m ? splitGrantPath(m[3]!) : null;
  const split = g ? splitAssetRunKey(g.path) : null;
  if (!m || !g || !split) throw new AppError(403, 'TILE_URL_INVALID', 'this tile URL is not valid');
  const check = await verifyTilesSignature(deps, m[1]!, m[2]!, split.prefix, g.grant);
  if (check === 'expired') throw new AppError(403, 'TILE_URL_EXPIRED', 'this tile URL has expired: ask for a new one');
  if (check !== 'ok') throw new AppError(403, 'TILE_URL_INVALID', 'this tile URL is not valid');
  const dtm = await deps.database.db
    .selectFrom('assets')
    .select('id')
    .where('project_id', '=', split.parts.projectId)
    .where('type', '=', 'DTM')
    .where('status', '=', 'READY')
    .executeTakeFirst();
  if (!dtm) throw new AppError(404, 'NO_TILES', 'the project has no DTM: the terrain stays the ellipsoid');
  // The holder of a signed URL of the project reads it as its owner or share link does.
  const file = await findAssetFile(deps.database.db, dtm.id, 'tif');
  const fileSplit = file ? splitAssetRunKey(file.key) : null;
  if (!file || !fileSplit) throw new AppError(404, 'FILE_NOT_FOUND', 'the DTM has no GeoTIFF');
  return signedTerrain(deps, {
    key: file.key,
    prefix: fileSplit.prefix,
    projectId: split.parts.projectId,
    grant: g.grant ?? undefined,
  });
}

/** The DTM GeoTIFF key under a signed run prefix (the DTM asset's one tif), or null. */
async function dtmKeyOfPrefix(deps: AppDeps, prefix: string): Promise<string | null> {
  const parts = splitAssetRunKey(`${prefix}x`)?.parts;
  if (!parts) return null;
  const file = await findAssetFile(deps.database.db, parts.assetId, 'tif');
  return file?.key.startsWith(prefix) ? file.key : null;
}

/** True when (z, x, y) is a tile of the geographic scheme at a level up to `maxLevel`. */
export function isTerrainTile(z: number, x: number, y: number, maxLevel = MAX_LEVEL_CAP): boolean {
  return (
    Number.isInteger(z) &&
    Number.isInteger(x) &&
    Number.isInteger(y) &&
    z >= 0 &&
    z <= maxLevel &&
    x >= 0 &&
    y >= 0 &&
    x < 2 ** (z + 1) &&
    y < 2 ** z
  );
}

/** A terrain tile request, once its signature is checked: the cached tile, else made and stored. */
export async function terrainTile(
  deps: AppDeps,
  prefix: string,
  z: number,
  x: number,
  y: number,
): Promise<Uint8Array | null> {
  if (!isTerrainTile(z, x, y)) return null;
  const cacheKey = checkKey(`${prefix}${CACHE_FOLDER}/${z}/${x}/${y}.heights`);
  const cached = await deps.storage.tiles.get(cacheKey).catch(() => null);
  if (cached) {
    const chunks: Buffer[] = [];
    for await (const c of cached.body) chunks.push(c as Buffer);
    return new Uint8Array(Buffer.concat(chunks));
  }
  const key = await dtmKeyOfPrefix(deps, prefix);
  if (!key) return null;
  const parts = splitAssetRunKey(key)!.parts;
  const d = await openedDtm(deps, key, await projectVerticalReference(deps, parts.projectId));
  if (z > d.maxLevel) return null;
  let bytes: Uint8Array;
  if (outsideFootprint(d.footprint, z, x, y)) {
    bytes = encodeTerrainTile(new Float32Array(TERRAIN_TILE_SIZE * TERRAIN_TILE_SIZE).fill(Number.NaN));
  } else {
    const result = await tileRenderPool().run(
      { kind: 'terrain', source: d.ref, reference: d.reference, z, x, y },
      d.bytes,
    );
    if (result.kind !== 'heights') throw new Error('a terrain tile came back as a raster tile');
    bytes = result.bytes;
  }
  await deps.storage.objects
    .put(cacheKey, Buffer.from(bytes), { contentType: 'application/octet-stream' })
    .catch((err: unknown) => deps.log.warn({ err, key: cacheKey }, 'could not cache a terrain tile'));
  return bytes;
}
