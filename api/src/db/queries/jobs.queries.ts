import { type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { Database, JobKind, JobState, JobsTable } from '../types.js';

type Db = Kysely<Database>;

export type JobRow = Selectable<JobsTable>;

export async function insertJob(
  db: Db,
  j: {
    kind: JobKind;
    projectId: string;
    assetId: string | null;
    userId: string | null;
    state: JobState;
    options?: unknown;
  },
): Promise<JobRow> {
  return db
    .insertInto('jobs')
    .values({
      kind: j.kind,
      project_id: j.projectId,
      asset_id: j.assetId,
      user_id: j.userId,
      state: j.state,
      options: j.options === undefined ? null : JSON.stringify(j.options),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findJob(db: Db, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The latest job of a kind for a project (or an asset). */
export function latestJob(
  db: Db,
  kind: JobKind,
  where: { projectId: string; assetId?: string },
): Promise<JobRow | undefined> {
  let q = db.selectFrom('jobs').selectAll().where('kind', '=', kind).where('project_id', '=', where.projectId);
  if (where.assetId !== undefined) q = q.where('asset_id', '=', where.assetId);
  return q.orderBy('id', 'desc').limit(1).executeTakeFirst();
}

export type JobPatch = Omit<Updateable<JobsTable>, 'id' | 'kind' | 'project_id' | 'created_at' | 'updated_at'>;

/** Updates a job; with `onlyIfState`, only while the job is in one of those states (returns whether it changed). */
export async function updateJob(
  db: Db,
  id: string,
  patch: JobPatch,
  onlyIfState?: readonly JobState[],
): Promise<boolean> {
  const values: Record<string, unknown> = { ...patch, updated_at: sql`now()` };
  // jsonb columns take JSON text.
  if (patch.options !== undefined && patch.options !== null) values.options = JSON.stringify(patch.options);
  if (patch.result !== undefined && patch.result !== null) values.result = JSON.stringify(patch.result);
  let q = db
    .updateTable('jobs')
    .set(values as Updateable<JobsTable>)
    .where('id', '=', id);
  if (onlyIfState) q = q.where('state', 'in', [...onlyIfState]);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Graphile-worker task names, by job kind. */
export const TASK_OF_KIND: Record<JobKind, string> = {
  METADATA: 'metadata-extraction',
  TILING: 'tiling',
  PROCESSING: 'processing',
};

/**
 * Queues the graphile-worker task of a job row (in the caller's transaction, so
 * the row and the queue entry commit together). The job key is the row id:
 * queuing a job twice replaces the waiting entry instead of running it twice.
 */
export async function enqueueJob(db: Db, job: { id: string; kind: JobKind }, maxAttempts: number): Promise<void> {
  await sql`SELECT graphile_worker.add_job(
      identifier => ${TASK_OF_KIND[job.kind]}::text,
      payload => ${JSON.stringify({ jobId: job.id })}::json,
      max_attempts => ${maxAttempts}::int,
      job_key => ${`job-${job.id}`}::text,
      job_key_mode => 'replace'::text
    )`.execute(db);
  await db
    .updateTable('jobs')
    .set({ queued_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', job.id)
    .execute();
}

/** True once graphile-worker's schema is installed in this database. */
export async function queueInstalled(db: Db): Promise<boolean> {
  const r = await sql<{ ok: boolean }>`SELECT to_regproc('graphile_worker.add_job') IS NOT NULL AS ok`.execute(db);
  return r.rows[0]?.ok === true;
}

/**
 * Jobs a dead worker process was running: state PROGRESS and the worker's
 * heartbeat missing or older than `deadAfterSeconds`. Their graphile-worker
 * locks must be released so that another run picks them up.
 */
export async function jobsOfDeadWorkers(
  db: Db,
  deadAfterSeconds: number,
  exceptWorkerId: string,
): Promise<Array<{ id: string; worker_id: string | null; locked_by: string | null }>> {
  const r = await sql<{ id: string; worker_id: string | null; locked_by: string | null }>`
    SELECT j.id, j.worker_id, j.locked_by
    FROM jobs j
    LEFT JOIN worker_heartbeats h ON h.worker_id = j.worker_id
    WHERE j.state = 'PROGRESS'
      AND j.worker_id IS DISTINCT FROM ${exceptWorkerId}
      AND (h.worker_id IS NULL OR h.beat_at < now() - make_interval(secs => ${deadAfterSeconds}))`.execute(db);
  return r.rows;
}

/** Heartbeat rows of workers dead for `deadAfterSeconds` (they never stopped cleanly). */
export async function deleteDeadHeartbeats(db: Db, deadAfterSeconds: number): Promise<string[]> {
  const r = await sql<{ worker_id: string }>`
    DELETE FROM worker_heartbeats WHERE beat_at < now() - make_interval(secs => ${deadAfterSeconds})
    RETURNING worker_id`.execute(db);
  return r.rows.map((row) => row.worker_id);
}

/**
 * Records a charge once: the key ties it to one piece of work, so a job run
 * twice (crash, retry, resumption) is charged once. Returns true when this
 * call recorded it.
 */
export async function recordCharge(
  db: Db,
  c: { key: string; userId: string | null; projectId: string; jobId: string; hectares: number },
): Promise<boolean> {
  const r = await db
    .insertInto('charges')
    .values({
      charge_key: c.key,
      user_id: c.userId,
      project_id: c.projectId,
      job_id: c.jobId,
      hectares: c.hectares,
    })
    .onConflict((oc) => oc.column('charge_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/** Columns the admin job monitors sort by (API name). */
export const JOB_SORT_COLUMNS = [
  'id',
  'state',
  'createdAt',
  'updatedAt',
  'percentage',
  'lasName',
  'user',
  'area',
] as const;
export type JobSortColumn = (typeof JOB_SORT_COLUMNS)[number];

/** A job with what the admin monitors show beside it. */
export type JobListRow = JobRow & {
  project_name: string;
  las_name: string | null;
  area_hectares: number | null;
  user_email: string | null;
  original_filename: string | null;
  declared_size: string | number | null;
  asset_epsg: number | null;
  project_epsg: number | null;
};

function jobsWithContext(db: Db) {
  return db
    .selectFrom('jobs')
    .innerJoin('projects', 'projects.id', 'jobs.project_id')
    .leftJoin('users', 'users.id', 'jobs.user_id')
    .leftJoin('assets', 'assets.id', 'jobs.asset_id')
    .selectAll('jobs')
    .select([
      'projects.name as project_name',
      'projects.las_name',
      'projects.area_hectares',
      'users.email as user_email',
      'assets.original_filename',
      'assets.declared_size',
      'assets.epsg_code as asset_epsg',
      'projects.epsg_code as project_epsg',
    ]);
}

export function findJobWithContext(db: Db, id: string): Promise<JobListRow | undefined> {
  return jobsWithContext(db).where('jobs.id', '=', id).executeTakeFirst();
}

/** One page of jobs of a kind (admin monitors, table contract). */
export async function listJobs(
  db: Db,
  q: {
    kind: JobKind;
    limit: number;
    offset: number;
    sortBy: JobSortColumn;
    order: 'ASC' | 'DESC';
    state?: JobState | undefined;
    projectId?: string | undefined;
  },
): Promise<{ count: number; rows: JobListRow[] }> {
  let base = jobsWithContext(db).where('jobs.kind', '=', q.kind);
  let counted = db.selectFrom('jobs').where('jobs.kind', '=', q.kind);
  if (q.state) {
    base = base.where('jobs.state', '=', q.state);
    counted = counted.where('jobs.state', '=', q.state);
  }
  if (q.projectId) {
    base = base.where('jobs.project_id', '=', q.projectId);
    counted = counted.where('jobs.project_id', '=', q.projectId);
  }
  const sortExpr = {
    id: sql`jobs.id`,
    state: sql`jobs.state`,
    createdAt: sql`jobs.created_at`,
    updatedAt: sql`jobs.updated_at`,
    percentage: sql`jobs.percentage`,
    lasName: sql`lower(projects.las_name)`,
    user: sql`users.email`,
    area: sql`projects.area_hectares`,
  }[q.sortBy];
  const direction = q.order === 'ASC' ? sql`ASC NULLS FIRST` : sql`DESC NULLS LAST`;
  const [rows, total] = await Promise.all([
    base
      .orderBy(sql`${sortExpr} ${direction}`)
      .orderBy('jobs.id', q.order === 'ASC' ? 'asc' : 'desc')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    counted.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { count: Number(total.n), rows };
}

export function listProjectJobs(db: Db, projectId: string): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

/**
 * Fails the processing requests of a project still waiting for their point
 * cloud (its metadata or tiling job failed): they can never start.
 */
export async function failWaitingProcessing(db: Db, projectId: string, reason: string): Promise<number> {
  const r = await db
    .updateTable('jobs')
    .set({
      state: 'FAILURE',
      step: 'error',
      error_code: 'PROJECT_NOT_READY',
      error_message: reason,
      finished_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('project_id', '=', projectId)
    .where('kind', '=', 'PROCESSING')
    .where('state', '=', 'PENDING')
    .where('queued_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
