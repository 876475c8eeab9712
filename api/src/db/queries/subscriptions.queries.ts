import { type ExpressionBuilder, type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type {
  Database,
  SubscriptionEventsTable,
  SubscriptionState,
  SubscriptionsTable,
  SubscriptionTemplatesTable,
} from '../types.js';

type Db = Kysely<Database>;

export type SubscriptionRow = Selectable<SubscriptionsTable>;
export type TemplateRow = Selectable<SubscriptionTemplatesTable>;
export type NewSubscription = Insertable<SubscriptionsTable>;
export type SubscriptionPatch = Omit<
  Updateable<SubscriptionsTable>,
  'id' | 'user_id' | 'global_status' | 'created_at' | 'updated_at'
>;
export type NewTemplate = Insertable<SubscriptionTemplatesTable>;
export type TemplatePatch = Omit<Updateable<SubscriptionTemplatesTable>, 'id' | 'created_at' | 'updated_at'>;

/** A subscription with the names the admin screens show next to it. */
export type SubscriptionListRow = SubscriptionRow & {
  user_email: string | null;
  template_name: string | null;
  creator_email: string | null;
};

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

// ---------------------------------------------------------------- subscriptions

export function findSubscription(db: Db, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Locks the row for the rest of the transaction (credits, status changes). */
export function lockSubscription(db: Db, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The subscription that applies to a user now; `lock` takes its row lock. */
export function currentSubscription(db: Db, userId: string, lock = false): Promise<SubscriptionRow | undefined> {
  let q = db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).where('is_current', '=', true);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Whether a user ever had a subscription (current or not). */
export async function hasAnySubscription(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('subscriptions').select('id').where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

/** The user's most recent subscription (by start, then id). */
export function latestSubscription(db: Db, userId: string): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('start_date', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export function findByPaymentSubscription(
  db: Db,
  paymentSubscriptionId: string,
  lock = false,
): Promise<SubscriptionRow | undefined> {
  let q = db.selectFrom('subscriptions').selectAll().where('payment_subscription_id', '=', paymentSubscriptionId);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * Inserts a subscription. A current one (`is_current`, the default) is only
 * inserted when the user has no current subscription yet: undefined otherwise.
 */
export async function insertSubscription(db: Db, values: NewSubscription): Promise<SubscriptionRow | undefined> {
  const current = values.is_current ?? true;
  let q = db.insertInto('subscriptions').values(values);
  if (current) {
    q = q.onConflict((oc) => oc.column('user_id').where('is_current', '=', true).doNothing());
  }
  return q.returningAll().executeTakeFirst();
}

export async function updateSubscription(
  db: Db,
  id: string,
  patch: SubscriptionPatch,
): Promise<SubscriptionRow | undefined> {
  return db
    .updateTable('subscriptions')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Adds `delta` hectares to a subscription's credits, only when the result is
 * not negative (the row is locked meanwhile): the new balance, or null when
 * there are not enough credits. This conditional update is what makes
 * reservations atomic: two requests can never both take the last hectares.
 */
export async function addCredits(db: Db, id: string, delta: number): Promise<number | null> {
  const row = await db
    .updateTable('subscriptions')
    .set({ credits: sql<number>`greatest(credits + ${delta}::double precision, 0)`, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where(sql<boolean>`credits + ${delta}::double precision >= -1e-9`)
    .returning('credits')
    .executeTakeFirst();
  return row === undefined ? null : Number(row.credits);
}

/** Columns the admin subscriptions table sorts by (API names). */
export const SUBSCRIPTION_SORT_COLUMNS = [
  'id',
  'name',
  'user',
  'template',
  'status',
  'globalStatus',
  'category',
  'credits',
  'startDate',
  'endDate',
  'validUntil',
  'nextAllocationDate',
  'createdAt',
] as const;
export type SubscriptionSortColumn = (typeof SUBSCRIPTION_SORT_COLUMNS)[number];

export interface SubscriptionListQuery {
  limit: number;
  offset: number;
  sortBy: SubscriptionSortColumn;
  order: 'ASC' | 'DESC';
  search?: string | undefined;
  status?: SubscriptionState | undefined;
  userId?: string | undefined;
  templateId?: string | undefined;
  /** Only the subscriptions that apply now (one per user). */
  currentOnly?: boolean | undefined;
}

function listBase(db: Db) {
  return db
    .selectFrom('subscriptions')
    .leftJoin('users as u', 'u.id', 'subscriptions.user_id')
    .leftJoin('users as c', 'c.id', 'subscriptions.creator_id')
    .leftJoin('subscription_templates as t', 't.id', 'subscriptions.template_id');
}

/** One page of subscriptions (admin "subscribed" tab), with the total count. */
export async function listSubscriptions(
  db: Db,
  q: SubscriptionListQuery,
): Promise<{ count: number; rows: SubscriptionListRow[] }> {
  const pattern = q.search ? `%${escapeLike(q.search.trim())}%` : null;
  const filter = (
    eb: ExpressionBuilder<
      Database & { u: Database['users']; c: Database['users']; t: Database['subscription_templates'] },
      'subscriptions' | 'u' | 'c' | 't'
    >,
  ) => {
    const parts = [];
    if (pattern) {
      parts.push(
        eb.or([
          eb('subscriptions.name', 'ilike', pattern),
          eb('u.email', 'ilike', pattern),
          eb('t.name', 'ilike', pattern),
          eb('subscriptions.payment_subscription_id', 'ilike', pattern),
        ]),
      );
    }
    if (q.status) parts.push(eb('subscriptions.status', '=', q.status));
    if (q.userId) parts.push(eb('subscriptions.user_id', '=', q.userId));
    if (q.templateId) parts.push(eb('subscriptions.template_id', '=', q.templateId));
    if (q.currentOnly) parts.push(eb('subscriptions.is_current', '=', true));
    return parts.length > 0 ? eb.and(parts) : eb.lit(true);
  };
  const sortExpr = {
    id: sql`subscriptions.id`,
    name: sql`lower(subscriptions.name)`,
    user: sql`u.email`,
    template: sql`lower(t.name)`,
    status: sql`subscriptions.status`,
    globalStatus: sql`subscriptions.global_status`,
    category: sql`subscriptions.category`,
    credits: sql`subscriptions.credits`,
    startDate: sql`subscriptions.start_date`,
    endDate: sql`subscriptions.end_date`,
    validUntil: sql`subscriptions.valid_until`,
    nextAllocationDate: sql`subscriptions.next_allocation_date`,
    createdAt: sql`subscriptions.created_at`,
  }[q.sortBy];
  const direction = q.order === 'ASC' ? sql`ASC NULLS FIRST` : sql`DESC NULLS LAST`;
  const rows = await listBase(db)
    .selectAll('subscriptions')
    .select(['u.email as user_email', 't.name as template_name', 'c.email as creator_email'])
    .where(filter)
    .orderBy(sql`${sortExpr} ${direction}`)
    .orderBy('subscriptions.id', q.order === 'ASC' ? 'asc' : 'desc')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  const total = await listBase(db)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(filter)
    .executeTakeFirstOrThrow();
  return { count: Number(total.n), rows: rows as SubscriptionListRow[] };
}

/** One subscription with the names shown next to it. */
export async function findSubscriptionWithNames(db: Db, id: string): Promise<SubscriptionListRow | undefined> {
  const row = await listBase(db)
    .selectAll('subscriptions')
    .select(['u.email as user_email', 't.name as template_name', 'c.email as creator_email'])
    .where('subscriptions.id', '=', id)
    .executeTakeFirst();
  return row as SubscriptionListRow | undefined;
}

/** Subscriptions the scheduled billing job has something to do with, now. */
export async function dueSubscriptions(
  db: Db,
  now: Date,
): Promise<{ allocations: string[]; endings: string[]; graceOver: string[] }> {
  const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);
  const allocations = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('is_current', '=', true)
    .where('status', '=', 'active')
    .where('allocation_period', '!=', 'NONE')
    .where('payment_subscription_id', 'is', null)
    .where('next_allocation_date', '<=', now)
    .orderBy('id')
    .limit(1000)
    .execute();
  const endings = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('status', '!=', 'unsubscribed')
    .where((eb) =>
      eb.or([eb.and([eb('unsubscribe_pending', '=', true), eb('valid_until', '<=', now)]), eb('end_date', '<=', now)]),
    )
    .orderBy('id')
    .limit(1000)
    .execute();
  const graceOver = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('status', '=', 'active')
    .where('grace_until', '<=', now)
    .orderBy('id')
    .limit(1000)
    .execute();
  return { allocations: ids(allocations), endings: ids(endings), graceOver: ids(graceOver) };
}

/** Users who never had a subscription (a 0004 standing, or an account made outside sign-up). */
export async function usersWithoutSubscription(db: Db, limit: number, afterId = '0'): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('users.id')
    .where('users.id', '>', afterId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('subscriptions').select('subscriptions.id').whereRef('subscriptions.user_id', '=', 'users.id'),
        ),
      ),
    )
    .orderBy('users.id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------- templates

export function findTemplate(db: Db, id: string): Promise<TemplateRow | undefined> {
  return db.selectFrom('subscription_templates').selectAll().where('id', '=', id).executeTakeFirst();
}

export function defaultTemplate(db: Db): Promise<TemplateRow | undefined> {
  return db.selectFrom('subscription_templates').selectAll().where('is_default', '=', true).executeTakeFirst();
}

/** Inserts a template; a second default one is not inserted (undefined). */
export async function insertTemplate(db: Db, values: NewTemplate): Promise<TemplateRow | undefined> {
  let q = db.insertInto('subscription_templates').values(values);
  if (values.is_default) q = q.onConflict((oc) => oc.column('is_default').where('is_default', '=', true).doNothing());
  return q.returningAll().executeTakeFirst();
}

export async function updateTemplate(db: Db, id: string, patch: TemplatePatch): Promise<TemplateRow | undefined> {
  return db
    .updateTable('subscription_templates')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** A template with how many subscriptions made from it are active now. */
export type TemplateListRow = TemplateRow & { active_subscriptions: number; subscriptions: number };

export const TEMPLATE_SORT_COLUMNS = [
  'id',
  'name',
  'category',
  'enabled',
  'credits',
  'creditsAllowance',
  'price',
  'activeSubscriptions',
  'createdAt',
] as const;
export type TemplateSortColumn = (typeof TEMPLATE_SORT_COLUMNS)[number];

export interface TemplateListQuery {
  limit: number;
  offset: number;
  sortBy: TemplateSortColumn;
  order: 'ASC' | 'DESC';
  search?: string | undefined;
  enabled?: boolean | undefined;
  category?: 'PAID' | 'FREEMIUM' | undefined;
}

function templateCounts(db: Db) {
  return db.selectFrom('subscription_templates').leftJoin(
    db
      .selectFrom('subscriptions')
      .select([
        'template_id',
        sql<number>`count(*) FILTER (WHERE status = 'active' AND is_current)::integer`.as('active'),
        sql<number>`count(*)::integer`.as('total'),
      ])
      .groupBy('template_id')
      .as('s'),
    's.template_id',
    'subscription_templates.id',
  );
}

export async function listTemplates(db: Db, q: TemplateListQuery): Promise<{ count: number; rows: TemplateListRow[] }> {
  const pattern = q.search ? `%${escapeLike(q.search.trim())}%` : null;
  const filter = (eb: ExpressionBuilder<Database, 'subscription_templates'>) => {
    const parts = [];
    if (pattern) {
      parts.push(
        eb.or([
          eb('subscription_templates.name', 'ilike', pattern),
          eb('subscription_templates.description', 'ilike', pattern),
          eb('subscription_templates.payment_product_reference', 'ilike', pattern),
        ]),
      );
    }
    if (q.enabled !== undefined) parts.push(eb('subscription_templates.enabled', '=', q.enabled));
    if (q.category) parts.push(eb('subscription_templates.category', '=', q.category));
    return parts.length > 0 ? eb.and(parts) : eb.lit(true);
  };
  const sortExpr = {
    id: sql`subscription_templates.id`,
    name: sql`lower(subscription_templates.name)`,
    category: sql`subscription_templates.category`,
    enabled: sql`subscription_templates.enabled`,
    credits: sql`subscription_templates.credits`,
    creditsAllowance: sql`subscription_templates.credits_allowance`,
    price: sql`subscription_templates.price_amount`,
    activeSubscriptions: sql`coalesce(s.active, 0)`,
    createdAt: sql`subscription_templates.created_at`,
  }[q.sortBy];
  const direction = q.order === 'ASC' ? sql`ASC NULLS FIRST` : sql`DESC NULLS LAST`;
  const rows = await templateCounts(db)
    .selectAll('subscription_templates')
    .select([
      sql<number>`coalesce(s.active, 0)`.as('active_subscriptions'),
      sql<number>`coalesce(s.total, 0)`.as('subscriptions'),
    ])
    .where((eb) => filter(eb as unknown as ExpressionBuilder<Database, 'subscription_templates'>))
    .orderBy(sql`${sortExpr} ${direction}`)
    .orderBy('subscription_templates.id', q.order === 'ASC' ? 'asc' : 'desc')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  const total = await db
    .selectFrom('subscription_templates')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where(filter)
    .executeTakeFirstOrThrow();
  return {
    count: Number(total.n),
    rows: rows.map((r) => ({
      ...(r as TemplateRow),
      active_subscriptions: Number(r.active_subscriptions),
      subscriptions: Number(r.subscriptions),
    })),
  };
}

/** Counts of subscriptions made from one template (active now, all). */
export async function templateSubscriptionCounts(db: Db, id: string): Promise<{ active: number; total: number }> {
  const row = await db
    .selectFrom('subscriptions')
    .select([
      sql<number>`count(*) FILTER (WHERE status = 'active' AND is_current)::integer`.as('active'),
      sql<number>`count(*)::integer`.as('total'),
    ])
    .where('template_id', '=', id)
    .executeTakeFirstOrThrow();
  return { active: Number(row.active), total: Number(row.total) };
}

// ---------------------------------------------------------------- audit trail

export async function insertEvent(
  db: Db,
  e: {
    subscriptionId?: string | null;
    templateId?: string | null;
    actorId: string | null;
    action: string;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  const values: Insertable<SubscriptionEventsTable> = {
    subscription_id: e.subscriptionId ?? null,
    template_id: e.templateId ?? null,
    actor_id: e.actorId,
    action: e.action,
    details: JSON.stringify(e.details ?? {}),
  };
  await db.insertInto('subscription_events').values(values).execute();
}

export type EventRow = Selectable<SubscriptionEventsTable> & { actor_email: string | null };

export async function listEvents(
  db: Db,
  where: { subscriptionId?: string; templateId?: string },
  limit = 200,
): Promise<EventRow[]> {
  let q = db
    .selectFrom('subscription_events')
    .leftJoin('users', 'users.id', 'subscription_events.actor_id')
    .selectAll('subscription_events')
    .select('users.email as actor_email');
  if (where.subscriptionId) q = q.where('subscription_events.subscription_id', '=', where.subscriptionId);
  if (where.templateId) q = q.where('subscription_events.template_id', '=', where.templateId);
  return (await q.orderBy('subscription_events.id', 'desc').limit(limit).execute()) as EventRow[];
}
