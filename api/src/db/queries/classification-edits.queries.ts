import { type Kysely, type Selectable, sql } from 'kysely';
import type { ClassificationEditBasesTable, ClassificationEditsTable, Database } from '../types.js';

type Db = Kysely<Database>;

export type ClassificationEditRow = Selectable<ClassificationEditsTable>;
export type ClassificationEditBaseRow = Selectable<ClassificationEditBasesTable>;

/** A project's edits, oldest first. */
export function listClassificationEdits(db: Db, projectId: string): Promise<ClassificationEditRow[]> {
  return db
    .selectFrom('classification_edits')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findClassificationEdit(
  db: Db,
  projectId: string,
  id: string,
): Promise<ClassificationEditRow | undefined> {
  return db
    .selectFrom('classification_edits')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function insertClassificationEdit(
  db: Db,
  e: {
    projectId: string;
    userId: string | null;
    userEmail: string;
    region: unknown;
    fromClasses: number[];
    minZ: number | null;
    maxZ: number | null;
    toClass: number;
  },
): Promise<ClassificationEditRow> {
  return db
    .insertInto('classification_edits')
    .values({
      project_id: e.projectId,
      user_id: e.userId,
      user_email: e.userEmail,
      region: JSON.stringify(e.region),
      from_classes: e.fromClasses,
      min_z: e.minZ,
      max_z: e.maxZ,
      to_class: e.toClass,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Sets an edit's status; `undone` puts a REVERTED edit on the redo stack. */
export function setClassificationEditStatus(
  db: Db,
  id: string,
  status: 'ACTIVE' | 'REVERTED',
  undone = false,
): Promise<ClassificationEditRow> {
  return db
    .updateTable('classification_edits')
    .set({ status, undone_at: undone ? sql`clock_timestamp()` : null, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Empties the redo stack of a project (its undone edits stay REVERTED). */
export async function clearRedoStack(db: Db, projectId: string): Promise<void> {
  await db
    .updateTable('classification_edits')
    .set({ undone_at: null, updated_at: sql`now()` })
    .where('project_id', '=', projectId)
    .where('undone_at', 'is not', null)
    .execute();
}

/** Records what the apply job changed, per edit (null: not applied, reverted). */
export async function setClassificationEditChanges(
  db: Db,
  changes: ReadonlyArray<{ id: string; changed: unknown }>,
): Promise<void> {
  for (const c of changes) {
    await db
      .updateTable('classification_edits')
      .set({ changed: c.changed === null ? null : JSON.stringify(c.changed) })
      .where('id', '=', c.id)
      .execute();
  }
}

export function findClassificationEditBase(db: Db, projectId: string): Promise<ClassificationEditBaseRow | undefined> {
  return db.selectFrom('classification_edit_bases').selectAll().where('project_id', '=', projectId).executeTakeFirst();
}

export async function upsertClassificationEditBase(
  db: Db,
  b: { projectId: string; assetId: string; baseKey: string; sourceKey: string; appliedKey: string | null },
): Promise<void> {
  const values = {
    asset_id: b.assetId,
    base_key: b.baseKey,
    source_key: b.sourceKey,
    applied_key: b.appliedKey,
    updated_at: sql<Date>`now()`,
  };
  await db
    .insertInto('classification_edit_bases')
    .values({ project_id: b.projectId, ...values })
    .onConflict((oc) => oc.column('project_id').doUpdateSet(values))
    .execute();
}
