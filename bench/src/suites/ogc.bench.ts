/**
 * `npm run bench -- ogc [--items N] [--tiles N] [--connections C] [--client autocannon|worker] [--items-only]
 * [--tiles-only] [--rounds R] [--data-dir DIR] [--cpu-profile FILE]`: the OGC API
 * under a bounded local load, through the real app on a loopback HTTP server
 * (never anything but 127.0.0.1), over a scratch database on BENCH_DATABASE_URL
 * (default: the local PostgreSQL server) holding a synthetic project: a 10 m
 * point grid (≈100 k points with an elevation) and 400 contour-like lines of
 * 250 vertices, about 3 × 3.5 km near 138.6°E 35°S.
 *
 * Every request carries a personal access token (Authorization: Bearer), as a
 * GIS tool would; requests come from autocannon in a separate process
 * (`--client worker`: fetch loops in a worker thread of the server's process,
 * as earlier runs measured). Figures, C concurrent connections (default 50), a fixed
 * number of requests each:
 *  - items: `limit=100` pages at random offsets of the grid, and 100-feature
 *    pages inside a random 300 m box: latency p50/p90/p99 and requests/s, and the CPU
 *    seconds per 1,000 requests of the server's process and of the database's backends
 *    (with the load average then: other work on the machine moves latency far more);
 *  - vector tiles (z14–z17 over the data, grid and lines): the first request
 *    of each tile (made by PostGIS, held in the tiles store's memory) and then served
 *    from there: p50/p90/p99 and tiles/s, and the first requests' CPU per 1,000 as for items;
 *  - references, same run, same database and pool size as the app: the raw
 *    ST_AsMVT query of every tile, C at a time, called in this process, and the same query behind
 *    the barest HTTP server (node:http) loaded by the same client as the app: tiles/s, and CPU per
 *    1,000 (this process's, the backends', and the whole machine's, the client's included).
 *
 * `--tiles-only`: no measured items phases. `--rounds R` (default 1): the reference and the first requests
 * of the tiles R times in turn, the tiles store emptied before each round: the figures of every round
 * together, and each round's throughput ratio (one round of 560 tiles is a few seconds: a noisy ratio).
 *
 * `--cpu-profile FILE`: a V8 CPU profile of this process over the measured items phases (and, without
 * --items-only, the raw reference and the first requests of the vector tiles), written to FILE (Chrome's
 * DevTools or speedscope open it); the sampling costs CPU: compare profiles with profiles only.
 * BENCH_PERF_CONTROL=FIFO: `enable` and `disable` are written to FIFO around each measured items phase, for
 * `perf stat --delay=-1 --control fifo:FIFO -e task-clock -- npm run -s bench -- ogc --items-only`: the CPU
 * time of those phases only (the load generator's included, a child process: the same for two versions of
 * the server), or their instructions (`-e instructions:u`) where the machine exposes the CPU's counters.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { serve } from '@hono/node-server';
import { createApp } from '@nuage/api/app.js';
import { loadConfig } from '@nuage/api/config.js';
import { createDatabase } from '@nuage/api/db/client.js';
import { vectorTile } from '@nuage/api/db/queries/features.queries.js';
import { createLogger } from '@nuage/api/log.js';
import { createAccessTokensService } from '@nuage/api/services/access-tokens.service.js';
import { openLocalStorage } from '@nuage/api/storage.js';
import { migrate } from '@nuage/migrations';
import { assetKey } from '@nuage/tiles-cache';
import { sql } from 'kysely';
import pg from 'pg';
import { loadHttpProcess } from '../http-load.js';
import type { BenchSuite } from '../main.js';

/** Starts V8's sampling profiler in this process; the returned function stops it and writes the profile to `file`. */
async function startProfile(file: string): Promise<() => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}

const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

function stats(ms: number[], seconds: number) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return {
    n: s.length,
    p50Ms: round(at(0.5)),
    p90Ms: round(at(0.9)),
    p99Ms: round(at(0.99)),
    maxMs: round(s[s.length - 1]!),
    perSecond: round(s.length / seconds, 1),
  };
}

/** Runs `jobs` with `connections` at a time; each job's latency in ms and the wall time in s. */
async function load(jobs: Array<() => Promise<void>>, connections: number): Promise<{ ms: number[]; seconds: number }> {
  const ms: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(connections, jobs.length) }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const t = performance.now();
        await job();
        ms.push(performance.now() - t);
      }
    }),
  );
  return { ms, seconds: (performance.now() - started) / 1000 };
}

/**
 * The HTTP load generator, in a worker thread of its own so that it does not
 * share the server's event loop: `connections` fetch loops over `urls`, each
 * request's latency in ms, the wall time in s.
 */
const LOADER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { urls, connections, headers, ok } = workerData;
  const ms = new Array(urls.length);
  const errors = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(connections, urls.length) }, async () => {
    while (next < urls.length) {
      const i = next++;
      const t = performance.now();
      const res = await fetch(urls[i], { headers });
      await res.arrayBuffer();
      ms[i] = performance.now() - t;
      if (!ok.includes(res.status)) errors.push(res.status + ' ' + urls[i]);
    }
  }));
  parentPort.postMessage({ ms, seconds: (performance.now() - started) / 1000, errors });
})();
`;

function loadHttp(
  urls: string[],
  connections: number,
  headers: Record<string, string>,
  ok: number[] = [200],
): Promise<{ ms: number[]; seconds: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOADER, { eval: true, workerData: { urls, connections, headers, ok } });
    worker.once('error', reject);
    worker.once('message', (r: { ms: number[]; seconds: number; errors: string[] }) => {
      void worker.terminate();
      if (r.errors.length > 0) reject(new Error(`${r.errors.length} failed requests, e.g. ${r.errors[0]}`));
      else resolve(r);
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function tilesOver(bbox: [number, number, number, number], z: number): Array<{ z: number; x: number; y: number }> {
  const n = 2 ** z;
  const tx = (lon: number) => Math.floor(((lon + 180) / 360) * n);
  const ty = (lat: number) => {
    const s = Math.sin((lat * Math.PI) / 180);
    return Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n);
  };
  const out = [];
  for (let x = tx(bbox[0]); x <= tx(bbox[2]); x++)
    for (let y = ty(bbox[3]); y <= ty(bbox[1]); y++) out.push({ z, x, y });
  return out;
}

/** CPU seconds of the PostgreSQL backends serving database `name`, by process id (Linux /proc; empty elsewhere). */
async function backendCpu(admin: pg.Client, name: string): Promise<Map<number, number>> {
  const pids = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
  const out = new Map<number, number>();
  for (const { pid } of pids.rows) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (stat === null) continue;
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100/s).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
  }
  return out;
}

/** What held this process's event loop during a phase: its delays (ms) and V8's garbage collection pauses. */
interface LoopFigures {
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
  gcPauses: number;
  gcPauseTotalMs: number;
  gcPauseMaxMs: number;
  /** Pauses of full (mark-compact) collections. */
  gcMajorPauses: number;
}

/**
 * Runs a load phase and measures the CPU it cost, a figure the other work on a shared machine does not
 * change as much as latency: this process (the API server; the load generator runs in a process of its
 * own) and the database's backends, in CPU seconds per 1,000 requests, with the 1-minute load average;
 * and what held the server's event loop (its delays, the garbage collector's pauses): the latency tail.
 */
/** Busy CPU seconds of the whole machine since boot (/proc/stat: every state but idle and iowait). */
async function machineBusySeconds(): Promise<number> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.reduce((a, b) => a + b, 0);
  return (total - v[3]! - v[4]!) / 100;
}

async function metered<T extends { ms: number[] }>(
  admin: pg.Client,
  name: string,
  phase: () => Promise<T>,
): Promise<
  T & {
    cpu: {
      serverCpuSPer1000: number;
      serverKernelCpuSPer1000: number;
      postgresCpuSPer1000: number;
      machineCpuSPer1000: number;
      loadavg1: number;
    };
    loop: LoopFigures;
  }
> {
  const backendsBefore = await backendCpu(admin, name);
  const perf = process.env.BENCH_PERF_CONTROL;
  if (perf) await writeFile(perf, 'enable\n');
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const pauses: Array<{ ms: number; major: boolean }> = [];
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as { detail?: { kind?: number } }).detail?.kind;
      pauses.push({ ms: e.duration, major: kind === constants.NODE_PERFORMANCE_GC_MAJOR });
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  delay.enable();
  const before = process.cpuUsage();
  const machineBefore = await machineBusySeconds();
  const result = await phase();
  const used = process.cpuUsage(before);
  const machine = (await machineBusySeconds()) - machineBefore;
  delay.disable();
  gc.disconnect();
  if (perf) await writeFile(perf, 'disable\n');
  let postgres = 0;
  for (const [pid, s] of await backendCpu(admin, name)) postgres += s - (backendsBefore.get(pid) ?? 0);
  const per1000 = 1000 / result.ms.length;
  return {
    ...result,
    cpu: {
      serverCpuSPer1000: round(((used.user + used.system) / 1e6) * per1000, 3),
      // Of which in the kernel (sockets: the loopback's TCP work is done by the sender's system calls).
      serverKernelCpuSPer1000: round((used.system / 1e6) * per1000, 3),
      postgresCpuSPer1000: round(postgres * per1000, 3),
      // Every process of the machine (the load generator's included, when it is a process of its own).
      machineCpuSPer1000: round(machine * per1000, 3),
      loadavg1: round(loadavg()[0]!),
    },
    loop: {
      eventLoopDelayP99Ms: round(delay.percentile(99) / 1e6),
      eventLoopDelayMaxMs: round(delay.max / 1e6),
      gcPauses: pauses.length,
      gcPauseTotalMs: round(pauses.reduce((a, p) => a + p.ms, 0)),
      gcPauseMaxMs: round(Math.max(0, ...pauses.map((p) => p.ms))),
      gcMajorPauses: pauses.filter((p) => p.major).length,
    },
  };
}

/**
 * Rounds of a metered phase as one: their latencies together, their wall times added, their CPU figures
 * averaged, their event loops' worst delays and their collector's pauses added up.
 */
function pooled<T extends { ms: number[]; seconds: number; cpu: Record<string, number>; loop: LoopFigures }>(
  runs: T[],
): { ms: number[]; seconds: number; cpu: T['cpu']; loop: LoopFigures } {
  const cpu: Record<string, number> = {};
  for (const k of Object.keys(runs[0]!.cpu)) cpu[k] = round(runs.reduce((a, r) => a + r.cpu[k]!, 0) / runs.length, 3);
  const worst = (f: (l: LoopFigures) => number) => Math.max(...runs.map((r) => f(r.loop)));
  const sum = (f: (l: LoopFigures) => number) => round(runs.reduce((a, r) => a + f(r.loop), 0));
  return {
    ms: runs.flatMap((r) => r.ms),
    seconds: runs.reduce((a, r) => a + r.seconds, 0),
    cpu: cpu as T['cpu'],
    loop: {
      eventLoopDelayP99Ms: worst((l) => l.eventLoopDelayP99Ms),
      eventLoopDelayMaxMs: worst((l) => l.eventLoopDelayMaxMs),
      gcPauses: sum((l) => l.gcPauses),
      gcPauseTotalMs: sum((l) => l.gcPauseTotalMs),
      gcPauseMaxMs: worst((l) => l.gcPauseMaxMs),
      gcMajorPauses: sum((l) => l.gcMajorPauses),
    },
  };
}

/** A fixed pseudo-random sequence, so that runs ask for the same pages. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

export default {
  description: 'OGC API items and vector tiles under 50 concurrent connections, against the raw ST_AsMVT query',
  async run(args) {
    const arg = (name: string, fallback: number) => {
      const i = args.indexOf(name);
      return i >= 0 ? Number(args[i + 1]) : fallback;
    };
    const itemRequests = arg('--items', 2000);
    const warmTileRequests = arg('--tiles', 4000);
    const connections = arg('--connections', 50);
    // Items only (no vector tiles): the quicker loop while working on the items pages.
    const itemsOnly = args.includes('--items-only');
    const tilesOnly = args.includes('--tiles-only');
    const rounds = Math.max(1, arg('--rounds', 1));
    // The HTTP client: autocannon in a process of its own (default), or fetch loops in a worker thread of this process.
    const client =
      args.includes('--client') && args[args.indexOf('--client') + 1] === 'worker' ? 'worker' : 'autocannon';
    const http = client === 'worker' ? loadHttp : loadHttpProcess;
    const profileFile = args.includes('--cpu-profile') ? args[args.indexOf('--cpu-profile') + 1] : undefined;
    let stopProfile: (() => Promise<void>) | null = null;
    const base = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `nuage_bench_ogc_${process.pid}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    // The app's pool size; a connection may be waited for up to a minute (the app's 5 s would fail the run with
    // 503s, or the reference with an error, when other work loads the machine: slow figures rather than none).
    const poolOptions = { connectTimeoutMs: 60_000 };
    const database = createDatabase(url.toString(), poolOptions);
    const reference = createDatabase(url.toString(), poolOptions);
    // The app's files (the tiles store) go where the product keeps them by default, next to the code
    // (DATA_DIR ./data): on this VM a file created under /tmp costs about 4 times the kernel CPU of one
    // created elsewhere on the same disk (150 against 34 µs), which the first request of every tile pays.
    // `--data-dir DIR` puts them elsewhere (e.g. /tmp, to compare).
    const dataRoot = args.includes('--data-dir')
      ? path.resolve(args[args.indexOf('--data-dir') + 1]!)
      : path.resolve(import.meta.dirname, '..', '..', 'data');
    await mkdir(dataRoot, { recursive: true });
    const dataDir = await mkdtemp(path.join(dataRoot, 'nuage-bench-ogc-'));
    let server: ReturnType<typeof serve> | null = null;
    try {
      await migrate(database.pool);
      const { db } = database;
      const user = await db
        .insertInto('users')
        .values({ email: 'bench@example.com', password_hash: 'x', roles: ['user'], enabled: true })
        .returning('id')
        .executeTakeFirstOrThrow();
      const project = await db
        .insertInto('projects')
        .values({
          owner_id: user.id,
          name: 'Bench',
          status: 'READY',
          epsg_code: 32754,
          creation_year: 2021,
          creation_day: 60,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const layer = await db
        .insertInto('layers')
        .values({ project_id: project.id, name: 'Vectors', type: 'VECTOR' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const asset = async (type: string) =>
        (
          await db
            .insertInto('assets')
            .values({ project_id: project.id, layer_id: layer.id, type, status: 'READY', name: type.toLowerCase() })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      const grid = await asset('GRID');
      const lines = await asset('CONTOUR_LINE');
      await sql`
        INSERT INTO features (asset_id, geom, properties)
        SELECT ${grid}, ST_SetSRID(ST_MakePoint(138.55 + i * 0.0001, -35.05 + j * 0.0001), 4326),
               jsonb_build_object('elevation', round((100 + sin(i / 10.0) * 20 + cos(j / 7.0) * 15)::numeric, 2))
        FROM generate_series(0, 315) i, generate_series(0, 315) j`.execute(db);
      await sql`
        INSERT INTO features (asset_id, geom, properties)
        SELECT ${lines}, ST_SetSRID(ST_MakeLine(ARRAY(
                 SELECT ST_MakePoint(138.55 + v * 0.000126, -35.05 + k * 0.000079 + sin(v / 9.0) * 0.0004)
                 FROM generate_series(0, 249) v)), 4326),
               jsonb_build_object('elevation', 80 + k, 'kind', CASE WHEN k % 5 = 0 THEN 'major' ELSE 'minor' END)
        FROM generate_series(0, 399) k`.execute(db);
      // As autovacuum leaves a table after a bulk insert (this server may run without it): statistics, and the
      // visibility map that lets the (asset_id, id) index answer a page's ids without visiting the rows.
      await sql`VACUUM ANALYZE features`.execute(db);
      const counts = await sql<{ asset_id: string; n: number }>`
        SELECT asset_id, count(*)::int AS n FROM features GROUP BY asset_id`.execute(db);
      const gridCount = counts.rows.find((r) => r.asset_id === grid)!.n;

      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const config = loadConfig({
        DATABASE_URL: url.toString(),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        PUBLIC_URL: origin,
      });
      const deps = {
        config,
        database,
        log: createLogger({ level: 'silent', role: 'bench' }),
        storage: await openLocalStorage(path.join(dataDir, 'files')),
        migrationVersion: 0,
      };
      const app = createApp(deps);
      server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
      const { token } = await createAccessTokensService(deps).create(user.id, { name: 'bench' });
      const headers = { authorization: `Bearer ${token}` };
      const get = async (p: string, expected: number[] = [200]) => {
        const res = await fetch(`${origin}${p}`, { headers });
        const body = await res.arrayBuffer();
        if (!expected.includes(res.status)) throw new Error(`${p}: ${res.status} ${Buffer.from(body).toString()}`);
        return body.byteLength;
      };

      // Warm-up: the collections' statistics and queryables, then both kinds of page at C connections, as a
      // server under a steady load has them: every connection of the pool open with its statements prepared
      // and planned, and the server's code compiled (requests one at a time opened one database connection, and
      // the measured phase then paid for starting the others, PostGIS loaded and first plans made: 3.8 ms of
      // backend CPU per request over a fresh pool's first 300 pages, 0.8 ms once warm).
      for (let i = 0; i < 20; i++) await get(`/ogc/collections/${grid}/items?limit=100`);
      const warmUp = random(7);
      await http(
        Array.from({ length: 400 }, (_, i) => {
          const w = 138.55 + warmUp() * 0.028;
          const s = -35.05 + warmUp() * 0.028;
          return i % 2 === 0
            ? `${origin}/ogc/collections/${grid}/items?limit=100&offset=${Math.floor(warmUp() * (gridCount - 100))}`
            : `${origin}/ogc/collections/${grid}/items?limit=100&bbox=${w},${s},${w + 0.0033},${s + 0.0027}`;
        }),
        connections,
        headers,
      );

      const rnd = random(42);
      if (profileFile) stopProfile = await startProfile(profileFile);
      const itemPhases = async () => {
        const pages = await metered(admin, name, () =>
          http(
            Array.from(
              { length: itemRequests },
              () => `${origin}/ogc/collections/${grid}/items?limit=100&offset=${Math.floor(rnd() * (gridCount - 100))}`,
            ),
            connections,
            headers,
          ),
        );
        const boxes = await metered(admin, name, () =>
          http(
            Array.from({ length: itemRequests }, () => {
              const w = 138.55 + rnd() * 0.028;
              const s = -35.05 + rnd() * 0.028;
              return `${origin}/ogc/collections/${grid}/items?limit=100&bbox=${w},${s},${w + 0.0033},${s + 0.0027}`;
            }),
            connections,
            headers,
          ),
        );
        return {
          randomPagesLimit100: { ...stats(pages.ms, pages.seconds), ...pages.cpu, serverLoop: pages.loop },
          bboxPagesLimit100: { ...stats(boxes.ms, boxes.seconds), ...boxes.cpu, serverLoop: boxes.loop },
        };
      };
      const items = tilesOnly ? undefined : await itemPhases();

      const clientName =
        client === 'worker'
          ? 'fetch loops in a worker thread of the server process'
          : 'autocannon 9 in a separate process (keep-alive connections)';
      if (itemsOnly) {
        await stopProfile?.();
        stopProfile = null;
        const data = { gridPoints: gridCount, lines: 400, lineVertices: 250 };
        return {
          connections,
          client: clientName,
          data,
          items,
          machine: { loadavg1: round(loadavg()[0]!), appFilesUnder: dataRoot },
        };
      }

      const area: [number, number, number, number] = [138.55, -35.05, 138.5816, -35.0184];
      const tiles = [14, 15, 16, 17].flatMap((z) => tilesOver(area, z));
      const work = [grid, lines].flatMap((asset) => tiles.map((t) => ({ asset, ...t })));
      const tilePath = (w: (typeof work)[number]) =>
        `/ogc/collections/${w.asset}/tiles/WebMercatorQuad/${w.z}/${w.y}/${w.x}`;

      // Reference: the raw query, on a pool of the app's size, C at a time.
      // Both metered: the CPU per tile of this process and of the database's backends says what the app adds to
      // the query whatever the machine's load (the throughputs' ratio moves with the other work on it).
      // Warm-up of both sides on tiles that are not measured (zoom 18 over a corner of the area): the tile route's
      // code compiled, as the items pages' is above, and the raw query's. Without it the first round paid the
      // JIT compilation of the route (V8's compiler threads busy during the measured requests) and the reference
      // did not, since the reference's code is mostly the query that the route shares. The store is emptied after.
      const warmTiles = tilesOver([138.55, -35.05, 138.57, -35.035], 18).slice(0, 200);
      const warmWork = [grid, lines].flatMap((asset) => warmTiles.map((t) => ({ asset, ...t })));
      await load(
        warmWork.map((w) => async () => {
          await vectorTile(reference, { assetId: w.asset, z: w.z, x: w.x, y: w.y, layer: 'layer' });
        }),
        connections,
      );
      await http(
        warmWork.map((w) => `${origin}${tilePath(w)}`),
        connections,
        headers,
        [200, 204],
      );
      for (const a of [grid, lines]) await deps.storage.tiles.deletePrefix(assetKey(project.id, a));

      // Second reference: the same raw query behind the barest HTTP server (node:http, no routing, no access
      // check, no store), loaded by the same client as the app. On one machine the client's own CPU and the
      // HTTP exchange of each tile weigh on both sides of this ratio, as they would not on the in-process one.
      const rawPort = await freePort();
      const rawOrigin = `http://127.0.0.1:${rawPort}`;
      const rawServer = createHttpServer((req, res) => {
        const [, , asset, z, x, y] = (req.url ?? '').split('/');
        vectorTile(reference, { assetId: asset!, z: Number(z), x: Number(x), y: Number(y), layer: 'layer' }).then(
          (bytes) => {
            res.writeHead(bytes.byteLength === 0 ? 204 : 200, {
              'Content-Type': 'application/vnd.mapbox-vector-tile',
              'Content-Length': String(bytes.byteLength),
            });
            res.end(bytes);
          },
          (err: Error) => {
            res.writeHead(500).end(err.message);
          },
        );
      });
      await new Promise<void>((resolve) => rawServer.listen(rawPort, '127.0.0.1', resolve));
      const rawUrl = (w: (typeof work)[number]) => `${rawOrigin}/raw/${w.asset}/${w.z}/${w.x}/${w.y}`;
      await http(warmWork.map(rawUrl), connections, headers, [200, 204]);

      const raws: Array<Awaited<ReturnType<typeof metered<{ ms: number[]; seconds: number }>>>> = [];
      const rawHttps: typeof raws = [];
      const colds: typeof raws = [];
      for (let r = 0; r < rounds; r++) {
        if (r > 0) for (const a of [grid, lines]) await deps.storage.tiles.deletePrefix(assetKey(project.id, a));
        raws.push(
          await metered(admin, name, () =>
            load(
              work.map((w) => async () => {
                await vectorTile(reference, { assetId: w.asset, z: w.z, x: w.x, y: w.y, layer: 'layer' });
              }),
              connections,
            ),
          ),
        );
        rawHttps.push(await metered(admin, name, () => http(work.map(rawUrl), connections, headers, [200, 204])));
        colds.push(
          await metered(admin, name, () =>
            http(
              work.map((w) => `${origin}${tilePath(w)}`),
              connections,
              headers,
              [200, 204],
            ),
          ),
        );
      }
      rawServer.close();
      const raw = pooled(raws);
      const rawHttp = pooled(rawHttps);
      const cold = pooled(colds);
      await stopProfile?.();
      stopProfile = null;
      const bytes = (await Promise.all(work.slice(0, 50).map((w) => get(tilePath(w), [200, 204])))).reduce(
        (a, b) => a + b,
        0,
      );
      const warm = await metered(admin, name, () =>
        http(
          Array.from(
            { length: warmTileRequests },
            () => `${origin}${tilePath(work[Math.floor(rnd() * work.length)]!)}`,
          ),
          connections,
          headers,
          [200, 204],
        ),
      );
      // Every tile served (the store's bytes, made on first request) against the raw query's bytes for the same
      // tile and layer name (the app names the layer after the asset type): the app serves what the query makes.
      let sameAsQuery = 0;
      for (const w of work) {
        const res = await fetch(`${origin}${tilePath(w)}`, { headers });
        const served = Buffer.from(await res.arrayBuffer());
        const layer = w.asset === grid ? 'grid' : 'contour_line';
        const made = await vectorTile(reference, { assetId: w.asset, z: w.z, x: w.x, y: w.y, layer });
        if (served.equals(made)) sameAsQuery++;
      }
      const coldStats = stats(cold.ms, cold.seconds);
      const rawStats = stats(raw.ms, raw.seconds);
      const rawHttpStats = stats(rawHttp.ms, rawHttp.seconds);
      return {
        connections,
        client: clientName,
        data: {
          gridPoints: gridCount,
          lines: 400,
          lineVertices: 250,
          tiles: work.length,
          bytesOfFirst50Tiles: bytes,
          tilesServedSameAsRawQuery: `${sameAsQuery}/${work.length}`,
        },
        items,
        vectorTiles: {
          firstRequestMadeByPostgis: { ...coldStats, ...cold.cpu, serverLoop: cold.loop },
          servedFromTilesStore: { ...stats(warm.ms, warm.seconds), ...warm.cpu, serverLoop: warm.loop },
          firstRequestVsRawQueryThroughput: round(coldStats.perSecond / rawStats.perSecond),
          firstRequestVsRawQueryOverHttpThroughput: round(coldStats.perSecond / rawHttpStats.perSecond),
          ...(rounds > 1
            ? {
                rounds: colds.map((c, r) => ({
                  throughputRatio: round(c.ms.length / c.seconds / (raws[r]!.ms.length / raws[r]!.seconds)),
                  throughputRatioOverHttp: round(
                    c.ms.length / c.seconds / (rawHttps[r]!.ms.length / rawHttps[r]!.seconds),
                  ),
                  rawHttpMachineCpuSPer1000: rawHttps[r]!.cpu.machineCpuSPer1000,
                  serverCpuSPer1000: c.cpu.serverCpuSPer1000,
                  postgresCpuSPer1000: c.cpu.postgresCpuSPer1000,
                  rawServerCpuSPer1000: raws[r]!.cpu.serverCpuSPer1000,
                  rawPostgresCpuSPer1000: raws[r]!.cpu.postgresCpuSPer1000,
                  machineCpuSPer1000: c.cpu.machineCpuSPer1000,
                  rawMachineCpuSPer1000: raws[r]!.cpu.machineCpuSPer1000,
                  loadavg1: c.cpu.loadavg1,
                })),
              }
            : {}),
        },
        reference: {
          rawStAsMvtQuery: { ...rawStats, ...raw.cpu },
          rawStAsMvtQueryOverHttp: { ...rawHttpStats, ...rawHttp.cpu },
        },
        machine: { loadavg1: round(loadavg()[0]!), appFilesUnder: dataRoot },
      };
    } finally {
      await stopProfile?.();
      if (server) await new Promise((r) => server!.close(() => r(null)));
      await database.close();
      await reference.close();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
} satisfies BenchSuite;
