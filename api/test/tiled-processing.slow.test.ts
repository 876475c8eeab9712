import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PointChunk } from '@nuage/engine/core/chunk.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { writeLas } from '@nuage/engine/writers/las.writer.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findJob, type JobRow } from '../src/db/queries/jobs.queries.js';
import { createTestApp, type TestApp } from './app.js';
import { as, type TestUser, testUser, uploadRealFile, waitFor } from './projects.js';
import { exited, spawnWorker, type WorkerProcess } from './worker-process.js';

/** Tiled processing settings for a 2.83 M-point mosaic: 4 tiles of about 750 k points. */
const TILED_ENV = {
  TILED_PROCESSING_POINTS: '1000000',
  TILE_POINTS: '750000',
  TILE_BUFFER_METRES: '30',
  TILE_STALE_SECONDS: '60',
};

/** The four adjacent bcts tiles (EPSG:3005) as one LAS file: one project. */
async function writeMosaic(file: string): Promise<number> {
  const names = ['bcts_1.laz', 'bcts_2.laz', 'bcts_3.laz', 'bcts_4.laz'];
  const first = await openPointCloud(realFile(names[0]!));
  const crs = first.crs!;
  const scale = first.header.scale;
  await first.close();
  let count = 0;
  async function* chunks(): AsyncIterable<PointChunk> {
    for (const name of names) {
      const reader = await openPointCloud(realFile(name));
      try {
        for await (const chunk of reader.read({ workers: 0 })) {
          count += chunk.count;
          yield chunk;
        }
      } finally {
        await reader.close();
      }
    }
  }
  await writeLas(file, chunks(), { crs, scale, generatingSoftware: 'Nuage test mosaic' });
  return count;
}

/** A worker process with the tiled settings. */
function startTiledWorker(t: TestApp, name: string): WorkerProcess {
  return spawnWorker(t, name, { ...TILED_ENV, TILER_WARM_UP: 'false' });
}

/** What the comparison looks at: class counts of the classified cloud, tree tops and contours as stored in PostGIS. */
interface Products {
  classCounts: Record<string, number>;
  trees: number;
  treesDigest: string;
  contours: number;
  contoursLength: number;
  contoursDigest: string;
}

async function productsOf(t: TestApp, job: JobRow): Promise<Products> {
  const runs = (job.result as { products: Array<{ id: string; figures?: { classCounts?: Record<string, number> } }> })
    .products;
  const classCounts = runs.find((r) => r.id === 'classify')!.figures!.classCounts!;
  const of = async (type: string) => {
    const r = await sql<{ n: number; length: number; digest: string }>`
      SELECT count(*)::int AS n, coalesce(sum(ST_Length(geom::geography)), 0)::float8 AS length,
             md5(coalesce(string_agg(ST_AsText(ST_SnapToGrid(geom, 1e-7)), ',' ORDER BY ST_AsText(ST_SnapToGrid(geom, 1e-7))), '')) AS digest
        FROM features f JOIN assets a ON a.id = f.asset_id
       WHERE a.project_id = ${job.project_id} AND a.type = ${type}`.execute(t.tdb.db);
    return r.rows[0]!;
  };
  const trees = await of('TREE_TOPS');
  const contours = await of('CONTOUR_LINE');
  return {
    classCounts,
    trees: trees.n,
    treesDigest: trees.digest,
    contours: contours.n,
    contoursLength: Math.round(contours.length * 100) / 100,
    contoursDigest: contours.digest,
  };
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
    expect(await writeMosaic(mosaic)).toBe(2_834_350);
    t = await createTestApp({ TRUST_PROXY: 'true', ...TILED_ENV });
    ada = await testUser(t, 'ada@example.com');
    admin = await testUser(t, 'root@example.com', ['admin']);
  }, 120_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Uploads the mosaic as a new project and starts its tiling and processing; returns the project id. */
  async function startProject(name: string): Promise<string> {
    const { project, assetId } = await uploadRealFile(t, ada, name, mosaic);
    const res = await t.app.request(
      '/api/assets/start-tiling',
      as(ada, 'POST', { assetId, processingOptions: { products: ['tree-tops', 'contours'], dtmResolutionCm: 100 } }),
    );
    expect(res.status).toBe(200);
    return project.id;
  }

  async function processed(projectId: string, output: () => string): Promise<JobRow> {
    const job = await waitFor(
      async () =>
        t.tdb.db
          .selectFrom('jobs')
          .selectAll()
          .where('project_id', '=', projectId)
          .where('kind', '=', 'PROCESSING')
          .executeTakeFirst(),
      600_000,
      'the processing job',
    );
    return waitFor(
      async () => {
        const j = (await findJob(t.tdb.db, job.id))!;
        if (j.state === 'FAILURE') throw new Error(`processing failed: ${j.error_message}\n${output()}`);
        return j.state === 'SUCCESS' ? j : null;
      },
      900_000,
      'the processing to succeed',
    );
  }

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
    const job = await processed(projectId, () => a.output.join(''));
    single = await productsOf(t, job);
    console.info('one worker:', JSON.stringify(single));
    expect(Object.values(single.classCounts).reduce((s, n) => s + n, 0)).toBe(2_834_350);
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
    const job = await processed(projectId, () => workers.map((w) => w.output.join('')).join(''));
    const three = await productsOf(t, job);
    console.info('three workers, one killed:', JSON.stringify(three));
    expect(three).toEqual(single);
    await stopAll();
  }, 1_200_000);
});
