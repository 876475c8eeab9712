import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertAsset } from '../src/db/queries/assets.queries.js';
import { ledgerBalance } from '../src/db/queries/credits.queries.js';
import { currentSubscription } from '../src/db/queries/subscriptions.queries.js';
import { runBillingTick } from '../src/jobs/billing.task.js';
import { convertStandings } from '../src/services/subscription.service.js';
import { insertUser, json, send } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, cloudLayerId, createProject, type TestUser, testUser } from './projects.js';

const GB = 2 ** 30;

describe('subscriptions and templates', () => {
  let t: TestApp;
  let admin: TestUser;
  let ada: TestUser;

  const get = async (user: TestUser, url: string) => {
    const res = await t.app.request(url, as(user, 'GET'));
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return json(res);
  };
  const mine = async (user: TestUser) => (await get(user, '/api/subscriptions/current')).subscription;
  const post = (user: TestUser, url: string, body?: unknown) => t.app.request(url, as(user, 'POST', body));

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    admin = await testUser(t, 'root@example.com', ['admin', 'user']);
    ada = await testUser(t, 'ada@example.com');
  });
  afterAll(() => t?.close());

  it('a new account starts on the default freemium template (sign-up, admin creation, first use)', async () => {
    const reg = await t.app.request(
      '/api/auth-jwt/register',
      send('POST', {
        username: 'grace@example.com',
        password: 'Grand-Canyon-42',
        firstname: 'Grace',
        lastname: 'Hopper',
        country: 'fr',
      }),
    );
    expect(reg.status).toBe(201);
    const grace = await t.tdb.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'grace@example.com')
      .executeTakeFirstOrThrow();
    const sub = (await currentSubscription(t.tdb.db, grace.id))!;
    const template = await t.tdb.db
      .selectFrom('subscription_templates')
      .selectAll()
      .where('is_default', '=', true)
      .executeTakeFirstOrThrow();
    expect(template).toMatchObject({
      name: 'Freemium',
      category: 'FREEMIUM',
      credits: 1000,
      allocation_period: 'MONTH',
    });
    expect(sub).toMatchObject({
      template_id: template.id,
      category: 'FREEMIUM',
      status: 'active',
      global_status: 'ACTIVE',
      credits: 1000,
      credits_allowance: 1000,
      allocation_period: 'MONTH',
      is_current: true,
      creator_id: grace.id,
    });
    const days = (new Date(sub.next_allocation_date!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);

    const made = await post(admin, '/api/users', {
      roles: ['user'],
      userJwt: { username: 'made@example.com', password: 'Grand-Canyon-42' },
    });
    expect(made.status).toBe(201);
    expect((await currentSubscription(t.tdb.db, (await json(made)).id))?.category).toBe('FREEMIUM');

    // Ada was inserted straight into the database: her subscription comes with her first call.
    const adas = await mine(ada);
    expect(adas).toMatchObject({
      name: 'Freemium',
      status: 'active',
      credits: 1000,
      effectiveLimits: { maxProjects: 50, maxInputFileBytes: 10 * GB, maxStorageBytes: 100 * GB },
      limits: { maxProjects: null, maxInputFileBytes: null, maxStorageBytes: null },
      user: { id: ada.id, email: 'ada@example.com' },
      template: { id: template.id, name: 'Freemium' },
    });
    const ledger = await get(ada, '/api/subscriptions/current/ledger');
    expect(ledger.results.map((r: { kind: string; delta: number }) => [r.kind, r.delta])).toEqual([
      ['allocation', 1000],
    ]);
  });

  it('turns each 0004 standing into a subscription: status, limits, granted − charged', async () => {
    const withRow = await insertUser(t, { email: 'legacy-1@example.com' });
    const defaults = await insertUser(t, { email: 'legacy-2@example.com' });
    const none = await insertUser(t, { email: 'legacy-3@example.com' });
    await t.tdb.db
      .insertInto('user_limits')
      .values([
        { user_id: withRow, subscription_status: 'suspended', credit_hectares: 40, max_projects: 3 },
        { user_id: none, subscription_status: 'none' },
      ])
      .execute();
    await t.tdb.db
      .insertInto('charges')
      .values([
        { charge_key: 'legacy:1', user_id: withRow, hectares: 2.5 },
        { charge_key: 'legacy:2', user_id: defaults, hectares: 7 },
      ])
      .execute();
    expect(await convertStandings(t.deps)).toBeGreaterThanOrEqual(2);
    const one = (await currentSubscription(t.tdb.db, withRow))!;
    expect(one).toMatchObject({ status: 'suspended', credits: 37.5, max_projects: 3, allocation_period: 'NONE' });
    expect(await ledgerBalance(t.tdb.db, one.id)).toBe(37.5);
    expect((await currentSubscription(t.tdb.db, defaults))!).toMatchObject({ status: 'active', credits: 993 });
    expect(await currentSubscription(t.tdb.db, none)).toBeUndefined();
    const events = await t.tdb.db
      .selectFrom('subscription_events')
      .selectAll()
      .where('subscription_id', '=', one.id)
      .execute();
    expect(events.map((e) => e.action)).toEqual(['converted']);
    // Converting again changes nothing.
    await convertStandings(t.deps);
    expect((await currentSubscription(t.tdb.db, withRow))!.credits).toBe(37.5);
  });

  it('admin actions: suspend, reactivate, suspend all, activate the last one; each audited (who, when)', async () => {
    const sub = await mine(ada);
    const forbidden = await post(ada, `/api/admin/subscriptions/${sub.id}/suspend`);
    expect([forbidden.status, (await json(forbidden)).error.code]).toEqual([403, 'FORBIDDEN']);

    const suspended = await json(await post(admin, `/api/admin/subscriptions/${sub.id}/suspend`));
    expect(suspended).toMatchObject({ status: 'suspended', globalStatus: 'SUSPENDED', suspensionReason: 'admin' });
    const refused = await post(ada, '/api/projects', { name: 'While suspended' });
    expect([refused.status, (await json(refused)).error.code]).toEqual([403, 'SUBSCRIPTION_SUSPENDED']);
    const again = await post(admin, `/api/admin/subscriptions/${sub.id}/reactivate`);
    expect((await json(again)).status).toBe('active');
    const twice = await post(admin, `/api/admin/subscriptions/${sub.id}/reactivate`);
    expect([twice.status, (await json(twice)).error.code]).toEqual([409, 'SUBSCRIPTION_STATE_CONFLICT']);

    const all = await json(await post(admin, '/api/admin/subscriptions/suspend-all', { userId: ada.id }));
    expect(all).toEqual({ suspended: 1 });
    const last = await json(await post(admin, '/api/admin/subscriptions/activate-last', { userId: ada.id }));
    expect(last).toMatchObject({ id: sub.id, status: 'active', current: true });

    const detail = await get(admin, `/api/admin/subscriptions/${sub.id}`);
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual([
      'activated',
      'suspended',
      'reactivated',
      'suspended',
      'created',
    ]);
    expect(detail.events[0].actor).toEqual({ id: admin.id, email: 'root@example.com' });
    expect(Date.now() - new Date(detail.events[0].createdAt).getTime()).toBeLessThan(60_000);
    const missing = await post(admin, '/api/admin/subscriptions/999999/suspend');
    expect([missing.status, (await json(missing)).error.code]).toEqual([404, 'SUBSCRIPTION_NOT_FOUND']);
  });

  it('limits of the subscription apply, with the spec §8 errors', async () => {
    const sub = await mine(ada);
    const edit = await t.app.request(
      `/api/admin/subscriptions/${sub.id}`,
      as(admin, 'PATCH', { maxProjects: 1, maxInputFileBytes: 0, maxStorageBytes: 5 * GB }),
    );
    expect(edit.status).toBe(200);
    expect((await json(edit)).effectiveLimits).toEqual({
      maxProjects: 1,
      maxInputFileBytes: 0,
      maxStorageBytes: 5 * GB,
    });
    const p = await createProject(t, ada, 'Only one');
    const second = await post(ada, '/api/projects', { name: 'One too many' });
    const body = await json(second);
    expect([second.status, body.error.code, body.error.details]).toEqual([
      403,
      'MAX_PROJECTS_REACHED',
      { limit: 1, current: 1 },
    ]);
    const upload = await post(ada, '/api/assets/upload-signed-url', {
      layerId: cloudLayerId(p),
      type: 'POINT_CLOUD',
      filename: 'cloud.las',
      fileSize: 1000,
      lasHeaderData: {},
    });
    expect([upload.status, (await json(upload)).error.code]).toEqual([403, 'FILE_SIZE_LIMIT_ZERO']);
    await t.app.request(
      `/api/admin/subscriptions/${sub.id}`,
      as(admin, 'PATCH', { maxProjects: null, maxInputFileBytes: null, maxStorageBytes: null }),
    );
    const detail = await get(admin, `/api/admin/subscriptions/${sub.id}`);
    expect(detail.events[1]).toMatchObject({
      action: 'edited',
      details: { after: { maxProjects: 1, maxInputFileBytes: 0 }, before: { maxProjects: null } },
    });
  });

  it('credits by hand: added, taken off, never below zero, all in the ledger', async () => {
    const sub = await mine(ada);
    const add = await json(await post(admin, `/api/admin/subscriptions/${sub.id}/credits`, { hectares: 12.5 }));
    expect(add.credits).toBe(sub.credits + 12.5);
    const off = await json(
      await post(admin, `/api/admin/subscriptions/${sub.id}/credits`, { hectares: -2.5, note: 'fix' }),
    );
    expect(off.credits).toBe(sub.credits + 10);
    const tooMuch = await post(admin, `/api/admin/subscriptions/${sub.id}/credits`, { hectares: -1e6 });
    const body = await json(tooMuch);
    expect([tooMuch.status, body.error.code, body.error.details]).toEqual([
      409,
      'CREDITS_NEGATIVE',
      { available: sub.credits + 10 },
    ]);
    expect((await mine(ada)).credits).toBe(sub.credits + 10);
    expect(await ledgerBalance(t.tdb.db, sub.id)).toBe(sub.credits + 10);
    const page = await get(admin, `/api/admin/subscriptions/${sub.id}/ledger?limit=2`);
    expect(page.count).toBeGreaterThanOrEqual(3);
    expect(page.results.map((r: { kind: string; delta: number }) => [r.kind, r.delta])).toEqual([
      ['adjustment', -2.5],
      ['grant', 12.5],
    ]);
  });

  it('the period allocation: a freemium subscription is refilled up to its allowance, once per date', async () => {
    const sub = await mine(ada);
    await post(admin, `/api/admin/subscriptions/${sub.id}/credits`, { hectares: -(sub.credits - 100) });
    const due = new Date(sub.nextAllocationDate);
    expect((await runBillingTick(t.deps, new Date(due.getTime() - 60_000))).allocated).toBe(0);
    const result = await runBillingTick(t.deps, new Date(due.getTime() + 60_000));
    expect(result.allocated).toBeGreaterThanOrEqual(1);
    const refilled = await mine(ada);
    expect(refilled.credits).toBe(1000);
    expect(new Date(refilled.lastAllocationDate).getTime()).toBeGreaterThan(due.getTime());
    expect(new Date(refilled.nextAllocationDate).getTime()).toBeGreaterThan(due.getTime() + 27 * 86_400_000);
    // The same tick again: nothing more.
    await runBillingTick(t.deps, new Date(due.getTime() + 60_000));
    expect((await mine(ada)).credits).toBe(1000);
    const ledger = await get(ada, '/api/subscriptions/current/ledger');
    expect(ledger.results[0]).toMatchObject({ kind: 'allocation', delta: 900 });
  });

  it('templates: create, list, edit, deactivate and reactivate (audited); subscribe a user to one', async () => {
    const made = await post(admin, '/api/admin/subscription-templates', {
      name: 'Forestry yearly',
      description: 'Inventories',
      category: 'PAID',
      credits: 2000,
      creditsAllowance: 2000,
      allocationPeriod: 'YEAR',
      maxProjects: 500,
      maxInputFileBytes: 50 * GB,
      maxStorageBytes: 2000 * GB,
      premium: true,
    });
    expect(made.status).toBe(201);
    const template = await json(made);
    const bad = await post(admin, '/api/admin/subscription-templates', {
      name: 'Free with a price',
      category: 'FREEMIUM',
      paymentProductId: 'price_1',
    });
    expect([bad.status, (await json(bad)).error.code]).toEqual([400, 'FORM_INVALID']);
    const slash = await post(admin, '/api/admin/subscription-templates', { name: 'a/b', category: 'PAID' });
    expect(slash.status).toBe(400);

    const off = await t.app.request(
      `/api/admin/subscription-templates/${template.id}`,
      as(admin, 'PATCH', { enabled: false }),
    );
    expect((await json(off)).enabled).toBe(false);
    await t.app.request(`/api/admin/subscription-templates/${template.id}`, as(admin, 'PATCH', { enabled: true }));
    const detail = await get(admin, `/api/admin/subscription-templates/${template.id}`);
    expect(detail.events.map((e: { action: string }) => e.action)).toEqual(['reactivated', 'deactivated', 'created']);
    expect(detail.events[1].actor.email).toBe('root@example.com');

    const page = await get(admin, '/api/admin/subscription-templates?sortBy=name&order=ASC&limit=10');
    expect(page.results.map((r: { name: string }) => r.name)).toEqual(['Forestry yearly', 'Freemium']);
    const disabledOnly = await get(admin, '/api/admin/subscription-templates?enabled=false');
    expect(disabledOnly.count).toBe(0);

    const bob = await testUser(t, 'bob@example.com');
    const before = await mine(bob);
    const sub = await json(await post(admin, '/api/admin/subscriptions', { userId: bob.id, templateId: template.id }));
    expect(sub).toMatchObject({
      name: 'Forestry yearly',
      category: 'PAID',
      status: 'active',
      current: true,
      premium: true,
      credits: before.credits + 2000,
      creator: { id: admin.id, email: 'root@example.com' },
    });
    const list = await get(admin, `/api/admin/subscriptions?userId=${bob.id}&sortBy=startDate&order=ASC`);
    expect(
      list.results.map((s: { name: string; current: boolean; status: string }) => [s.name, s.current, s.status]),
    ).toEqual([
      ['Freemium', false, 'inactive'],
      ['Forestry yearly', true, 'active'],
    ]);
    const counted = await get(admin, `/api/admin/subscription-templates/${template.id}`);
    expect(counted.template).toMatchObject({ activeSubscriptions: 1, subscriptions: 1 });
  });

  it('cancel at the anniversary: active with the pending flag until then, then ended by the scheduled job', async () => {
    const sub = await mine(ada);
    const res = await post(ada, '/api/subscriptions/current/cancel');
    const pending = await json(res);
    expect(pending).toMatchObject({ status: 'active', unsubscribePending: true, validUntil: sub.nextAllocationDate });
    const again = await post(ada, '/api/subscriptions/current/cancel');
    expect((await json(again)).unsubscribePending).toBe(true);
    const at = new Date(pending.validUntil).getTime();
    expect((await runBillingTick(t.deps, new Date(at - 1000))).ended).toBe(0);
    expect((await runBillingTick(t.deps, new Date(at + 1000))).ended).toBe(1);
    const ended = await mine(ada);
    expect(ended).toMatchObject({ status: 'unsubscribed', globalStatus: 'INACTIVE', unsubscribePending: false });
    // Unsubscribed: no processing (subscribe again), uploads still allowed.
    const p = await t.tdb.db
      .selectFrom('projects')
      .select('id')
      .where('owner_id', '=', ada.id)
      .executeTakeFirstOrThrow();
    const layer = await t.tdb.db
      .selectFrom('layers')
      .select('id')
      .where('project_id', '=', p.id)
      .where('type', '=', 'POINT_CLOUD')
      .executeTakeFirstOrThrow();
    await upsertAsset(t.tdb.db, {
      projectId: p.id,
      layerId: layer.id,
      type: 'POINT_CLOUD',
      name: 'c.las',
      status: 'READY',
    });
    await t.tdb.db.updateTable('projects').set({ area_hectares: 1 }).where('id', '=', p.id).execute();
    const refused = await post(ada, `/api/projects/${p.id}/processing`, { options: {} });
    const body = await json(refused);
    expect([refused.status, body.error.code, body.error.details]).toEqual([
      403,
      'SUBSCRIPTION_INACTIVE',
      { status: 'unsubscribed' },
    ]);
    const events = (await get(admin, `/api/admin/subscriptions/${sub.id}`)).events;
    expect(events[0]).toMatchObject({ action: 'ended', actor: null, details: { reason: 'cancelled' } });
    expect(events[1]).toMatchObject({ action: 'cancel-requested', actor: { id: ada.id } });
    const cancelEnded = await post(admin, `/api/admin/subscriptions/${sub.id}/cancel`);
    expect([cancelEnded.status, (await json(cancelEnded)).error.code]).toEqual([409, 'SUBSCRIPTION_STATE_CONFLICT']);
  });

  it('statistics: real aggregates over a date range', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const stats = await get(admin, `/api/admin/statistics?from=${today}&to=${today}&interval=day`);
    expect(stats).toMatchObject({ from: today, to: today, interval: 'day' });
    const users = await t.tdb.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(stats.users).toEqual([{ period: today, added: Number(users.n), total: Number(users.n) }]);
    expect(stats.totals.users).toBe(Number(users.n));
    expect(stats.projects[0].total).toBeGreaterThanOrEqual(1);
    const freemium = stats.subscriptionsPerTemplate.find((s: { name: string }) => s.name === 'Freemium');
    expect(freemium.active).toBeGreaterThanOrEqual(3);
    expect(stats.subscriptionsPerTemplate.find((s: { name: string }) => s.name === 'Forestry yearly').active).toBe(1);
    const year = await get(admin, '/api/admin/statistics');
    expect(year.interval).toBe('month');
    expect(year.users).toHaveLength(12);
    const bad = await t.app.request('/api/admin/statistics?from=2026-05-02&to=2026-05-01', as(admin, 'GET'));
    expect(bad.status).toBe(400);
    const forbidden = await t.app.request('/api/admin/statistics', as(ada, 'GET'));
    expect(forbidden.status).toBe(403);
  });
});
