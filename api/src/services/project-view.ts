import {
  ASSET_TYPES as ASSET_ORDER,
  DISPLAY_OF_ASSET,
  LAYER_OF_ASSET,
  LAYER_ORDER,
} from '@nuage/engine/products/registry.js';

import type { AppDeps } from '../context.js';
import type { AssetFileRow, AssetRow, LayerRow } from '../db/queries/assets.queries.js';
import type { JobRow } from '../db/queries/jobs.queries.js';
import type { ProjectRow } from '../db/queries/projects.queries.js';
import type { AssetStatus, AssetType, JobKind, JobState, LayerType, ProjectStatus } from '../db/types.js';
import { signedTilesBase } from './tiles.service.js';

/** Layer order, asset sort order and the layer of each asset type: the engine's product registry (spec §3). */
export { ASSET_ORDER, LAYER_OF_ASSET, LAYER_ORDER };

/** Default layer names. */
export const LAYER_NAMES: Record<LayerType, string> = {
  POINT_CLOUD: 'Point cloud',
  RASTER: 'Rasters',
  VECTOR: 'Vectors',
  REPORT: 'Reports',
};

export interface AssetFileDto {
  extension: string;
  fileName: string;
  size: number;
}

export interface AssetDto {
  id: string;
  layerId: string;
  type: AssetType;
  status: AssetStatus;
  name: string;
  storage: 'CESIUM_ION' | 'CUSTOM_TILING';
  tilingType: 'GOCESIUM_TILER' | 'PY3DTILES' | null;
  /** How the viewer shows it (from the product registry): 3D Tiles, raster tiles, features, or a download. */
  display: 'pointCloud' | 'raster' | 'vector' | 'download';
  /** Signed URL of the tileset.json (3D Tiles) or `{z}/{x}/{y}.png` template (raster tiles) when READY. */
  accessUrl: string | null;
  files: AssetFileDto[];
  originalFilename: string | null;
  epsgCode: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface LayerDto {
  id: string;
  name: string;
  type: LayerType;
  assets: AssetDto[];
}

export interface JobSummaryDto {
  id: string;
  state: JobState;
  step: string | null;
  percentage: number;
  errorCode: string | null;
  errorMessage: string | null;
  updatedAt: string;
  /** Where a PENDING or PROGRESS job stands (queue.service.ts); absent once it ended. */
  queue?: QueueDto;
}

/** The real state of the queue for one waiting or running job (replaces the spec's fixed "about 3 minutes"). */
export interface QueueDto {
  /** 1: the next job a worker takes; null: not in the queue (running, or waiting for its point cloud). */
  position: number | null;
  /** Jobs running now, everyone's. */
  running: number;
  /** Worker processes alive (a heartbeat in the last minute); 0: nothing will start until one runs. */
  workers: number;
  /** A processing that starts once the point cloud's tiling ends (not queued yet). */
  waitingForPointCloud: boolean;
  queuedAt: string | null;
  startedAt: string | null;
  /** When graphile-worker takes it; later than now while a retry waits for its back-off. */
  runAt: string | null;
  /** Attempts made so far (graphile-worker), and the most it will make. */
  attempts: number | null;
  maxAttempts: number | null;
}

export interface ProjectDto {
  id: string;
  name: string;
  status: ProjectStatus;
  lasName: string | null;
  /** Covered area in hectares. */
  area: number | null;
  systemId: string | null;
  generatingSoftware: string | null;
  creationDay: number | null;
  creationYear: number | null;
  lidarPointCount: number | null;
  maxElevation: number | null;
  minElevation: number | null;
  /** Size of the point cloud file in GB. */
  pointCloudMemory: number | null;
  lasVersion: string | null;
  epsgCode: number | null;
  creatorEmail: string;
  creationDate: string;
  updatedAt: string;
  errorCode: string | null;
  errorMessage: string | null;
  /** Present for the owner and admins only. */
  shareToken?: string | null;
  /** Heights of the point cloud: their vertical reference and the geoid model used for the globe (engine metadata). */
  verticalReference?: Record<string, unknown> | null;
  /** The file's header bounds were smaller than its points: the true bounds were read (a warning, not an error). */
  headerBoundsWarning?: { header: Record<string, number>; actual: Record<string, number> | null } | null;
  layers?: LayerDto[];
  jobs?: Partial<Record<'metadata' | 'tiling' | 'processing', JobSummaryDto>>;
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const num = (v: string | number | null) => (v === null ? null : Number(v));

/** The project fields of spec §3 (no layers). */
export function projectSummary(row: ProjectRow, withShareToken: boolean): ProjectDto {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    lasName: row.las_name,
    area: row.area_hectares,
    systemId: row.system_id,
    generatingSoftware: row.generating_software,
    creationDay: row.creation_day,
    creationYear: row.creation_year,
    lidarPointCount: num(row.point_count),
    maxElevation: row.max_elevation,
    minElevation: row.min_elevation,
    pointCloudMemory: row.memory_gb,
    lasVersion: row.las_version,
    epsgCode: row.epsg_code,
    creatorEmail: row.owner_email,
    creationDate: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    errorCode: row.error_code,
    errorMessage: row.error_message,
    ...(withShareToken ? { shareToken: row.share_token } : {}),
  };
}

/**
 * An asset as the API shows it; tiles URLs are signed for whoever may read the
 * project, with the share's `grant` for a share-link viewer (share-grants.service.ts).
 */
export async function assetDto(
  deps: AppDeps,
  a: AssetRow,
  files: readonly AssetFileRow[],
  grant?: string,
): Promise<AssetDto> {
  let accessUrl: string | null = null;
  if (a.status === 'READY' && a.tiles_prefix) {
    const tileset = DISPLAY_OF_ASSET[a.type] === 'pointCloud';
    const base = await signedTilesBase(deps, a.tiles_prefix, undefined, tileset ? 's' : 'raster', grant);
    accessUrl = tileset ? `${base}tileset.json` : `${base}{z}/{x}/{y}.png`;
  }
  return {
    id: a.id,
    layerId: a.layer_id,
    type: a.type,
    status: a.status,
    name: a.name,
    storage: a.storage,
    tilingType: a.tiling_type,
    display: DISPLAY_OF_ASSET[a.type] ?? 'download',
    accessUrl,
    files: files
      .filter((f) => f.asset_id === a.id)
      .map((f) => ({ extension: f.extension, fileName: f.file_name, size: Number(f.size) })),
    originalFilename: a.original_filename,
    epsgCode: a.epsg_code,
    errorCode: a.error_code,
    errorMessage: a.error_message,
    createdAt: iso(a.created_at),
    updatedAt: iso(a.updated_at),
  };
}

/**
 * What the point cloud's metadata tells the project page beyond spec §3's fields:
 * the vertical reference of its heights and the header-bounds warning.
 */
export function pointCloudNotes(
  assets: readonly AssetRow[],
): Pick<ProjectDto, 'verticalReference' | 'headerBoundsWarning'> {
  const cloud = assets.find((a) => a.type === 'POINT_CLOUD');
  const m = (cloud?.metadata ?? null) as Record<string, unknown> | null;
  if (!m || typeof m !== 'object') return { verticalReference: null, headerBoundsWarning: null };
  const v = m.verticalReference;
  const h = m.headerBoundsTooSmall as Record<string, number> | null | undefined;
  return {
    verticalReference: v && typeof v === 'object' ? (v as Record<string, unknown>) : null,
    headerBoundsWarning:
      h && typeof h === 'object' ? { header: h, actual: (m.bbox as Record<string, number> | undefined) ?? null } : null,
  };
}

/** Layers in spec order, each with its assets in spec order (`grant`: as {@link assetDto}). */
export async function layerDtos(
  deps: AppDeps,
  layers: readonly LayerRow[],
  assets: readonly AssetRow[],
  files: readonly AssetFileRow[],
  grant?: string,
): Promise<LayerDto[]> {
  const sortedLayers = [...layers].sort((a, b) => LAYER_ORDER.indexOf(a.type) - LAYER_ORDER.indexOf(b.type));
  const out: LayerDto[] = [];
  for (const layer of sortedLayers) {
    const mine = assets
      .filter((a) => a.layer_id === layer.id)
      .sort((a, b) => ASSET_ORDER.indexOf(a.type) - ASSET_ORDER.indexOf(b.type));
    out.push({
      id: layer.id,
      name: layer.name,
      type: layer.type,
      assets: await Promise.all(mine.map((a) => assetDto(deps, a, files, grant))),
    });
  }
  return out;
}

const JOB_NAMES: Partial<Record<JobKind, 'metadata' | 'tiling' | 'processing'>> = {
  METADATA: 'metadata',
  TILING: 'tiling',
  PROCESSING: 'processing',
};

/** The latest job of each kind, for progress displays. */
export function jobSummaries(jobs: readonly JobRow[]): ProjectDto['jobs'] {
  const out: NonNullable<ProjectDto['jobs']> = {};
  for (const j of [...jobs].sort((a, b) => Number(a.id) - Number(b.id))) {
    const name = JOB_NAMES[j.kind];
    // Classification edit jobs have their own status (GET /projects/{id}/classification-edits).
    if (!name) continue;
    out[name] = {
      id: j.id,
      state: j.state,
      step: j.step,
      percentage: Math.round(j.percentage * 10) / 10,
      errorCode: j.error_code,
      errorMessage: j.error_message,
      updatedAt: iso(j.updated_at),
    };
  }
  return out;
}
