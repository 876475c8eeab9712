/**
 * `npm run bench -- tile [--only-wires] [--skip-100m] [--only-100m]`: 3D Tiles tiler throughput and memory.
 *
 * - wires.laz (largest real file, 1.73 M points) through `tilePointCloud`, end to end (header to
 *   tileset.json), three ways, each the median of three runs:
 *   - `wiresFreshProcess`: the first tiling of a process that started nothing before (worker
 *     threads start and compile during the measured time);
 *   - `wiresAfterBootWarmUp`: what the job worker does: `warmTilerPool()` when the process boots
 *     (timed apart, off the user's path), then its first tiling;
 *   - `wiresWarm`: a later tiling in a process that has tiled before.
 *   The first two run in child processes, one fresh process per run.
 * - a 20 M-point mosaic of real files (BCTS tiles side by side), once from an uncompressed LAS
 *   file and once from a LAZ file of the same copies (bench/data, generated once by big-inputs.ts);
 * - a 100 M-point mosaic, to show memory stays bounded.
 * Reference in the same run: reading alone (decoding, no reprojection or tiling)
 * of the same inputs, the floor any tiler sits on. Peak RSS is the process high-water mark
 * (VmHWM, worker threads included), reset before each case; CPU seconds cover every thread.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { tilePointCloud } from '@nuage/engine/tiler/tile-point-cloud.js';
import { tileInput } from '@nuage/engine/tiler/tiler.js';
import { warmTilerPool } from '@nuage/engine/tiler/tiler-warm-up.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import { ensureMosaicLas, ensureMosaicLaz } from '../data/big-inputs.js';
import { mosaicTilerInput, planMosaic } from '../data/tile-mosaic.js';
import type { BenchSuite } from '../main.js';

/** Runs of each wires case (the median is reported). */
const RUNS = 3;
/** Set in the child processes this suite starts for the first-tiling cases. */
const CHILD_ENV = 'NUAGE_TILE_BENCH_CHILD';

function resetPeak(): void {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or not permitted: the peak then covers the whole run.
  }
}

function peakRssMb(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Math.round(Number(m[1]) / 1024);
  } catch {
    // fall through
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const cpu = process.cpuUsage(since);
  return Number(((cpu.user + cpu.system) / 1e6).toFixed(2));
}

interface CaseFigures {
  points: number;
  seconds: number;
  pointsPerSecond: number;
  peakRssMb: number;
  cpuSeconds: number;
  tiles: number;
  maxDepth: number;
  contentMb: number;
  loadAverage: number;
  phases?: Record<string, number>;
}

async function measure(
  run: () => Promise<{
    pointCount: number;
    tileCount: number;
    maxDepth: number;
    contentBytes: number;
    phases?: Record<string, number>;
  }>,
): Promise<CaseFigures> {
  resetPeak();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await run();
  const seconds = (performance.now() - t0) / 1000;
  return {
    points: r.pointCount,
    seconds: Number(seconds.toFixed(3)),
    pointsPerSecond: Math.round(r.pointCount / seconds),
    peakRssMb: peakRssMb(),
    cpuSeconds: cpuSeconds(cpu0),
    tiles: r.tileCount,
    maxDepth: r.maxDepth,
    contentMb: Math.round(r.contentBytes / 1e6),
    loadAverage: os.loadavg()[0]!,
    ...(r.phases ? { phases: r.phases } : {}),
  };
}

/** The run with the median time, plus every run's points per second and load average. */
function median<T extends { seconds: number; pointsPerSecond: number; loadAverage: number }>(
  runs: T[],
): T & { runs: { pointsPerSecond: number; loadAverage: number }[] } {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return {
    ...sorted[Math.floor(sorted.length / 2)]!,
    runs: runs.map((r) => ({ pointsPerSecond: r.pointsPerSecond, loadAverage: r.loadAverage })),
  };
}

async function readOnly(file: string): Promise<{ points: number; seconds: number; pointsPerSecond: number }> {
  const t0 = performance.now();
  const reader = await openPointCloud(file);
  let points = 0;
  for await (const c of reader.read({ chunkSize: 65536 })) points += c.count;
  await reader.close();
  const seconds = (performance.now() - t0) / 1000;
  return { points, seconds: Number(seconds.toFixed(2)), pointsPerSecond: Math.round(points / seconds) };
}

interface FirstTiling extends CaseFigures {
  /** `boot` only: the warm-up the process did when it started, before the measured tiling. */
  warmUp?: { seconds: number; cpuSeconds: number };
}

/** Body of a child process: one first tiling of wires.laz, figures as JSON on stdout. */
async function childRun(mode: 'fresh' | 'boot', work: string): Promise<void> {
  let warmUp: FirstTiling['warmUp'];
  if (mode === 'boot') {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await warmTilerPool();
    warmUp = { seconds: Number(((performance.now() - t0) / 1000).toFixed(3)), cpuSeconds: cpuSeconds(cpu0) };
  }
  const figures: FirstTiling = await measure(() =>
    tilePointCloud(realFile('wires.laz'), path.join(work, 'wires'), {}, { tmpDir: work }),
  );
  if (warmUp) figures.warmUp = warmUp;
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

/** One first tiling in a fresh process (this module run with the same loader as this process). */
function firstTilingInChild(mode: 'fresh' | 'boot', work: string): FirstTiling {
  const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, [CHILD_ENV]: JSON.stringify({ mode, work }) },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as FirstTiling;
}

const child = process.env[CHILD_ENV];
if (child) {
  const { mode, work } = JSON.parse(child) as { mode: 'fresh' | 'boot'; work: string };
  await childRun(mode, work);
  process.exit(0);
}

export default {
  description: '3D Tiles tiler: points/s and peak RSS on wires.laz, a 20 M and a 100 M-point mosaic of real files',
  async run(args) {
    const work = await mkdtemp(path.join(process.env.NUAGE_BENCH_TMP ?? os.tmpdir(), 'nuage-tile-bench-'));
    const figures: Record<string, unknown> = { cores: os.availableParallelism(), loadAverageAtStart: os.loadavg()[0] };
    const log = (k: string, v: unknown) => {
      figures[k] = v;
      console.log(k, JSON.stringify(v));
    };
    try {
      if (!args.includes('--only-100m')) {
        log('readOnlyWires', await readOnly(realFile('wires.laz')));
        log(
          'production',
          'the job worker process calls warmTilerPool() when it boots and tiles file after file: its first ' +
            'tiling is wiresAfterBootWarmUp, later ones wiresWarm; wiresFreshProcess is a process that warmed nothing',
        );
        const fresh: FirstTiling[] = [];
        const boot: FirstTiling[] = [];
        for (let i = 0; i < RUNS; i++) {
          fresh.push(firstTilingInChild('fresh', work));
          await rm(path.join(work, 'wires'), { recursive: true, force: true });
          boot.push(firstTilingInChild('boot', work));
          await rm(path.join(work, 'wires'), { recursive: true, force: true });
        }
        log('wiresFreshProcess', median(fresh));
        log('wiresAfterBootWarmUp', median(boot));
        // This process: one tiling, then the measured ones (threads and JIT warm from it).
        await tilePointCloud(realFile('wires.laz'), path.join(work, 'wires'), {}, { tmpDir: work });
        await rm(path.join(work, 'wires'), { recursive: true, force: true });
        const warm: CaseFigures[] = [];
        for (let i = 0; i < RUNS; i++) {
          warm.push(
            await measure(() => tilePointCloud(realFile('wires.laz'), path.join(work, 'wires'), {}, { tmpDir: work })),
          );
          await rm(path.join(work, 'wires'), { recursive: true, force: true });
        }
        log('wiresWarm', median(warm));
      }
      if (!args.includes('--only-100m') && !args.includes('--only-wires')) {
        const las20 = (await ensureMosaicLas(20_000_000)).path;
        log('readOnlyMosaic20MLas', await readOnly(las20));
        log(
          'mosaic20MLas',
          await measure(() => tilePointCloud(las20, path.join(work, 'm20las'), {}, { tmpDir: work })),
        );
        await rm(path.join(work, 'm20las'), { recursive: true, force: true });
        const laz20 = (await ensureMosaicLaz(20_000_000)).path;
        log('readOnlyMosaic20MLaz', await readOnly(laz20));
        log(
          'mosaic20MLaz',
          await measure(() => tilePointCloud(laz20, path.join(work, 'm20laz'), {}, { tmpDir: work })),
        );
        await rm(path.join(work, 'm20laz'), { recursive: true, force: true });
      }
      if (!args.includes('--skip-100m') && !args.includes('--only-wires')) {
        const plan100 = await planMosaic(100_000_000);
        log(
          'mosaic100M',
          await measure(async () =>
            tileInput(await mosaicTilerInput(plan100), path.join(work, 'm100'), {}, { tmpDir: work }),
          ),
        );
      }
      figures.loadAverageAtEnd = os.loadavg()[0];
      return figures;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  },
} satisfies BenchSuite;
