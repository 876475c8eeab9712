/**
 * `npm run bench -- tiled [--gb N] [--tile-points N] [--buffer M] [--untiled]`: the tiled
 * classification of issue 24 (goal 2) on a real-replica LAS of N GB (default 1; see
 * replica.ts), each stage in its own process as the API's worker processes run it
 * (tiled-stage.ts), timed under /usr/bin/time (wall, CPU, peak RSS):
 *
 * 1. split: one pass over the input, a file per tile with its overlap buffer;
 * 2. tiles with 1 long-lived worker process, then with 2 at once (this machine has 2 cores);
 *    "3 workers" on paper: the measured 1-worker tile times scheduled longest-first
 *    on 3 machines;
 * 3. merge: every tile's classes into one file in input order.
 *
 * References, same run: reading the input's bytes from disk; with `--untiled` (or
 * inputs up to 0.5 GB), the classification of the whole cloud in one process
 * (`nuage process IN OUT --products classify`, what a job runs below TILED_PROCESSING_POINTS),
 * whose classified-LAS writing and 3D tiles are timed apart in its manifest.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { TileSplit } from '@nuage/engine/tiled/tiled-classify.js';
import type { BenchSuite } from '../main.js';
import { writeReplica } from '../replica.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const STAGE = path.join(ROOT, 'bench', 'src', 'tiled-stage.ts');
const TIME = '/usr/bin/time';

interface Timed {
  wallSeconds: number;
  cpuSeconds: number | null;
  maxRssMb: number | null;
}

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function round(n: number, d = 2): number {
  const f = 10 ** d;
  return Math.round(n * f) / f;
}

/** Runs a command under /usr/bin/time; wall clock from here, CPU and peak RSS from time(1), and its stdout. */
async function timed(argv: string[]): Promise<Timed & { stdout: string }> {
  const useTime = existsSync(TIME);
  const command = useTime ? TIME : argv[0]!;
  const full = useTime ? ['-f', 'TIME %e %U %S %M', ...argv] : argv.slice(1);
  const t0 = performance.now();
  let stdout = '';
  const stderr = await new Promise<string>((resolve, reject) => {
    const child = spawn(command, full, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.on('data', (d) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(err) : reject(new Error(`${argv.join(' ')} failed (${code}): ${err}`)),
    );
  });
  const wallSeconds = round((performance.now() - t0) / 1000);
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  return {
    wallSeconds,
    cpuSeconds: m ? round(Number(m[2]) + Number(m[3])) : null,
    maxRssMb: m ? Math.round(Number(m[4]) / 1024) : null,
    stdout,
  };
}

interface TileTime {
  tile: number;
  points: number;
  owned: number;
  seconds: number;
}

/**
 * Runs the tiles with `workers` long-lived processes at once (as API workers: each
 * takes its share, biggest tiles first); per-tile times and the makespan.
 */
async function runTiles(
  dir: string,
  plan: TileSplit,
  workers: number,
): Promise<{ wallSeconds: number; processes: Timed[]; tiles: TileTime[] }> {
  const shares: number[][] = Array.from({ length: workers }, () => []);
  const load = new Array(workers).fill(0);
  for (const t of [...plan.tiles].sort((a, b) => b.points - a.points)) {
    const w = load.indexOf(Math.min(...load));
    shares[w]!.push(t.index);
    load[w] += t.points;
  }
  const t0 = performance.now();
  const runs = await Promise.all(
    shares.filter((s) => s.length > 0).map((s) => timed([TSX, STAGE, 'tiles', dir, s.join(',')])),
  );
  const tiles = runs
    .flatMap((r) => r.stdout.trim().split('\n'))
    .map((l) => JSON.parse(l) as TileTime)
    .sort((a, b) => a.tile - b.tile);
  return {
    wallSeconds: round((performance.now() - t0) / 1000),
    processes: runs.map(({ stdout: _stdout, ...r }) => r),
    tiles,
  };
}

/** Longest-first scheduling of tile times on `machines` (the makespan). */
function makespan(times: number[], machines: number): number {
  const load = new Array(machines).fill(0);
  for (const t of [...times].sort((a, b) => b - a)) {
    const i = load.indexOf(Math.min(...load));
    load[i] += t;
  }
  return round(Math.max(...load));
}

async function rawRead(file: string): Promise<number> {
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const s = createReadStream(file, { highWaterMark: 4 << 20 });
    s.on('data', () => {});
    s.on('end', resolve);
    s.on('error', reject);
  });
  return round((performance.now() - t0) / 1000, 3);
}

const suite: BenchSuite = {
  description: 'tiled classification across worker processes: split, tiles with 1 and 2 workers (3 on paper), merge',
  async run(args) {
    const gb = Number(arg(args, '--gb') ?? '1');
    const perTile = Number(arg(args, '--tile-points') ?? '8000000');
    const buffer = Number(arg(args, '--buffer') ?? '40');
    const work = await mkdtemp(path.join(tmpdir(), 'nuage-bench-tiled-'));
    try {
      const input = path.join(work, 'replica.las');
      const replica = await writeReplica(input, gb * 1024 ** 3);
      const gbIn = replica.bytes / 1024 ** 3;
      console.info(`replica: ${replica.points} points, ${round(gbIn, 3)} GB`);
      const rawReadSeconds = await rawRead(input);
      const dir = path.join(work, 'run');
      await mkdir(dir, { recursive: true });
      const loadBefore = loadavg().map((l) => round(l));
      const { stdout: _split, ...split } = await timed([
        TSX,
        STAGE,
        'split',
        input,
        dir,
        String(perTile),
        String(buffer),
      ]);
      const plan = JSON.parse(await readFile(path.join(dir, 'split.json'), 'utf8')) as TileSplit;
      const n = plan.tiles.length;
      console.info(`split into ${n} tiles (${plan.grid.nx}×${plan.grid.ny}) in ${split.wallSeconds} s`);
      const one = await runTiles(dir, plan, 1);
      console.info(`tiles, 1 worker: ${one.wallSeconds} s`);
      const two = await runTiles(dir, plan, 2);
      console.info(`tiles, 2 workers: ${two.wallSeconds} s`);
      const { stdout: _merge, ...merge } = await timed([TSX, STAGE, 'merge', dir]);
      const tileTimes = one.tiles.map((t) => t.seconds);
      const threeOnPaper = makespan(tileTimes, 3);
      const total = (tilesWall: number) => round(split.wallSeconds + tilesWall + merge.wallSeconds);
      let untiled: (Timed & { classifyMs: number | null }) | null = null;
      if (args.includes('--untiled') || gbIn <= 0.5) {
        const out = path.join(work, 'untiled');
        const { stdout: _out, ...t } = await timed([
          TSX,
          path.join(ROOT, 'engine', 'src', 'cli.ts'),
          'process',
          input,
          out,
          '--products',
          'classify',
        ]);
        const manifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8'));
        untiled = { ...t, classifyMs: manifest.products.find((p: { id: string }) => p.id === 'classify')?.ms ?? null };
        console.info(`untiled classification (with its LAS and 3D tiles): ${t.wallSeconds} s`);
      }
      const inTiles = plan.tiles.reduce((s, t) => s + t.points, 0);
      return {
        input: { points: replica.points, gb: round(gbIn, 3), blocks: replica.blocks },
        tiles: {
          count: n,
          grid: `${plan.grid.nx}x${plan.grid.ny}`,
          pointsPerTile: perTile,
          bufferMetres: buffer,
          // Points read by the tiles over the input's: what the overlap buffers cost.
          bufferOverhead: round(inTiles / replica.points, 3),
        },
        rawReadSeconds,
        split,
        tilesOneWorker: one,
        tilesTwoWorkers: two,
        tilesThreeWorkersOnPaper: {
          wallSeconds: threeOnPaper,
          from: 'the 1-worker tile times, longest first on 3 machines',
        },
        merge,
        totalWallSeconds: {
          oneWorker: total(one.wallSeconds),
          twoWorkers: total(two.wallSeconds),
          threeWorkersOnPaper: total(threeOnPaper),
        },
        speedUp: {
          twoWorkers: round(total(one.wallSeconds) / total(two.wallSeconds)),
          threeWorkersOnPaper: round(total(one.wallSeconds) / total(threeOnPaper)),
        },
        mergeShareOfOneWorker: round(merge.wallSeconds / total(one.wallSeconds), 3),
        peakRssMb: Math.max(split.maxRssMb ?? 0, merge.maxRssMb ?? 0, ...one.processes.map((t) => t.maxRssMb ?? 0)),
        untiledReference: untiled,
        minutesPerGbClassification: {
          oneWorker: round(total(one.wallSeconds) / 60 / gbIn),
          twoWorkers: round(total(two.wallSeconds) / 60 / gbIn),
        },
        loadBefore,
        loadAfter: loadavg().map((l) => round(l)),
      };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
};

export default suite;
