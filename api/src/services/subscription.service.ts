import type { Kysely } from 'kysely';
import type { AppDeps } from '../context.js';
import { legacyStanding } from '../db/queries/credits.queries.js';
import {
  currentSubscription,
  defaultTemplate,
  hasAnySubscription,
  insertEvent,
  insertSubscription,
  insertTemplate,
  lockSubscription,
  type SubscriptionListRow,
  type SubscriptionRow,
  type TemplateRow,
  updateSubscription,
  usersWithoutSubscription,
} from '../db/queries/subscriptions.queries.js';
import type { AllocationPeriod, Database, SubscriptionState, SubscriptionStatus } from '../db/types.js';
import { AppError } from '../errors.js';
import { creditSubscription, debitSubscription, insufficientCredits, inTransaction } from './credits.service.js';

type Db = Kysely<Database>;

/** Every standing a user can be in: spec §4's four statuses, plus none (no subscription at all). */
export const SUBSCRIPTION_STATUSES = ['active', 'inactive', 'suspended', 'unsubscribed', 'none'] as const;
/** The statuses of a subscription row (spec §4). */
export const SUBSCRIPTION_STATES = ['active', 'inactive', 'suspended', 'unsubscribed'] as const;
export const GLOBAL_STATUSES = ['ACTIVE', 'INACTIVE', 'SUSPENDED'] as const;
export const CATEGORIES = ['PAID', 'FREEMIUM'] as const;
export const ALLOCATION_PERIODS = ['NONE', 'MONTH', 'YEAR'] as const;

/** Name of the freemium template the API creates when there is none. */
export const DEFAULT_TEMPLATE_NAME = 'Freemium';

/**
 * A user's standing: the subscription that applies now (spec §3), its status
 * (none without one) and the credits available (hectares, reservations of
 * queued processings already taken off).
 */
export interface Standing {
  status: SubscriptionStatus;
  subscription: SubscriptionRow | null;
  credits: number;
}

// ---------------------------------------------------------------- dates

/** `date` plus `months` calendar months (the day clamped to the month's end). */
export function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

export function periodMonths(period: AllocationPeriod): number {
  return period === 'MONTH' ? 1 : period === 'YEAR' ? 12 : 0;
}

/** The first allocation date after `now`, counting whole periods from `from`. */
export function nextAllocationAfter(from: Date, period: AllocationPeriod, now: Date): Date | null {
  const step = periodMonths(period);
  if (step === 0) return null;
  let n = 1;
  let next = addMonths(from, step);
  while (next.getTime() <= now.getTime() && n < 12_000) {
    n++;
    next = addMonths(from, step * n);
  }
  return next;
}

/**
 * The anniversary a cancellation takes effect at (spec §4: the end of the
 * billing period): the end of the period paid for, else the next allocation,
 * else the next yearly anniversary of the start.
 */
export function anniversaryOf(sub: SubscriptionRow, now: Date): Date {
  const future = (d: Date | string | null) => (d && new Date(d).getTime() > now.getTime() ? new Date(d) : null);
  return (
    future(sub.valid_until) ??
    future(sub.next_allocation_date) ??
    nextAllocationAfter(new Date(sub.start_date), 'YEAR', now)!
  );
}

// ---------------------------------------------------------------- creation

/**
 * The freemium template new accounts are subscribed to, created from the
 * configuration when there is none yet (credits DEFAULT_CREDIT_HECTARES,
 * refilled monthly; the configured default limits).
 */
export async function ensureDefaultTemplate(deps: AppDeps, db: Db = deps.database.db): Promise<TemplateRow> {
  const found = await defaultTemplate(db);
  if (found) return found;
  const hectares = deps.config.DEFAULT_CREDIT_HECTARES;
  await insertTemplate(db, {
    name: DEFAULT_TEMPLATE_NAME,
    description: 'The free plan every new account starts with.',
    enabled: true,
    is_default: true,
    category: 'FREEMIUM',
    credits: hectares,
    credits_allowance: hectares,
    allocation_period: 'MONTH',
  });
  const made = await defaultTemplate(db);
  if (!made) throw new Error('the default freemium template could not be created');
  return made;
}

/** The columns of a new subscription made from a template. */
export function subscriptionFromTemplate(
  template: TemplateRow,
  s: { userId: string; creatorId: string | null; status: SubscriptionState; now: Date },
) {
  const step = periodMonths(template.allocation_period);
  return {
    user_id: s.userId,
    template_id: template.id,
    creator_id: s.creatorId,
    name: template.name,
    description: template.description,
    enabled: true,
    start_date: s.now,
    end_date: template.duration_months ? addMonths(s.now, template.duration_months) : null,
    status: s.status,
    category: template.category,
    credits: 0,
    credits_allowance: template.credits_allowance,
    allocation_period: template.allocation_period,
    last_allocation_date: s.now,
    next_allocation_date: step > 0 ? addMonths(s.now, step) : null,
    premium: template.premium,
    payment_product_id: template.payment_product_id,
    payment_product_reference: template.payment_product_reference,
    max_projects: template.max_projects,
    max_input_file_bytes: template.max_input_file_bytes,
    max_storage_bytes: template.max_storage_bytes,
  };
}

/**
 * The subscription that applies to a user now. A user who never had one (an
 * account of before migration 0006, or one made outside sign-up) gets one
 * here, once: a 0004 standing becomes a subscription with the same status,
 * limits and credits (granted, or DEFAULT_CREDIT_HECTARES, minus charged); a
 * new account is subscribed to the default freemium template with
 * DEFAULT_SUBSCRIPTION_STATUS. `none` (by the standing or the configuration):
 * no subscription, null. `db` may be a transaction.
 */
export async function ensureSubscription(
  deps: AppDeps,
  userId: string,
  db: Db = deps.database.db,
  creatorId: string | null = null,
): Promise<SubscriptionRow | null> {
  const current = await currentSubscription(db, userId);
  if (current) return current;
  if (await hasAnySubscription(db, userId)) return null;
  const legacy = await legacyStanding(db, userId);
  const status = (legacy.status ?? deps.config.DEFAULT_SUBSCRIPTION_STATUS) as SubscriptionStatus;
  if (status === 'none') return null;
  const template = await ensureDefaultTemplate(deps, db);
  const now = new Date();
  const converted = legacy.hasRow || legacy.chargedHectares > 0;
  return inTransaction(db, async (trx) => {
    const base = subscriptionFromTemplate(template, { userId, creatorId: creatorId ?? userId, status, now });
    const credits = converted
      ? Math.max(0, (legacy.creditHectares ?? deps.config.DEFAULT_CREDIT_HECTARES) - legacy.chargedHectares)
      : template.credits;
    const values = converted
      ? {
          ...base,
          creator_id: null,
          description: 'Converted from the standing an admin had set (migration 0006).',
          // The standing never renewed: neither does the converted subscription.
          credits_allowance: 0,
          allocation_period: 'NONE' as const,
          next_allocation_date: null,
          max_projects: legacy.limits.maxProjects,
          max_input_file_bytes: legacy.limits.maxInputFileBytes,
          max_storage_bytes: legacy.limits.maxStorageBytes,
        }
      : base;
    const row = await insertSubscription(trx, values);
    if (!row) return (await currentSubscription(trx, userId)) ?? null;
    await creditSubscription(trx, row, {
      key: `opening:${row.id}`,
      kind: converted ? 'opening' : 'allocation',
      hectares: credits,
      note: converted ? 'credits of the 0004 standing: granted − charged' : 'credits of the template',
    });
    await insertEvent(trx, {
      subscriptionId: row.id,
      actorId: creatorId,
      action: converted ? 'converted' : 'created',
      details: { templateId: template.id, credits, status },
    });
    return (await currentSubscription(trx, userId)) ?? row;
  });
}

/** Converts every user still without a subscription (at start; see {@link ensureSubscription}). */
export async function convertStandings(deps: AppDeps): Promise<number> {
  let converted = 0;
  let after = '0';
  for (;;) {
    const ids = await usersWithoutSubscription(deps.database.db, 200, after);
    for (const id of ids) {
      if (await ensureSubscription(deps, id)) converted++;
    }
    if (ids.length < 200) break;
    after = ids.at(-1)!;
  }
  if (converted > 0) deps.log.info({ converted }, 'subscriptions made for users without one');
  return converted;
}

/**
 * Makes `sub` the user's current subscription (a purchase, an admin's
 * activation): the previous current one stops applying (active becomes
 * inactive) and hands its credits over, both written to the ledger.
 */
export async function makeCurrent(trx: Db, sub: SubscriptionRow, actorId: string | null): Promise<SubscriptionRow> {
  const previous = await currentSubscription(trx, sub.user_id, true);
  if (previous?.id === sub.id) return sub;
  let fresh = (await lockSubscription(trx, sub.id)) ?? sub;
  if (previous) {
    const moved = previous.credits;
    if (moved > 0) {
      await debitSubscription(trx, previous, {
        key: `transfer:out:${previous.id}:${sub.id}`,
        kind: 'transfer',
        hectares: moved,
        actorId,
        note: `credits moved to subscription ${sub.id}`,
      });
    }
    await updateSubscription(trx, previous.id, {
      is_current: false,
      ...(previous.status === 'active' ? { status: 'inactive' as const } : {}),
    });
    await insertEvent(trx, {
      subscriptionId: previous.id,
      actorId,
      action: 'replaced',
      details: { by: sub.id, creditsMoved: moved },
    });
    await updateSubscription(trx, sub.id, { is_current: true });
    fresh = (await lockSubscription(trx, sub.id))!;
    if (moved > 0) {
      await creditSubscription(trx, fresh, {
        key: `transfer:in:${previous.id}:${sub.id}`,
        kind: 'transfer',
        hectares: moved,
        actorId,
        note: `credits moved from subscription ${previous.id}`,
      });
    }
  } else {
    await updateSubscription(trx, sub.id, { is_current: true });
  }
  return (await lockSubscription(trx, sub.id))!;
}

// ---------------------------------------------------------------- standing and refusals

/** The standing of a user (see {@link ensureSubscription}); `db` may be a transaction. */
export async function standingOf(deps: AppDeps, userId: string, db: Db = deps.database.db): Promise<Standing> {
  const sub = await ensureSubscription(deps, userId, db);
  if (!sub) return { status: 'none', subscription: null, credits: 0 };
  return { status: sub.enabled ? sub.status : 'inactive', subscription: sub, credits: sub.credits };
}

const suspended = () => new AppError(403, 'SUBSCRIPTION_SUSPENDED', 'your subscription is suspended: contact support');
const noSubscription = () => new AppError(403, 'NO_SUBSCRIPTION', 'no subscription found: contact support');

/**
 * Creating a project and uploading (spec §6, §8 Upload and project): a
 * suspended subscription answers 403 SUBSCRIPTION_SUSPENDED, none 403
 * NO_SUBSCRIPTION. Inactive and unsubscribed users may still upload (they
 * cannot process).
 */
export function uploadRefusal(standing: Standing): AppError | null {
  if (standing.status === 'suspended') return suspended();
  if (standing.status === 'none') return noSubscription();
  return null;
}

/**
 * Processing (spec §8 Processing): inactive or unsubscribed → 403
 * SUBSCRIPTION_INACTIVE, suspended → 403 SUBSCRIPTION_SUSPENDED, none → 403
 * NO_SUBSCRIPTION; with a known area (hectares), more than the credits left →
 * 402 INSUFFICIENT_CREDITS with details {required, available} (hectares, 2
 * decimals, required rounded up and available down). The credits themselves
 * are taken by {@link reserveForJob}, atomically.
 */
export function processingRefusal(standing: Standing, areaHectares: number | null): AppError | null {
  if (standing.status === 'inactive' || standing.status === 'unsubscribed') {
    return new AppError(
      403,
      'SUBSCRIPTION_INACTIVE',
      `your subscription is ${standing.status}: subscribe again to process projects`,
      { status: standing.status },
    );
  }
  if (standing.status === 'suspended') return suspended();
  if (standing.status === 'none') return noSubscription();
  if (areaHectares !== null && areaHectares > 0 && areaHectares > standing.credits + 1e-9) {
    return insufficientCredits(areaHectares, standing.credits);
  }
  return null;
}

/** Throws the refusal of {@link uploadRefusal} for a user, if any. */
export async function checkUploadStanding(deps: AppDeps, userId: string): Promise<void> {
  const refusal = uploadRefusal(await standingOf(deps, userId));
  if (refusal) throw refusal;
}

/**
 * Whether a user may download the classified point cloud (spec §1): their
 * current subscription is active and premium, or an admin flagged the account.
 */
export async function isPremium(deps: AppDeps, userId: string): Promise<boolean> {
  const user = await deps.database.db.selectFrom('users').select('premium').where('id', '=', userId).executeTakeFirst();
  if (user?.premium) return true;
  const sub = await currentSubscription(deps.database.db, userId);
  return sub?.status === 'active' && sub.enabled && sub.premium;
}

// ---------------------------------------------------------------- limits

/** The limits that apply (spec §3 subscription limits), defaults filled in. */
export interface EffectiveLimits {
  maxProjects: number;
  /** Largest input file in bytes; 0 means uploads need a (new) subscription. */
  maxInputFileBytes: number;
  maxStorageBytes: number;
}

/** A subscription's limits with the configured defaults for those it does not set. */
export function effectiveLimits(
  deps: AppDeps,
  sub: Pick<SubscriptionRow, 'max_projects' | 'max_input_file_bytes' | 'max_storage_bytes'> | null,
): EffectiveLimits {
  const num = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return {
    maxProjects: num(sub?.max_projects) ?? deps.config.DEFAULT_MAX_PROJECTS,
    maxInputFileBytes: num(sub?.max_input_file_bytes) ?? deps.config.DEFAULT_MAX_INPUT_FILE_BYTES,
    maxStorageBytes: num(sub?.max_storage_bytes) ?? deps.config.DEFAULT_MAX_STORAGE_BYTES,
  };
}

// ---------------------------------------------------------------- DTOs

const iso = (d: Date | string | null | undefined) => (d === null || d === undefined ? null : new Date(d).toISOString());
const bytes = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));

/** Limits as stored: null means the configured default. */
export interface LimitsDto {
  maxProjects: number | null;
  maxInputFileBytes: number | null;
  maxStorageBytes: number | null;
}

/** A subscription as the API shows it (spec §3 Subscription). */
export interface SubscriptionDto {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
  startDate: string;
  endDate: string | null;
  status: SubscriptionState;
  globalStatus: 'ACTIVE' | 'INACTIVE' | 'SUSPENDED';
  category: 'PAID' | 'FREEMIUM';
  credits: number;
  creditsAllowance: number;
  allocationPeriod: AllocationPeriod;
  lastAllocationDate: string | null;
  nextAllocationDate: string | null;
  validUntil: string | null;
  unsubscribePending: boolean;
  premium: boolean;
  paymentProductId: string | null;
  paymentSubscriptionId: string | null;
  paymentProductReference: string | null;
  paymentFailedAt: string | null;
  graceUntil: string | null;
  suspensionReason: 'admin' | 'payment' | null;
  limits: LimitsDto;
  effectiveLimits: EffectiveLimits;
  current: boolean;
  endedAt: string | null;
  user: { id: string; email: string | null };
  creator: { id: string; email: string | null } | null;
  template: { id: string; name: string | null } | null;
  createdAt: string;
  updatedAt: string;
}

export function subscriptionDto(
  deps: AppDeps,
  row: SubscriptionRow & Partial<Pick<SubscriptionListRow, 'user_email' | 'template_name' | 'creator_email'>>,
): SubscriptionDto {
  const limits = {
    maxProjects: row.max_projects,
    maxInputFileBytes: bytes(row.max_input_file_bytes),
    maxStorageBytes: bytes(row.max_storage_bytes),
  };
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    startDate: iso(row.start_date)!,
    endDate: iso(row.end_date),
    status: row.status,
    globalStatus: row.global_status,
    category: row.category,
    credits: Math.round(row.credits * 1e6) / 1e6,
    creditsAllowance: row.credits_allowance,
    allocationPeriod: row.allocation_period,
    lastAllocationDate: iso(row.last_allocation_date),
    nextAllocationDate: iso(row.next_allocation_date),
    validUntil: iso(row.valid_until),
    unsubscribePending: row.unsubscribe_pending,
    premium: row.premium,
    paymentProductId: row.payment_product_id,
    paymentSubscriptionId: row.payment_subscription_id,
    paymentProductReference: row.payment_product_reference,
    paymentFailedAt: iso(row.payment_failed_at),
    graceUntil: iso(row.grace_until),
    suspensionReason: row.suspension_reason,
    limits,
    effectiveLimits: effectiveLimits(deps, row),
    current: row.is_current,
    endedAt: iso(row.ended_at),
    user: { id: row.user_id, email: row.user_email ?? null },
    creator: row.creator_id ? { id: row.creator_id, email: row.creator_email ?? null } : null,
    template: row.template_id ? { id: row.template_id, name: row.template_name ?? null } : null,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

/** A template as the API shows it (spec §3: templates mirror subscriptions). */
export interface TemplateDto {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
  isDefault: boolean;
  category: 'PAID' | 'FREEMIUM';
  startDate: string | null;
  endDate: string | null;
  credits: number;
  creditsAllowance: number;
  allocationPeriod: AllocationPeriod;
  durationMonths: number | null;
  premium: boolean;
  price: { amount: number; currency: string } | null;
  paymentProductId: string | null;
  paymentProductReference: string | null;
  limits: LimitsDto;
  activeSubscriptions: number;
  subscriptions: number;
  creatorId: string | null;
  createdAt: string;
  updatedAt: string;
}

export function templateDto(row: TemplateRow, counts = { active: 0, total: 0 }): TemplateDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    isDefault: row.is_default,
    category: row.category,
    startDate: iso(row.start_date),
    endDate: iso(row.end_date),
    credits: row.credits,
    creditsAllowance: row.credits_allowance,
    allocationPeriod: row.allocation_period,
    durationMonths: row.duration_months,
    premium: row.premium,
    price:
      row.price_amount !== null && row.price_currency !== null
        ? { amount: row.price_amount, currency: row.price_currency }
        : null,
    paymentProductId: row.payment_product_id,
    paymentProductReference: row.payment_product_reference,
    limits: {
      maxProjects: row.max_projects,
      maxInputFileBytes: bytes(row.max_input_file_bytes),
      maxStorageBytes: bytes(row.max_storage_bytes),
    },
    activeSubscriptions: counts.active,
    subscriptions: counts.total,
    creatorId: row.creator_id,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}
