import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.js';
import { as, type TestUser, testUser, waitFor } from './projects.js';
import {
  MOSAIC_POINTS,
  type Products,
  processed,
  productsOf,
  startMosaicProject,
  TILED_ENV,
  writeMosaic,
} from './tiled-mosaic.js';
import { exited, spawnWorker, type WorkerProcess } from './worker-process.js';

/** A worker process with the tiled settings. */
function startTiledWorker(t: TestApp, name: string): WorkerProcess {
  return spawnWorker(t, name, { ...TILED_ENV, TILER_WARM_UP: 'false' });
}

describe('tiled processing across worker processes (the four bcts tiles as one project)', () => {
  let t: TestApp;
  let ada: TestUser;
  let admin: TestUser;
  let dir: string;
  let mosaic: string;
  const children: ChildProcess[] = [];
  const start = (name: string) => {
    const c = startTiledWorker(t, name);
    children.push(c);
    return c;
  };
  const stopAll = async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
    await Promise.all(children.map(exited));
    children.length = 0;
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'nuage-tiled-e2e-'));
    mosaic = path.join(dir, 'bcts-mosaic.las');
    expect(await writeMosaic(mosaic)).toBe(MOSAIC_POINTS);
    t = await createTestApp({ TRUST_PROXY: 'true', ...TILED_ENV });
    ada = await testUser(t, 'ada@example.com');
    admin = await testUser(t, 'root@example.com', ['admin']);
  }, 120_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const startProject = (name: string) => startMosaicProject(t, ada, name, mosaic);

  let single: Products;

  it('one worker process runs every tile and the merge', async () => {
    const a = start('A');
    const projectId = await startProject('Mosaic, one worker');
    // The processing splits the cloud into tiles, each with its graphile-worker job.
    const tiles = await waitFor(
      async () => {
        const rows = await t.tdb.db.selectFrom('processing_tiles').select(['tile', 'points']).execute();
        return rows.length > 0 ? rows : null;
      },
      600_000,
      'the tiles of the processing',
    );
    expect(tiles.length).toBe(4);
    // The admin's job view counts the tiles by state (the whole project's progress).
    const job0 = await t.tdb.db
      .selectFrom('jobs')
      .select('id')
      .where('project_id', '=', projectId)
      .where('kind', '=', 'PROCESSING')
      .executeTakeFirstOrThrow();
    const view = await t.app.request(`/api/admin/process-data/${job0.id}`, as(admin, 'GET'));
    expect(view.status).toBe(200);
    const body = (await view.json()) as { tiles: { total: number; done: number; running: number; failed: number } };
    expect(body.tiles.total).toBe(4);
    expect(body.tiles.done + body.tiles.running).toBeLessThanOrEqual(4);
    expect(body.tiles.failed).toBe(0);
    const queued = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'processing-tile'`.execute(t.tdb.db);
    expect(queued.rows[0]!.n).toBeGreaterThan(0);
    const job = await processed(t, projectId, () => a.output.join(''));
    single = await productsOf(t, job);
    console.info('one worker:', JSON.stringify(single));
    expect(Object.values(single.classCounts).reduce((s, n) => s + n, 0)).toBe(MOSAIC_POINTS);
    expect(single.classCounts['2']).toBeGreaterThan(100_000);
    expect(single.trees).toBeGreaterThan(500);
    expect(single.contours).toBeGreaterThan(10);
    // The tiles and their working files are gone once merged.
    expect(await t.tdb.db.selectFrom('processing_tiles').selectAll().execute()).toEqual([]);
    await stopAll();
  }, 1_200_000);

  it('three worker processes, one SIGKILLed mid-tile, give the same products', async () => {
    const workers = [start('B'), start('C'), start('D')];
    const projectId = await startProject('Mosaic, three workers');
    // Kill a worker while it classifies a tile (not the one running the processing job itself).
    const victim = await waitFor(
      async () => {
        const parent = await t.tdb.db
          .selectFrom('jobs')
          .select('worker_id')
          .where('project_id', '=', projectId)
          .where('kind', '=', 'PROCESSING')
          .executeTakeFirst();
        const running = await t.tdb.db
          .selectFrom('processing_tiles')
          .select(['tile', 'worker_id'])
          .where('status', '=', 'RUNNING')
          .execute();
        const other = running.find((r) => r.worker_id && r.worker_id !== parent?.worker_id);
        if (!other) return null;
        const pid = Number(other.worker_id!.split('-').at(-2));
        const child = workers.find((w) => w.pid === pid);
        return child ? { child, tile: other.tile } : null;
      },
      600_000,
      'a tile running on a worker other than the processing job’s',
    );
    victim.child.kill('SIGKILL');
    await exited(victim.child);
    const job = await processed(t, projectId, () => workers.map((w) => w.output.join('')).join(''));
    const three = await productsOf(t, job);
    console.info('three workers, one killed:', JSON.stringify(three));
    expect(three).toEqual(single);
    await stopAll();
  }, 1_200_000);
});
