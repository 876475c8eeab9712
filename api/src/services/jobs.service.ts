import type { Kysely } from 'kysely';
import type { AppDeps } from '../context.js';
import { findProjectAsset } from '../db/queries/assets.queries.js';
import {
  enqueueJob,
  findJob,
  findJobWithContext,
  insertJob,
  type JobListRow,
  type JobRow,
  type JobSortColumn,
  latestJob,
  listJobs,
  updateJob,
} from '../db/queries/jobs.queries.js';
import { tileCounts } from '../db/queries/processing-tiles.queries.js';
import { findProject, lockProject } from '../db/queries/projects.queries.js';
import type { Database, JobKind, JobState } from '../db/types.js';
import { AppError } from '../errors.js';
import { ensureQueue, MAX_ATTEMPTS } from '../jobs/queue.js';
import { projectFor, type Viewer } from './access.service.js';
import { reserveForJob } from './credits.service.js';
import { orthophotoFile } from './orthophoto.service.js';
import {
  makesProduct,
  type ProcessingOptions,
  parseProcessingOptions,
  upgradeProcessingOptions,
} from './processing-options.js';
import { processingRefusal, standingOf } from './subscription.service.js';

/**
 * Creates a job row in PENDING and queues its graphile-worker task, both in
 * the caller's transaction. Call `ensureQueue(deps)` before opening it.
 */
export async function queueNewJob(
  trx: Kysely<Database>,
  j: { kind: JobKind; projectId: string; assetId: string | null; userId: string | null; options?: unknown },
): Promise<JobRow> {
  const job = await insertJob(trx, { ...j, state: 'PENDING' });
  await enqueueJob(trx, job, MAX_ATTEMPTS);
  return job;
}

/** Queues an existing job row again (PENDING). */
export async function requeueJob(trx: Kysely<Database>, job: Pick<JobRow, 'id' | 'kind'>): Promise<void> {
  await updateJob(trx, job.id, {
    state: 'PENDING',
    step: null,
    percentage: 0,
    error_code: null,
    error_message: null,
    finished_at: null,
  });
  await enqueueJob(trx, job, MAX_ATTEMPTS);
}

/**
 * Queues processing of a project with the form's options (spec §2, §5). It
 * runs once the point cloud is tiled (at once when it already is). A file with
 * no CRS needs an EPSG code first (409 CRS_REQUIRED: PATCH the asset's epsgCode).
 * The owner's subscription must allow it (spec §8 Processing: inactive,
 * suspended, none) and, once the area is known, the credits left must cover
 * it (402 INSUFFICIENT_CREDITS): they are reserved atomically with the job.
 */
export async function requestProcessing(
  deps: AppDeps,
  viewer: Viewer,
  projectId: string,
  rawOptions: unknown,
): Promise<JobDto> {
  const project = await projectFor(deps, viewer, projectId, 'write');
  const options: ProcessingOptions = parseProcessingOptions(rawOptions);
  await orthophotoFile(deps.database.db, project.id, options);
  await ensureQueue(deps);
  const job = await deps.database.db.transaction().execute(async (trx) => {
    await lockProject(trx, project.id);
    const cloud = await findProjectAsset(trx, project.id, 'POINT_CLOUD');
    if (!cloud || ['NONE', 'UPLOADING', 'ABORTED'].includes(cloud.status)) {
      throw new AppError(409, 'PROJECT_NOT_UPLOADED', 'upload the point cloud before asking for processing');
    }
    if (cloud.error_code === 'CRS_REQUIRED') {
      throw new AppError(
        409,
        'CRS_REQUIRED',
        'the point cloud has no coordinate reference system: set the asset epsgCode (PATCH /api/assets) first',
      );
    }
    if (cloud.status === 'ERROR') {
      throw new AppError(409, 'PROJECT_NOT_READY', `the point cloud failed: ${cloud.error_message ?? 'error'}`);
    }
    const running = await latestJob(trx, 'PROCESSING', { projectId: project.id });
    if (running && (running.state === 'PENDING' || running.state === 'PROGRESS')) {
      throw new AppError(409, 'PROCESSING_ALREADY_RUNNING', 'this project is already being processed');
    }
    const userId = viewer.kind === 'user' ? project.owner_id : null;
    const standing = await standingOf(deps, project.owner_id, trx);
    const statusRefusal = processingRefusal(standing, null);
    if (statusRefusal) throw statusRefusal;
    const area = (await findProject(trx, project.id))?.area_hectares ?? null;
    if (cloud.status === 'READY' && !((area ?? 0) > 0)) {
      throw new AppError(
        409,
        'AREA_NOT_COMPUTED',
        'the area of the point cloud could not be calculated: contact support',
      );
    }
    const job =
      cloud.status === 'READY'
        ? await queueNewJob(trx, { kind: 'PROCESSING', projectId: project.id, assetId: cloud.id, userId, options })
        : // Accepted now; the tiling job queues it when the tileset is ready.
          await insertJob(trx, {
            kind: 'PROCESSING',
            projectId: project.id,
            assetId: cloud.id,
            userId,
            state: 'PENDING',
            options,
          });
    // The credits are taken now, in this transaction, under a key of this job: parallel requests
    // can never spend the same hectares (402 INSUFFICIENT_CREDITS rolls the job back). When the
    // area is not measured yet, the tiling job reserves them once it is.
    if ((area ?? 0) > 0) {
      await reserveForJob(trx, { userId: project.owner_id, projectId: project.id, jobId: job.id, hectares: area! });
    }
    return job;
  });
  const row = await findJobWithContext(deps.database.db, job.id);
  return jobDto(row!);
}

/** A job as the monitors and the project page show it (spec §3 processing task). */
export interface JobDto {
  id: string;
  kind: JobKind;
  /** graphile-worker job key of the task. */
  taskId: string;
  projectId: string;
  projectName: string;
  assetId: string | null;
  status: JobState;
  step: string | null;
  percentage: number;
  lasName: string | null;
  /** Declared size of the uploaded file, bytes. */
  fileSize: number | null;
  /** Size of the LAS data in GB. */
  lasSize: number | null;
  user: string | null;
  /** Hectares. */
  area: number | null;
  epsg: number | null;
  dtmResolution: number | null;
  shadedDtm: boolean | null;
  contours: boolean | null;
  contourResolution: { minor: number; major: number } | null;
  gridResolution: number | null;
  buildingSimplification: string | null;
  options: unknown;
  result: unknown;
  retryCount: number;
  attempts: number;
  /** A tiled processing: its tiles by state (job view only). */
  tiles?: { total: number; done: number; running: number; failed: number } | null;
  errorCode: string | null;
  errorMessage: string | null;
  timestamp: string;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function jobDto(row: JobListRow): JobDto {
  const o = upgradeProcessingOptions(row.options ?? null) as Partial<ProcessingOptions> | null;
  const metadata = row.result as { memoryGb?: number } | null;
  return {
    id: row.id,
    kind: row.kind,
    taskId: `job-${row.id}`,
    projectId: row.project_id,
    projectName: row.project_name,
    assetId: row.asset_id,
    status: row.state,
    step: row.step,
    percentage: Math.round(row.percentage * 10) / 10,
    lasName: row.las_name ?? row.original_filename,
    fileSize: row.declared_size === null ? null : Number(row.declared_size),
    lasSize: typeof metadata?.memoryGb === 'number' ? metadata.memoryGb : null,
    user: row.user_email,
    area: row.area_hectares,
    epsg: row.asset_epsg ?? row.project_epsg,
    dtmResolution: o?.dtmResolutionCm ?? null,
    shadedDtm: o ? makesProduct(o, 'hillshade') : null,
    contours: o ? makesProduct(o, 'contours') : null,
    contourResolution:
      o?.contourMinorCm !== undefined && o.contourMajorCm !== undefined
        ? { minor: o.contourMinorCm, major: o.contourMajorCm }
        : null,
    gridResolution: o?.gridResolutionCm ?? null,
    buildingSimplification: o?.buildingSimplification ?? null,
    options: row.options,
    result: row.result,
    retryCount: row.retry_count,
    attempts: row.attempts,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    timestamp: iso(row.updated_at)!,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
  };
}

/** One page of a job monitor (admin). */
export async function listJobsPage(
  deps: AppDeps,
  q: {
    kind: JobKind;
    limit: number;
    offset: number;
    sortBy: JobSortColumn;
    order: 'ASC' | 'DESC';
    state?: JobState | undefined;
    projectId?: string | undefined;
    search?: string | undefined;
  },
): Promise<{ count: number; results: JobDto[] }> {
  const { count, rows } = await listJobs(deps.database.db, q);
  return { count, results: rows.map(jobDto) };
}

/** One job of a kind (admin monitor view); 404 JOB_NOT_FOUND otherwise. */
export async function getJob(deps: AppDeps, kind: JobKind, id: string, projectId?: string): Promise<JobDto> {
  const row = /^\d{1,18}$/.test(id) ? await findJobWithContext(deps.database.db, id) : undefined;
  if (!row || row.kind !== kind || (projectId !== undefined && row.project_id !== projectId)) {
    throw new AppError(404, 'JOB_NOT_FOUND', 'no such job');
  }
  const dto = jobDto(row);
  if (row.kind !== 'PROCESSING') return dto;
  const tiles = await tileCounts(deps.database.db, row.id);
  return tiles.total > 0
    ? { ...dto, tiles: { total: tiles.total, done: tiles.done, running: tiles.running, failed: tiles.failed } }
    : dto;
}

/**
 * Admin retry of a failed processing (spec §4): the same job row runs again
 * (its retry count goes up). Only a FAILURE can be retried (409 JOB_NOT_FAILED).
 */
export async function retryProcessing(deps: AppDeps, id: string): Promise<JobDto> {
  const job = /^\d{1,18}$/.test(id) ? await findJob(deps.database.db, id) : undefined;
  if (job?.kind !== 'PROCESSING') throw new AppError(404, 'JOB_NOT_FOUND', 'no such processing job');
  await ensureQueue(deps);
  await deps.database.db.transaction().execute(async (trx) => {
    await lockProject(trx, job.project_id);
    const fresh = await findJob(trx, job.id);
    if (fresh?.state !== 'FAILURE') {
      throw new AppError(
        409,
        'JOB_NOT_FAILED',
        `only a failed processing can be retried (this one is ${fresh?.state})`,
      );
    }
    const cloud = await findProjectAsset(trx, job.project_id, 'POINT_CLOUD');
    if (cloud?.status !== 'READY') {
      throw new AppError(409, 'PROJECT_NOT_READY', 'the point cloud of this project is not ready');
    }
    await updateJob(trx, job.id, { retry_count: fresh.retry_count + 1 });
    await requeueJob(trx, job);
  });
  return getJob(deps, 'PROCESSING', id);
}
