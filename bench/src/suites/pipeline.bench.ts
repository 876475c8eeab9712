/**
 * `npm run bench -- pipeline [--upload-mb N] [--file NAME] [--skip-upload] [--skip-tiling] [--find-wires] [--api-processing]`:
 * the projects API end to end, over a scratch database on BENCH_DATABASE_URL
 * (default: the local PostgreSQL server) and a scratch store.
 *
 * 1. Upload: a generated LAS file of N MB (default 512) is PUT to a signed URL
 *    of a real HTTP server, streamed by the client; the process RSS is sampled
 *    every 50 ms. Reference, same run: the same bytes written to a local file.
 * 2. Tiling: the real file (default wires.laz, 1.73 M points) goes through the
 *    API: upload, start-tiling, poll until the tileset is READY; the time from
 *    start-tiling to READY and each job's run time. Reference, same run: the
 *    engine's tilePointCloud on the same file, no API.
 * 3. Processing (`--gb N`, default 1; `--skip-processing`; `--tile-points N` classifies in
 *    tiles of N points, 0 in one piece; unset, `nuage process` tiles clouds of 30 M points
 *    or more, as a job does): a real-replica LAS
 *    of N GB (the bcts mosaic and the AHN corridor, copied side by side, see
 *    replica.ts) through the whole `nuage process` (every product, default
 *    options): wall and CPU time per GB, peak RSS, each product's time.
 *    The replica's AHN corridor carries the vendor's wire classes, which the
 *    default options keep (no wire search); `--find-wires` processes with
 *    `--vendor-wire-classes FIND`, the cost of a file without wire classes.
 *    Reference, same run: reading the same file's bytes from disk.
 * 4. `--api-processing`: the user's path, measured in this process: the replica
 *    (of step 3, or written for this step) uploaded to a project, then the
 *    API's tiling and processing jobs (every product, default options, features
 *    stored in PostGIS): upload-to-READY time, each job's run time, this
 *    process's CPU and peak RSS (API, worker and lane threads; PostgreSQL's
 *    own CPU is not in it), the features stored.
 */
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { serve } from '@hono/node-server';
import { createApp } from '@nuage/api/app.js';
import { loadConfig } from '@nuage/api/config.js';
import type { AppDeps } from '@nuage/api/context.js';
import { createDatabase } from '@nuage/api/db/client.js';
import { createLogger } from '@nuage/api/log.js';
import { hashPassword } from '@nuage/api/services/password.js';
import { openLocalStorage } from '@nuage/api/storage.js';
import { startWorker } from '@nuage/api/worker/runner.js';
import { tilePointCloud } from '@nuage/engine/tiler/tile-point-cloud.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import { migrate } from '@nuage/migrations';
import pg from 'pg';
import type { BenchSuite } from '../main.js';
import { timeWholeProcess, writeReplica } from '../replica.js';

const PASSWORD = 'Bench-Mark-2024x';
const RECORD = 20;
const HEADER = 227;

/** A valid LAS 1.2 (PDRF 0) file of about `bytes` bytes, generated chunk by chunk (never whole in memory). */
function* generatedLas(bytes: number): Generator<Buffer> {
  const count = Math.floor((bytes - HEADER) / RECORD);
  const h = Buffer.alloc(HEADER);
  h.write('LASF', 0, 'latin1');
  h.writeUInt8(1, 24);
  h.writeUInt8(2, 25);
  h.write('Nuage bench', 26, 'latin1');
  h.write('pipeline.bench.ts', 58, 'latin1');
  h.writeUInt16LE(1, 90);
  h.writeUInt16LE(2026, 92);
  h.writeUInt16LE(HEADER, 94);
  h.writeUInt32LE(HEADER, 96);
  h.writeUInt32LE(0, 100);
  h.writeUInt8(0, 104);
  h.writeUInt16LE(RECORD, 105);
  h.writeUInt32LE(count, 107);
  h.writeUInt32LE(count, 111);
  for (let i = 0; i < 3; i++) h.writeDoubleLE(0.01, 131 + 8 * i);
  for (let i = 0; i < 3; i++) h.writeDoubleLE(0, 155 + 8 * i);
  // max x, min x, max y, min y, max z, min z
  const bounds = [1000, 0, 1000, 0, 100, 0];
  for (const [i, v] of bounds.entries()) h.writeDoubleLE(v, 179 + 8 * i);
  yield h;
  const perChunk = 50_000;
  const chunk = Buffer.alloc(perChunk * RECORD);
  for (let i = 0; i < perChunk; i++) {
    const at = i * RECORD;
    chunk.writeInt32LE((i * 7919) % 100_000, at);
    chunk.writeInt32LE((i * 104_729) % 100_000, at + 4);
    chunk.writeInt32LE((i * 13) % 10_000, at + 8);
    chunk.writeUInt16LE(i % 4096, at + 12);
    chunk.writeUInt8(0b0000_1001, at + 14);
    chunk.writeUInt8(2, at + 15);
  }
  let left = count;
  while (left > 0) {
    const n = Math.min(perChunk, left);
    yield n === perChunk ? chunk : chunk.subarray(0, n * RECORD);
    left -= n;
  }
}

function rssSampler() {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return {
        baseMb: Math.round(base / 2 ** 20),
        peakMb: Math.round(peak / 2 ** 20),
        growthMb: Math.round((peak - base) / 2 ** 20),
      };
    },
  };
}

function request(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: Readable | string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // A new connection a request: a kept-alive socket the server closes while a job holds its thread (the worker
    // runs in this process) would reset the next poll (ECONNRESET), which is the client's race, not the server's.
    const req = http.request(url, { method: init.method, headers: init.headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (init.body instanceof Readable) init.body.pipe(req);
    else req.end(init.body);
  });
}

async function jsonCall(base: string, token: string, method: string, p: string, body?: unknown) {
  const res = await request(`${base}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${res.body}`);
  return res.body ? JSON.parse(res.body) : null;
}

export default {
  description:
    'projects API: streamed upload memory, start-tiling → READY on a real file; the whole nuage process on a 1 GB real replica',
  async run(args) {
    const arg = (name: string, dflt: string) => {
      const i = args.indexOf(name);
      return i >= 0 ? args[i + 1]! : dflt;
    };
    const uploadMb = Number(arg('--upload-mb', '512'));
    const file = arg('--file', 'wires.laz');
    const base = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `nuage_bench_pipeline_${process.pid}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const dbUrl = new URL(base);
    dbUrl.pathname = `/${name}`;
    const database = createDatabase(dbUrl.toString(), { max: 10 });
    const dataDir = await mkdtemp(path.join(tmpdir(), 'nuage-bench-pipeline-'));
    const figures: Record<string, unknown> = {};
    let server: ReturnType<typeof serve> | null = null;
    let worker: Awaited<ReturnType<typeof startWorker>> | null = null;
    try {
      await migrate(database.pool);
      const storage = await openLocalStorage(path.join(dataDir, 'files'));
      const log = createLogger({ level: 'silent', role: 'bench' });
      const port = await new Promise<number>((resolve) => {
        server = serve({ fetch: () => new Response(null), port: 0, hostname: '127.0.0.1' }, (info) =>
          resolve((info as AddressInfo).port),
        );
      });
      await new Promise<void>((r) => server!.close(() => r()));
      const config = loadConfig({
        DATABASE_URL: dbUrl.toString(),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DEFAULT_MAX_INPUT_FILE_BYTES: String(64 * 2 ** 30),
        DEFAULT_MAX_STORAGE_BYTES: String(256 * 2 ** 30),
        // The tiled processing's settings may be set for a comparison (TILE_THREADS=1: one tile at a time).
        ...Object.fromEntries(
          ['TILED_PROCESSING_POINTS', 'TILE_POINTS', 'TILE_BUFFER_METRES', 'TILE_THREADS']
            .filter((k) => process.env[k])
            .map((k) => [k, process.env[k]!]),
        ),
      });
      const deps: AppDeps = { config, database, log, storage, migrationVersion: 0 };
      const app = createApp(deps);
      server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
      const baseUrl = `http://127.0.0.1:${port}`;
      await database.db
        .insertInto('users')
        .values({
          email: 'bench@example.com',
          password_hash: await hashPassword(PASSWORD),
          enabled: true,
          country: 'FR',
        })
        .execute();
      const login = await request(`${baseUrl}/api/auth-jwt/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'bench@example.com', password: PASSWORD }),
      });
      const token = JSON.parse(login.body).token as string;

      if (!args.includes('--skip-upload')) {
        const bytes = uploadMb * 2 ** 20;
        const size = HEADER + Math.floor((bytes - HEADER) / RECORD) * RECORD;
        // Reference: the same bytes straight to a local file.
        const refPath = path.join(dataDir, 'reference.las');
        let t0 = performance.now();
        await pipeline(Readable.from(generatedLas(bytes)), createWriteStream(refPath));
        const refMs = performance.now() - t0;
        await rm(refPath);

        const project = await jsonCall(baseUrl, token, 'POST', '/api/projects', { name: 'Upload bench' });
        const layerId = project.layers[0].id;
        const { signedUrl } = await jsonCall(baseUrl, token, 'POST', '/api/assets/upload-signed-url', {
          layerId,
          type: 'POINT_CLOUD',
          filename: 'generated.las',
          fileSize: size,
        });
        global.gc?.();
        const sampler = rssSampler();
        t0 = performance.now();
        const put = await request(signedUrl, {
          method: 'PUT',
          headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
          body: Readable.from(generatedLas(bytes)),
        });
        const uploadMs = performance.now() - t0;
        const rss = sampler.stop();
        if (put.status !== 200) throw new Error(`upload: ${put.status} ${put.body}`);
        const stored = JSON.parse(put.body);
        figures.upload = {
          bytes: size,
          pointCount: stored.header.pointCount,
          seconds: Math.round(uploadMs) / 1000,
          mbPerSecond: Math.round((size / 2 ** 20 / (uploadMs / 1000)) * 10) / 10,
          rss,
          reference: {
            what: 'the same generated bytes piped to a local file (no HTTP, no store)',
            seconds: Math.round(refMs) / 1000,
            mbPerSecond: Math.round((size / 2 ** 20 / (refMs / 1000)) * 10) / 10,
          },
        };
        console.log('upload', JSON.stringify(figures.upload));
        await jsonCall(baseUrl, token, 'DELETE', `/api/projects/${project.id}`);
      }

      if (!args.includes('--skip-tiling')) {
        worker = await startWorker(deps, { databaseUrl: dbUrl.toString() });
        const full = realFile(file);
        const size = (await stat(full)).size;
        const project = await jsonCall(baseUrl, token, 'POST', '/api/projects', { name: `Tiling ${file}` });
        const { signedUrl, asset } = await jsonCall(baseUrl, token, 'POST', '/api/assets/upload-signed-url', {
          layerId: project.layers[0].id,
          type: 'POINT_CLOUD',
          filename: file,
          fileSize: size,
        });
        const put = await request(signedUrl, {
          method: 'PUT',
          headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
          body: createReadStream(full),
        });
        if (put.status !== 200) throw new Error(`upload: ${put.status} ${put.body}`);
        const t0 = performance.now();
        await jsonCall(baseUrl, token, 'POST', '/api/assets/start-tiling', { assetId: asset.id });
        let p: { status: string; jobs: Record<string, { state: string; errorMessage: string | null }> };
        for (;;) {
          p = await jsonCall(baseUrl, token, 'GET', `/api/projects/${project.id}`);
          if (p.status === 'READY' || p.status === 'ERROR') break;
          await new Promise((r) => setTimeout(r, 100));
        }
        const readyMs = performance.now() - t0;
        if (p.status !== 'READY') throw new Error(`tiling failed: ${JSON.stringify(p.jobs)}`);
        const jobs = await database.db
          .selectFrom('jobs')
          .select(['kind', 'queued_at', 'started_at', 'finished_at', 'result'])
          .where('project_id', '=', project.id)
          .orderBy('id')
          .execute();
        const ms = (a: Date | string | null, b: Date | string | null) =>
          a && b ? new Date(b).getTime() - new Date(a).getTime() : null;
        const tiling = jobs.find((j) => j.kind === 'TILING')!.result as {
          tileCount: number;
          pointCount: number;
          tilingMs: number;
        };

        // Reference: the engine alone on the same file.
        const outDir = path.join(dataDir, 'reference-tiles');
        const r0 = performance.now();
        const ref = await tilePointCloud(full, outDir, {});
        const refMs = performance.now() - r0;
        figures.tiling = {
          file,
          points: tiling.pointCount,
          tiles: tiling.tileCount,
          startTilingToReadySeconds: Math.round(readyMs) / 1000,
          jobs: jobs.map((j) => ({
            kind: j.kind,
            waitMs: ms(j.queued_at, j.started_at),
            runMs: ms(j.started_at, j.finished_at),
          })),
          tilerInsideJobSeconds: Math.round(tiling.tilingMs) / 1000,
          reference: {
            what: 'engine tilePointCloud on the same file, same options, no API/DB/store',
            seconds: Math.round(refMs) / 1000,
            tiles: ref.tileCount,
          },
        };
        console.log('tiling', JSON.stringify(figures.tiling));
      }
      if (!args.includes('--skip-processing')) {
        const gb = Number(arg('--gb', '1'));
        const replica = await writeReplica(path.join(dataDir, 'replica.las'), gb * 2 ** 30);
        const r0 = performance.now();
        for await (const _ of createReadStream(replica.path, { highWaterMark: 1 << 22 })) {
          // raw read: bytes only
        }
        const rawMs = performance.now() - r0;
        // --tile-points N: the classification in tiles of N points (0: in one piece; unset: nuage process's default).
        const tilePoints = arg('--tile-points', '');
        const findWires = args.includes('--find-wires');
        const run = await timeWholeProcess(replica.path, path.join(dataDir, 'replica-out'), [
          ...(tilePoints ? ['--tile-points', tilePoints] : []),
          ...(findWires ? ['--vendor-wire-classes', 'FIND'] : []),
        ]);
        const sizeGb = replica.bytes / 2 ** 30;
        const cpu = run.userSeconds !== null && run.systemSeconds !== null ? run.userSeconds + run.systemSeconds : null;
        figures.processing = {
          tilePoints: tilePoints ? Number(tilePoints) : null,
          vendorWireClasses: findWires ? 'FIND' : 'KEEP',
          input: {
            bytes: replica.bytes,
            gb: Math.round(sizeGb * 1000) / 1000,
            points: replica.points,
            blocks: replica.blocks,
          },
          ...run,
          wallMinutesPerGb: Math.round((run.wallSeconds / 60 / sizeGb) * 100) / 100,
          cpuMinutesPerGb: cpu === null ? null : Math.round((cpu / 60 / sizeGb) * 100) / 100,
          reference: {
            what: 'the same LAS file read from disk (bytes only, 4 MB reads)',
            seconds: Math.round(rawMs) / 1000,
            ratio: Math.round((run.wallSeconds / (rawMs / 1000)) * 10) / 10,
          },
        };
        console.log('processing', JSON.stringify(figures.processing));
      }
      if (args.includes('--api-processing')) {
        // 4. The user's path: the replica uploaded to a project, tiled and processed by the API's jobs (every
        //    product, default options), features stored in PostGIS, files in the store.
        worker ??= await startWorker(deps, { databaseUrl: dbUrl.toString() });
        const gb = Number(arg('--gb', '1'));
        const replicaPath = path.join(dataDir, 'replica.las');
        const replica = existsSync(replicaPath)
          ? { path: replicaPath, bytes: (await stat(replicaPath)).size }
          : await writeReplica(replicaPath, gb * 2 ** 30);
        const project = await jsonCall(baseUrl, token, 'POST', '/api/projects', { name: 'API processing bench' });
        const { signedUrl, asset } = await jsonCall(baseUrl, token, 'POST', '/api/assets/upload-signed-url', {
          layerId: project.layers[0].id,
          type: 'POINT_CLOUD',
          filename: 'replica.las',
          fileSize: replica.bytes,
        });
        const cpu0 = process.cpuUsage();
        const sampler = rssSampler();
        const t0 = performance.now();
        const put = await request(signedUrl, {
          method: 'PUT',
          headers: { 'content-type': 'application/octet-stream', 'content-length': String(replica.bytes) },
          body: createReadStream(replica.path),
        });
        if (put.status !== 200) throw new Error(`upload: ${put.status} ${put.body}`);
        const uploadMs = performance.now() - t0;
        await jsonCall(baseUrl, token, 'POST', '/api/assets/start-tiling', {
          assetId: asset.id,
          processingOptions: {},
        });
        let p: { jobs: Record<string, { state: string; errorMessage: string | null } | undefined> };
        for (;;) {
          p = await jsonCall(baseUrl, token, 'GET', `/api/projects/${project.id}`);
          const state = p.jobs.processing?.state;
          if (state === 'SUCCESS') break;
          if (state === 'FAILURE' || p.jobs.tiling?.state === 'FAILURE') {
            throw new Error(`API processing failed: ${JSON.stringify(p.jobs)}`);
          }
          await new Promise((r) => setTimeout(r, 250));
        }
        const totalMs = performance.now() - t0;
        const rss = sampler.stop();
        const cpu = process.cpuUsage(cpu0);
        const jobs = await database.db
          .selectFrom('jobs')
          .select(['kind', 'started_at', 'finished_at', 'result'])
          .where('project_id', '=', project.id)
          .orderBy('id')
          .execute();
        const runMs = (j: { started_at: Date | string | null; finished_at: Date | string | null }) =>
          j.started_at && j.finished_at ? new Date(j.finished_at).getTime() - new Date(j.started_at).getTime() : null;
        const processing = jobs.find((j) => j.kind === 'PROCESSING');
        const manifest = (processing?.result as { manifest?: { products?: Array<{ id: string; ms: number }> } } | null)
          ?.manifest;
        const features = await database.db
          .selectFrom('features')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow();
        const sizeGb = replica.bytes / 2 ** 30;
        figures.apiProcessing = {
          what: 'upload (HTTP PUT), tiling and processing jobs of the API (in this process: API, worker, lanes), default options',
          input: { bytes: replica.bytes, gb: Math.round(sizeGb * 1000) / 1000 },
          tiled: {
            fromPoints: config.TILED_PROCESSING_POINTS,
            pointsPerTile: config.TILE_POINTS,
            threads: config.TILE_THREADS,
          },
          uploadSeconds: Math.round(uploadMs) / 1000,
          uploadToReadySeconds: Math.round(totalMs) / 1000,
          jobs: jobs.map((j) => ({ kind: j.kind, runSeconds: (runMs(j) ?? 0) / 1000 })),
          processingJobMinutesPerGb: processing
            ? Math.round(((runMs(processing) ?? 0) / 60_000 / sizeGb) * 100) / 100
            : null,
          processCpuSeconds: Math.round((cpu.user + cpu.system) / 1e4) / 100,
          rss,
          featuresStored: Number(features.n),
          productsMs: Object.fromEntries((manifest?.products ?? []).map((x) => [x.id, x.ms])),
        };
        console.log('apiProcessing', JSON.stringify(figures.apiProcessing));
      }
      return figures;
    } finally {
      await worker?.stop();
      if (server) await new Promise<void>((r) => server!.close(() => r()));
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
} satisfies BenchSuite;
