import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { REPO_ROOT } from '../src/config.js';
import { openStorage } from '../src/storage.js';
import { json } from './accounts.js';
import { createTestApp, type TestApp } from './app.js';
import { createNetHosts, type HostProcess, type NetHost, type NetHosts } from './net-hosts.js';
import { cloudAsset, getProject, type TestUser, testUser, waitFor } from './projects.js';
import {
  MOSAIC_POINTS,
  type Products,
  processed,
  processingJobOf,
  productsOf,
  startMosaicProject,
  TILED_ENV,
  writeMosaic,
} from './tiled-mosaic.js';
import { exited, spawnWorker, type WorkerProcess } from './worker-process.js';

/**
 * Issue 24 goal 2 on several machines: three worker hosts (network, mount,
 * UTS and PID namespaces of their own, see net-hosts.ts) that share nothing
 * with the API but PostgreSQL (through a TCP relay on the bridge) and the
 * S3-compatible store (s3rver on the bridge). Each has its own /tmp (a tmpfs)
 * and DATA_DIR in it, its own hostname and process table, and the repository
 * read-only: whatever only worked through a shared folder, a shared loopback
 * or a shared process table fails here.
 */
describe('tiled processing across three network hosts, with no shared file system', () => {
  let net: NetHosts;
  let s3: S3rver | undefined;
  let s3Dir: string | undefined;
  let dir: string | undefined;
  let mosaic: string;
  let t: TestApp | undefined;
  let ada: TestUser;
  let storageUrl: string;
  /** DATABASE_URL as the hosts see it: the relay on the bridge address. */
  let hostDatabaseUrl: string;
  const onHost: WorkerProcess[] = [];

  beforeAll(async () => {
    // Fails (never skips) without root or iproute2: CI runs as root.
    net = await createNetHosts(3);
    s3Dir = await mkdtemp(path.join(tmpdir(), 'nuage-hosts-s3-'));
    s3 = new S3rver({
      port: 0,
      address: net.gateway,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: 'nuage-files', configs: [] }],
    });
    const s3Address = (await s3.run()) as AddressInfo;
    // s3rver's fixed credentials through the AWS SDK's own chain; the workers inherit them.
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    storageUrl = `s3://nuage-files/hosts?endpoint=http://${net.gateway}:${s3Address.port}&region=us-east-1`;

    dir = await mkdtemp(path.join(tmpdir(), 'nuage-hosts-e2e-'));
    mosaic = path.join(dir, 'bcts-mosaic.las');
    expect(await writeMosaic(mosaic)).toBe(MOSAIC_POINTS);

    t = await createTestApp({ TRUST_PROXY: 'true', ...TILED_ENV, STORAGE_URL: storageUrl });
    // The harness opens a local store; this file runs on the bucket the configuration names.
    t.deps.storage = await openStorage(t.deps.config);
    t.app = createApp(t.deps);
    expect(t.deps.storage.location).toBe('s3://nuage-files/hosts');
    expect(t.deps.storage.localPath('anything')).toBeNull();

    const db = new URL(t.tdb.url);
    const relayPort = await net.relay({ host: db.hostname, port: Number(db.port || 5432) });
    const viaRelay = new URL(t.tdb.url);
    viaRelay.hostname = net.gateway;
    viaRelay.port = String(relayPort);
    hostDatabaseUrl = viaRelay.toString();
    ada = await testUser(t, 'ada@example.com');
  }, 180_000);

  afterAll(async () => {
    const steps: Array<[string, () => Promise<unknown>]> = [
      [
        'workers on this machine',
        async () => {
          for (const c of onHost) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
          await Promise.all(onHost.map(exited));
        },
      ],
      // Kills the hosts' processes, closes the relay, deletes the namespaces, links and bridge.
      ['hosts', async () => net?.destroy()],
      ['app and database', async () => t?.close()],
      ['s3rver', async () => s3?.close()],
      ['s3rver folder', async () => s3Dir && rm(s3Dir, { recursive: true, force: true })],
      ['mosaic folder', async () => dir && rm(dir, { recursive: true, force: true })],
    ];
    const failures: string[] = [];
    for (const [what, step] of steps) {
      try {
        await step();
      } catch (err) {
        failures.push(`${what}: ${(err as Error).message}`);
      }
    }
    if (failures.length > 0) throw new Error(`tear-down: ${failures.join('; ')}`);
  }, 120_000);

  /** A worker process (`main.ts --role worker`) on a host, with the tiled settings, its DATA_DIR in its own /tmp. */
  function startHostWorker(host: NetHost): HostProcess {
    return net.spawn(
      host,
      [process.execPath, '--import', 'tsx', path.join(REPO_ROOT, 'api/src/main.ts'), '--role', 'worker'],
      {
        cwd: REPO_ROOT,
        readOnly: [REPO_ROOT],
        env: {
          ...process.env,
          ...TILED_ENV,
          TILER_WARM_UP: 'false',
          STORAGE_URL: storageUrl,
          DATABASE_URL: hostDatabaseUrl,
          DATA_DIR: `/tmp/nuage-host-${host.index}`,
          TMPDIR: '/tmp',
          ADMIN_PASSWORD: 'Admin-Passw0rd!',
          LOG_LEVEL: 'warn',
          PUBLIC_URL: 'http://localhost:8080',
        },
      },
    );
  }

  /** The host a worker id belongs to (worker ids start with the worker's hostname). */
  const hostOf = (workerId: string | null | undefined): NetHost | undefined =>
    workerId ? net.hosts.find((h) => workerId.startsWith(`${h.hostname}-`)) : undefined;

  let reference: Products;

  it('one worker process on this machine gives the reference products', async () => {
    const ref = spawnWorker(t!, 'reference', { ...TILED_ENV, TILER_WARM_UP: 'false', STORAGE_URL: storageUrl });
    onHost.push(ref);
    const projectId = await startMosaicProject(t!, ada, 'Mosaic, one worker here', mosaic);
    const job = await processed(t!, projectId, () => ref.output.join(''));
    reference = await productsOf(t!, job);
    console.info('one worker on this machine:', JSON.stringify(reference));
    expect(Object.values(reference.classCounts).reduce((s, n) => s + n, 0)).toBe(MOSAIC_POINTS);
    expect(reference.classCounts['2']).toBeGreaterThan(100_000);
    expect(reference.trees).toBeGreaterThan(500);
    expect(reference.contours).toBeGreaterThan(10);
    ref.kill('SIGTERM');
    await exited(ref);
  }, 1_200_000);

  it('three hosts sharing only PostgreSQL and the bucket, one lost mid-tile, give the same products', async () => {
    expect(reference, 'the reference run failed').toBeDefined();
    const workers = net.hosts.map((h) => startHostWorker(h));
    const output = () => workers.map((w) => w.output.join('')).join('');
    // Every worker heartbeats from its own hostname, through the relay: three distinct hosts, none of them this machine.
    const beats = await waitFor(
      async () => {
        for (const w of workers) {
          if (w.exitCode !== null) throw new Error(`a host's worker exited (${w.exitCode}):\n${output()}`);
        }
        const rows = await t!.tdb.db.selectFrom('worker_heartbeats').select(['worker_id', 'hostname', 'pid']).execute();
        const here = rows.filter((r) => hostOf(r.worker_id));
        return here.length === 3 ? here : null;
      },
      120_000,
      'the three hosts’ workers to start',
    );
    // The heartbeat names the worker's process table: its host's hostname first, then (Linux) its PID namespace.
    expect(beats.map((b) => b.hostname.split(' ')[0]).sort()).toEqual(net.hosts.map((h) => h.hostname).sort());
    expect(new Set(beats.map((b) => b.hostname)).size).toBe(3);
    expect(beats.every((b) => !b.hostname.startsWith(`${hostname()} `))).toBe(true);
    // Each worker is the first process of its host's own process table.
    expect(beats.map((b) => b.pid)).toEqual([1, 1, 1]);

    const projectId = await startMosaicProject(t!, ada, 'Mosaic, three hosts', mosaic);
    const parent = await processingJobOf(t!, projectId);

    // Who runs and finishes each tile, and who runs the project's jobs, watched while they run
    // (the tiles' rows go once merged, a job's worker_id once it ends).
    const seen = new Map<number, { runners: Set<string>; doneBy?: string; attempts: number }>();
    const jobRunners = new Map<string, Set<string>>();
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const jobs = await t!.tdb.db
          .selectFrom('jobs')
          .select(['kind', 'worker_id'])
          .where('project_id', '=', projectId)
          .execute()
          .catch(() => []);
        for (const j of jobs) {
          if (j.worker_id) jobRunners.set(j.kind, (jobRunners.get(j.kind) ?? new Set()).add(j.worker_id));
        }
        const rows = await t!.tdb.db
          .selectFrom('processing_tiles')
          .select(['tile', 'status', 'worker_id', 'attempts'])
          .where('job_id', '=', parent.id)
          .execute()
          .catch(() => []);
        for (const r of rows) {
          const s = seen.get(r.tile) ?? { runners: new Set<string>(), attempts: 0 };
          if (r.worker_id) s.runners.add(r.worker_id);
          if (r.status === 'DONE' && r.worker_id) s.doneBy = r.worker_id;
          s.attempts = Math.max(s.attempts, r.attempts);
          seen.set(r.tile, s);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    })();

    try {
      // Lose a host while it classifies a tile (not the host running the processing job itself).
      const victim = await waitFor(
        async () => {
          const p = await t!.tdb.db
            .selectFrom('jobs')
            .select(['worker_id', 'state'])
            .where('id', '=', parent.id)
            .executeTakeFirst();
          if (p?.state === 'FAILURE' || p?.state === 'SUCCESS')
            throw new Error(`processing ended early: ${p.state}\n${output()}`);
          const running = await t!.tdb.db
            .selectFrom('processing_tiles')
            .select(['tile', 'worker_id'])
            .where('job_id', '=', parent.id)
            .where('status', '=', 'RUNNING')
            .execute();
          const other = running.find((r) => r.worker_id && r.worker_id !== p?.worker_id && hostOf(r.worker_id));
          if (!other) return null;
          const host = hostOf(other.worker_id)!;
          return { host, tile: other.tile, workerId: other.worker_id!, child: workers[host.index - 1]! };
        },
        600_000,
        'a tile running on a host other than the processing job’s',
      );
      console.info(`SIGKILL of ${victim.host.hostname} while it runs tile ${victim.tile}`);
      victim.child.kill('SIGKILL');
      await exited(victim.child);
      // The whole host is gone: nothing runs in its network namespace any more.
      await waitFor(async () => (await net.pidsOn(victim.host)).length === 0, 10_000, 'the lost host to be empty');

      const job = await processed(t!, projectId, output);
      expect(job.state).toBe('SUCCESS');
      watching = false;
      await watch;

      const products = await productsOf(t!, job);
      console.info('three hosts, one lost:', JSON.stringify(products));
      expect(products).toEqual(reference);

      // Every tile was finished on a host; at least two hosts finished tiles; the lost tile was run again elsewhere.
      console.info(
        'tiles:',
        JSON.stringify(
          [...seen].map(([tile, s]) => ({ tile, runners: [...s.runners], doneBy: s.doneBy, attempts: s.attempts })),
        ),
      );
      expect([...seen.keys()].sort()).toEqual([0, 1, 2, 3]);
      const finishers = [...seen.values()].map((s) => hostOf(s.doneBy)?.hostname);
      expect(finishers.every((h) => h !== undefined)).toBe(true);
      expect(new Set(finishers).size).toBeGreaterThanOrEqual(2);
      const lost = seen.get(victim.tile)!;
      expect(lost.runners.has(victim.workerId)).toBe(true);
      expect(hostOf(lost.doneBy)).not.toBe(victim.host);
      expect(lost.attempts).toBeGreaterThanOrEqual(2);

      // Every job of the project seen running (the processing job at least) ran on one of the hosts, and ended well.
      console.info('jobs:', JSON.stringify([...jobRunners].map(([kind, w]) => ({ kind, workers: [...w] }))));
      expect(jobRunners.has('PROCESSING')).toBe(true);
      for (const [kind, runners] of jobRunners) {
        for (const w of runners) expect(hostOf(w), `${kind} ran on ${w}`).toBeDefined();
      }
      const jobs = await t!.tdb.db
        .selectFrom('jobs')
        .select(['kind', 'state'])
        .where('project_id', '=', projectId)
        .execute();
      for (const j of jobs) expect(j.state, j.kind).toBe('SUCCESS');
      // What the hosts wrote is served by the API from the bucket.
      const ready = await waitFor(
        async () => {
          const p = await getProject(t!, ada, projectId);
          return p.status === 'READY' ? p : null;
        },
        60_000,
        'the project to be READY',
      );
      const u = new URL(cloudAsset(ready).accessUrl);
      const tileset = await t!.app.request(`${u.pathname}${u.search}`);
      expect(tileset.status).toBe(200);
      expect((await json(tileset)).asset.version).toBe('1.1');
    } finally {
      watching = false;
      await watch;
    }
  }, 1_500_000);
});
