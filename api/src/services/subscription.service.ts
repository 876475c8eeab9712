import type { Kysely } from 'kysely';
import type { AppDeps } from '../context.js';
import { readCreditTotals, readUserLimits, writeUserLimits } from '../db/queries/limits.queries.js';
import type { Database, SubscriptionStatus } from '../db/types.js';
import { AppError } from '../errors.js';

/** Every subscription status: spec §4's four, plus none (no subscription at all). */
export const SUBSCRIPTION_STATUSES = ['active', 'inactive', 'suspended', 'unsubscribed', 'none'] as const;

/**
 * A user's subscription standing (spec §3 Subscription: status, credits,
 * creditsAllowance). Until the billing work lands, admins set the status and
 * the granted credits per user; unset figures are the configured defaults
 * (DEFAULT_SUBSCRIPTION_STATUS, DEFAULT_CREDIT_HECTARES).
 */
export interface Standing {
  status: SubscriptionStatus;
  /** Credits granted, hectares. */
  creditsAllowance: number;
  /** Hectares charged so far (the charges ledger: one row per processing). */
  creditsUsed: number;
  /** Hectares left: allowance − used (negative only if two processings ended together). */
  credits: number;
  /** The status is the configured default (no admin set one). */
  defaultStatus: boolean;
  /** The allowance is the configured default. */
  defaultAllowance: boolean;
}

/** The standing of a user, defaults filled in; `db` may be a transaction. */
export async function standingOf(
  deps: AppDeps,
  userId: string,
  db: Kysely<Database> = deps.database.db,
): Promise<Standing> {
  // One query after the other: the embedded database serves one statement at a time.
  const own = await readUserLimits(db, userId);
  const totals = await readCreditTotals(db, userId);
  const creditsAllowance = totals.grantedHectares ?? deps.config.DEFAULT_CREDIT_HECTARES;
  return {
    status: own.subscriptionStatus ?? deps.config.DEFAULT_SUBSCRIPTION_STATUS,
    creditsAllowance,
    creditsUsed: totals.chargedHectares,
    credits: creditsAllowance - totals.chargedHectares,
    defaultStatus: own.subscriptionStatus === null,
    defaultAllowance: totals.grantedHectares === null,
  };
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
 * decimals, required rounded up and available down).
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
  if (areaHectares !== null && areaHectares > 0 && areaHectares > standing.credits) {
    const required = Math.ceil(areaHectares * 100) / 100;
    const available = Math.floor(standing.credits * 100) / 100;
    return new AppError(
      402,
      'INSUFFICIENT_CREDITS',
      `insufficient credits: the project covers ${required} ha, you have ${available} ha left`,
      { required, available },
    );
  }
  return null;
}

/**
 * The standing less the credits that the owner's processings queued or
 * running before `beforeJobId` (every one when absent) will take when they
 * succeed. Credits are reserved first come, first served, so two processings
 * can never both count on the same hectares; `db` may be a transaction.
 */
export async function reserveCredits(
  db: Kysely<Database>,
  standing: Standing,
  ownerId: string,
  beforeJobId?: string,
): Promise<Standing> {
  let query = db
    .selectFrom('jobs')
    .innerJoin('projects', 'projects.id', 'jobs.project_id')
    .select((eb) => eb.fn.sum<string | number | null>('projects.area_hectares').as('hectares'))
    .where('projects.owner_id', '=', ownerId)
    .where('jobs.kind', '=', 'PROCESSING')
    .where('jobs.state', 'in', ['PENDING', 'PROGRESS']);
  if (beforeJobId !== undefined) query = query.where('jobs.id', '<', beforeJobId);
  const row = await query.executeTakeFirst();
  const reserved = Number(row?.hectares ?? 0);
  return reserved > 0 ? { ...standing, credits: standing.credits - reserved } : standing;
}

/** Throws the refusal of {@link uploadRefusal} for a user, if any. */
export async function checkUploadStanding(deps: AppDeps, userId: string): Promise<void> {
  const refusal = uploadRefusal(await standingOf(deps, userId));
  if (refusal) throw refusal;
}

/** What an admin changes of a user's standing; null puts a figure back to the configured default. */
export interface StandingPatch {
  status?: SubscriptionStatus | null | undefined;
  creditsAllowance?: number | null | undefined;
  premium?: boolean | undefined;
}

/** A user's standing as the admin screens show it (with the premium flag). */
export type AdminStanding = Standing & { userId: string; premium: boolean };

async function adminStanding(deps: AppDeps, userId: string): Promise<AdminStanding> {
  const user = await deps.database.db
    .selectFrom('users')
    .select(['id', 'premium'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new AppError(404, 'NO_ACCOUNT', `no account with id ${userId}`);
  return { userId: String(user.id), premium: user.premium, ...(await standingOf(deps, userId)) };
}

/** Admin: a user's subscription standing; 404 NO_ACCOUNT when there is no such user. */
export function getStanding(deps: AppDeps, userId: string): Promise<AdminStanding> {
  return adminStanding(deps, userId);
}

/** Admin: sets a user's status, granted credits and premium flag (until billing sets them). */
export async function setStanding(deps: AppDeps, userId: string, patch: StandingPatch): Promise<AdminStanding> {
  await adminStanding(deps, userId);
  await deps.database.db.transaction().execute(async (trx) => {
    if (patch.status !== undefined || patch.creditsAllowance !== undefined) {
      await writeUserLimits(trx, userId, {
        ...(patch.status !== undefined ? { subscriptionStatus: patch.status } : {}),
        ...(patch.creditsAllowance !== undefined ? { creditHectares: patch.creditsAllowance } : {}),
      });
    }
    if (patch.premium !== undefined) {
      await trx
        .updateTable('users')
        .set({ premium: patch.premium, updated_at: new Date() })
        .where('id', '=', userId)
        .execute();
    }
  });
  return adminStanding(deps, userId);
}
