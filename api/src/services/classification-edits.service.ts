import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ClassEdit, EDITABLE_CLASSES, type EditChange, type EditRegion } from '@nuage/engine/edit/class-edits.js';
import { type Kysely, sql } from 'kysely';
import type { AppDeps } from '../context.js';
import { type AssetRow, findProjectAsset, listAssetFiles } from '../db/queries/assets.queries.js';
import {
  type ClassificationEditRow,
  clearRedoStack,
  findClassificationEdit,
  insertClassificationEdit,
  listClassificationEdits,
  setClassificationEditStatus,
} from '../db/queries/classification-edits.queries.js';
import { insertJob, type JobRow, latestJob } from '../db/queries/jobs.queries.js';
import { lockProject } from '../db/queries/projects.queries.js';
import type { Database } from '../db/types.js';
import { AppError } from '../errors.js';
import { ensureQueue, MAX_ATTEMPTS } from '../jobs/queue.js';
import { localCopy } from '../jobs/store-io.js';
import { projectFor, type Viewer } from './access.service.js';
import { previewInThread } from './edit-preview.thread.js';

/**
 * Classification editing (issue 23): a project's edit layer — regions drawn
 * in the viewer giving points a class — with undo/redo and a history that can
 * be reverted, applied to the classified cloud by a CLASSIFICATION_EDIT job
 * (jobs/classification-edit.task.ts). The project's owner or an admin only.
 */

/** What an edit asks (the routes' validated body). */
export interface ClassEditBody {
  region: EditRegion;
  fromClasses?: number[] | undefined;
  minZ?: number | null | undefined;
  maxZ?: number | null | undefined;
  toClass: number;
}

export interface ClassificationEditDto {
  id: string;
  createdAt: string;
  userEmail: string;
  region: EditRegion;
  fromClasses: number[];
  minZ: number | null;
  maxZ: number | null;
  toClass: number;
  status: 'ACTIVE' | 'REVERTED';
  changed: EditChange | null;
}

export interface EditJobDto {
  id: string;
  state: 'PENDING' | 'PROGRESS' | 'SUCCESS' | 'ERROR';
  step: string | null;
  percentage: number;
  errorCode: string | null;
}

export interface ClassificationEditsDto {
  edits: ClassificationEditDto[];
  job: EditJobDto | null;
  canUndo: boolean;
  canRedo: boolean;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function editDto(row: ClassificationEditRow): ClassificationEditDto {
  return {
    id: row.id,
    createdAt: iso(row.created_at),
    userEmail: row.user_email,
    region: row.region as EditRegion,
    fromClasses: (row.from_classes ?? []).map(Number),
    minZ: row.min_z,
    maxZ: row.max_z,
    toClass: row.to_class,
    status: row.status,
    changed: (row.changed as EditChange | null) ?? null,
  };
}

/** An edit row as the engine applies it. */
export function engineEdit(row: ClassificationEditRow): ClassEdit {
  return {
    id: row.id,
    region: row.region as EditRegion,
    fromClasses: (row.from_classes ?? []).map(Number),
    minZ: row.min_z,
    maxZ: row.max_z,
    toClass: row.to_class,
    status: row.status,
  };
}

function jobState(job: JobRow): EditJobDto {
  const state = job.state === 'FAILURE' ? 'ERROR' : job.state === 'NONE' ? 'PENDING' : job.state;
  return {
    id: job.id,
    state,
    step: job.step,
    percentage: Math.round(job.percentage * 10) / 10,
    errorCode: job.error_code,
  };
}

/** The project (owner or admin) and its READY classified cloud; 409 CLASSIFIED_CLOUD_REQUIRED without one. */
async function editableProject(deps: AppDeps, viewer: Viewer, projectId: string) {
  const project = await projectFor(deps, viewer, projectId, 'write');
  const classified = await findProjectAsset(deps.database.db, project.id, 'CLASSIFIED_POINT_CLOUD');
  if (classified?.status !== 'READY') {
    throw new AppError(
      409,
      'CLASSIFIED_CLOUD_REQUIRED',
      'classification edits need the classified point cloud of a finished processing',
    );
  }
  return { project, classified };
}

function checkClasses(body: ClassEditBody): void {
  for (const c of [body.toClass, ...(body.fromClasses ?? [])]) {
    if (!EDITABLE_CLASSES.includes(c)) {
      throw new AppError(
        400,
        'INVALID_CLASS',
        `class ${c} is not in the list of point classes (0–28 without 8 and 12)`,
        {
          class: c,
        },
      );
    }
  }
  if (body.minZ != null && body.maxZ != null && body.minZ > body.maxZ) {
    throw new AppError(400, 'FORM_INVALID', `maxZ: minZ (${body.minZ}) is above maxZ (${body.maxZ})`, {
      fields: [{ field: 'maxZ', code: 'FORM_INVALID', issue: 'too_small', message: 'maxZ is below minZ' }],
    });
  }
}

/** The edits of a project (oldest first), its latest apply job and what undo/redo can do. */
export async function listEdits(deps: AppDeps, viewer: Viewer, projectId: string): Promise<ClassificationEditsDto> {
  const { project } = await editableProject(deps, viewer, projectId);
  return editsState(deps.database.db, project.id);
}

async function editsState(db: Kysely<Database>, projectId: string): Promise<ClassificationEditsDto> {
  const rows = await listClassificationEdits(db, projectId);
  const job = await latestJob(db, 'CLASSIFICATION_EDIT', { projectId });
  return {
    edits: rows.map(editDto),
    job: job ? jobState(job) : null,
    canUndo: rows.some((r) => r.status === 'ACTIVE'),
    canRedo: rows.some((r) => r.undone_at !== null),
  };
}

/**
 * Queues the apply job. Jobs of one project run one after the other (a
 * graphile-worker queue per project); each recomputes from the base with
 * every ACTIVE edit, so the last one leaves the cloud as the edits say.
 */
async function queueApplyJob(
  trx: Kysely<Database>,
  projectId: string,
  classified: AssetRow,
  userId: string | null,
): Promise<JobRow> {
  const job = await insertJob(trx, {
    kind: 'CLASSIFICATION_EDIT',
    projectId,
    assetId: classified.id,
    userId,
    state: 'PENDING',
  });
  await sql`SELECT graphile_worker.add_job(
      identifier => 'classification-edit'::text,
      payload => ${JSON.stringify({ jobId: job.id })}::json,
      queue_name => ${`classification-edit-${projectId}`}::text,
      max_attempts => ${MAX_ATTEMPTS}::int,
      job_key => ${`job-${job.id}`}::text,
      job_key_mode => 'replace'::text
    )`.execute(trx);
  await trx
    .updateTable('jobs')
    .set({ queued_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', job.id)
    .execute();
  return job;
}

/** Runs a change of the edit layer under the project's lock and queues the apply job. */
async function changeAndApply(
  deps: AppDeps,
  viewer: Viewer,
  projectId: string,
  change: (trx: Kysely<Database>, projectId: string) => Promise<ClassificationEditRow>,
): Promise<{ edit: ClassificationEditDto; jobId: string }> {
  const { project, classified } = await editableProject(deps, viewer, projectId);
  await ensureQueue(deps);
  const userId = viewer.kind === 'user' ? viewer.id : null;
  return deps.database.db.transaction().execute(async (trx) => {
    await lockProject(trx, project.id);
    const edit = await change(trx, project.id);
    const job = await queueApplyJob(trx, project.id, classified, userId);
    return { edit: editDto(edit), jobId: job.id };
  });
}

/** Stores a new ACTIVE edit, clears the redo stack and queues the apply job. */
export async function createEdit(deps: AppDeps, viewer: Viewer, projectId: string, body: ClassEditBody) {
  checkClasses(body);
  const userId = viewer.kind === 'user' ? viewer.id : null;
  const email = userId
    ? ((await deps.database.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())
        ?.email ?? '')
    : '';
  return changeAndApply(deps, viewer, projectId, async (trx, pid) => {
    await clearRedoStack(trx, pid);
    return insertClassificationEdit(trx, {
      projectId: pid,
      userId,
      userEmail: email,
      region: body.region,
      fromClasses: body.fromClasses ?? [],
      minZ: body.minZ ?? null,
      maxZ: body.maxZ ?? null,
      toClass: body.toClass,
    });
  });
}

/** Undo: the last ACTIVE edit becomes REVERTED (and redoable); 409 NOTHING_TO_UNDO. */
export function undoEdit(deps: AppDeps, viewer: Viewer, projectId: string) {
  return changeAndApply(deps, viewer, projectId, async (trx, pid) => {
    const rows = await listClassificationEdits(trx, pid);
    const last = rows.filter((r) => r.status === 'ACTIVE').at(-1);
    if (!last) throw new AppError(409, 'NOTHING_TO_UNDO', 'no active classification edit to undo');
    return setClassificationEditStatus(trx, last.id, 'REVERTED', true);
  });
}

/** Redo: the most recently undone edit becomes ACTIVE again; 409 NOTHING_TO_REDO. */
export function redoEdit(deps: AppDeps, viewer: Viewer, projectId: string) {
  return changeAndApply(deps, viewer, projectId, async (trx, pid) => {
    const rows = await listClassificationEdits(trx, pid);
    const undone = rows
      .filter((r) => r.undone_at !== null)
      .sort(
        (a, b) => new Date(b.undone_at!).getTime() - new Date(a.undone_at!).getTime() || Number(b.id) - Number(a.id),
      );
    if (undone.length === 0) throw new AppError(409, 'NOTHING_TO_REDO', 'no undone classification edit to redo');
    return setClassificationEditStatus(trx, undone[0]!.id, 'ACTIVE');
  });
}

async function editOf(trx: Kysely<Database>, projectId: string, editId: string): Promise<ClassificationEditRow> {
  const row = /^\d{1,18}$/.test(editId) ? await findClassificationEdit(trx, projectId, editId) : undefined;
  if (!row) throw new AppError(404, 'CLASSIFICATION_EDIT_NOT_FOUND', 'no such classification edit in this project');
  return row;
}

/** History: an ACTIVE edit becomes REVERTED (not on the redo stack). */
export function revertEdit(deps: AppDeps, viewer: Viewer, projectId: string, editId: string) {
  return changeAndApply(deps, viewer, projectId, async (trx, pid) => {
    const row = await editOf(trx, pid, editId);
    if (row.status !== 'ACTIVE') {
      throw new AppError(409, 'CLASSIFICATION_EDIT_NOT_ACTIVE', 'this classification edit is already reverted');
    }
    return setClassificationEditStatus(trx, row.id, 'REVERTED');
  });
}

/** History: a REVERTED edit becomes ACTIVE again. */
export function restoreEdit(deps: AppDeps, viewer: Viewer, projectId: string, editId: string) {
  return changeAndApply(deps, viewer, projectId, async (trx, pid) => {
    const row = await editOf(trx, pid, editId);
    if (row.status !== 'REVERTED') {
      throw new AppError(409, 'CLASSIFICATION_EDIT_NOT_REVERTED', 'this classification edit is already active');
    }
    return setClassificationEditStatus(trx, row.id, 'ACTIVE');
  });
}

/** The classified cloud's LAS file row (the preview thread keys its cache by the file's store key). */
async function classifiedFile(deps: AppDeps, classified: AssetRow) {
  const file = (await listAssetFiles(deps.database.db, [classified.id])).find((f) => f.extension === 'las');
  if (!file) {
    throw new AppError(409, 'CLASSIFIED_CLOUD_REQUIRED', 'the classified point cloud file is missing');
  }
  return file;
}

/** The exact number of points an edit would change now in the current classified cloud (by class before). */
export async function previewEdit(
  deps: AppDeps,
  viewer: Viewer,
  projectId: string,
  body: ClassEditBody,
): Promise<EditChange> {
  checkClasses(body);
  const { classified } = await editableProject(deps, viewer, projectId);
  const file = await classifiedFile(deps, classified);
  // Counted in a worker thread that keeps the cloud between previews: the API's main thread stays free.
  return previewInThread(
    file.key,
    body,
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'nuage-edit-preview-'));
      try {
        return {
          path: await localCopy(deps.storage, file.key, dir),
          done: () => rm(dir, { recursive: true, force: true }),
        };
      } catch (err) {
        await rm(dir, { recursive: true, force: true }).catch(() => {});
        throw err;
      }
    },
    classified.epsg_code ?? undefined,
  );
}
