/**
 * Projects, layers, assets and jobs as the API answers them (spec §3;
 * api/src/services/project-view.ts): the types generated from the API's
 * OpenAPI document (`npm run generate`), so a server change that breaks the
 * client fails `tsc -p web/tsconfig.json`.
 */

import type { components } from '../../shared/api/schema.generated.js';

type Schemas = components['schemas'];

/** Project status (spec §4, PENDING from the second reading). */
export type ProjectStatus = Schemas['ProjectStatus'];

/** Asset status (spec §4). */
export type AssetStatus = Schemas['AssetStatus'];

/** Layer types (spec §3); the API sends layers in the layer order. */
export type LayerType = Schemas['Layer']['type'];

/**
 * An asset type. The API owns the list (and sends assets in the asset order
 * of spec §3); the web only names the types it draws differently, and must
 * keep working with a type it does not know.
 */
export type AssetType = string;

/** Job state (spec §4 processing task state). */
export type JobState = Schemas['JobState'];

export type AssetFile = Schemas['AssetFile'];

/**
 * An asset. `type`, `storage` and `tilingType` are open strings: a value this
 * build does not know is a viewer problem of spec §8 (unknown storage mode,
 * tiling type not supported), not a type error.
 */
export type Asset = Omit<Schemas['Asset'], 'type' | 'storage' | 'tilingType'> & {
  type: AssetType;
  /** 'CESIUM_ION' | 'CUSTOM_TILING' in the API's document. */
  storage: Schemas['Asset']['storage'] | string;
  /** 'GOCESIUM_TILER' | 'PY3DTILES' in the API's document. */
  tilingType: Schemas['Asset']['tilingType'] | string;
};

export type Layer = Omit<Schemas['Layer'], 'assets'> & { assets: Asset[] };

export type JobSummary = Schemas['JobSummary'];

/** The jobs a project reports, the latest of each kind. */
export type JobsByName = NonNullable<Schemas['Project']['jobs']>;

export type JobName = keyof JobsByName;

export type Project = Omit<Schemas['Project'], 'layers'> & { layers?: Layer[] };

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
