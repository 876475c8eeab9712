import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../context.js';
import { storedBytesOfOwner } from '../db/queries/assets.queries.js';
import { type LedgerListRow, listLedger } from '../db/queries/credits.queries.js';
import { countOwnedProjects } from '../db/queries/projects.queries.js';
import {
  currentSubscription,
  type EventRow,
  findSubscriptionWithNames,
  findTemplate,
  insertEvent,
  insertSubscription,
  insertTemplate,
  latestSubscription,
  listEvents,
  listSubscriptions,
  listTemplates,
  lockSubscription,
  type SubscriptionListQuery,
  type SubscriptionPatch,
  type SubscriptionRow,
  type TemplateListQuery,
  type TemplatePatch,
  type TemplateRow,
  templateSubscriptionCounts,
  updateSubscription,
  updateTemplate,
} from '../db/queries/subscriptions.queries.js';
import type { AllocationPeriod, Database, LedgerKind } from '../db/types.js';
import { AppError } from '../errors.js';
import { cancelProviderSubscription } from './billing.service.js';
import { creditSubscription, debitSubscription, inTransaction } from './credits.service.js';
import {
  anniversaryOf,
  ensureSubscription,
  makeCurrent,
  nextAllocationAfter,
  type SubscriptionDto,
  subscriptionDto,
  subscriptionFromTemplate,
  type TemplateDto,
  templateDto,
} from './subscription.service.js';

type Db = Kysely<Database>;

/** Who does an admin or user action (recorded in the audit trail); null: the system. */
export type Actor = { id: string } | null;

const notFound = () => new AppError(404, 'SUBSCRIPTION_NOT_FOUND', 'no such subscription');
const templateNotFound = () => new AppError(404, 'TEMPLATE_NOT_FOUND', 'no such subscription template');
const isId = (id: string) => /^\d{1,18}$/.test(id);

function wrongState(sub: SubscriptionRow, action: string): AppError {
  return new AppError(409, 'SUBSCRIPTION_STATE_CONFLICT', `a subscription that is ${sub.status} cannot be ${action}`, {
    status: sub.status,
  });
}

async function lockOr404(trx: Db, id: string): Promise<SubscriptionRow> {
  const sub = isId(id) ? await lockSubscription(trx, id) : undefined;
  if (!sub) throw notFound();
  return sub;
}

// ---------------------------------------------------------------- reading

/** One subscription with its names, as a DTO; 404 SUBSCRIPTION_NOT_FOUND. */
export async function getSubscription(deps: AppDeps, id: string): Promise<SubscriptionDto> {
  const row = isId(id) ? await findSubscriptionWithNames(deps.database.db, id) : undefined;
  if (!row) throw notFound();
  return subscriptionDto(deps, row);
}

/** A change of the audit trail, as the API shows it. */
export interface SubscriptionEventDto {
  id: string;
  action: string;
  actor: { id: string; email: string | null } | null;
  details: Record<string, unknown>;
  createdAt: string;
}

function eventDto(e: EventRow): SubscriptionEventDto {
  return {
    id: e.id,
    action: e.action,
    actor: e.actor_id ? { id: e.actor_id, email: e.actor_email } : null,
    details: (e.details ?? {}) as Record<string, unknown>,
    createdAt: new Date(e.created_at).toISOString(),
  };
}

/** Who did what to a subscription or a template, newest first. */
export async function getEvents(
  deps: AppDeps,
  where: { subscriptionId?: string; templateId?: string },
): Promise<SubscriptionEventDto[]> {
  return (await listEvents(deps.database.db, where)).map(eventDto);
}

/** One row of the credits history. */
export interface LedgerEntryDto {
  id: string;
  kind: LedgerKind;
  hectares: number;
  delta: number;
  subscriptionId: string | null;
  project: { id: string; name: string | null } | null;
  jobId: string | null;
  actor: { id: string; email: string | null } | null;
  note: string | null;
  createdAt: string;
}

function ledgerDto(r: LedgerListRow): LedgerEntryDto {
  return {
    id: r.id,
    kind: r.kind,
    hectares: r.hectares,
    delta: r.delta,
    subscriptionId: r.subscription_id,
    project: r.project_id ? { id: r.project_id, name: r.project_name } : null,
    jobId: r.job_id,
    actor: r.actor_id ? { id: r.actor_id, email: r.actor_email } : null,
    note: r.note,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** A page of the credits ledger of a subscription or a user, newest first. */
export async function getLedger(
  deps: AppDeps,
  where: { subscriptionId?: string; userId?: string },
  page: { limit: number; offset: number },
): Promise<{ count: number; results: LedgerEntryDto[] }> {
  const { count, rows } = await listLedger(deps.database.db, where, page);
  return { count, results: rows.map(ledgerDto) };
}

/** The admin "subscribed" table. */
export async function listSubscriptionsPage(
  deps: AppDeps,
  q: SubscriptionListQuery,
): Promise<{ count: number; results: SubscriptionDto[] }> {
  const { count, rows } = await listSubscriptions(deps.database.db, q);
  return { count, results: rows.map((r) => subscriptionDto(deps, r)) };
}

/** What the account page shows: the current subscription, what it allows and what is used of it. */
export interface CurrentSubscriptionDto {
  subscription: SubscriptionDto;
  usage: { projects: number; storageBytes: number };
}

/** The user's current subscription (spec §7 GET /subscriptions/current); 404 NO_SUBSCRIPTION without one. */
export async function currentOf(deps: AppDeps, userId: string): Promise<CurrentSubscriptionDto> {
  const sub = await ensureSubscription(deps, userId);
  if (!sub) throw new AppError(404, 'NO_SUBSCRIPTION', 'no subscription found: contact support');
  const row = await findSubscriptionWithNames(deps.database.db, sub.id);
  const projects = await countOwnedProjects(deps.database.db, userId);
  const storageBytes = await storedBytesOfOwner(deps.database.db, userId);
  return { subscription: subscriptionDto(deps, row!), usage: { projects, storageBytes } };
}

// ---------------------------------------------------------------- admin actions

/**
 * Admin: subscribes a user to a template. `activate` (default): it becomes
 * the user's current subscription at once (the previous one hands its credits
 * over); otherwise it waits, inactive, for an activation (current only when
 * the user has none).
 */
export async function subscribeUser(
  deps: AppDeps,
  actor: Actor,
  r: { userId: string; templateId: string; activate?: boolean | undefined },
): Promise<SubscriptionDto> {
  const activate = r.activate ?? true;
  const id = await deps.database.db.transaction().execute(async (trx) => {
    const user = isId(r.userId)
      ? await trx.selectFrom('users').select('id').where('id', '=', r.userId).executeTakeFirst()
      : undefined;
    if (!user) throw new AppError(404, 'NO_ACCOUNT', `no account with id ${r.userId}`);
    const template = isId(r.templateId) ? await findTemplate(trx, r.templateId) : undefined;
    if (!template) throw templateNotFound();
    const hasCurrent = (await currentSubscription(trx, r.userId)) !== undefined;
    const row = await insertSubscription(trx, {
      ...subscriptionFromTemplate(template, {
        userId: r.userId,
        creatorId: actor?.id ?? null,
        status: activate ? 'active' : 'inactive',
        now: new Date(),
      }),
      is_current: false,
    });
    if (!row) throw new Error('subscription not inserted');
    await creditSubscription(trx, row, {
      key: `initial:${row.id}`,
      kind: 'allocation',
      hectares: template.credits,
      actorId: actor?.id ?? null,
      note: 'credits of the template',
    });
    await insertEvent(trx, {
      subscriptionId: row.id,
      actorId: actor?.id ?? null,
      action: 'created',
      details: { templateId: template.id, activate },
    });
    if (activate || !hasCurrent) await makeCurrent(trx, (await lockSubscription(trx, row.id))!, actor?.id ?? null);
    return row.id;
  });
  return getSubscription(deps, id);
}

/** What an admin may change of a subscription (null limits: the configured default). */
export interface SubscriptionEdit {
  name?: string | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
  endDate?: string | null | undefined;
  validUntil?: string | null | undefined;
  category?: 'PAID' | 'FREEMIUM' | undefined;
  creditsAllowance?: number | undefined;
  allocationPeriod?: AllocationPeriod | undefined;
  nextAllocationDate?: string | null | undefined;
  premium?: boolean | undefined;
  paymentProductId?: string | null | undefined;
  paymentProductReference?: string | null | undefined;
  maxProjects?: number | null | undefined;
  maxInputFileBytes?: number | null | undefined;
  maxStorageBytes?: number | null | undefined;
}

const COLUMN_OF: Record<keyof SubscriptionEdit, keyof SubscriptionPatch> = {
  name: 'name',
  description: 'description',
  enabled: 'enabled',
  endDate: 'end_date',
  validUntil: 'valid_until',
  category: 'category',
  creditsAllowance: 'credits_allowance',
  allocationPeriod: 'allocation_period',
  nextAllocationDate: 'next_allocation_date',
  premium: 'premium',
  paymentProductId: 'payment_product_id',
  paymentProductReference: 'payment_product_reference',
  maxProjects: 'max_projects',
  maxInputFileBytes: 'max_input_file_bytes',
  maxStorageBytes: 'max_storage_bytes',
};

/** Admin: edits a subscription (audited with the fields before and after). */
export async function editSubscription(
  deps: AppDeps,
  actor: Actor,
  id: string,
  edit: SubscriptionEdit,
): Promise<SubscriptionDto> {
  await deps.database.db.transaction().execute(async (trx) => {
    const sub = await lockOr404(trx, id);
    const patch: Record<string, unknown> = {};
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(edit) as Array<[keyof SubscriptionEdit, unknown]>) {
      if (v === undefined) continue;
      const column = COLUMN_OF[k];
      patch[column] = v;
      before[k] = (sub as unknown as Record<string, unknown>)[column];
      after[k] = v;
    }
    // A new period with no next date: the next one after now, counted from the start.
    if (edit.allocationPeriod !== undefined && edit.nextAllocationDate === undefined) {
      patch.next_allocation_date = nextAllocationAfter(new Date(sub.start_date), edit.allocationPeriod, new Date());
    }
    if (Object.keys(patch).length === 0) return;
    await updateSubscription(trx, sub.id, patch as SubscriptionPatch);
    const action =
      edit.enabled === false ? 'deactivated' : edit.enabled === true && !sub.enabled ? 'reactivated' : 'edited';
    await insertEvent(trx, { subscriptionId: sub.id, actorId: actor?.id ?? null, action, details: { before, after } });
  });
  return getSubscription(deps, id);
}

/**
 * Admin: adds credits by hand (positive hectares: a grant) or takes some off
 * (negative: an adjustment, 409 CREDITS_NEGATIVE below zero); written to the
 * ledger with the admin and the note.
 */
export async function grantCredits(
  deps: AppDeps,
  actor: Actor,
  id: string,
  g: { hectares: number; note?: string | undefined },
): Promise<SubscriptionDto> {
  await deps.database.db.transaction().execute(async (trx) => {
    const sub = await lockOr404(trx, id);
    const key = `grant:${sub.id}:${randomUUID()}`;
    if (g.hectares >= 0) {
      await creditSubscription(trx, sub, {
        key,
        kind: 'grant',
        hectares: g.hectares,
        actorId: actor?.id ?? null,
        note: g.note ?? null,
      });
    } else {
      await debitSubscription(trx, sub, {
        key,
        kind: 'adjustment',
        hectares: -g.hectares,
        actorId: actor?.id ?? null,
        note: g.note ?? null,
      });
    }
    await insertEvent(trx, {
      subscriptionId: sub.id,
      actorId: actor?.id ?? null,
      action: g.hectares >= 0 ? 'credits-granted' : 'credits-removed',
      details: { hectares: g.hectares, note: g.note ?? null, before: sub.credits },
    });
  });
  return getSubscription(deps, id);
}

/** Admin: activates a subscription: active, enabled, and the user's current one (spec §4 activate). */
export async function activateSubscription(deps: AppDeps, actor: Actor, id: string): Promise<SubscriptionDto> {
  await deps.database.db.transaction().execute(async (trx) => {
    const sub = await lockOr404(trx, id);
    const was = { status: sub.status, current: sub.is_current };
    await makeCurrent(trx, sub, actor?.id ?? null);
    await updateSubscription(trx, sub.id, {
      status: 'active',
      enabled: true,
      suspension_reason: null,
      ended_at: null,
      unsubscribe_pending: false,
      ...(sub.allocation_period !== 'NONE' && !sub.next_allocation_date
        ? { next_allocation_date: nextAllocationAfter(new Date(sub.start_date), sub.allocation_period, new Date()) }
        : {}),
    });
    await insertEvent(trx, { subscriptionId: sub.id, actorId: actor?.id ?? null, action: 'activated', details: was });
  });
  return getSubscription(deps, id);
}

/** Admin: activates the user's most recent subscription (spec §4 "activate the last one"). */
export async function activateLast(deps: AppDeps, actor: Actor, userId: string): Promise<SubscriptionDto> {
  const last = isId(userId) ? await latestSubscription(deps.database.db, userId) : undefined;
  if (!last) throw new AppError(404, 'NO_SUBSCRIPTION', 'this user has no subscription');
  return activateSubscription(deps, actor, last.id);
}

async function suspendIn(trx: Db, sub: SubscriptionRow, actor: Actor, reason: 'admin' | 'payment'): Promise<boolean> {
  if (sub.status === 'suspended' || sub.status === 'unsubscribed') return false;
  await updateSubscription(trx, sub.id, { status: 'suspended', suspension_reason: reason });
  await insertEvent(trx, {
    subscriptionId: sub.id,
    actorId: actor?.id ?? null,
    action: 'suspended',
    details: { reason, was: sub.status },
  });
  return true;
}

/** Admin: suspends one subscription (no project creation, upload or processing; spec §6). */
export async function suspendSubscription(deps: AppDeps, actor: Actor, id: string): Promise<SubscriptionDto> {
  await deps.database.db.transaction().execute(async (trx) => {
    const sub = await lockOr404(trx, id);
    if (sub.status === 'unsubscribed') throw wrongState(sub, 'suspended');
    await suspendIn(trx, sub, actor, 'admin');
  });
  return getSubscription(deps, id);
}

/** Admin: suspends every active subscription of a user, or of everyone (spec §4 "suspend all"). */
export async function suspendAll(deps: AppDeps, actor: Actor, r: { userId?: string | undefined }): Promise<number> {
  let q = deps.database.db.selectFrom('subscriptions').select('id').where('status', 'in', ['active', 'inactive']);
  if (r.userId !== undefined) {
    if (!isId(r.userId)) return 0;
    q = q.where('user_id', '=', r.userId);
  }
  const ids = (await q.orderBy('id').execute()).map((row) => row.id);
  let n = 0;
  for (const id of ids) {
    await deps.database.db.transaction().execute(async (trx) => {
      const sub = await lockSubscription(trx, id);
      if (sub && (await suspendIn(trx, sub, actor, 'admin'))) n++;
    });
  }
  return n;
}

/** Admin: lifts a suspension (spec §4 reactivate). 409 when it is not suspended. */
export async function reactivateSubscription(deps: AppDeps, actor: Actor, id: string): Promise<SubscriptionDto> {
  await deps.database.db.transaction().execute(async (trx) => {
    const sub = await lockOr404(trx, id);
    if (sub.status !== 'suspended' && sub.enabled) throw wrongState(sub, 'reactivated');
    await updateSubscription(trx, sub.id, {
      status: sub.status === 'suspended' ? 'active' : sub.status,
      enabled: true,
      suspension_reason: null,
      payment_failed_at: null,
      grace_until: null,
    });
    await insertEvent(trx, {
      subscriptionId: sub.id,
      actorId: actor?.id ?? null,
      action: 'reactivated',
      details: { was: sub.status },
    });
  });
  return getSubscription(deps, id);
}

/**
 * Cancels a subscription at its anniversary (spec §4): it stays active with
 * the unsubscribe-pending flag until then, when the scheduled job ends it. A
 * paid subscription is also cancelled at the payment provider at the end of
 * the period paid for. By the user (their current one) or an admin.
 */
export async function cancelSubscription(deps: AppDeps, actor: Actor, id: string): Promise<SubscriptionDto> {
  const sub = isId(id) ? await readSubscription(deps, id) : undefined;
  if (!sub) throw notFound();
  if (sub.status === 'unsubscribed') throw wrongState(sub, 'cancelled');
  let periodEnd: Date | null = null;
  if (sub.payment_subscription_id) {
    periodEnd = await cancelProviderSubscription(deps, sub.payment_subscription_id, 'period_end');
  }
  await deps.database.db.transaction().execute(async (trx) => {
    const fresh = await lockOr404(trx, id);
    if (fresh.unsubscribe_pending) return;
    const at = periodEnd ?? anniversaryOf(fresh, new Date());
    await updateSubscription(trx, fresh.id, { unsubscribe_pending: true, valid_until: at });
    await insertEvent(trx, {
      subscriptionId: fresh.id,
      actorId: actor?.id ?? null,
      action: 'cancel-requested',
      details: { effectiveAt: at.toISOString() },
    });
  });
  return getSubscription(deps, id);
}

function readSubscription(deps: AppDeps, id: string) {
  return deps.database.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user cancels their current subscription (at the anniversary); 404 NO_SUBSCRIPTION without one. */
export async function cancelCurrent(deps: AppDeps, userId: string): Promise<SubscriptionDto> {
  const sub = await currentSubscription(deps.database.db, userId);
  if (!sub) throw new AppError(404, 'NO_SUBSCRIPTION', 'no subscription found: contact support');
  return cancelSubscription(deps, { id: userId }, sub.id);
}

// ---------------------------------------------------------------- templates

/** A template, or 404 TEMPLATE_NOT_FOUND. */
export async function getTemplate(deps: AppDeps, id: string): Promise<TemplateDto> {
  const row = isId(id) ? await findTemplate(deps.database.db, id) : undefined;
  if (!row) throw templateNotFound();
  return templateDto(row, await templateSubscriptionCounts(deps.database.db, id));
}

export async function listTemplatesPage(
  deps: AppDeps,
  q: TemplateListQuery,
): Promise<{ count: number; results: TemplateDto[] }> {
  const { count, rows } = await listTemplates(deps.database.db, q);
  return {
    count,
    results: rows.map((r) => templateDto(r, { active: r.active_subscriptions, total: r.subscriptions })),
  };
}

/** What an admin sets on a template. */
export interface TemplateInput {
  name?: string | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
  category?: 'PAID' | 'FREEMIUM' | undefined;
  startDate?: string | null | undefined;
  endDate?: string | null | undefined;
  credits?: number | undefined;
  creditsAllowance?: number | undefined;
  allocationPeriod?: AllocationPeriod | undefined;
  durationMonths?: number | null | undefined;
  premium?: boolean | undefined;
  price?: { amount: number; currency: string } | null | undefined;
  paymentProductId?: string | null | undefined;
  paymentProductReference?: string | null | undefined;
  maxProjects?: number | null | undefined;
  maxInputFileBytes?: number | null | undefined;
  maxStorageBytes?: number | null | undefined;
}

function templateColumns(t: TemplateInput): TemplatePatch {
  const out: Record<string, unknown> = {};
  const set = (column: string, v: unknown) => {
    if (v !== undefined) out[column] = v;
  };
  set('name', t.name);
  set('description', t.description);
  set('enabled', t.enabled);
  set('category', t.category);
  set('start_date', t.startDate);
  set('end_date', t.endDate);
  set('credits', t.credits);
  set('credits_allowance', t.creditsAllowance);
  set('allocation_period', t.allocationPeriod);
  set('duration_months', t.durationMonths);
  set('premium', t.premium);
  if (t.price !== undefined) {
    out.price_amount = t.price?.amount ?? null;
    out.price_currency = t.price?.currency.toLowerCase() ?? null;
  }
  set('payment_product_id', t.paymentProductId);
  set('payment_product_reference', t.paymentProductReference);
  set('max_projects', t.maxProjects);
  set('max_input_file_bytes', t.maxInputFileBytes);
  set('max_storage_bytes', t.maxStorageBytes);
  return out as TemplatePatch;
}

function checkTemplate(t: Pick<TemplateRow, 'category' | 'payment_product_id' | 'start_date' | 'end_date'>): void {
  if (t.category !== 'PAID' && t.payment_product_id) {
    throw new AppError(400, 'FORM_INVALID', 'only a PAID template has a payment product', {
      fields: [{ field: 'paymentProductId', code: 'FORM_INVALID', issue: 'custom', message: 'PAID templates only' }],
    });
  }
  if (t.start_date && t.end_date && new Date(t.end_date) <= new Date(t.start_date)) {
    throw new AppError(400, 'FORM_INVALID', 'the end date must come after the start date', {
      fields: [{ field: 'endDate', code: 'FORM_INVALID', issue: 'custom', message: 'after the start date' }],
    });
  }
}

/** Admin: creates a template (audited). */
export async function createTemplate(
  deps: AppDeps,
  actor: Actor,
  t: TemplateInput & { name: string; category: 'PAID' | 'FREEMIUM' },
): Promise<TemplateDto> {
  const columns = templateColumns(t);
  checkTemplate({
    category: t.category,
    payment_product_id: t.paymentProductId ?? null,
    start_date: t.startDate ?? null,
    end_date: t.endDate ?? null,
  });
  const row = await inTransaction(deps.database.db, async (trx) => {
    const made = await insertTemplate(trx, {
      ...(columns as Record<string, unknown>),
      name: t.name,
      category: t.category,
      creator_id: actor?.id ?? null,
    } as Parameters<typeof insertTemplate>[1]);
    if (!made) throw new Error('template not inserted');
    await insertEvent(trx, {
      templateId: made.id,
      actorId: actor?.id ?? null,
      action: 'created',
      details: { name: t.name },
    });
    return made;
  });
  return getTemplate(deps, row.id);
}

/**
 * Admin: edits a template, deactivates it (enabled false: no longer offered
 * nor subscribed to; existing subscriptions go on) or reactivates it; audited.
 * Subscriptions made from it earlier keep their own copy of its fields.
 */
export async function editTemplate(deps: AppDeps, actor: Actor, id: string, t: TemplateInput): Promise<TemplateDto> {
  await deps.database.db.transaction().execute(async (trx) => {
    const before = isId(id)
      ? await trx.selectFrom('subscription_templates').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
      : undefined;
    if (!before) throw templateNotFound();
    const columns = templateColumns(t);
    if (Object.keys(columns).length === 0) return;
    checkTemplate({ ...before, ...(columns as Partial<TemplateRow>) });
    await updateTemplate(trx, id, columns);
    const action =
      t.enabled === false && before.enabled
        ? 'deactivated'
        : t.enabled === true && !before.enabled
          ? 'reactivated'
          : 'edited';
    const old: Record<string, unknown> = {};
    for (const k of Object.keys(columns)) old[k] = (before as unknown as Record<string, unknown>)[k];
    await insertEvent(trx, {
      templateId: id,
      actorId: actor?.id ?? null,
      action,
      details: { before: old, after: columns },
    });
  });
  return getTemplate(deps, id);
}
