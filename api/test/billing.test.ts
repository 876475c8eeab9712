import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerBalance } from '../src/db/queries/credits.queries.js';
import { currentSubscription } from '../src/db/queries/subscriptions.queries.js';
import { runBillingTick } from '../src/jobs/billing.task.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, type TestUser, testUser } from './projects.js';
import { StripeFake } from './stripe-server.js';
import { creditsOf } from './subscriptions.js';

const WEBHOOK = '/api/billing/stripe/webhook';

describe('purchases without Stripe keys (the default npm start)', () => {
  let t: TestApp;
  let ada: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    [ada, admin] = await Promise.all([
      testUser(t, 'ada@example.com'),
      testUser(t, 'root@example.com', ['admin', 'user']),
    ]);
  });
  afterAll(() => t?.close());

  it('says purchases are not configured; an admin still grants credits by hand', async () => {
    const offers = await json(await t.app.request('/api/billing/offers', as(ada, 'GET')));
    expect(offers.paymentsConfigured).toBe(false);
    const template = await json(
      await t.app.request(
        '/api/admin/subscription-templates',
        as(admin, 'POST', { name: 'Pro', category: 'PAID', credits: 100, paymentProductId: 'price_x' }),
      ),
    );
    const checkout = await t.app.request('/api/billing/checkout', as(ada, 'POST', { templateId: template.id }));
    expect([checkout.status, (await json(checkout)).error.code]).toEqual([503, 'PAYMENTS_NOT_CONFIGURED']);
    const hook = await t.app.request(WEBHOOK, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      body: '{}',
    });
    expect([hook.status, (await json(hook)).error.code]).toEqual([503, 'PAYMENTS_NOT_CONFIGURED']);

    const current = await json(await t.app.request('/api/subscriptions/current', as(ada, 'GET')));
    const granted = await t.app.request(
      `/api/admin/subscriptions/${current.subscription.id}/credits`,
      as(admin, 'POST', { hectares: 250, note: 'a survey campaign' }),
    );
    expect(granted.status).toBe(200);
    expect((await json(granted)).credits).toBe(1250);
    const ledger = await json(await t.app.request('/api/subscriptions/current/ledger', as(ada, 'GET')));
    expect(ledger.results[0]).toMatchObject({
      kind: 'grant',
      delta: 250,
      note: 'a survey campaign',
      actor: { email: 'root@example.com' },
    });
  });
});

describe('purchases through Stripe (a local Stripe-speaking server)', () => {
  let t: TestApp;
  let stripe: StripeFake;
  let ada: TestUser;
  let admin: TestUser;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
  let monthly: any;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies
  let pack: any;

  /** Delivers a signed event to the app's webhook. */
  const deliver = (event: Stripe.Event | string, timestamp?: number) => {
    const { body, signature } = stripe.sign(event, timestamp);
    return t.app.request(WEBHOOK, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body,
    });
  };
  const current = async (user: TestUser) =>
    (await json(await t.app.request('/api/subscriptions/current', as(user, 'GET')))).subscription;

  beforeAll(async () => {
    stripe = new StripeFake();
    await stripe.start();
    t = await createTestApp({ TRUST_PROXY: 'true', PAYMENT_GRACE_DAYS: '3', ...stripe.env() });
    [ada, admin] = await Promise.all([
      testUser(t, 'ada@example.com'),
      testUser(t, 'root@example.com', ['admin', 'user']),
    ]);
    const monthlyPrice = stripe.addPrice({ unit_amount: 4900, currency: 'eur', recurring: { interval: 'month' } });
    const packPrice = stripe.addPrice({ unit_amount: 9900, currency: 'eur', recurring: null });
    const make = async (body: Record<string, unknown>) => {
      const res = await t.app.request('/api/admin/subscription-templates', as(admin, 'POST', body));
      if (res.status !== 201) throw new Error(`template: ${res.status} ${await res.text()}`);
      return json(res);
    };
    monthly = await make({
      name: 'Pro monthly',
      description: 'For surveyors',
      category: 'PAID',
      credits: 500,
      creditsAllowance: 300,
      allocationPeriod: 'MONTH',
      premium: true,
      price: { amount: 4900, currency: 'EUR' },
      paymentProductId: monthlyPrice.id,
      paymentProductReference: 'pro-monthly',
      maxProjects: 200,
      maxInputFileBytes: 20 * 2 ** 30,
      maxStorageBytes: 500 * 2 ** 30,
    });
    pack = await make({
      name: 'Pack 1000 ha',
      category: 'PAID',
      credits: 1000,
      allocationPeriod: 'NONE',
      price: { amount: 9900, currency: 'eur' },
      paymentProductId: packPrice.id,
    });
    await make({ name: 'Hidden', category: 'PAID', enabled: false, paymentProductId: monthlyPrice.id });
    await make({ name: 'Free plus', category: 'FREEMIUM', credits: 5 });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.stop();
  });

  it('the buy page lists the enabled PAID templates', async () => {
    const offers = await json(await t.app.request('/api/billing/offers', as(ada, 'GET')));
    expect(offers.paymentsConfigured).toBe(true);
    expect(offers.templates.map((o: { name: string }) => o.name)).toEqual(['Pro monthly', 'Pack 1000 ha']);
    expect(offers.templates[0]).toMatchObject({ price: { amount: 4900, currency: 'eur' }, creditsAllowance: 300 });
  });

  it('buy → pay → webhooks: the subscription is ready with its credits, added once', async () => {
    const before = await current(ada);
    expect(before).toMatchObject({ category: 'FREEMIUM', credits: 1000 });
    const start = await t.app.request('/api/billing/checkout', as(ada, 'POST', { templateId: monthly.id }));
    expect(start.status).toBe(200);
    const { url, sessionId } = await json(start);
    expect(url).toContain(`/pay/${sessionId}`);
    const session = stripe.sessions.get(sessionId)!;
    expect(session).toMatchObject({
      mode: 'subscription',
      client_reference_id: ada.id,
      metadata: { userId: ada.id, templateId: monthly.id },
      success_url: 'http://localhost:8080/#/user/subscription/buy/success?session_id={CHECKOUT_SESSION_ID}',
    });
    expect(stripe.customers.size).toBe(1);

    const events = stripe.pay(sessionId);
    // Out of order: the invoice first, then the subscription, then the checkout.
    const byType = (type: string) => events.find((e) => e.type === type)!;
    for (const e of [
      byType('invoice.paid'),
      byType('customer.subscription.created'),
      byType('checkout.session.completed'),
    ]) {
      const res = await deliver(e);
      expect(res.status).toBe(200);
      expect((await json(res)).duplicate).toBe(false);
    }
    const sub = await current(ada);
    expect(sub).toMatchObject({
      name: 'Pro monthly',
      category: 'PAID',
      status: 'active',
      globalStatus: 'ACTIVE',
      premium: true,
      // The freemium credits moved over, plus the template's 500 for the first invoice (once).
      credits: 1500,
      creditsAllowance: 300,
      paymentProductReference: 'pro-monthly',
      limits: { maxProjects: 200, maxInputFileBytes: 20 * 2 ** 30, maxStorageBytes: 500 * 2 ** 30 },
      template: { id: monthly.id, name: 'Pro monthly' },
    });
    expect(sub.paymentSubscriptionId).toMatch(/^sub_/);
    expect(new Date(sub.validUntil).getTime()).toBeGreaterThan(Date.now() + 20 * 86_400_000);
    expect(sub.nextAllocationDate).toBe(sub.validUntil);

    const status = await json(await t.app.request(`/api/billing/checkout/${sessionId}`, as(ada, 'GET')));
    expect(status).toMatchObject({ status: 'completed', hectares: 500, subscription: { id: sub.id } });
    // Another user cannot read it.
    const other = await t.app.request(`/api/billing/checkout/${sessionId}`, as(admin, 'GET'));
    expect([other.status, (await json(other)).error.code]).toEqual([404, 'CHECKOUT_NOT_FOUND']);

    const old = await t.tdb.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow();
    expect(old).toMatchObject({ is_current: false, status: 'inactive', credits: 0 });
    expect(await ledgerBalance(t.tdb.db, sub.id)).toBe(1500);
    const payments = await t.tdb.db.selectFrom('payments').selectAll().execute();
    expect(payments.map((p) => [p.amount, p.currency])).toEqual([[4900, 'eur']]);
  });

  it('a replayed event (100 deliveries, 50 at a time) adds its credits once', async () => {
    const sub = await current(ada);
    const { events } = stripe.renew(sub.paymentSubscriptionId);
    const paid = events.find((e) => e.type === 'invoice.paid')!;
    const outcomes: Array<{ duplicate: boolean }> = [];
    for (let round = 0; round < 2; round++) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => deliver(paid)));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      outcomes.push(...(await Promise.all(answers.map(json))));
    }
    expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(1);
    expect(outcomes.filter((o) => o.duplicate)).toHaveLength(99);
    const after = await current(ada);
    expect(after.credits).toBe(sub.credits + 300);
    const allocations = await t.tdb.db
      .selectFrom('charges')
      .select('charge_key')
      .where('charge_key', '=', `allocation:invoice:${paid.data.object.id}`)
      .execute();
    expect(allocations).toHaveLength(1);
    expect(await ledgerBalance(t.tdb.db, after.id)).toBe(after.credits);
    // The renewal moved the period on.
    expect(new Date(after.validUntil).getTime()).toBeGreaterThan(new Date(sub.validUntil).getTime());
  });

  it('refuses a wrong signature, a signature of more than 5 minutes and an altered body', async () => {
    const e = stripe.event('invoice.paid', { id: 'in_x', object: 'invoice' });
    const stale = await deliver(e, Math.floor(Date.now() / 1000) - 6 * 60);
    expect([stale.status, (await json(stale)).error.code]).toEqual([400, 'WEBHOOK_SIGNATURE_INVALID']);
    const { signature, body } = stripe.sign(e);
    const altered = await t.app.request(WEBHOOK, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: body.replace('in_x', 'in_y'),
    });
    expect([altered.status, (await json(altered)).error.code]).toEqual([400, 'WEBHOOK_SIGNATURE_INVALID']);
    const none = await t.app.request(WEBHOOK, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(none.status).toBe(400);
    const recent = await deliver(e, Math.floor(Date.now() / 1000) - 4 * 60);
    expect(recent.status).toBe(200);
    expect(await json(recent)).toMatchObject({ duplicate: false, outcome: 'ignored' });
  });

  it('a failed renewal suspends after the grace period; a paid invoice lifts it', async () => {
    const sub = await current(ada);
    const { events } = stripe.renew(sub.paymentSubscriptionId, 'failed');
    for (const e of events) expect((await deliver(e)).status).toBe(200);
    const failing = await current(ada);
    expect(failing.status).toBe('active');
    expect(failing.paymentFailedAt).not.toBeNull();
    const graceUntil = new Date(failing.graceUntil).getTime();
    expect(graceUntil - Date.now()).toBeGreaterThan(2.9 * 86_400_000);
    expect((await runBillingTick(t.deps, new Date(Date.now() + 2 * 86_400_000))).suspended).toBe(0);
    expect((await runBillingTick(t.deps, new Date(graceUntil + 1000))).suspended).toBe(1);
    expect(await current(ada)).toMatchObject({ status: 'suspended', suspensionReason: 'payment' });
    const refused = await t.app.request('/api/projects', as(ada, 'POST', { name: 'While unpaid' }));
    expect((await json(refused)).error.code).toBe('SUBSCRIPTION_SUSPENDED');

    const { events: paidAgain } = stripe.renew(sub.paymentSubscriptionId, 'paid');
    for (const e of paidAgain) expect((await deliver(e)).status).toBe(200);
    expect(await current(ada)).toMatchObject({ status: 'active', suspensionReason: null, graceUntil: null });
    const events2 = await json(await t.app.request(`/api/admin/subscriptions/${sub.id}`, as(admin, 'GET')));
    expect(events2.events.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['payment-failed', 'suspended', 'credits-allocated']),
    );
  });

  it('cancel by the user: cancelled at Stripe at the period end, active until then, ended by the tick', async () => {
    const sub = await current(ada);
    const res = await t.app.request('/api/subscriptions/current/cancel', as(ada, 'POST'));
    expect(res.status).toBe(200);
    const pending = await json(res);
    expect(pending).toMatchObject({ status: 'active', unsubscribePending: true });
    expect(pending.validUntil).toBe(sub.validUntil);
    expect(stripe.subscriptions.get(sub.paymentSubscriptionId)!.cancel_at_period_end).toBe(true);
    // Stripe's own update event agrees.
    const updated = stripe.event('customer.subscription.updated', stripe.subscriptions.get(sub.paymentSubscriptionId)!);
    expect((await deliver(updated)).status).toBe(200);
    expect(await current(ada)).toMatchObject({ status: 'active', unsubscribePending: true });
    expect((await runBillingTick(t.deps, new Date(new Date(sub.validUntil).getTime() - 1000))).ended).toBe(0);
    expect((await runBillingTick(t.deps, new Date(new Date(sub.validUntil).getTime() + 1000))).ended).toBe(1);
    expect(await current(ada)).toMatchObject({ status: 'unsubscribed', unsubscribePending: false });
  });

  it('events out of order: a late "updated" after "deleted" does not bring a subscription back', async () => {
    const bob = await testUser(t, 'bob@example.com');
    const { sessionId } = await json(
      await t.app.request('/api/billing/checkout', as(bob, 'POST', { templateId: monthly.id })),
    );
    const events = stripe.pay(sessionId);
    const subId = String(stripe.sessions.get(sessionId)!.subscription);
    const staleUpdate = stripe.event('customer.subscription.updated', stripe.subscriptions.get(subId)!);
    const deleted = stripe.cancel(subId);
    expect((await deliver(deleted)).status).toBe(200);
    for (const e of events) expect((await deliver(e)).status).toBe(200);
    expect((await deliver(staleUpdate)).status).toBe(200);
    const rows = await t.tdb.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('payment_subscription_id', '=', subId)
      .execute();
    // Stripe says it is cancelled: nothing stays active (and the checkout did not make it active again).
    expect(rows.every((r) => r.status !== 'active')).toBe(true);
  });

  it('a pack adds its credits to the current subscription', async () => {
    const carol = await testUser(t, 'carol@example.com');
    const { sessionId } = await json(
      await t.app.request('/api/billing/checkout', as(carol, 'POST', { templateId: pack.id })),
    );
    expect(stripe.sessions.get(sessionId)!.mode).toBe('payment');
    const [completed] = stripe.pay(sessionId);
    // The success page may ask before the webhook arrives: it applies the session itself.
    const status = await json(await t.app.request(`/api/billing/checkout/${sessionId}`, as(carol, 'GET')));
    expect(status).toMatchObject({ status: 'completed', mode: 'payment', hectares: 1000 });
    const res = await deliver(completed!);
    expect(await json(res)).toMatchObject({ duplicate: false });
    expect(await creditsOf(t, carol.id)).toBe(2000);
    expect((await current(carol)).category).toBe('FREEMIUM');
  });

  it('the cancel page cancels the purchase: the session can no longer be paid', async () => {
    const dan = await testUser(t, 'dan@example.com');
    const { sessionId } = await json(
      await t.app.request('/api/billing/checkout', as(dan, 'POST', { templateId: monthly.id })),
    );
    const res = await t.app.request(`/api/billing/checkout/${sessionId}/cancel`, as(dan, 'POST'));
    expect(await json(res)).toMatchObject({ status: 'cancelled', hectares: null });
    expect(stripe.sessions.get(sessionId)!.status).toBe('expired');
    expect(() => stripe.pay(sessionId)).toThrow();
    expect((await current(dan)).category).toBe('FREEMIUM');
  });

  it('a disabled, FREEMIUM or unknown template cannot be bought', async () => {
    const templates = await json(
      await t.app.request('/api/admin/subscription-templates?sortBy=name&order=ASC', as(admin, 'GET')),
    );
    const byName = (n: string) => templates.results.find((x: { name: string }) => x.name === n).id;
    for (const [templateId, status, code] of [
      [byName('Hidden'), 409, 'TEMPLATE_NOT_AVAILABLE'],
      [byName('Free plus'), 409, 'TEMPLATE_NOT_AVAILABLE'],
      ['999999', 404, 'TEMPLATE_NOT_FOUND'],
    ] as const) {
      const res = await t.app.request('/api/billing/checkout', as(ada, 'POST', { templateId }));
      expect([res.status, (await json(res)).error.code]).toEqual([status, code]);
    }
    const sub = await currentSubscription(t.tdb.db, ada.id);
    expect(sub).toBeDefined();
  });
});
