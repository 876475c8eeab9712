import useSWR from 'swr';
import { api } from '../../../shared/api/api.js';
import type { components } from '../../../shared/api/schema.generated.js';
import type { Page } from '../../../shared/api/types.js';
import type { pageRequest } from '../../../shared/ui/data-table/table-state.js';

/** A job of an admin monitor, as GET /admin/{monitor} answers it (spec §3 processing task). */
export type Job = components['schemas']['Job'];
/** Job state of spec §4: NONE, PENDING, PROGRESS, SUCCESS, FAILURE. */
export type JobState = components['schemas']['JobState'];

/** The admin job monitors (spec §2; classification edits: issue 23) and the API path of each. */
export const JOB_MONITORS = {
  PROCESSING: 'process-data',
  TILING: 'tiling',
  METADATA: 'metadata-processing',
  CLASSIFICATION_EDIT: 'classification-edits',
} as const;
export type JobKind = keyof typeof JOB_MONITORS;

/** Columns the job monitors may sort by (api/src/db/queries/jobs.queries.ts JOB_SORT_COLUMNS). */
export const JOB_SORT_COLUMNS = ['id', 'state', 'createdAt', 'updatedAt', 'percentage', 'lasName', 'user', 'area'];

/** Whether a job still moves: the monitors refresh while one of their rows does. */
export function isJobRunning(job: Pick<Job, 'status'>): boolean {
  return job.status === 'PENDING' || job.status === 'PROGRESS';
}

/** GET /admin/{monitor}: one page of a job monitor (table contract of spec §7, with its text search). */
export function listJobs(kind: JobKind, request: ReturnType<typeof pageRequest>): Promise<Page<Job>> {
  // The search goes too: project and file names, the user's email, or the job id (the monitors' search box).
  return api.get<Page<Job>>(`/admin/${JOB_MONITORS[kind]}`, { query: { ...request } });
}

/**
 * GET one job of a monitor: `/admin/process-data/{id}` for a processing,
 * `/admin/{tiling|metadata-processing|classification-edits}/{projectId}/{jobId}` for the others.
 */
export function getJob(kind: JobKind, jobId: string, projectId?: string): Promise<Job> {
  const id = encodeURIComponent(jobId);
  if (kind === 'PROCESSING') return api.get<Job>(`/admin/process-data/${id}`);
  return api.get<Job>(`/admin/${JOB_MONITORS[kind]}/${encodeURIComponent(projectId ?? '')}/${id}`);
}

/** Refresh period of a job view or monitor while its job(s) run. */
export const JOB_REFRESH_MS = 3000;

/** SWR hook of one job; polls while the job runs. */
export function useJob(kind: JobKind, jobId: string, projectId?: string) {
  return useSWR(['admin-job', kind, jobId, projectId ?? ''], () => getJob(kind, jobId, projectId), {
    refreshInterval: (job) => (job && isJobRunning(job) ? JOB_REFRESH_MS : 0),
  });
}

/** POST /admin/process-data/{id}/retry: the failed processing runs again (202, job PENDING). */
export function retryProcessing(id: string): Promise<Job> {
  return api.post<Job>(`/admin/process-data/${encodeURIComponent(id)}/retry`);
}
