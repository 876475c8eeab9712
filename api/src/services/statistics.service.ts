import type { AppDeps } from '../context.js';
import {
  hectaresProcessed,
  processingOutcomes,
  projectsOverTime,
  revenue,
  type StatsRange,
  storageUsed,
  subscriptionsPerTemplate,
  totals,
  usersOverTime,
} from '../db/queries/statistics.queries.js';
import { AppError } from '../errors.js';

/** Most periods one request may ask for (a series point each). */
const MAX_PERIODS = 400;

/**
 * The range of a statistics request: `from` and `to` are days (YYYY-MM-DD,
 * UTC, both included); by default the last 12 months by month. 400
 * FORM_INVALID for a range backwards or of more than 400 periods.
 */
export function statsRange(
  q: { from?: string | undefined; to?: string | undefined; interval?: 'day' | 'month' | undefined },
  now = new Date(),
): StatsRange {
  const interval = q.interval ?? 'month';
  const day = (s: string) => new Date(`${s}T00:00:00.000Z`);
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const toDay = q.to ? day(q.to) : today;
  const to = new Date(toDay.getTime() + 86_400_000);
  const from = q.from
    ? day(q.from)
    : interval === 'month'
      ? new Date(Date.UTC(toDay.getUTCFullYear(), toDay.getUTCMonth() - 11, 1))
      : new Date(to.getTime() - 30 * 86_400_000);
  const invalid = (message: string) =>
    new AppError(400, 'FORM_INVALID', message, {
      fields: [{ field: 'from', code: 'FORM_INVALID', issue: 'custom', message }],
    });
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw invalid('from and to are dates (YYYY-MM-DD)');
  if (from >= to) throw invalid('from must come before to');
  const days = (to.getTime() - from.getTime()) / 86_400_000;
  const count = interval === 'day' ? days : days / 28;
  if (count > MAX_PERIODS + 1) throw invalid(`at most ${MAX_PERIODS} ${interval}s at once`);
  return { from, to, interval };
}

/** Everything the admin statistics screens draw (spec §2 statistics: overview, subscriptions). */
export async function statistics(deps: AppDeps, range: StatsRange) {
  const db = deps.database.db;
  // One query after the other: the embedded database serves one statement at a time.
  const users = await usersOverTime(db, range);
  const projects = await projectsOverTime(db, range);
  const hectares = await hectaresProcessed(db, range);
  const processing = await processingOutcomes(db, range);
  const storage = await storageUsed(db);
  const perTemplate = await subscriptionsPerTemplate(db);
  const money = await revenue(db, range);
  const now = await totals(db);
  return {
    from: range.from.toISOString().slice(0, 10),
    to: new Date(range.to.getTime() - 86_400_000).toISOString().slice(0, 10),
    interval: range.interval,
    totals: now,
    users,
    projects,
    hectaresProcessed: hectares,
    processing,
    storage,
    subscriptionsPerTemplate: perTemplate,
    revenue: money,
  };
}
