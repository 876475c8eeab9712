import { sql } from 'kysely';
import Stripe from 'stripe';
import type { AuthUser } from '../auth.types.js';
import type { AppDeps } from '../context.js';
import {
  claimEvent,
  customerOf,
  findPurchaseBySession,
  finishEvent,
  insertPurchase,
  type PurchaseRow,
  recordPayment,
  releaseEvent,
  saveCustomer,
  updatePurchase,
} from '../db/queries/billing.queries.js';
import { findLedgerRow } from '../db/queries/credits.queries.js';
import {
  currentSubscription,
  findByPaymentSubscription,
  findSubscriptionWithNames,
  findTemplate,
  insertEvent,
  insertSubscription,
  lockSubscription,
  type SubscriptionRow,
  type TemplateRow,
  updateSubscription,
} from '../db/queries/subscriptions.queries.js';
import { AppError } from '../errors.js';
import { creditSubscription } from './credits.service.js';
import {
  ensureSubscription,
  makeCurrent,
  type SubscriptionDto,
  subscriptionDto,
  subscriptionFromTemplate,
  type TemplateDto,
  templateDto,
} from './subscription.service.js';

/*
 * Payments through Stripe (spec §2 purchase pages): Checkout sessions for the
 * enabled PAID templates, the return pages, and the webhook that applies what
 * Stripe tells. Every effect is idempotent: the webhook's event ids are claimed
 * once, credits are allocated under the invoice's (or the session's) key, and
 * a subscription is created once per Stripe subscription id. Handlers read the
 * current object back from Stripe rather than trusting the event's copy, so
 * events may arrive in any order.
 */

const clients = new WeakMap<AppDeps['config'], Stripe>();

/** Whether purchases are offered (STRIPE_SECRET_KEY is set). */
export function paymentsConfigured(deps: AppDeps): boolean {
  return deps.config.STRIPE_SECRET_KEY !== '';
}

/** The Stripe client of this process (pointed at STRIPE_API_HOST/PORT/PROTOCOL when set), or null. */
export function stripeOf(deps: AppDeps): Stripe | null {
  const c = deps.config;
  if (!c.STRIPE_SECRET_KEY) return null;
  let client = clients.get(c);
  if (!client) {
    client = new Stripe(c.STRIPE_SECRET_KEY, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      appInfo: { name: 'Nuage' },
      ...(c.STRIPE_API_HOST ? { host: c.STRIPE_API_HOST } : {}),
      ...(c.STRIPE_API_PORT !== '' ? { port: c.STRIPE_API_PORT } : {}),
      ...(c.STRIPE_API_PROTOCOL ? { protocol: c.STRIPE_API_PROTOCOL } : {}),
    });
    clients.set(c, client);
  }
  return client;
}

const notConfigured = () =>
  new AppError(503, 'PAYMENTS_NOT_CONFIGURED', 'purchases are not configured on this server: contact support');

function requireStripe(deps: AppDeps): Stripe {
  const s = stripeOf(deps);
  if (!s) throw notConfigured();
  return s;
}

/** Runs a Stripe call; its failures become 502 PAYMENT_PROVIDER_ERROR (logged). */
async function provider<T>(deps: AppDeps, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) throw err;
    deps.log.warn({ err, what }, 'payment provider call failed');
    throw new AppError(502, 'PAYMENT_PROVIDER_ERROR', `the payment provider failed (${what}): try again later`);
  }
}

const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === 'string' ? v : v.id);

function offered(t: TemplateRow, now = new Date()): boolean {
  return (
    t.enabled &&
    t.category === 'PAID' &&
    (t.start_date === null || new Date(t.start_date) <= now) &&
    (t.end_date === null || new Date(t.end_date) > now)
  );
}

// ---------------------------------------------------------------- buy page

/** What the buy page shows. */
export interface OffersDto {
  /** False without STRIPE_SECRET_KEY: the page says purchases are not configured. */
  paymentsConfigured: boolean;
  templates: TemplateDto[];
}

/** The enabled PAID templates open for subscription now (spec §2 buy). */
export async function offers(deps: AppDeps): Promise<OffersDto> {
  const rows = await deps.database.db
    .selectFrom('subscription_templates')
    .selectAll()
    .where('enabled', '=', true)
    .where('category', '=', 'PAID')
    .orderBy('price_amount', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return {
    paymentsConfigured: paymentsConfigured(deps),
    templates: rows.filter((r) => offered(r)).map((r) => templateDto(r)),
  };
}

/**
 * Starts a Stripe Checkout session for a template: a subscription for a
 * template allocating credits each period, a one-off payment for a pack.
 * Answers the page to send the browser to.
 */
export async function startCheckout(
  deps: AppDeps,
  user: Pick<AuthUser, 'id' | 'email' | 'preferLanguage'>,
  templateId: string,
): Promise<{ url: string; sessionId: string }> {
  const stripe = requireStripe(deps);
  const template = /^\d{1,18}$/.test(templateId) ? await findTemplate(deps.database.db, templateId) : undefined;
  if (!template) throw new AppError(404, 'TEMPLATE_NOT_FOUND', 'no such subscription template');
  if (!offered(template) || !template.payment_product_id) {
    throw new AppError(409, 'TEMPLATE_NOT_AVAILABLE', 'this offer cannot be bought now');
  }
  const db = deps.database.db;
  let customer = await customerOf(db, user.id);
  if (!customer) {
    const made = await provider(deps, 'customers.create', () =>
      stripe.customers.create(
        { email: user.email, metadata: { userId: user.id } },
        { idempotencyKey: `nuage-customer-${user.id}` },
      ),
    );
    customer = await saveCustomer(db, user.id, made.id);
  }
  const mode = template.allocation_period === 'NONE' ? 'payment' : 'subscription';
  const purchase = await insertPurchase(db, { userId: user.id, templateId: template.id, mode });
  const base = `${deps.config.PUBLIC_URL.replace(/\/$/, '')}/#/user/subscription/buy`;
  const metadata = { userId: user.id, templateId: template.id, purchaseId: purchase.id };
  const session = await provider(deps, 'checkout.sessions.create', () =>
    stripe.checkout.sessions.create(
      {
        mode,
        customer: customer!,
        client_reference_id: user.id,
        line_items: [{ price: template.payment_product_id!, quantity: 1 }],
        metadata,
        ...(mode === 'subscription'
          ? { subscription_data: { metadata: { userId: user.id, templateId: template.id } } }
          : { payment_intent_data: { metadata } }),
        success_url: `${base}/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}/cancel?session_id={CHECKOUT_SESSION_ID}`,
        locale: user.preferLanguage === 'fr' ? 'fr' : 'en',
      },
      { idempotencyKey: `nuage-checkout-${purchase.id}` },
    ),
  );
  await updatePurchase(db, purchase.id, { checkout_session_id: session.id });
  if (!session.url) throw new AppError(502, 'PAYMENT_PROVIDER_ERROR', 'the payment provider gave no checkout page');
  return { url: session.url, sessionId: session.id };
}

/** A purchase as the return pages show it. */
export interface PurchaseDto {
  id: string;
  sessionId: string;
  status: 'open' | 'completed' | 'cancelled' | 'expired';
  mode: 'subscription' | 'payment';
  template: { id: string; name: string } | null;
  /** Credits the purchase added (hectares), once completed. */
  hectares: number | null;
  subscription: SubscriptionDto | null;
  createdAt: string;
  completedAt: string | null;
}

async function purchaseDto(deps: AppDeps, p: PurchaseRow): Promise<PurchaseDto> {
  const template = p.template_id ? await findTemplate(deps.database.db, p.template_id) : undefined;
  const sub = p.subscription_id ? await findSubscriptionWithNames(deps.database.db, p.subscription_id) : undefined;
  return {
    id: p.id,
    sessionId: p.checkout_session_id ?? '',
    status: p.status,
    mode: p.mode,
    template: template ? { id: template.id, name: template.name } : null,
    hectares: p.hectares,
    subscription: sub ? subscriptionDto(deps, sub) : null,
    createdAt: new Date(p.created_at).toISOString(),
    completedAt: p.completed_at ? new Date(p.completed_at).toISOString() : null,
  };
}

async function ownPurchase(deps: AppDeps, userId: string, sessionId: string): Promise<PurchaseRow> {
  const p = await findPurchaseBySession(deps.database.db, sessionId);
  if (!p || p.user_id !== userId) throw new AppError(404, 'CHECKOUT_NOT_FOUND', 'no such purchase of yours');
  return p;
}

/**
 * The success page's call: the purchase, brought up to date from Stripe when
 * the webhook has not told yet (so the page shows the credits at once).
 */
export async function checkoutStatus(deps: AppDeps, userId: string, sessionId: string): Promise<PurchaseDto> {
  let p = await ownPurchase(deps, userId, sessionId);
  const stripe = stripeOf(deps);
  if (p.status === 'open' && stripe) {
    const session = await provider(deps, 'checkout.sessions.retrieve', () =>
      stripe.checkout.sessions.retrieve(sessionId),
    );
    await applySession(deps, session);
    p = (await findPurchaseBySession(deps.database.db, sessionId))!;
  }
  return purchaseDto(deps, p);
}

/**
 * The cancel page's call: the purchase is cancelled (its Checkout session
 * expired at Stripe, so it cannot be paid later). A session paid meanwhile is
 * completed instead.
 */
export async function cancelCheckout(deps: AppDeps, userId: string, sessionId: string): Promise<PurchaseDto> {
  const p = await ownPurchase(deps, userId, sessionId);
  const stripe = stripeOf(deps);
  if (p.status === 'open' && stripe) {
    const session = await provider(deps, 'checkout.sessions.retrieve', () =>
      stripe.checkout.sessions.retrieve(sessionId),
    );
    if (session.status === 'open') {
      await provider(deps, 'checkout.sessions.expire', () => stripe.checkout.sessions.expire(sessionId));
      await updatePurchase(deps.database.db, p.id, { status: 'cancelled' });
    } else {
      await applySession(deps, session);
    }
  } else if (p.status === 'open') {
    await updatePurchase(deps.database.db, p.id, { status: 'cancelled' });
  }
  return purchaseDto(deps, (await findPurchaseBySession(deps.database.db, sessionId))!);
}

// ---------------------------------------------------------------- applying what Stripe says

/** Applies a Checkout session as it is now: completed and paid → fulfilled; expired → expired. */
async function applySession(deps: AppDeps, session: Stripe.Checkout.Session): Promise<'applied' | 'ignored'> {
  if (session.status === 'expired') {
    const p = await findPurchaseBySession(deps.database.db, session.id);
    if (p?.status === 'open') await updatePurchase(deps.database.db, p.id, { status: 'expired' });
    return 'applied';
  }
  if (session.status !== 'complete') return 'ignored';
  if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') return 'ignored';
  await fulfillCheckout(deps, session);
  return 'applied';
}

function sessionHints(session: Stripe.Checkout.Session): { userId: string | null; templateId: string | null } {
  return {
    userId: session.metadata?.userId ?? session.client_reference_id ?? null,
    templateId: session.metadata?.templateId ?? null,
  };
}

/** A paid Checkout session: the subscription (or the pack's credits) and the payment, once. */
async function fulfillCheckout(deps: AppDeps, session: Stripe.Checkout.Session): Promise<void> {
  const db = deps.database.db;
  const hints = sessionHints(session);
  const purchase = await findPurchaseBySession(db, session.id);
  const templateId = hints.templateId ?? purchase?.template_id ?? null;
  const userId = hints.userId ?? purchase?.user_id ?? null;
  if (!userId || !templateId) {
    deps.log.warn({ session: session.id }, 'a checkout session without user or template: ignored');
    return;
  }
  const template = await findTemplate(db, templateId);
  let subscriptionId: string | null = null;
  let hectares = 0;
  if (session.mode === 'subscription') {
    const stripe = requireStripe(deps);
    const stripeSubId = idOf(session.subscription);
    if (!stripeSubId) return;
    const stripeSub = await provider(deps, 'subscriptions.retrieve', () => stripe.subscriptions.retrieve(stripeSubId));
    const local = await syncProviderSubscription(deps, stripeSub, { userId, templateId });
    const invoiceId = idOf(session.invoice) ?? idOf(stripeSub.latest_invoice);
    if (local && invoiceId) {
      await allocateForInvoice(deps, local.id, {
        invoiceId,
        first: true,
        amount: session.amount_total ?? 0,
        currency: session.currency ?? template?.price_currency ?? 'eur',
      });
      // What the purchase brought, whichever of this or the invoice's webhook allocated it.
      hectares = (await findLedgerRow(db, `allocation:invoice:${invoiceId}`))?.hectares ?? 0;
      subscriptionId = local.id;
    }
  } else {
    // A pack: its credits go to the subscription that applies now, or start one.
    const result = await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`nuage-user-subscription:${userId}`}))`.execute(trx);
      let sub = (await ensureSubscription(deps, userId, trx)) ?? undefined;
      if (sub) sub = await lockSubscription(trx, sub.id);
      if (!sub || sub.status === 'unsubscribed') {
        if (!template) return null;
        const made = await insertSubscription(trx, {
          ...subscriptionFromTemplate(template, { userId, creatorId: userId, status: 'active', now: new Date() }),
          is_current: false,
        });
        sub = await makeCurrent(trx, made!, userId);
        await insertEvent(trx, {
          subscriptionId: sub.id,
          actorId: null,
          action: 'created',
          details: { source: 'checkout', session: session.id, templateId },
        });
      }
      const added = await creditSubscription(trx, sub, {
        key: `allocation:checkout:${session.id}`,
        kind: 'allocation',
        hectares: template?.credits ?? 0,
        note: `purchase of ${template?.name ?? 'a pack'}`,
      });
      if (added !== null) {
        await insertEvent(trx, {
          subscriptionId: sub.id,
          actorId: null,
          action: 'credits-purchased',
          details: { hectares: template?.credits ?? 0, session: session.id },
        });
      }
      await recordPayment(trx, {
        ref: session.id,
        userId,
        subscriptionId: sub.id,
        templateId,
        amount: session.amount_total ?? 0,
        currency: session.currency ?? template?.price_currency ?? 'eur',
      });
      return { id: sub.id, hectares: template?.credits ?? 0 };
    });
    subscriptionId = result?.id ?? null;
    hectares = result?.hectares ?? 0;
  }
  if (purchase && purchase.status !== 'completed') {
    await updatePurchase(db, purchase.id, {
      status: 'completed',
      subscription_id: subscriptionId,
      hectares,
      completed_at: new Date(),
    });
  }
}

/** The end of the period paid for, from the subscription's items. */
function periodEndOf(s: Stripe.Subscription): Date | null {
  const ends = s.items?.data?.map((i) => i.current_period_end).filter((n): n is number => typeof n === 'number') ?? [];
  return ends.length > 0 ? new Date(Math.max(...ends) * 1000) : null;
}

/**
 * Brings the local subscription of a Stripe subscription in line with it
 * (creating it from the template of its metadata the first time, as the
 * user's current one). Serialised per Stripe subscription.
 */
export async function syncProviderSubscription(
  deps: AppDeps,
  s: Stripe.Subscription,
  hints: { userId?: string | null; templateId?: string | null } = {},
): Promise<SubscriptionRow | null> {
  const periodEnd = periodEndOf(s);
  const pending = s.cancel_at_period_end || s.cancel_at !== null;
  const ended = s.status === 'canceled' || s.status === 'incomplete_expired';
  const replaced: string[] = [];
  const row = await deps.database.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`nuage-stripe-subscription:${s.id}`}))`.execute(trx);
    const local = await findByPaymentSubscription(trx, s.id, true);
    if (!local) {
      if (ended) return null;
      const userId = hints.userId ?? s.metadata?.userId ?? null;
      const templateId = hints.templateId ?? s.metadata?.templateId ?? null;
      const template = templateId ? await findTemplate(trx, templateId) : undefined;
      const user = userId
        ? await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()
        : undefined;
      if (!template || !user) {
        deps.log.warn({ subscription: s.id, userId, templateId }, 'a Stripe subscription of no known user or template');
        return null;
      }
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`nuage-user-subscription:${user.id}`}))`.execute(trx);
      const previous = await currentSubscription(trx, user.id);
      const made = await insertSubscription(trx, {
        ...subscriptionFromTemplate(template, {
          userId: user.id,
          creatorId: user.id,
          status: 'active',
          now: new Date(),
        }),
        status: s.status === 'incomplete' ? 'inactive' : 'active',
        is_current: false,
        valid_until: periodEnd,
        next_allocation_date: periodEnd,
        unsubscribe_pending: pending,
        payment_subscription_id: s.id,
        payment_customer_id: idOf(s.customer),
      });
      const current = await makeCurrent(trx, made!, null);
      await insertEvent(trx, {
        subscriptionId: current.id,
        actorId: null,
        action: 'created',
        details: { source: 'stripe', paymentSubscriptionId: s.id, templateId: template.id },
      });
      if (previous?.payment_subscription_id && previous.payment_subscription_id !== s.id) {
        replaced.push(previous.payment_subscription_id);
      }
      return current;
    }
    let status = local.status;
    let reason = local.suspension_reason;
    let endedAt = local.ended_at;
    if (ended) {
      status = 'unsubscribed';
      endedAt = endedAt ?? new Date();
    } else if (s.status === 'active' || s.status === 'trialing') {
      if (!(local.status === 'suspended' && local.suspension_reason === 'admin')) {
        status = 'active';
        reason = null;
        endedAt = null;
      }
    } else if (s.status === 'unpaid' || s.status === 'paused') {
      if (local.status !== 'unsubscribed') {
        status = 'suspended';
        reason = reason ?? 'payment';
      }
    } else if (s.status === 'incomplete') {
      status = 'inactive';
    }
    const patch = {
      status,
      suspension_reason: status === 'suspended' ? reason : null,
      ended_at: endedAt,
      unsubscribe_pending: ended ? false : pending,
      ...(periodEnd ? { valid_until: periodEnd } : {}),
      ...(periodEnd && !ended ? { next_allocation_date: periodEnd } : {}),
    };
    const updated = await updateSubscription(trx, local.id, patch);
    if (status !== local.status || patch.unsubscribe_pending !== local.unsubscribe_pending) {
      await insertEvent(trx, {
        subscriptionId: local.id,
        actorId: null,
        action: ended ? 'ended' : 'provider-updated',
        details: {
          source: 'stripe',
          providerStatus: s.status,
          was: local.status,
          status,
          unsubscribePending: patch.unsubscribe_pending,
        },
      });
    }
    return updated ?? local;
  });
  // A new paid subscription replaces an earlier one: stop billing the earlier one.
  for (const old of replaced) {
    await cancelProviderSubscription(deps, old, 'now').catch((err) =>
      deps.log.warn({ err, subscription: old }, 'the replaced Stripe subscription could not be cancelled'),
    );
  }
  return row;
}

/**
 * A paid invoice of a subscription: its credits (the template's credits for
 * the first one, the allowance for each renewal) under the invoice's key,
 * the period paid for, a lifted payment suspension and the revenue, once.
 * Returns the hectares added (0 when they were added before).
 */
async function allocateForInvoice(
  deps: AppDeps,
  localId: string,
  inv: { invoiceId: string; first: boolean; amount: number; currency: string; periodEnd?: Date | null },
): Promise<number> {
  return deps.database.db.transaction().execute(async (trx) => {
    const sub = await lockSubscription(trx, localId);
    if (!sub) return 0;
    const template = sub.template_id ? await findTemplate(trx, sub.template_id) : undefined;
    const hectares = inv.first ? (template?.credits ?? sub.credits_allowance) : sub.credits_allowance;
    const added = await creditSubscription(trx, sub, {
      key: `allocation:invoice:${inv.invoiceId}`,
      kind: 'allocation',
      hectares,
      note: inv.first ? 'first payment' : 'renewal payment',
    });
    const paymentLifted = sub.status === 'suspended' && sub.suspension_reason === 'payment';
    await updateSubscription(trx, sub.id, {
      ...(added !== null ? { last_allocation_date: new Date() } : {}),
      ...(inv.periodEnd ? { next_allocation_date: inv.periodEnd, valid_until: inv.periodEnd } : {}),
      payment_failed_at: null,
      grace_until: null,
      ...(paymentLifted ? { status: 'active' as const, suspension_reason: null } : {}),
    });
    await recordPayment(trx, {
      ref: inv.invoiceId,
      userId: sub.user_id,
      subscriptionId: sub.id,
      templateId: sub.template_id,
      amount: inv.amount,
      currency: inv.currency,
    });
    if (added !== null) {
      await insertEvent(trx, {
        subscriptionId: sub.id,
        actorId: null,
        action: 'credits-allocated',
        details: { source: 'stripe', invoice: inv.invoiceId, hectares, lifted: paymentLifted },
      });
    }
    return added === null ? 0 : hectares;
  });
}

function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const fromParent = idOf(invoice.parent?.subscription_details?.subscription ?? null);
  if (fromParent) return fromParent;
  // Payloads of API versions before 2025-03 carry it at the top.
  return idOf((invoice as unknown as { subscription?: string | { id: string } | null }).subscription ?? null);
}

async function applyInvoicePaid(deps: AppDeps, invoice: Stripe.Invoice): Promise<'applied' | 'ignored'> {
  const stripeSubId = invoiceSubscriptionId(invoice);
  if (!stripeSubId || !invoice.id) return 'ignored';
  const stripe = requireStripe(deps);
  const stripeSub = await provider(deps, 'subscriptions.retrieve', () => stripe.subscriptions.retrieve(stripeSubId));
  const local = await syncProviderSubscription(deps, stripeSub);
  if (!local) return 'ignored';
  await allocateForInvoice(deps, local.id, {
    invoiceId: invoice.id,
    first: invoice.billing_reason === 'subscription_create',
    amount: invoice.amount_paid,
    currency: invoice.currency,
    periodEnd: periodEndOf(stripeSub),
  });
  return 'applied';
}

async function applyPaymentFailed(deps: AppDeps, invoice: Stripe.Invoice): Promise<'applied' | 'ignored'> {
  const stripeSubId = invoiceSubscriptionId(invoice);
  if (!stripeSubId) return 'ignored';
  let local = await findByPaymentSubscription(deps.database.db, stripeSubId);
  if (!local) {
    const stripe = requireStripe(deps);
    const s = await provider(deps, 'subscriptions.retrieve', () => stripe.subscriptions.retrieve(stripeSubId));
    local = (await syncProviderSubscription(deps, s)) ?? undefined;
  }
  if (!local) return 'ignored';
  const graceDays = deps.config.PAYMENT_GRACE_DAYS;
  await deps.database.db.transaction().execute(async (trx) => {
    const sub = await lockSubscription(trx, local!.id);
    if (!sub) return;
    const now = new Date();
    const graceUntil = sub.grace_until ?? new Date(now.getTime() + graceDays * 86_400_000);
    await updateSubscription(trx, sub.id, { payment_failed_at: sub.payment_failed_at ?? now, grace_until: graceUntil });
    await insertEvent(trx, {
      subscriptionId: sub.id,
      actorId: null,
      action: 'payment-failed',
      details: { source: 'stripe', invoice: invoice.id, graceUntil: new Date(graceUntil).toISOString() },
    });
  });
  return 'applied';
}

/** What one event does; unknown types are acknowledged and ignored. */
async function applyEvent(deps: AppDeps, event: Stripe.Event): Promise<'applied' | 'ignored'> {
  const stripe = requireStripe(deps);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.expired': {
      const session = await provider(deps, 'checkout.sessions.retrieve', () =>
        stripe.checkout.sessions.retrieve(event.data.object.id),
      );
      return applySession(deps, session);
    }
    case 'invoice.paid':
    case 'invoice.payment_succeeded':
      return applyInvoicePaid(deps, event.data.object);
    case 'invoice.payment_failed':
      return applyPaymentFailed(deps, event.data.object);
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.paused':
    case 'customer.subscription.resumed': {
      const s = await provider(deps, 'subscriptions.retrieve', () =>
        stripe.subscriptions.retrieve(event.data.object.id),
      );
      return (await syncProviderSubscription(deps, s)) ? 'applied' : 'ignored';
    }
    default:
      return 'ignored';
  }
}

/**
 * The webhook (POST /api/billing/stripe/webhook): verifies the signature on
 * the raw body with STRIPE_WEBHOOK_SECRET (5 minutes' tolerance), then applies
 * the event once: a replayed or concurrent delivery of the same event id
 * changes nothing. A failure gives the claim back so that Stripe's retry
 * applies it.
 */
export async function handleWebhook(
  deps: AppDeps,
  rawBody: Uint8Array,
  signature: string | undefined,
): Promise<{ received: true; duplicate: boolean; outcome: 'applied' | 'ignored' | null }> {
  const stripe = stripeOf(deps);
  const secret = deps.config.STRIPE_WEBHOOK_SECRET;
  if (!stripe || !secret) throw notConfigured();
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(Buffer.from(rawBody), signature ?? '', secret, 300);
  } catch (err) {
    throw new AppError(
      400,
      'WEBHOOK_SIGNATURE_INVALID',
      `the webhook signature is not valid: ${(err as Error).message}`,
    );
  }
  const db = deps.database.db;
  if (!(await claimEvent(db, { id: event.id, type: event.type, created: new Date(event.created * 1000) }))) {
    return { received: true, duplicate: true, outcome: null };
  }
  try {
    const outcome = await applyEvent(deps, event);
    await finishEvent(db, event.id, outcome);
    return { received: true, duplicate: false, outcome };
  } catch (err) {
    await releaseEvent(db, event.id).catch(() => {});
    throw err;
  }
}

/**
 * Cancels a Stripe subscription: at the end of the period paid for (a
 * cancellation at the anniversary; answers that date) or now (replaced by a
 * newer one). Without Stripe configured nothing is sent (null).
 */
export async function cancelProviderSubscription(
  deps: AppDeps,
  paymentSubscriptionId: string,
  when: 'period_end' | 'now',
): Promise<Date | null> {
  const stripe = stripeOf(deps);
  if (!stripe) {
    deps.log.warn({ subscription: paymentSubscriptionId }, 'Stripe is not configured: the cancellation stays local');
    return null;
  }
  if (when === 'now') {
    await provider(deps, 'subscriptions.cancel', () => stripe.subscriptions.cancel(paymentSubscriptionId));
    return new Date();
  }
  const s = await provider(deps, 'subscriptions.update', () =>
    stripe.subscriptions.update(paymentSubscriptionId, { cancel_at_period_end: true }),
  );
  return periodEndOf(s);
}
