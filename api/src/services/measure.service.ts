import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GEOID_MODEL, geoidUndulation, verticalReference } from '@nuage/engine/crs/geoid.js';
import { type CrsInfo, crsFromEpsg } from '@nuage/engine/crs/index.js';
import { readGeoTiff } from '@nuage/engine/raster/geotiff.reader.js';
import type { Raster } from '@nuage/engine/raster/raster.js';
import type { AppDeps } from '../context.js';
import { findAssetFile, findProjectAsset } from '../db/queries/assets.queries.js';
import { AppError } from '../errors.js';
import { PermanentJobError } from '../jobs/job-runner.js';
import { localCopy } from '../jobs/store-io.js';
import { projectFor, type Viewer } from './access.service.js';

/**
 * What the viewer's measurement tools need from the server: the project CRS
 * as a proj4 definition with its units (the browser has no EPSG database),
 * and heights of the project's DTM at given project coordinates (height
 * above ground of a picked point).
 */

/**
 * Geoid undulations N (metres, EGM96) on a grid of WGS84 nodes over the
 * project: `values[row * nx + col]`, row 0 at `south`, column 0 at `west`.
 */
export interface UndulationGrid {
  west: number;
  south: number;
  east: number;
  north: number;
  nx: number;
  ny: number;
  values: number[];
}

/** How the cloud's heights reached the globe (engine/src/tiler/geoid-ecef.ts). */
export interface MeasureVertical {
  /** `orthometric`: tile heights are Z × unit + N; `ellipsoidal`: Z × unit. */
  heights: 'orthometric' | 'ellipsoidal';
  geoidModel: string | null;
  /** N over the project (orthometric heights only; null when the footprint is unknown). */
  undulation: UndulationGrid | null;
}

/** The project CRS as the client's proj4 reads it. */
export interface MeasureCrs {
  epsg: number | null;
  name: string;
  proj4: string;
  horizontalUnitToMetre: number;
  verticalUnitToMetre: number;
  vertical: MeasureVertical;
}

/** Most grid nodes a side (nodes every 2 km or closer; N varies by centimetres over that). */
const MAX_GRID_NODES = 33;

/**
 * EGM96 undulations over a WGS84 box grown by a tenth of its size each way,
 * nodes at most about 2 km apart.
 */
export function undulationGrid(box: { west: number; south: number; east: number; north: number }): UndulationGrid {
  const padX = Math.max((box.east - box.west) * 0.1, 1e-3);
  const padY = Math.max((box.north - box.south) * 0.1, 1e-3);
  const west = box.west - padX;
  const east = box.east + padX;
  const south = box.south - padY;
  const north = box.north + padY;
  const kmX = (east - west) * 111.32 * Math.cos((((south + north) / 2) * Math.PI) / 180);
  const kmY = (north - south) * 110.57;
  const nodes = (km: number) => Math.min(MAX_GRID_NODES, Math.max(3, Math.ceil(km / 2) + 1));
  const nx = nodes(kmX);
  const ny = nodes(kmY);
  const values: number[] = [];
  for (let r = 0; r < ny; r++) {
    for (let c = 0; c < nx; c++) {
      const n = geoidUndulation(west + ((east - west) * c) / (nx - 1), south + ((north - south) * r) / (ny - 1));
      values.push(Math.round(n * 1e4) / 1e4);
    }
  }
  return { west, south, east, north, nx, ny, values };
}

interface RecordedMetadata {
  crs?: Partial<CrsInfo> | null;
  bboxWgs84?: { west: number; south: number; east: number; north: number } | null;
  verticalReference?: { heights?: string } | null;
}

function verticalOf(crs: CrsInfo | Partial<CrsInfo>, metadata: RecordedMetadata | null): MeasureVertical {
  const recorded = metadata?.verticalReference?.heights;
  const heights =
    recorded === 'orthometric' || recorded === 'ellipsoidal'
      ? recorded
      : verticalReference({ wkt: crs.wkt ?? null, verticalEpsg: crs.verticalEpsg ?? null, epsg: crs.epsg ?? null })
          .heights;
  if (heights === 'ellipsoidal') return { heights, geoidModel: null, undulation: null };
  const box = metadata?.bboxWgs84;
  const valid = box && [box.west, box.south, box.east, box.north].every(Number.isFinite);
  return { heights, geoidModel: GEOID_MODEL, undulation: valid ? undulationGrid(box) : null };
}

/** DTM heights at the asked points, in the DTM's (the project's) vertical unit; null off the DTM or on nodata. */
export interface DtmHeights {
  dtmAssetId: string;
  /** Cell size of the DTM, project horizontal units. */
  resolution: number;
  heights: Array<number | null>;
}

/**
 * The CRS the project's products were made in: the point cloud's CRS as its
 * metadata recorded it, else the EPSG code given for the cloud or the
 * project. 409 CRS_REQUIRED when there is none.
 */
export async function measureCrs(deps: AppDeps, viewer: Viewer, projectId: string): Promise<MeasureCrs> {
  const project = await projectFor(deps, viewer, projectId, 'read');
  const cloud = await findProjectAsset(deps.database.db, project.id, 'POINT_CLOUD');
  const metadata = (cloud?.metadata ?? null) as RecordedMetadata | null;
  const recorded = metadata?.crs;
  if (
    recorded &&
    typeof recorded.proj4 === 'string' &&
    recorded.proj4 !== '' &&
    typeof recorded.horizontalUnitToMetre === 'number'
  ) {
    return {
      epsg: typeof recorded.epsg === 'number' ? recorded.epsg : null,
      name: typeof recorded.name === 'string' ? recorded.name : '',
      proj4: recorded.proj4,
      horizontalUnitToMetre: recorded.horizontalUnitToMetre,
      verticalUnitToMetre:
        typeof recorded.verticalUnitToMetre === 'number'
          ? recorded.verticalUnitToMetre
          : recorded.horizontalUnitToMetre,
      vertical: verticalOf(recorded, metadata),
    };
  }
  const epsg = cloud?.epsg_code ?? recorded?.epsg ?? project.epsg_code ?? null;
  if (epsg) {
    try {
      const crs = crsFromEpsg(epsg);
      return {
        epsg: crs.epsg,
        name: crs.name,
        proj4: crs.proj4,
        horizontalUnitToMetre: crs.horizontalUnitToMetre,
        verticalUnitToMetre: crs.verticalUnitToMetre,
        vertical: verticalOf(crs, metadata),
      };
    } catch {
      // An unknown code is the same as none.
    }
  }
  throw new AppError(409, 'CRS_REQUIRED', 'the project has no coordinate reference system');
}

/** DTM rasters read lately, by store key (a key is never rewritten: each run writes its own). */
const rasterCache = new Map<string, Promise<Raster>>();
/** Most DTMs kept in memory (a 1 km² DTM at 50 cm is 16 MB). */
const RASTER_CACHE_SIZE = 4;

async function readStoredRaster(deps: AppDeps, key: string): Promise<Raster> {
  const tmp = deps.storage.localPath(key) ? null : await mkdtemp(path.join(tmpdir(), 'nuage-measure-'));
  try {
    let local: string;
    try {
      local = await localCopy(deps.storage, key, tmp ?? tmpdir());
    } catch (err) {
      if (err instanceof PermanentJobError)
        throw new AppError(404, 'FILE_NOT_FOUND', 'the DTM file is missing from the store');
      throw err;
    }
    return await readGeoTiff(local);
  } finally {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }
}

function cachedRaster(deps: AppDeps, key: string): Promise<Raster> {
  let pending = rasterCache.get(key);
  if (pending) {
    // Most recently used last.
    rasterCache.delete(key);
    rasterCache.set(key, pending);
    return pending;
  }
  pending = readStoredRaster(deps, key);
  rasterCache.set(key, pending);
  pending.catch(() => rasterCache.delete(key));
  while (rasterCache.size > RASTER_CACHE_SIZE) rasterCache.delete(rasterCache.keys().next().value!);
  return pending;
}

/**
 * The raster's value at (x, y), bilinear between the four nearest cell
 * centres; where some of them are nodata, the value of the cell holding the
 * point. Null outside the raster or on a nodata cell.
 *
 * @example
 * sampleRaster(dtm, 500123.4, 4427001.2); // 1523.87
 */
export function sampleRaster(r: Raster, x: number, y: number): number | null {
  const fc = (x - r.originX) / r.resolution;
  const fr = (r.originY - y) / r.resolution;
  if (!(fc >= 0 && fr >= 0 && fc <= r.width && fr <= r.height)) return null;
  const valueAt = (col: number, row: number): number | null => {
    if (col < 0 || row < 0 || col >= r.width || row >= r.height) return null;
    const v = r.data[row * r.width + col]!;
    return v === r.nodata || Number.isNaN(v) ? null : v;
  };
  const own = valueAt(Math.min(r.width - 1, Math.floor(fc)), Math.min(r.height - 1, Math.floor(fr)));
  if (own === null) return null;
  const c0 = Math.floor(fc - 0.5);
  const r0 = Math.floor(fr - 0.5);
  const tx = fc - 0.5 - c0;
  const ty = fr - 0.5 - r0;
  const v00 = valueAt(c0, r0);
  const v10 = valueAt(c0 + 1, r0);
  const v01 = valueAt(c0, r0 + 1);
  const v11 = valueAt(c0 + 1, r0 + 1);
  if (v00 === null || v10 === null || v01 === null || v11 === null) return own;
  return (v00 * (1 - tx) + v10 * tx) * (1 - ty) + (v01 * (1 - tx) + v11 * tx) * ty;
}

/**
 * Heights of the project's DTM at points given in the project CRS. 404
 * ASSET_NOT_FOUND when the project has no DTM, 409 ASSET_NOT_READY while it
 * is being made.
 */
export async function dtmHeights(
  deps: AppDeps,
  viewer: Viewer,
  projectId: string,
  points: ReadonlyArray<readonly [number, number]>,
): Promise<DtmHeights> {
  const project = await projectFor(deps, viewer, projectId, 'read');
  const dtm = await findProjectAsset(deps.database.db, project.id, 'DTM');
  if (!dtm) throw new AppError(404, 'ASSET_NOT_FOUND', 'the project has no DTM: process it to make one');
  if (dtm.status !== 'READY') {
    throw new AppError(409, 'ASSET_NOT_READY', `the DTM is ${dtm.status}`, { status: dtm.status });
  }
  const file = await findAssetFile(deps.database.db, dtm.id, 'tif');
  if (!file) throw new AppError(404, 'FILE_NOT_FOUND', 'the DTM has no GeoTIFF file');
  const raster = await cachedRaster(deps, file.key);
  return {
    dtmAssetId: dtm.id,
    resolution: raster.resolution,
    heights: points.map(([x, y]) => sampleRaster(raster, x, y)),
  };
}
