import useSWR from 'swr';
import { api } from '../../../shared/api/api.js';
import type { components } from '../../../shared/api/schema.generated.js';
import type { Page } from '../../../shared/api/types.js';
import type { pageRequest } from '../../../shared/ui/data-table/table-state.js';
import { isJobRunning, JOB_REFRESH_MS } from '../process-data/jobs.api.js';

/** A project as the admin sees it (spec §3), with layers and latest jobs on the view. */
export type AdminProject = components['schemas']['Project'];
export type ProjectStatus = components['schemas']['ProjectStatus'];
export type Asset = components['schemas']['Asset'];
export type AssetStatus = components['schemas']['AssetStatus'];
/** GET /assets?id= (asset monitor): the asset with its metadata. */
export type AssetMonitor = components['schemas']['AssetMonitor'];

/** GET /admin/projects: one page of every user's projects (table contract, text search). */
export function listAdminProjects(request: ReturnType<typeof pageRequest>): Promise<Page<AdminProject>> {
  return api.get<Page<AdminProject>>('/admin/projects', { query: request });
}

/** GET /admin/projects/{id}: any project with its layers, assets and latest jobs. */
export function getAdminProject(id: string): Promise<AdminProject> {
  return api.get<AdminProject>(`/admin/projects/${encodeURIComponent(id)}`);
}

/** Whether a project still changes (a job runs or an upload is under way). */
export function isProjectBusy(p: AdminProject): boolean {
  if (p.status === 'UPLOADING' || p.status === 'UPLOADED' || p.status === 'PROCESSING' || p.status === 'PENDING') {
    return true;
  }
  const jobs = p.jobs ?? {};
  return [jobs.metadata, jobs.tiling, jobs.processing].some(
    (j) => j !== undefined && isJobRunning({ status: j.state }),
  );
}

/** SWR hook of one project (admin view); polls while the project is busy. */
export function useAdminProject(id: string) {
  return useSWR(['admin-project', id], () => getAdminProject(id), {
    refreshInterval: (p) => (p && isProjectBusy(p) ? JOB_REFRESH_MS : 0),
  });
}

/** GET /assets?id=: the asset monitor (metadata such as intensity range, files, normalisation). */
export function getAssetMonitor(id: string): Promise<AssetMonitor> {
  return api.get<AssetMonitor>('/assets', { query: { id } });
}

/** SWR hook of one asset's monitor, fetched only when `active`. */
export function useAssetMonitor(id: string, active: boolean) {
  return useSWR(active ? ['admin-asset', id] : null, () => getAssetMonitor(id));
}
