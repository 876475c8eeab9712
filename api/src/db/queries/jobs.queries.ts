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
  CLASSIFICATION_EDIT: 'classification-edit',
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

/**
 * Where a job stands in the queue, from graphile-worker's own rows (their
 * order: priority, run_at, id) and our jobs table: what a waiting message can
 * say truthfully instead of a fixed delay.
 */
export interface QueueStateRow {
  job_id: string;
  /** Queued jobs of our three tasks that graphile-worker takes before this one; null when not queued. */
  ahead: number | null;
  /** Jobs running now (state PROGRESS), everyone's. */
  running: number;
  /** Worker processes that beat in the last minute. */
  workers: number;
  queued_at: Date | string | null;
  started_at: Date | string | null;
  /** When graphile-worker will take it (after now: a retry waiting for its back-off). */
  run_at: Date | string | null;
  attempts: number | null;
  max_attempts: number | null;
}

/** The queue state of each job in `jobIds` (missing ids are left out). */
export async function queueStates(db: Db, jobIds: readonly string[]): Promise<QueueStateRow[]> {
  if (jobIds.length === 0) return [];
  const tasks = Object.values(TASK_OF_KIND);
  const ids = jobIds.map((id) => BigInt(id).toString());
  if (!(await queueInstalled(db))) {
    // No queue yet (no job was ever queued in this database): nothing waits in it.
    const plain = await sql<QueueStateRow>`
      SELECT j.id::text AS job_id, j.queued_at, j.started_at, NULL AS run_at, NULL AS attempts, NULL AS max_attempts,
        NULL AS ahead,
        (SELECT count(*) FROM jobs r WHERE r.state = 'PROGRESS')::int AS running,
        (SELECT count(*) FROM worker_heartbeats h WHERE h.beat_at > now() - interval '1 minute')::int AS workers
      FROM jobs j WHERE j.id = ANY(${ids}::bigint[])`.execute(db);
    return plain.rows;
  }
  const r = await sql<QueueStateRow>`
    WITH waiting AS (
      SELECT g.id, g.key, g.priority, g.run_at, g.attempts, g.max_attempts, g.locked_at
      FROM graphile_worker.jobs g
      WHERE g.task_identifier = ANY(${tasks}::text[]) AND g.attempts < g.max_attempts
    ),
    mine AS (
      SELECT j.id AS job_id, j.queued_at, j.started_at, w.id AS gid, w.priority, w.run_at,
             w.attempts, w.max_attempts, w.locked_at
      FROM jobs j LEFT JOIN waiting w ON w.key = 'job-' || j.id::text
      WHERE j.id = ANY(${ids}::bigint[])
    )
    SELECT m.job_id::text AS job_id, m.queued_at, m.started_at, m.run_at, m.attempts, m.max_attempts,
      CASE WHEN m.gid IS NULL OR m.locked_at IS NOT NULL THEN NULL ELSE (
        SELECT count(*) FROM waiting o
        WHERE o.locked_at IS NULL AND (o.priority, o.run_at, o.id) < (m.priority, m.run_at, m.gid)
      )::int END AS ahead,
      (SELECT count(*) FROM jobs r WHERE r.state = 'PROGRESS')::int AS running,
      (SELECT count(*) FROM worker_heartbeats h WHERE h.beat_at > now() - interval '1 minute')::int AS workers
    FROM mine m`.execute(db);
  return r.rows;
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
  'project',
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
    search?: string | undefined;
  },
): Promise<{ count: number; rows: JobListRow[] }> {
  let base = jobsWithContext(db).where('jobs.kind', '=', q.kind);
  let counted = db
    .selectFrom('jobs')
    .innerJoin('projects', 'projects.id', 'jobs.project_id')
    .leftJoin('users', 'users.id', 'jobs.user_id')
    .leftJoin('assets', 'assets.id', 'jobs.asset_id')
    .where('jobs.kind', '=', q.kind);
  const text = q.search?.trim();
  if (text) {
    // Project, LAS and original file names, the user's email, or the job id as typed.
    const pattern = `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const filter = sql<boolean>`(projects.name ILIKE ${pattern} OR projects.las_name ILIKE ${pattern}
      OR assets.original_filename ILIKE ${pattern} OR users.email ILIKE ${pattern} OR jobs.id::text = ${text})`;
    base = base.where(filter);
    counted = counted.where(filter);
  }
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
    project: sql`lower(projects.name)`,
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

/** The latest job of each kind of each project in `projectIds` (a page of the projects table). */
export async function latestJobsOfProjects(db: Db, projectIds: readonly string[]): Promise<JobRow[]> {
  if (projectIds.length === 0) return [];
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('jobs as j')
        .select((e) => e.fn.max('j.id').as('id'))
        .where('j.project_id', 'in', [...projectIds])
        .groupBy(['j.project_id', 'j.kind']),
    )
    .orderBy('id')
    .execute();
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
