import type { AppDeps } from '../context.js';
import { findProject, findProjectByShareToken, type ProjectRow } from '../db/queries/projects.queries.js';
import { AppError } from '../errors.js';

/**
 * Who is looking: a logged-in user (owner or admin), or a visitor holding a
 * project's share token (read-only, that project only).
 */
export type Viewer = { kind: 'user'; id: string; admin: boolean } | { kind: 'share'; token: string };

/** The viewer of a logged-in user. */
export function userViewer(user: { id: string; roles: readonly string[] }): Viewer {
  return { kind: 'user', id: user.id, admin: user.roles.includes('admin') };
}

/** 404 for a project that does not exist or that the viewer may not see (never reveal which). */
export const projectNotFound = () => new AppError(404, 'PROJECT_NOT_FOUND', 'no such project');

/** True when the viewer may read the project. */
export function canRead(viewer: Viewer, project: Pick<ProjectRow, 'owner_id' | 'share_token'>): boolean {
  if (viewer.kind === 'share') return project.share_token !== null && project.share_token === viewer.token;
  return viewer.admin || project.owner_id === viewer.id;
}

/** True when the viewer may change the project (owner or admin; never a share token). */
export function canWrite(viewer: Viewer, project: Pick<ProjectRow, 'owner_id'>): boolean {
  return viewer.kind === 'user' && (viewer.admin || project.owner_id === viewer.id);
}

/**
 * Loads a project the viewer may read (`read`) or change (`write`); 404
 * PROJECT_NOT_FOUND otherwise. A share token may only read.
 */
export async function projectFor(
  deps: AppDeps,
  viewer: Viewer,
  projectId: string,
  mode: 'read' | 'write',
): Promise<ProjectRow> {
  if (!/^\d{1,18}$/.test(projectId)) throw projectNotFound();
  const project = await findProject(deps.database.db, projectId);
  if (!project || !(mode === 'read' ? canRead(viewer, project) : canWrite(viewer, project))) throw projectNotFound();
  return project;
}

/** The project a share token opens; 404 SHARE_TOKEN_INVALID when it opens none (revoked or never issued). */
export async function projectOfShareToken(deps: AppDeps, token: string): Promise<ProjectRow> {
  const project = /^[A-Za-z0-9_-]{20,100}$/.test(token)
    ? await findProjectByShareToken(deps.database.db, token)
    : undefined;
  if (!project) throw new AppError(404, 'SHARE_TOKEN_INVALID', 'this share link is not valid (revoked or mistyped)');
  return project;
}
