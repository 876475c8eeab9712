/**
 * Projects, layers, assets and jobs as the API answers them (spec §3;
 * api/src/services/project-view.ts).
 */

import type { components } from '../../shared/api/schema.generated.js';

/** Project status (spec §4, PENDING from the second reading). */
export type ProjectStatus = 'NONE' | 'PENDING' | 'UPLOADING' | 'UPLOADED' | 'PROCESSING' | 'READY' | 'ERROR';

/** Asset status (spec §4). */
export type AssetStatus =
  | 'NONE'
  | 'UPLOADING'
  | 'UPLOADED'
  | 'PROCESSING'
  | 'ABORTED'
  | 'EXTRACTING_METADATA'
  | 'TILING'
  | 'READY'
  | 'ERROR';

/** Layer types, in the layer order of spec §3. */
export const LAYER_TYPES = ['POINT_CLOUD', 'RASTER', 'VECTOR', 'REPORT'] as const;
export type LayerType = (typeof LAYER_TYPES)[number];

/** Asset types in the asset sort order of spec §3. */
export const ASSET_TYPES = [
  'POINT_CLOUD',
  'CLASSIFIED_POINT_CLOUD',
  'POWER_LINE',
  'GRID',
  'CONTOUR_LINE',
  'CONTOUR_LINE_MAJOR',
  'CONTOUR_LINE_MINOR',
  'BUILDINGS',
  'TREE_CROWNS',
  'TREE_TOPS',
  'DTM',
  'IMAGERY_DTM',
  'HILLSHADE_DTM',
  'TOPOGRAPHIC_MAP',
  'SLOPE_MAP',
  'FOREST_INVENTORY',
  'PDF_REPORT',
] as const;
export type AssetType = (typeof ASSET_TYPES)[number] | 'PDF_REPPORT';

/** Job state (spec §4 processing task state). */
export type JobState = 'NONE' | 'PENDING' | 'PROGRESS' | 'SUCCESS' | 'FAILURE';

export interface AssetFile {
  extension: string;
  fileName: string;
  size: number;
}

export interface Asset {
  id: string;
  layerId: string;
  type: AssetType;
  status: AssetStatus;
  name: string;
  storage: 'CESIUM_ION' | 'CUSTOM_TILING' | string;
  tilingType: 'GOCESIUM_TILER' | 'PY3DTILES' | string | null;
  /** Signed tileset.json URL (point clouds) or `{z}/{x}/{y}.png` template (rasters) once READY. */
  accessUrl: string | null;
  files: AssetFile[];
  originalFilename: string | null;
  epsgCode: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Layer {
  id: string;
  name: string;
  type: LayerType;
  assets: Asset[];
}

export interface JobSummary {
  id: string;
  state: JobState;
  /** A creation progress step (spec §4) or a processing step. */
  step: string | null;
  /** 0..100 */
  percentage: number;
  errorCode: string | null;
  errorMessage: string | null;
  updatedAt: string;
}

export type JobName = 'metadata' | 'tiling' | 'processing';

export interface Project {
  id: string;
  name: string;
  status: ProjectStatus;
  lasName: string | null;
  /** Hectares. */
  area: number | null;
  systemId: string | null;
  generatingSoftware: string | null;
  creationDay: number | null;
  creationYear: number | null;
  lidarPointCount: number | null;
  maxElevation: number | null;
  minElevation: number | null;
  /** GB. */
  pointCloudMemory: number | null;
  lasVersion: string | null;
  epsgCode: number | null;
  creatorEmail: string;
  creationDate: string;
  updatedAt: string;
  errorCode: string | null;
  errorMessage: string | null;
  /** Owner and admins only. */
  shareToken?: string | null;
  layers?: Layer[];
  jobs?: Partial<Record<JobName, JobSummary>>;
}

/** Statuses after which a project no longer changes by itself. */
export const SETTLED_STATUSES: readonly ProjectStatus[] = ['READY', 'ERROR'];

/** True while a project is still being uploaded, tiled or processed (its list refreshes). */
export function isInProgress(project: Pick<Project, 'status' | 'jobs'>): boolean {
  if (!SETTLED_STATUSES.includes(project.status)) return true;
  const jobs = Object.values(project.jobs ?? {});
  return jobs.some((j) => j && (j.state === 'PENDING' || j.state === 'PROGRESS'));
}

/** The job a progress display follows: the one running, else the latest to change. */
export function currentJob(project: Pick<Project, 'jobs'>): (JobSummary & { name: JobName }) | null {
  const entries = Object.entries(project.jobs ?? {}) as Array<[JobName, JobSummary | undefined]>;
  const jobs = entries
    .filter((e): e is [JobName, JobSummary] => e[1] !== undefined)
    .map(([name, j]) => ({ ...j, name }));
  if (jobs.length === 0) return null;
  const running = jobs.find((j) => j.state === 'PROGRESS') ?? jobs.find((j) => j.state === 'PENDING');
  if (running) return running;
  return jobs.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0]!;
}

// These hand-written types are narrower than the generated OpenAPI ones (unions
// where the document says string). They must still accept what the API sends:
// the checks below fail the typecheck when the API's shapes drift from them.

type Schemas = components['schemas'];
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
const projectKeysMatch: SameKeys<Project, Schemas['Project']> = true;
const layerKeysMatch: SameKeys<Layer, Schemas['Layer']> = true;
const assetKeysMatch: SameKeys<Asset, Schemas['Asset']> = true;
void [projectKeysMatch, layerKeysMatch, assetKeysMatch];
