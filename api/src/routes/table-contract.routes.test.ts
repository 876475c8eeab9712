import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from '../../test/accounts.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { as, createProject, type TestUser, testUser } from '../../test/projects.js';
import { enqueueJob, insertJob } from '../db/queries/jobs.queries.js';
import { ensureQueue } from '../jobs/queue.js';

/**
 * The table contract of spec §7 on every paged list (limit, offset, sortBy,
 * order ASC|DESC, search): whitelisted sort columns (an unknown one is a 400
 * naming the parameter), search, paging; and the queue state the waiting
 * messages read instead of a fixed "about 3 minutes".
 */
let t: TestApp;
let ada: TestUser;
let bob: TestUser;
let admin: TestUser;
const names = ['Quarry north', 'alpha survey', 'Bridge deck', 'quarry south', 'Zeta corridor'];
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: 'true' });
  [ada, bob, admin] = await Promise.all([
    testUser(t, 'ada@example.com'),
    testUser(t, 'bob@example.com'),
    testUser(t, 'root@example.com', ['admin', 'user']),
  ]);
  for (const name of names) ids[name] = (await createProject(t, ada, name)).id;
  ids['Bob quarry'] = (await createProject(t, bob, 'Bob quarry')).id;
});
afterAll(() => t?.close());

const namesOf = (page: { results: Array<{ name: string }> }) => page.results.map((p) => p.name);

describe('sortBy is whitelisted on every list', () => {
  const lists = [
    '/api/projects',
    '/api/admin/projects',
    '/api/users',
    '/api/admin/process-data',
    '/api/admin/tiling',
    '/api/admin/metadata-processing',
    '/api/admin/subscriptions',
    '/api/admin/subscription-templates',
  ];

  it('answers 400 FORM_INVALID naming sortBy for a column it does not sort by', async () => {
    for (const list of lists) {
      for (const bad of ['password_hash', 'name;DROP TABLE users', 'projects.id']) {
        const res = await t.app.request(`${list}?sortBy=${encodeURIComponent(bad)}`, as(admin, 'GET'));
        const body = await json(res);
        expect({ list, bad, status: res.status, code: body.error.code }).toEqual({
          list,
          bad,
          status: 400,
          code: 'FORM_INVALID',
        });
        expect(body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['sortBy']);
        expect(body.error.message).toMatch(/^sortBy: /);
      }
    }
  });

  it('names order, limit and offset when they are wrong', async () => {
    for (const [q, field] of [
      ['order=SIDEWAYS', 'order'],
      ['limit=0', 'limit'],
      ['limit=10001', 'limit'],
      ['offset=-1', 'offset'],
    ]) {
      const body = await json(await t.app.request(`/api/projects?${q}`, as(ada, 'GET')));
      expect(body.error.details.fields[0].field, q).toBe(field);
    }
  });
});

describe('GET /api/projects: sort, search and paging', () => {
  it('sorts by name either way, case-insensitively', async () => {
    const asc = await json(await t.app.request('/api/projects?sortBy=name&order=ASC', as(ada, 'GET')));
    expect(namesOf(asc)).toEqual(['alpha survey', 'Bridge deck', 'Quarry north', 'quarry south', 'Zeta corridor']);
    const desc = await json(await t.app.request('/api/projects?sortBy=name&order=DESC', as(ada, 'GET')));
    expect(namesOf(desc)).toEqual([...namesOf(asc)].reverse());
  });

  it('searches names case-insensitively, within the owner’s projects, with LIKE characters taken literally', async () => {
    const quarry = await json(await t.app.request('/api/projects?search=QUARRY&sortBy=name&order=ASC', as(ada, 'GET')));
    expect(quarry).toMatchObject({ count: 2 });
    expect(namesOf(quarry)).toEqual(['Quarry north', 'quarry south']);
    const none = await json(await t.app.request(`/api/projects?search=${encodeURIComponent('_')}`, as(ada, 'GET')));
    expect(none).toEqual({ count: 0, results: [] });
    const all = await json(await t.app.request('/api/admin/projects?search=quarry&sortBy=name', as(admin, 'GET')));
    expect(new Set(namesOf(all))).toEqual(new Set(['Quarry north', 'quarry south', 'Bob quarry']));
  });

  it('pages with limit and offset; the count is over every page; 10 000 rows is the “all” page', async () => {
    const pages = [];
    for (const offset of [0, 2, 4]) {
      pages.push(
        await json(await t.app.request(`/api/projects?limit=2&offset=${offset}&sortBy=name&order=ASC`, as(ada, 'GET'))),
      );
    }
    expect(pages.map((p) => p.count)).toEqual([5, 5, 5]);
    expect(pages.map((p) => p.results.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap(namesOf)).toEqual([
      'alpha survey',
      'Bridge deck',
      'Quarry north',
      'quarry south',
      'Zeta corridor',
    ]);
    const all = await json(await t.app.request('/api/projects?limit=10000', as(ada, 'GET')));
    expect(all.results).toHaveLength(5);
    const beyond = await json(await t.app.request('/api/projects?limit=10&offset=50', as(ada, 'GET')));
    expect(beyond).toEqual({ count: 5, results: [] });
  });
});

describe('admin job monitors: search and sort', () => {
  beforeAll(async () => {
    const db = t.tdb.db;
    for (const name of ['Quarry north', 'Bridge deck', 'Bob quarry']) {
      await insertJob(db, {
        kind: 'TILING',
        projectId: ids[name]!,
        assetId: null,
        userId: name === 'Bob quarry' ? bob.id : ada.id,
        state: 'SUCCESS',
      });
    }
  });

  it('searches project names and user emails, and sorts by project name', async () => {
    const quarry = await json(
      await t.app.request('/api/admin/tiling?search=quarry&sortBy=project&order=ASC', as(admin, 'GET')),
    );
    expect(quarry.count).toBe(2);
    expect(quarry.results.map((j: { projectName: string }) => j.projectName)).toEqual(['Bob quarry', 'Quarry north']);
    const desc = await json(
      await t.app.request('/api/admin/tiling?search=quarry&sortBy=project&order=DESC', as(admin, 'GET')),
    );
    expect(desc.results.map((j: { projectName: string }) => j.projectName)).toEqual(['Quarry north', 'Bob quarry']);
    const bobs = await json(await t.app.request('/api/admin/tiling?search=bob%40example', as(admin, 'GET')));
    expect(bobs.results.map((j: { projectName: string }) => j.projectName)).toEqual(['Bob quarry']);
    const byId = await json(await t.app.request(`/api/admin/tiling?search=${quarry.results[0].id}`, as(admin, 'GET')));
    expect(byId.results.map((j: { id: string }) => j.id)).toContain(quarry.results[0].id);
    const nothing = await json(await t.app.request('/api/admin/tiling?search=%25', as(admin, 'GET')));
    expect(nothing).toEqual({ count: 0, results: [] });
    const other = await json(await t.app.request('/api/admin/process-data?search=quarry', as(admin, 'GET')));
    expect(other.count).toBe(0);
  });
});

describe('queue state of waiting and running jobs', () => {
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are arbitrary JSON
  const tilingOf = async (name: string): Promise<any> =>
    (await json(await t.app.request(`/api/projects/${ids[name]}`, as(ada, 'GET')))).jobs.tiling;

  it('gives each queued job its place, the jobs running, the workers alive and a retry’s back-off', async () => {
    const db = t.tdb.db;
    // Before any queue exists, a waiting job has no place yet (and nothing fails).
    const early = await insertJob(db, {
      kind: 'METADATA',
      projectId: ids['Bridge deck']!,
      assetId: null,
      userId: ada.id,
      state: 'PENDING',
    });
    const before = (await json(await t.app.request(`/api/projects/${ids['Bridge deck']}`, as(ada, 'GET')))).jobs
      .metadata;
    expect(before.queue).toMatchObject({ position: null, running: 0, workers: 0, queuedAt: null });
    await sql`DELETE FROM jobs WHERE id = ${early.id}`.execute(db);
    await ensureQueue(t.deps);
    const queued: string[] = [];
    for (const name of ['alpha survey', 'quarry south', 'Zeta corridor']) {
      const job = await insertJob(db, {
        kind: 'TILING',
        projectId: ids[name]!,
        assetId: null,
        userId: ada.id,
        state: 'PENDING',
      });
      await enqueueJob(db, job, 3);
      queued.push(job.id);
    }
    const first = await tilingOf('alpha survey');
    expect(first.queue).toMatchObject({
      position: 1,
      running: 0,
      workers: 0,
      waitingForPointCloud: false,
      startedAt: null,
      attempts: 0,
      maxAttempts: 3,
    });
    expect(Date.parse(first.queue.queuedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await tilingOf('quarry south')).queue.position).toBe(2);
    expect((await tilingOf('Zeta corridor')).queue.position).toBe(3);

    // A worker takes the first one: it runs, and the others move up.
    await sql`INSERT INTO worker_heartbeats (worker_id, hostname, pid) VALUES ('w-test', 'host', 1)`.execute(db);
    await sql`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'w-test', attempts = 1
      WHERE key = ${`job-${queued[0]}`}`.execute(db);
    await sql`UPDATE jobs SET state = 'PROGRESS', started_at = now() - interval '90 seconds', worker_id = 'w-test'
      WHERE id = ${queued[0]}`.execute(db);
    const running = await tilingOf('alpha survey');
    expect(running.queue).toMatchObject({ position: null, running: 1, workers: 1, attempts: 1 });
    const since = (Date.now() - Date.parse(running.queue.startedAt)) / 1000;
    expect(since).toBeGreaterThan(80);
    expect(since).toBeLessThan(300);
    expect((await tilingOf('quarry south')).queue).toMatchObject({ position: 1, running: 1, workers: 1 });
    expect((await tilingOf('Zeta corridor')).queue.position).toBe(2);

    // The second one failed once and waits for its back-off: the third goes first.
    await sql`UPDATE graphile_worker._private_jobs SET run_at = now() + interval '5 minutes', attempts = 1
      WHERE key = ${`job-${queued[1]}`}`.execute(db);
    const retry = (await tilingOf('quarry south')).queue;
    expect(retry).toMatchObject({ position: 2, attempts: 1, maxAttempts: 3 });
    expect(Date.parse(retry.runAt)).toBeGreaterThan(Date.now() + 200_000);
    expect((await tilingOf('Zeta corridor')).queue.position).toBe(1);

    // The list carries the same state, so My projects shows it without opening the project.
    const list = await json(await t.app.request('/api/projects?limit=100', as(ada, 'GET')));
    const zeta = list.results.find((p: { id: string }) => p.id === ids['Zeta corridor']);
    expect(zeta.jobs.tiling.queue).toMatchObject({ position: 1, running: 1, workers: 1 });
    const bridge = list.results.find((p: { id: string }) => p.id === ids['Bridge deck']);
    expect(bridge.jobs.tiling).toMatchObject({ state: 'SUCCESS' });
    expect(bridge.jobs.tiling.queue).toBeUndefined();
  });

  it('says a processing waits for its point cloud until the tiling queues it', async () => {
    await insertJob(t.tdb.db, {
      kind: 'PROCESSING',
      projectId: ids['Zeta corridor']!,
      assetId: null,
      userId: ada.id,
      state: 'PENDING',
    });
    const project = await json(await t.app.request(`/api/projects/${ids['Zeta corridor']}`, as(ada, 'GET')));
    expect(project.jobs.processing.queue).toMatchObject({
      position: null,
      waitingForPointCloud: true,
      queuedAt: null,
      runAt: null,
    });
  });
});
