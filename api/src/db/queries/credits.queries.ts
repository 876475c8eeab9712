import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { ChargesTable, Database, LedgerKind } from '../types.js';

type Db = Kysely<Database>;

/** One row of the credits ledger. */
export type LedgerRow = Selectable<ChargesTable>;

export interface LedgerEntry {
  key: string;
  kind: LedgerKind;
  userId: string | null;
  subscriptionId: string | null;
  hectares: number;
  delta: number;
  projectId?: string | null;
  jobId?: string | null;
  reservationId?: string | null;
  actorId?: string | null;
  note?: string | null;
}

/**
 * Appends a ledger row under its unique key: the row, or undefined when a row
 * with this key (or settling the same reservation) exists already, so that a
 * retried job, a replayed webhook or a second request never applies twice.
 */
export async function insertLedgerRow(db: Db, e: LedgerEntry): Promise<LedgerRow | undefined> {
  const values: Insertable<ChargesTable> = {
    charge_key: e.key,
    kind: e.kind,
    user_id: e.userId,
    subscription_id: e.subscriptionId,
    hectares: Math.abs(e.hectares),
    delta: e.delta,
    project_id: e.projectId ?? null,
    job_id: e.jobId ?? null,
    reservation_id: e.reservationId ?? null,
    actor_id: e.actorId ?? null,
    note: e.note ?? null,
  };
  return db
    .insertInto('charges')
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findLedgerRow(db: Db, key: string): Promise<LedgerRow | undefined> {
  return db.selectFrom('charges').selectAll().where('charge_key', '=', key).executeTakeFirst();
}

/** The reservation of a job that no release or charge has settled yet (the latest one). */
export function openReservationOfJob(db: Db, jobId: string): Promise<LedgerRow | undefined> {
  return db
    .selectFrom('charges as r')
    .selectAll('r')
    .where('r.kind', '=', 'reservation')
    .where('r.job_id', '=', jobId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('charges as s').select('s.id').whereRef('s.reservation_id', '=', 'r.id'))),
    )
    .orderBy('r.id', 'desc')
    .executeTakeFirst();
}

/** How many reservations a job has had (each admin retry reserves again). */
export async function reservationCount(db: Db, jobId: string): Promise<number> {
  const row = await db
    .selectFrom('charges')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('kind', '=', 'reservation')
    .where('job_id', '=', jobId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Reservations left open although their job is gone (its project was deleted)
 * or finished: the scheduled job settles them. Only those older than
 * `olderThan`, so that a job finishing right now is not raced.
 */
export async function strandedReservations(
  db: Db,
  olderThan: Date,
): Promise<Array<LedgerRow & { job_state: string | null }>> {
  const rows = await db
    .selectFrom('charges as r')
    .leftJoin('jobs', 'jobs.id', 'r.job_id')
    .selectAll('r')
    .select('jobs.state as job_state')
    .where('r.kind', '=', 'reservation')
    .where('r.created_at', '<', olderThan)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('charges as s').select('s.id').whereRef('s.reservation_id', '=', 'r.id'))),
    )
    .where((eb) => eb.or([eb('jobs.id', 'is', null), eb('jobs.state', 'in', ['SUCCESS', 'FAILURE', 'NONE'])]))
    .orderBy('r.id')
    .limit(1000)
    .execute();
  return rows as Array<LedgerRow & { job_state: string | null }>;
}

/** Ledger rows with the project name and the actor's email, for the history screens. */
export type LedgerListRow = LedgerRow & { project_name: string | null; actor_email: string | null };

export async function listLedger(
  db: Db,
  where: { subscriptionId?: string; userId?: string },
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: LedgerListRow[] }> {
  const base = () => {
    let q = db
      .selectFrom('charges')
      .leftJoin('projects', 'projects.id', 'charges.project_id')
      .leftJoin('users', 'users.id', 'charges.actor_id');
    if (where.subscriptionId) q = q.where('charges.subscription_id', '=', where.subscriptionId);
    if (where.userId) q = q.where('charges.user_id', '=', where.userId);
    return q;
  };
  const rows = await base()
    .selectAll('charges')
    .select(['projects.name as project_name', 'users.email as actor_email'])
    .orderBy('charges.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await base()
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return { count: Number(total.n), rows: rows as LedgerListRow[] };
}

/** Sum of the deltas of a subscription's ledger (equals its credits: the ledger's invariant). */
export async function ledgerBalance(db: Db, subscriptionId: string): Promise<number> {
  const row = await db
    .selectFrom('charges')
    .select(sql<number | null>`sum(delta)`.as('total'))
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
  return Number(row.total ?? 0);
}

/** Hectares charged to a user, and the legacy (0004) credits granted to them. */
export async function legacyStanding(
  db: Db,
  userId: string,
): Promise<{
  hasRow: boolean;
  status: string | null;
  creditHectares: number | null;
  chargedHectares: number;
  limits: { maxProjects: number | null; maxInputFileBytes: string | null; maxStorageBytes: string | null };
}> {
  const row = await db.selectFrom('user_limits').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const charged = await db
    .selectFrom('charges')
    .select(sql<number | null>`sum(hectares)`.as('total'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'charge')
    .executeTakeFirstOrThrow();
  const str = (v: string | number | null | undefined) => (v === null || v === undefined ? null : String(v));
  return {
    hasRow: row !== undefined,
    status: row?.subscription_status ?? null,
    creditHectares:
      row?.credit_hectares === null || row?.credit_hectares === undefined ? null : Number(row.credit_hectares),
    chargedHectares: Number(charged.total ?? 0),
    limits: {
      maxProjects: row?.max_projects ?? null,
      maxInputFileBytes: str(row?.max_input_file_bytes),
      maxStorageBytes: str(row?.max_storage_bytes),
    },
  };
}
