/**
 * `npm run bench -- tile [--skip-100m] [--only-100m]`: 3D Tiles tiler throughput and memory.
 *
 * - wires.laz (largest real file, 1.73 M points) through `tilePointCloud`: first in a fresh
 *   process (worker threads start), then again with the workers kept from the first tiling;
 * - a 20 M-point mosaic of real files (BCTS tiles side by side), once from an uncompressed LAS
 *   file and once from a LAZ file of the same copies (bench/data, generated once by big-inputs.ts);
 * - a 100 M-point mosaic, to show memory stays bounded.
 * Reference in the same run: reading alone (decoding, no reprojection or tiling)
 * of the same inputs, the floor any tiler sits on. Peak RSS is the process high-water mark
 * (VmHWM, worker threads included), reset before each case.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { tilePointCloud } from '@nuage/engine/tiler/tile-point-cloud.js';
import { tileInput } from '@nuage/engine/tiler/tiler.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import { ensureMosaicLas, ensureMosaicLaz } from '../data/big-inputs.js';
import { mosaicTilerInput, planMosaic } from '../data/tile-mosaic.js';
import type { BenchSuite } from '../main.js';

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

interface CaseFigures {
  points: number;
  seconds: number;
  pointsPerSecond: number;
  peakRssMb: number;
  cpuSeconds: number;
  tiles: number;
  maxDepth: number;
  contentMb: number;
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
  const cpu = process.cpuUsage(cpu0);
  return {
    points: r.pointCount,
    seconds: Number(seconds.toFixed(2)),
    pointsPerSecond: Math.round(r.pointCount / seconds),
    peakRssMb: peakRssMb(),
    cpuSeconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(1)),
    tiles: r.tileCount,
    maxDepth: r.maxDepth,
    contentMb: Math.round(r.contentBytes / 1e6),
    ...(r.phases ? { phases: r.phases } : {}),
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
          'wires',
          await measure(() => tilePointCloud(realFile('wires.laz'), path.join(work, 'wires'), {}, { tmpDir: work })),
        );
        await rm(path.join(work, 'wires'), { recursive: true, force: true });
        // Again, as the job worker process tiles its second file: the tiler's and
        // decoder's worker threads are kept between tilings (code loaded, JIT warm).
        log(
          'wiresWarm',
          await measure(() => tilePointCloud(realFile('wires.laz'), path.join(work, 'wires'), {}, { tmpDir: work })),
        );
        await rm(path.join(work, 'wires'), { recursive: true, force: true });
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
      if (!args.includes('--skip-100m')) {
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
