import { projectPrefix } from '@nuage/tiles-cache';
import type { AppDeps } from '../context.js';
import { ensureLayer, listAssetFiles, listAssets, listLayers } from '../db/queries/assets.queries.js';
import { latestJobsOfProjects, listProjectJobs } from '../db/queries/jobs.queries.js';
import {
  deleteProject as deleteProjectRow,
  findProject,
  insertProject,
  listProjects as listProjectRows,
  type ProjectListQuery,
  type ProjectRow,
  renameProject as renameProjectRow,
  setShareToken,
} from '../db/queries/projects.queries.js';
import { AppError } from '../errors.js';
import { canWrite, projectFor, projectOfShareToken, type Viewer } from './access.service.js';
import { checkProjectCount } from './limits.service.js';
import {
  jobSummaries,
  LAYER_NAMES,
  layerDtos,
  type ProjectDto,
  pointCloudNotes,
  projectSummary,
} from './project-view.js';
import { addQueueStates } from './queue.service.js';
import { grantForViewer, shareGrants } from './share-grants.service.js';
import { randomToken } from './signing.service.js';
import { checkUploadStanding } from './subscription.service.js';

const duplicateName = (name: string) =>
  new AppError(409, 'DUPLICATE_PROJECT_NAME', `you already have a project named ${JSON.stringify(name)}`);

/**
 * Checks a project name (spec §5): required, under 255 characters, no slash.
 * Routes validate the same rule with zod; the service checks again for callers
 * that are not routes.
 */
export function checkProjectName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new AppError(400, 'PROJECT_NAME_REQUIRED', 'the project name is required');
  if (trimmed.length >= 255) {
    throw new AppError(400, 'PROJECT_NAME_TOO_LONG', 'the project name must be under 255 characters');
  }
  if (trimmed.includes('/')) throw new AppError(400, 'PROJECT_NAME_SLASH', 'the project name cannot contain a slash');
  return trimmed;
}

/** A project with its layers, assets and latest jobs, as the viewer may see it. */
export async function projectDetails(deps: AppDeps, viewer: Viewer, project: ProjectRow): Promise<ProjectDto> {
  const db = deps.database.db;
  const [layers, assets, jobs] = await Promise.all([
    listLayers(db, project.id),
    listAssets(db, project.id),
    listProjectJobs(db, project.id),
  ]);
  const files = await listAssetFiles(
    db,
    assets.map((a) => a.id),
  );
  const latest = jobSummaries(jobs);
  await addQueueStates(db, [latest]);
  return {
    ...projectSummary(project, canWrite(viewer, project)),
    ...pointCloudNotes(assets),
    layers: await layerDtos(deps, layers, assets, files, grantForViewer(viewer, project.id)),
    jobs: latest,
  };
}

/**
 * Creates a project for its owner, with its point cloud layer (the upload goes
 * there). A suspended or missing subscription blocks it (spec §6).
 */
export async function createProject(deps: AppDeps, ownerId: string, rawName: string): Promise<ProjectDto> {
  const name = checkProjectName(rawName);
  await checkUploadStanding(deps, ownerId);
  await checkProjectCount(deps, ownerId);
  const row = await deps.database.db.transaction().execute(async (trx) => {
    const created = await insertProject(trx, { ownerId, name });
    if (!created) return null;
    await ensureLayer(trx, created.id, 'POINT_CLOUD', LAYER_NAMES.POINT_CLOUD);
    return created;
  });
  if (!row) throw duplicateName(name);
  return projectDetails(deps, { kind: 'user', id: ownerId, admin: false }, row);
}

/** One page of projects: the owner's, or every project for an admin listing all. */
export async function listProjects(
  deps: AppDeps,
  query: ProjectListQuery,
): Promise<{ count: number; results: ProjectDto[] }> {
  const db = deps.database.db;
  const { count, rows } = await listProjectRows(db, query);
  // The latest jobs of the page's projects, with their queue state: the list shows live progress.
  const jobs = await latestJobsOfProjects(
    db,
    rows.map((r) => r.id),
  );
  const results = rows.map((r) => ({
    ...projectSummary(r, true),
    jobs: jobSummaries(jobs.filter((j) => j.project_id === r.id)),
  }));
  await addQueueStates(
    db,
    results.map((r) => r.jobs),
  );
  return { count, results };
}

export async function getProject(deps: AppDeps, viewer: Viewer, id: string): Promise<ProjectDto> {
  return projectDetails(deps, viewer, await projectFor(deps, viewer, id, 'read'));
}

export async function renameProject(deps: AppDeps, viewer: Viewer, id: string, rawName: string): Promise<ProjectDto> {
  const project = await projectFor(deps, viewer, id, 'write');
  const name = checkProjectName(rawName);
  const ok = await renameProjectRow(deps.database.db, project.id, name);
  if (ok === null) throw duplicateName(name);
  const updated = await findProject(deps.database.db, project.id);
  if (!updated) throw new AppError(404, 'PROJECT_NOT_FOUND', 'no such project');
  return projectDetails(deps, viewer, updated);
}

/**
 * Deletes a project: its rows (layers, assets, jobs, features cascade), then
 * every file it has in the store. A job still running for it notices the
 * project is gone and removes what it wrote afterwards.
 */
export async function deleteProject(deps: AppDeps, viewer: Viewer, id: string): Promise<void> {
  const project = await projectFor(deps, viewer, id, 'write');
  await deleteProjectRow(deps.database.db, project.id);
  shareGrants(deps).evictProject(project.id);
  await removeProjectFiles(deps, project.id);
}

/** Deletes every stored file of a project (tiles included); logs and carries on when the store fails. */
export async function removeProjectFiles(deps: AppDeps, projectId: string): Promise<number> {
  const prefix = projectPrefix(projectId);
  try {
    // Through the tiles front, so cached tiles of the project are forgotten too.
    return await deps.storage.tiles.deletePrefix(prefix);
  } catch (err) {
    deps.log.error({ err, projectId }, 'could not delete the files of a deleted project');
    return 0;
  }
}

/**
 * Creates (or replaces) the project's share token; the old link stops working,
 * and so do the tile and download URLs handed out through it.
 */
export async function createShareToken(deps: AppDeps, viewer: Viewer, id: string): Promise<{ token: string }> {
  const project = await projectFor(deps, viewer, id, 'write');
  const token = randomToken();
  await setShareToken(deps.database.db, project.id, token);
  shareGrants(deps).evictProject(project.id);
  return { token };
}

/**
 * Revokes the project's share token, with the tile and download URLs handed
 * out through it: at once in this process, within 60 s in the others.
 */
export async function revokeShareToken(deps: AppDeps, viewer: Viewer, id: string): Promise<void> {
  const project = await projectFor(deps, viewer, id, 'write');
  await setShareToken(deps.database.db, project.id, null);
  shareGrants(deps).evictProject(project.id);
}

/** The project a share token opens, read-only, with its layers and signed tile URLs. */
export async function projectFromShareToken(deps: AppDeps, token: string): Promise<ProjectDto> {
  const project = await projectOfShareToken(deps, token);
  return projectDetails(deps, { kind: 'share', token }, project);
}
