import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../types.js';

type Db = Kysely<Database>;

/** A date range [from, to) cut into days or months (UTC). */
export interface StatsRange {
  from: Date;
  to: Date;
  interval: 'day' | 'month';
}

/**
 * Every period of the range as `YYYY-MM-DD` (its first day), so that a series
 * has a point for each period, zero when nothing happened.
 */
function periods(r: StatsRange): RawBuilder<unknown> {
  const step = r.interval === 'day' ? sql`interval '1 day'` : sql`interval '1 month'`;
  const unit = sql.lit(r.interval);
  return sql`SELECT to_char(p, 'YYYY-MM-DD') AS period FROM generate_series(
      date_trunc(${unit}, ${r.from}::timestamptz AT TIME ZONE 'UTC'),
      (${r.to}::timestamptz AT TIME ZONE 'UTC') - interval '1 microsecond',
      ${step}
    ) AS p`;
}

function bucket(column: RawBuilder<unknown>, r: StatsRange): RawBuilder<string> {
  return sql<string>`to_char(date_trunc(${sql.lit(r.interval)}, ${column} AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
}

/** Rows created per period, with the running total (rows created before the range included). */
async function growth(
  db: Db,
  table: 'users' | 'projects',
  r: StatsRange,
): Promise<Array<{ period: string; added: number; total: number }>> {
  const t = sql.table(table);
  const { rows } = await sql<{ period: string; added: number; before: number }>`
    WITH ps AS (${periods(r)}),
    counts AS (
      SELECT ${bucket(sql`created_at`, r)} AS period, count(*)::integer AS n
      FROM ${t} WHERE created_at >= ${r.from} AND created_at < ${r.to} GROUP BY 1
    )
    SELECT ps.period, coalesce(counts.n, 0)::integer AS added,
      (SELECT count(*)::integer FROM ${t} WHERE created_at < ${r.from}) AS before
    FROM ps LEFT JOIN counts ON counts.period = ps.period ORDER BY ps.period`.execute(db);
  let total = rows[0]?.before ?? 0;
  return rows.map((row) => {
    total += Number(row.added);
    return { period: row.period, added: Number(row.added), total };
  });
}

export function usersOverTime(db: Db, r: StatsRange) {
  return growth(db, 'users', r);
}

export function projectsOverTime(db: Db, r: StatsRange) {
  return growth(db, 'projects', r);
}

/** Hectares charged for successful processings per period. */
export async function hectaresProcessed(db: Db, r: StatsRange): Promise<Array<{ period: string; hectares: number }>> {
  const { rows } = await sql<{ period: string; hectares: number }>`
    WITH ps AS (${periods(r)}),
    sums AS (
      SELECT ${bucket(sql`created_at`, r)} AS period, sum(hectares) AS hectares
      FROM charges WHERE kind = 'charge' AND created_at >= ${r.from} AND created_at < ${r.to} GROUP BY 1
    )
    SELECT ps.period, coalesce(sums.hectares, 0)::double precision AS hectares
    FROM ps LEFT JOIN sums ON sums.period = ps.period ORDER BY ps.period`.execute(db);
  return rows.map((row) => ({ period: row.period, hectares: Math.round(Number(row.hectares) * 100) / 100 }));
}

/** Processings that ended per period: successes and failures. */
export async function processingOutcomes(
  db: Db,
  r: StatsRange,
): Promise<Array<{ period: string; success: number; failure: number }>> {
  const { rows } = await sql<{ period: string; success: number; failure: number }>`
    WITH ps AS (${periods(r)}),
    ended AS (
      SELECT ${bucket(sql`finished_at`, r)} AS period,
        count(*) FILTER (WHERE state = 'SUCCESS')::integer AS success,
        count(*) FILTER (WHERE state = 'FAILURE')::integer AS failure
      FROM jobs WHERE kind = 'PROCESSING' AND state IN ('SUCCESS', 'FAILURE')
        AND finished_at >= ${r.from} AND finished_at < ${r.to} GROUP BY 1
    )
    SELECT ps.period, coalesce(ended.success, 0)::integer AS success, coalesce(ended.failure, 0)::integer AS failure
    FROM ps LEFT JOIN ended ON ended.period = ps.period ORDER BY ps.period`.execute(db);
  return rows.map((row) => ({ period: row.period, success: Number(row.success), failure: Number(row.failure) }));
}

/** Bytes kept in the store now: in total, per layer type and for the users who keep most. */
export async function storageUsed(db: Db): Promise<{
  totalBytes: number;
  byLayer: Array<{ layer: string; bytes: number }>;
  topUsers: Array<{ userId: string; email: string; bytes: number }>;
}> {
  const byLayer = await sql<{ layer: string; bytes: string }>`
    SELECT l.type AS layer, coalesce(sum(a.stored_bytes), 0)::text AS bytes
    FROM assets a JOIN layers l ON l.id = a.layer_id GROUP BY l.type ORDER BY l.type`.execute(db);
  const top = await sql<{ user_id: string; email: string; bytes: string }>`
    SELECT u.id::text AS user_id, u.email, sum(a.stored_bytes)::text AS bytes
    FROM assets a JOIN projects p ON p.id = a.project_id JOIN users u ON u.id = p.owner_id
    GROUP BY u.id, u.email HAVING sum(a.stored_bytes) > 0 ORDER BY sum(a.stored_bytes) DESC, u.id LIMIT 10`.execute(db);
  const layers = byLayer.rows.map((row) => ({ layer: row.layer, bytes: Number(row.bytes) }));
  return {
    totalBytes: layers.reduce((s, l) => s + l.bytes, 0),
    byLayer: layers,
    topUsers: top.rows.map((row) => ({ userId: row.user_id, email: row.email, bytes: Number(row.bytes) })),
  };
}

/** The subscriptions that apply now, per template and status. */
export async function subscriptionsPerTemplate(db: Db): Promise<
  Array<{
    templateId: string | null;
    name: string;
    category: string;
    active: number;
    suspended: number;
    inactive: number;
    unsubscribed: number;
  }>
> {
  const { rows } = await sql<{
    template_id: string | null;
    name: string;
    category: string;
    active: number;
    suspended: number;
    inactive: number;
    unsubscribed: number;
  }>`
    SELECT s.template_id::text AS template_id, coalesce(t.name, s.name) AS name, coalesce(t.category, s.category) AS category,
      count(*) FILTER (WHERE s.status = 'active')::integer AS active,
      count(*) FILTER (WHERE s.status = 'suspended')::integer AS suspended,
      count(*) FILTER (WHERE s.status = 'inactive')::integer AS inactive,
      count(*) FILTER (WHERE s.status = 'unsubscribed')::integer AS unsubscribed
    FROM subscriptions s LEFT JOIN subscription_templates t ON t.id = s.template_id
    WHERE s.is_current
    GROUP BY s.template_id, coalesce(t.name, s.name), coalesce(t.category, s.category)
    ORDER BY count(*) FILTER (WHERE s.status = 'active') DESC, 2`.execute(db);
  return rows.map((row) => ({
    templateId: row.template_id,
    name: row.name,
    category: row.category,
    active: Number(row.active),
    suspended: Number(row.suspended),
    inactive: Number(row.inactive),
    unsubscribed: Number(row.unsubscribed),
  }));
}

/** Money received per period and currency (minor units), with the number of payments. */
export async function revenue(
  db: Db,
  r: StatsRange,
): Promise<Array<{ period: string; currency: string; amount: number; payments: number }>> {
  const { rows } = await sql<{ period: string; currency: string; amount: string; payments: number }>`
    SELECT ${bucket(sql`paid_at`, r)} AS period, currency, sum(amount)::text AS amount, count(*)::integer AS payments
    FROM payments WHERE paid_at >= ${r.from} AND paid_at < ${r.to}
    GROUP BY 1, currency ORDER BY 1, currency`.execute(db);
  return rows.map((row) => ({
    period: row.period,
    currency: row.currency,
    amount: Number(row.amount),
    payments: Number(row.payments),
  }));
}

/** Counts of the whole platform now. */
export async function totals(db: Db): Promise<{
  users: number;
  projects: number;
  activeSubscriptions: number;
  creditsAvailable: number;
}> {
  const { rows } = await sql<{ users: number; projects: number; active: number; credits: number | null }>`
    SELECT (SELECT count(*)::integer FROM users) AS users,
      (SELECT count(*)::integer FROM projects) AS projects,
      (SELECT count(*)::integer FROM subscriptions WHERE is_current AND status = 'active') AS active,
      (SELECT sum(credits) FROM subscriptions WHERE is_current) AS credits`.execute(db);
  const row = rows[0]!;
  return {
    users: Number(row.users),
    projects: Number(row.projects),
    activeSubscriptions: Number(row.active),
    creditsAvailable: Math.round(Number(row.credits ?? 0) * 100) / 100,
  };
}
