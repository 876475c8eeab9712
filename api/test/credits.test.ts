import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertAsset } from '../src/db/queries/assets.queries.js';
import { ledgerBalance } from '../src/db/queries/credits.queries.js';
import { currentSubscription } from '../src/db/queries/subscriptions.queries.js';
import { runBillingTick } from '../src/jobs/billing.task.js';
import { settleJob } from '../src/services/credits.service.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { as, cloudLayerId, createProject, type TestUser, testUser } from './projects.js';
import { creditsOf, setStanding } from './subscriptions.js';

/** A project whose point cloud is tiled (READY) and measured: `hectares` big. */
async function readyProject(t: TestApp, user: TestUser, name: string, hectares: number): Promise<string> {
  const p = await createProject(t, user, name);
  await upsertAsset(t.tdb.db, {
    projectId: p.id,
    layerId: cloudLayerId(p),
    type: 'POINT_CLOUD',
    name: 'cloud.laz',
    status: 'READY',
  });
  await t.tdb.db
    .updateTable('projects')
    .set({ area_hectares: hectares, status: 'READY' })
    .where('id', '=', p.id)
    .execute();
  return p.id;
}

const OPTIONS = { dtmResolutionCm: 200 };

describe('credits are reserved atomically when processing is requested', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true', DEFAULT_MAX_PROJECTS: '100' });
    [ada, bob] = await Promise.all([testUser(t, 'ada@example.com'), testUser(t, 'bob@example.com')]);
  });
  afterAll(() => t?.close());

  const request = (user: TestUser, projectId: string) =>
    t.app.request(`/api/projects/${projectId}/processing`, as(user, 'POST', { options: OPTIONS }));

  it('with credits for one processing, four parallel requests on four projects give one 202 and three 402', async () => {
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await readyProject(t, bob, `Four ${i}`, 1));
    await setStanding(t, bob.id, { credits: 1.5 });
    const answers = await Promise.all(ids.map((id) => request(bob, id)));
    const bodies = await Promise.all(answers.map(json));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([202, 402, 402, 402]);
    for (const b of bodies.filter((_, i) => answers[i]!.status === 402)) {
      expect(b.error.code).toBe('INSUFFICIENT_CREDITS');
      expect(b.error.details).toEqual({ required: 1, available: 0.5 });
      expect(b.error.message).toContain('1 ha');
      expect(b.error.message).toContain('0.5 ha left');
    }
    expect(await creditsOf(t, bob.id)).toBeCloseTo(0.5, 9);
    // The refused requests left no job behind.
    const jobs = await t.tdb.db.selectFrom('jobs').select('id').where('project_id', 'in', ids).execute();
    expect(jobs).toHaveLength(1);
  });

  it('20 parallel requests with credits for 3: exactly 3 accepted, 17 INSUFFICIENT_CREDITS, never below zero', async () => {
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await readyProject(t, ada, `Parallel ${i}`, 2.5));
    await setStanding(t, ada.id, { credits: 3 * 2.5 + 0.4 });
    const sub = (await currentSubscription(t.tdb.db, ada.id))!;
    // Watch the balance while the requests run: it must never be negative.
    let lowest = Number.POSITIVE_INFINITY;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const row = await t.tdb.db
          .selectFrom('subscriptions')
          .select('credits')
          .where('id', '=', sub.id)
          .executeTakeFirst();
        lowest = Math.min(lowest, row!.credits);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const answers = await Promise.all(ids.map((id) => request(ada, id)));
    watching = false;
    await watcher;
    const bodies = await Promise.all(answers.map(json));
    const accepted = answers.filter((r) => r.status === 202);
    const refused = bodies.filter((b) => b.error?.code === 'INSUFFICIENT_CREDITS');
    expect(accepted).toHaveLength(3);
    expect(refused).toHaveLength(17);
    expect(answers.filter((r) => r.status === 402)).toHaveLength(17);
    expect(lowest).toBeGreaterThanOrEqual(0);
    const left = await creditsOf(t, ada.id);
    expect(left).toBeCloseTo(0.4, 9);
    // Three reservations in the ledger, one per accepted job, and the ledger sums to the balance.
    const reservations = await t.tdb.db
      .selectFrom('charges')
      .selectAll()
      .where('kind', '=', 'reservation')
      .where('user_id', '=', ada.id)
      .execute();
    expect(reservations).toHaveLength(3);
    expect(new Set(reservations.map((r) => r.job_id)).size).toBe(3);
    expect(reservations.every((r) => r.delta === -2.5 && r.charge_key.startsWith('reserve:processing:'))).toBe(true);
    expect(await ledgerBalance(t.tdb.db, sub.id)).toBeCloseTo(left, 9);
  });

  it('a failure of ours releases the reservation, a success charges it, each once', async () => {
    const jobs = await t.tdb.db
      .selectFrom('charges')
      .select('job_id')
      .where('kind', '=', 'reservation')
      .where('user_id', '=', ada.id)
      .orderBy('id')
      .execute();
    const [failed, succeeded] = [jobs[0]!.job_id!, jobs[1]!.job_id!];
    const before = await creditsOf(t, ada.id);
    await t.tdb.db.transaction().execute((trx) => settleJob(trx, failed, 'release', 'INTERNAL'));
    expect(await creditsOf(t, ada.id)).toBeCloseTo(before + 2.5, 9);
    // Settled once: a second release or a charge of the same job changes nothing.
    expect(await t.tdb.db.transaction().execute((trx) => settleJob(trx, failed, 'release'))).toBeNull();
    expect(await t.tdb.db.transaction().execute((trx) => settleJob(trx, failed, 'charge'))).toBeNull();
    expect(await creditsOf(t, ada.id)).toBeCloseTo(before + 2.5, 9);

    const charge = await t.tdb.db.transaction().execute((trx) => settleJob(trx, succeeded, 'charge', 'done'));
    expect(charge).toMatchObject({ kind: 'charge', hectares: 2.5, delta: 0 });
    expect(await t.tdb.db.transaction().execute((trx) => settleJob(trx, succeeded, 'charge'))).toBeNull();
    expect(await creditsOf(t, ada.id)).toBeCloseTo(before + 2.5, 9);
    const totals = await t.tdb.db
      .selectFrom('user_credit_totals')
      .selectAll()
      .where('user_id', '=', ada.id)
      .executeTakeFirstOrThrow();
    expect(totals.charged_hectares).toBe(2.5);
  });

  it('a project deleted while its processing waits: the billing tick gives its credits back', async () => {
    const third = await t.tdb.db
      .selectFrom('charges as r')
      .select(['r.job_id', 'r.project_id'])
      .where('r.kind', '=', 'reservation')
      .where('r.user_id', '=', ada.id)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('charges as s').select('s.id').whereRef('s.reservation_id', '=', 'r.id'))),
      )
      .executeTakeFirstOrThrow();
    const before = await creditsOf(t, ada.id);
    const res = await t.app.request(`/api/projects/${third.project_id}`, as(ada, 'DELETE'));
    expect(res.status).toBeLessThan(300);
    // Not yet: the tick leaves reservations younger than 2 minutes alone.
    expect((await runBillingTick(t.deps)).settled).toBe(0);
    const later = new Date(Date.now() + 5 * 60_000);
    expect((await runBillingTick(t.deps, later)).settled).toBe(1);
    expect(await creditsOf(t, ada.id)).toBeCloseTo(before + 2.5, 9);
    expect((await runBillingTick(t.deps, later)).settled).toBe(0);
  });
});
