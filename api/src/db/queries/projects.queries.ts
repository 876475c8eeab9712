import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, ProjectStatus, ProjectsTable } from '../types.js';

type Db = Kysely<Database>;

/** A project row with its owner's email. */
export type ProjectRow = Selectable<ProjectsTable> & { owner_email: string };

function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

function withOwner(db: Db) {
  return db
    .selectFrom('projects')
    .innerJoin('users', 'users.id', 'projects.owner_id')
    .selectAll('projects')
    .select('users.email as owner_email');
}

/** Creates a project; null when the owner already has a project of that name (case-insensitive). */
export async function insertProject(db: Db, p: { ownerId: string; name: string }): Promise<ProjectRow | null> {
  // ON CONFLICT rather than catching the violation: the insert runs inside a transaction.
  const r = await sql<{ id: string }>`
    INSERT INTO projects (owner_id, name) VALUES (${p.ownerId}, ${p.name})
    ON CONFLICT (owner_id, lower(name)) DO NOTHING
    RETURNING id`.execute(db);
  const id = r.rows[0]?.id;
  return id === undefined ? null : ((await findProject(db, id)) ?? null);
}

export function findProject(db: Db, id: string): Promise<ProjectRow | undefined> {
  return withOwner(db).where('projects.id', '=', id).executeTakeFirst();
}

/** The project a share token opens, if any. */
export function findProjectByShareToken(db: Db, token: string): Promise<ProjectRow | undefined> {
  return withOwner(db).where('projects.share_token', '=', token).executeTakeFirst();
}

/** Locks a project row for the rest of the transaction (serialises jobs and uploads of one project). */
export async function lockProject(db: Db, id: string): Promise<ProjectRow | undefined> {
  await db.selectFrom('projects').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
  return findProject(db, id);
}

/** Renames a project; null when the name is taken by another project of the owner. */
export async function renameProject(db: Db, id: string, name: string): Promise<boolean | null> {
  try {
    const r = await db
      .updateTable('projects')
      .set({ name, updated_at: sql`now()` })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  } catch (err) {
    if (isUniqueViolation(err, 'projects_owner_name_key')) return null;
    throw err;
  }
}

export async function deleteProject(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('projects').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Sets a project's status (and its error, cleared unless given). */
export async function setProjectStatus(
  db: Db,
  id: string,
  status: ProjectStatus,
  error: { code: string; message: string } | null = null,
): Promise<void> {
  await db
    .updateTable('projects')
    .set({
      status,
      error_code: error?.code ?? null,
      error_message: error?.message ?? null,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

/** LAS facts of spec §3, from the metadata extraction job. */
export interface ProjectFacts {
  lasName: string | null;
  areaHectares: number | null;
  systemId: string | null;
  generatingSoftware: string | null;
  creationDay: number | null;
  creationYear: number | null;
  pointCount: number | null;
  minElevation: number | null;
  maxElevation: number | null;
  memoryGb: number | null;
  lasVersion: string | null;
  epsgCode: number | null;
}

export async function setProjectFacts(db: Db, id: string, f: ProjectFacts): Promise<void> {
  await db
    .updateTable('projects')
    .set({
      las_name: f.lasName,
      area_hectares: f.areaHectares,
      system_id: f.systemId,
      generating_software: f.generatingSoftware,
      creation_day: f.creationDay,
      creation_year: f.creationYear,
      point_count: f.pointCount,
      min_elevation: f.minElevation,
      max_elevation: f.maxElevation,
      memory_gb: f.memoryGb,
      las_version: f.lasVersion,
      epsg_code: f.epsgCode,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export async function setShareToken(db: Db, id: string, token: string | null): Promise<void> {
  await db.updateTable('projects').set({ share_token: token, updated_at: sql`now()` }).where('id', '=', id).execute();
}

export async function countOwnedProjects(db: Db, ownerId: string): Promise<number> {
  const r = await db
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Columns the projects tables sort by (API name). */
export const PROJECT_SORT_COLUMNS = [
  'id',
  'name',
  'status',
  'creationDate',
  'area',
  'lidarPointCount',
  'lasName',
  'creatorEmail',
] as const;
export type ProjectSortColumn = (typeof PROJECT_SORT_COLUMNS)[number];

export interface ProjectListQuery {
  /** Only this owner's projects; null: every project (admin). */
  ownerId: string | null;
  limit: number;
  offset: number;
  sortBy: ProjectSortColumn;
  order: 'ASC' | 'DESC';
  search?: string | undefined;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** One page of projects and the number matching (table contract). */
export async function listProjects(db: Db, q: ProjectListQuery): Promise<{ count: number; rows: ProjectRow[] }> {
  const pattern = q.search ? `%${escapeLike(q.search.trim())}%` : null;
  let base = withOwner(db);
  let counted = db.selectFrom('projects').innerJoin('users', 'users.id', 'projects.owner_id');
  if (q.ownerId !== null) {
    base = base.where('projects.owner_id', '=', q.ownerId);
    counted = counted.where('projects.owner_id', '=', q.ownerId);
  }
  if (pattern) {
    const filter = sql<boolean>`(projects.name ILIKE ${pattern} OR projects.las_name ILIKE ${pattern} OR users.email ILIKE ${pattern})`;
    base = base.where(filter);
    counted = counted.where(filter);
  }
  const sortExpr = {
    id: sql`projects.id`,
    name: sql`lower(projects.name)`,
    status: sql`projects.status`,
    creationDate: sql`projects.created_at`,
    area: sql`projects.area_hectares`,
    lidarPointCount: sql`projects.point_count`,
    lasName: sql`lower(projects.las_name)`,
    creatorEmail: sql`users.email`,
  }[q.sortBy];
  const direction = q.order === 'ASC' ? sql`ASC NULLS FIRST` : sql`DESC NULLS LAST`;
  const [rows, total] = await Promise.all([
    base
      .orderBy(sql`${sortExpr} ${direction}`)
      .orderBy('projects.id', q.order === 'ASC' ? 'asc' : 'desc')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    counted.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { count: Number(total.n), rows };
}
