import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitFor } from '../../test/projects.js';
import { createApp } from '../app.js';
import { createDatabase } from '../db/client.js';
import type { ErrorBody } from '../errors.js';
import { ensureAdmin } from '../services/bootstrap.service.js';
import type { HealthReport } from '../services/health.service.js';
import { startWorker } from '../worker/runner.js';

describe('GET /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports the server database, its PostGIS version and the migration version', async () => {
    const res = await t.app.request('/api/health');
    expect(res.status).toBe(200);
    const body = (await res.json()) as HealthReport;
    expect(body.database.kind).toBe('server');
    expect(body.database.postgis).toMatch(/^3\.\d+/);
    expect(body.database.migrationVersion).toBeGreaterThanOrEqual(1);
    expect(body.storage.freeBytes).toBeGreaterThan(0);
    expect(body.worker.heartbeatAgeSeconds).toBeNull();
  });

  it('shows a live worker heartbeat once a worker runs', async () => {
    const worker = await startWorker(t.deps, { databaseUrl: t.tdb.url });
    try {
      const body = (await (await t.app.request('/api/health')).json()) as HealthReport;
      expect(body.worker.live).toBe(1);
      expect(body.worker.heartbeatAgeSeconds).toBeLessThan(10);
    } finally {
      await worker.stop();
    }
  });

  it("closes every one of the worker's database connections before stop() resolves", async () => {
    // A connection still closing when stop() returned was cut by the test's DROP DATABASE
    // ... WITH (FORCE) and raised an unhandled 'error' event (CI saw it twice).
    const workerConnections = async () =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from pg_stat_activity
            where datname = current_database() and application_name = 'nuage-worker'`.execute(t.tdb.db)
        ).rows[0]!.n,
      );
    // The previous test's worker has closed its connections, but the server may list their backends
    // for a moment more: counting them here would pass the wait below before this worker connects.
    await waitFor(async () => (await workerConnections()) === 0, 10_000, "the previous worker's backends to end");
    const worker = await startWorker(t.deps, { databaseUrl: t.tdb.url });
    await waitFor(async () => (await workerConnections()) > 0, 10_000, 'the worker to connect');
    await worker.stop();
    // Every client is closed when stop() resolves (what DROP DATABASE ... WITH (FORCE) would have cut)…
    expect(worker.pool.totalCount).toBe(0);
    // …and the server ends their backends: it may list one for a few milliseconds after the client's
    // Terminate (CI saw 1 listed at once), so the server side gets a short wait, never a pass without 0.
    await waitFor(async () => (await workerConnections()) === 0, 5000, "the worker's backends to end");
    expect(await workerConnections()).toBe(0);
  });

  it('answers 503 with a JSON error when the database is unreachable', async () => {
    // Same app, but its pool points at a port where no database listens.
    const database = createDatabase('postgres://postgres@127.0.0.1:1/none');
    const app = createApp({ ...t.deps, database });
    const res = await app.request('/api/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: { code: 'DATABASE_UNAVAILABLE', message: 'the database cannot be reached' },
    });
    await database.close();
  });

  it('creates the first admin once, and never a second', async () => {
    expect(await ensureAdmin(t.deps)).toBeNull(); // ADMIN_PASSWORD is set: nothing generated
    await ensureAdmin(t.deps);
    const admins = await t.tdb.db.selectFrom('users').select(['email', 'roles', 'enabled']).execute();
    expect(admins).toEqual([{ email: 'admin@nuage.local', roles: ['admin', 'user'], enabled: true }]);
  });
});

describe('unknown paths', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers a JSON 404 under /api', async () => {
    const res = await t.app.request('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(((await res.json()) as ErrorBody).error.code).toBe('NOT_FOUND');
  });

  it('serves the OGC API conformance classes', async () => {
    const res = await t.app.request('/ogc/conformance');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { conformsTo: string[] }).conformsTo).toContain(
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
    );
  });
});
