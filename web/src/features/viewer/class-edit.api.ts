import { api } from '../../shared/api/api.js';
import type { EditRegion } from '../../viewer/edit/edit.types.js';
import type { EditRequest } from '../../viewer/edit/edit-request.js';

export type { EditRequest };

/**
 * Classification editing (issue 23): the calls of the viewer's edit panel
 * (api/src/routes/classification-edits.routes.ts). Owner or admin only; a
 * share link never sees the tool.
 */

/** Points an edit changes (or would change), by their class before it (codes as text). */
export interface EditCounts {
  total: number;
  byClass: Record<string, number>;
}

/** One edit of the history, oldest first. */
export interface ClassEdit {
  id: string;
  createdAt: string;
  userEmail: string;
  region: EditRegion;
  fromClasses: number[];
  minZ: number | null;
  maxZ: number | null;
  toClass: number;
  status: 'ACTIVE' | 'REVERTED';
  /** Null until the apply job has applied it. */
  changed: EditCounts | null;
}

/** The apply job of the project's edits (the latest). */
export interface EditJob {
  id: string;
  state: 'PENDING' | 'PROGRESS' | 'SUCCESS' | 'ERROR';
  step: string | null;
  percentage: number;
  errorCode: string | null;
}

/** GET /projects/{id}/classification-edits. */
export interface EditHistory {
  edits: ClassEdit[];
  job: EditJob | null;
  canUndo: boolean;
  canRedo: boolean;
}

/** What every change of the history answers: the edit concerned and the apply job queued. */
export interface EditQueued {
  edit: ClassEdit;
  jobId: string;
}

const base = (projectId: string) => `/projects/${encodeURIComponent(projectId)}/classification-edits`;

/** The history of edits, the apply job and whether undo / redo are possible. */
export function fetchEdits(projectId: string): Promise<EditHistory> {
  return api.get<EditHistory>(base(projectId));
}

/** The exact number of points the edit would change now (points already of the target class not counted). */
export function previewEdit(projectId: string, body: EditRequest): Promise<EditCounts> {
  return api.post<EditCounts>(`${base(projectId)}/preview`, { body });
}

/** Stores the edit and queues the job that applies it (the redo stack is cleared). */
export function applyEdit(projectId: string, body: EditRequest): Promise<EditQueued> {
  return api.post<EditQueued>(base(projectId), { body });
}

/** Undoes the last active edit (409 NOTHING_TO_UNDO) or redoes the last undone one (409 NOTHING_TO_REDO). */
export function undoRedo(projectId: string, action: 'undo' | 'redo'): Promise<EditQueued> {
  return api.post<EditQueued>(`${base(projectId)}/${action}`);
}

/** Reverts an active edit or restores a reverted one, from the history. */
export function revertRestore(projectId: string, editId: string, action: 'revert' | 'restore'): Promise<EditQueued> {
  return api.post<EditQueued>(`${base(projectId)}/${encodeURIComponent(editId)}/${action}`);
}
