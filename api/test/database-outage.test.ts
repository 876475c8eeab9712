import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '@nuage/migrations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { AppDeps } from '../src/context.js';
import { createDatabase } from '../src/db/client.js';
import { createLogger } from '../src/log.js';
import { openLocalStorage } from '../src/storage.js';
import type { TestApp } from './app.js';
import { type PrivatePostgres, postgresBinDir, startPrivatePostgres } from './private-postgres.js';
import { as, createProject, testUser } from './projects.js';

interface Outcome {
  ogc: boolean;
  status: number;
  code: string | undefined;
  retryAfter: string | null;
  at: number;
  ms: number;
}

/**
 * A real PostgreSQL server of this file's own (the shared one cannot be stopped)
 * is stopped with `pg_ctl stop -m fast` during a load of renames and listings,
 * then started again: every request answers 503 DATABASE_UNAVAILABLE with
 * Retry-After within about 2 s while it is away, and the API recovers by itself.
 */
describe.skipIf(!postgresBinDir())('database outage under load (private PostgreSQL stopped and started)', () => {
  let pg: PrivatePostgres;
  let t: TestApp;

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    const database = createDatabase(pg.url, { applicationName: 'nuage-outage-test' });
    await migrate(database.pool);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'nuage-outage-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: pg.url,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      PUBLIC_URL: 'http://localhost:8080',
      ADMIN_PASSWORD: 'Admin-Passw0rd!',
      TILER_WARM_UP: 'false',
    });
    const log = createLogger({ level: config.LOG_LEVEL, role: 'test' });
    const storage = await openLocalStorage(config.STORAGE_DIR);
    const deps: AppDeps = { config, database, log, storage, migrationVersion: 0 };
    t = {
      app: createApp(deps),
      deps,
      tdb: { ...database, url: pg.url, name: 'postgres', drop: () => database.close() },
      dataDir,
      async close() {
        await database.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  });
  afterAll(async () => {
    await t?.close();
    await pg?.destroy();
  });

  it('answers 503 + Retry-After within ~2 s during the outage and recovers by itself after it', async () => {
    const ada = await testUser(t, 'outage@example.com');
    const project = await createProject(t, ada, 'Outage 0');
    const origin = performance.now();
    const outcomes: Outcome[] = [];
    let running = true;
    let n = 0;
    const client = async (k: number) => {
      while (running) {
        const started = performance.now();
        // Writes, listings, and the OGC API (its own error handler, OGC exception bodies).
        const req =
          k % 2 === 0
            ? t.app.request(`/api/projects/${project.id}`, as(ada, 'PATCH', { name: `Outage ${++n}` }))
            : k === 7
              ? t.app.request('/ogc/collections', as(ada, 'GET'))
              : t.app.request('/api/projects', as(ada, 'GET'));
        const res = await req;
        const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
        outcomes.push({
          ogc: k === 7,
          status: res.status,
          code: body?.error?.code,
          retryAfter: res.headers.get('retry-after'),
          at: started - origin,
          ms: performance.now() - started,
        });
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const clients = Array.from({ length: 8 }, (_, k) => client(k));

    await new Promise((r) => setTimeout(r, 1_000));
    const stopAt = performance.now() - origin;
    await pg.stop();
    const stoppedAt = performance.now() - origin;
    await new Promise((r) => setTimeout(r, 4_000));
    await pg.start();
    const startedAt = performance.now() - origin;
    // Wait for the first success after the restart, then keep the load 1.5 s more.
    const deadline = performance.now() + 20_000;
    while (!outcomes.some((o) => o.at > startedAt && o.status === 200) && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
    }
    await new Promise((r) => setTimeout(r, 1_500));
    running = false;
    await Promise.all(clients);

    // Nothing but successes and fast, well-formed 503s.
    const unexpected = outcomes.filter((o) => o.status !== 200 && o.status !== 503);
    expect(unexpected).toEqual([]);
    const unavailable = outcomes.filter((o) => o.status === 503);
    expect(outcomes.some((o) => o.ogc && o.status === 503)).toBe(true);
    expect(outcomes.some((o) => o.ogc && o.status === 200)).toBe(true);
    expect(unavailable.length).toBeGreaterThan(20);
    for (const o of unavailable) {
      expect(o.code).toBe('DATABASE_UNAVAILABLE');
      expect(o.retryAfter).toBe('5');
    }
    const latencies = unavailable.map((o) => o.ms).sort((a, b) => a - b);
    const worst = latencies.at(-1)!;
    expect(worst).toBeLessThan(2_500);
    // Requests sent while the server was down all failed; none hung past it.
    const during = outcomes.filter((o) => o.at > stoppedAt + 100 && o.at + o.ms < startedAt - 100);
    expect(during.length).toBeGreaterThan(20);
    expect(during.every((o) => o.status === 503)).toBe(true);
    // Recovery: the first success after `pg_ctl start` returned, then only successes.
    const firstOk = outcomes.filter((o) => o.at > startedAt && o.status === 200).sort((a, b) => a.at - b.at)[0];
    expect(firstOk).toBeDefined();
    const recoveryMs = firstOk!.at + firstOk!.ms - startedAt;
    expect(recoveryMs).toBeLessThan(5_000);
    const tail = outcomes.filter((o) => o.at > firstOk!.at + 500);
    expect(tail.length).toBeGreaterThan(10);
    expect(tail.every((o) => o.status === 200)).toBe(true);
    // And the data written before the outage is still there.
    const res = await t.app.request(`/api/projects/${project.id}`, as(ada, 'GET'));
    expect(res.status).toBe(200);

    const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!);
    console.info(
      `database outage: ${outcomes.length} requests, ${unavailable.length} × 503 (p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${Math.round(worst)} ms); ` +
        `stop took ${Math.round(stoppedAt - stopAt)} ms, outage ${Math.round(startedAt - stoppedAt)} ms, recovery ${Math.round(recoveryMs)} ms after pg_ctl start`,
    );
  });
});
