/**
 * `npm run bench -- read [--points N] [--las-only]`: points/s reading LAS and LAZ with the
 * engine readers, next to the time to merely read the same bytes from disk
 * (cold: page cache dropped when permitted; warm: cached), as a ratio.
 *
 * LAS input: >= 20 M points, copies of the bcts mosaic (generated once).
 * LAZ input: the same copies in one LAZ file, spliced from the real files'
 * compressed chunks (no LAZ encoder runs in Node), read on one thread and
 * over worker threads. Also: the 12 real LAZ files read repeatedly to
 * >= 20 M points (small files, each with its own set-up), and wires.laz.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { openFileSource, openPointCloud, readLasHeader } from '@nuage/engine/readers/index.js';
import { readLazChunkTable } from '@nuage/engine/readers/laz-chunk-table.js';
import { decodeLazChunkWithLazPerf } from '@nuage/engine/readers/laz-decode.mjs';
import { realFile } from '@nuage/fixtures/real-data.js';
import { ensureMosaicLas, ensureMosaicLaz, REAL_LAZ_FILES } from '../data/big-inputs.js';
import type { BenchSuite } from '../main.js';

function dropCaches(): boolean {
  try {
    // Dirty pages (a mosaic just written) survive drop_caches: write them out first.
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

/** Reads files sequentially through a file handle in `bufferBytes` pieces; returns seconds. */
async function rawRead(paths: string[], bufferBytes: number): Promise<number> {
  const buffer = new Uint8Array(bufferBytes);
  const start = performance.now();
  for (const file of paths) {
    const handle = await open(file, 'r');
    let position = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, bufferBytes, position);
      if (bytesRead === 0) break;
      position += bytesRead;
    }
    await handle.close();
  }
  return (performance.now() - start) / 1000;
}

/** Streams every point of the files through the engine reader; returns seconds and points. */
async function engineRead(
  paths: string[],
  workers?: number,
  reuse = false,
): Promise<{ seconds: number; cpuSeconds: number; points: number; peakRssMB: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  let points = 0;
  let peak = process.memoryUsage.rss();
  let n = 0;
  for (const file of paths) {
    const reader = await openPointCloud(file);
    for await (const chunk of reader.read({ reuse, ...(workers === undefined ? {} : { workers }) })) {
      points += chunk.count;
      if ((++n & 15) === 0) peak = Math.max(peak, process.memoryUsage.rss());
    }
    await reader.close();
  }
  const used = process.cpuUsage(cpu);
  return {
    seconds: (performance.now() - start) / 1000,
    // User + system time of every thread of the process (workers included): a
    // per-core cost that other processes competing for the CPU do not inflate.
    cpuSeconds: (used.user + used.system) / 1e6,
    points,
    peakRssMB: Math.round(peak / 1e6),
  };
}

type EngineRun = Awaited<ReturnType<typeof engineRead>>;

/** laz-perf (WASM) alone, no chunk-to-column decoding: the reference decoder of the issue (the reader now decodes formats 0-3 with lazjs). */
async function lazPerfOnly(paths: string[]): Promise<{ seconds: number; cpuSeconds: number; points: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  let points = 0;
  for (const file of paths) {
    const source = await openFileSource(file);
    const header = await readLasHeader(source);
    for (const chunk of await readLazChunkTable(source, header)) {
      const compressed = await source.read(chunk.offset, chunk.byteLength);
      await decodeLazChunkWithLazPerf(compressed, header.pointFormat, header.recordLength, chunk.pointCount);
      points += chunk.pointCount;
    }
    await source.close();
  }
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - start) / 1000, cpuSeconds: (used.user + used.system) / 1e6, points };
}

const round = (v: number, d = 3) => Number(v.toFixed(d));

const suite = {
  description: 'LAS/LAZ read throughput (points/s) against raw disk reads of the same bytes',
  async run(args: string[]) {
    const at = args.indexOf('--points');
    const minPoints = at >= 0 ? Number(args[at + 1]) : 20_000_000;
    const loadAverageAtStart = loadavg().map((v) => round(v, 2));
    const las = await ensureMosaicLas(minPoints);
    const lasPoints = las.pointCount;
    const bufferBytes = 65536 * 30;

    // Three alternating rounds (raw cold, engine cold, raw warm, engine warm,
    // engine with fresh columns); each figure is the median of its three.
    const cold = dropCaches();
    const rounds: Array<{
      rawCold: number;
      engineCold: EngineRun;
      rawWarm: number;
      warm: EngineRun;
      fresh: EngineRun;
      load: number;
    }> = [];
    for (let round = 0; round < 3; round++) {
      const load = loadavg()[0]!;
      if (cold) dropCaches();
      const rawCold = await rawRead([las.path], bufferBytes);
      if (cold) dropCaches();
      // As the tiler reads: columns reused chunk after chunk (ReadOptions.reuse).
      const engineCold = await engineRead([las.path], undefined, true);
      await rawRead([las.path], bufferBytes); // warm the cache
      const rawWarm = await rawRead([las.path], bufferBytes);
      const warm = await engineRead([las.path], undefined, true);
      // Fresh columns for every chunk (consumers that keep chunks).
      const fresh = await engineRead([las.path]);
      rounds.push({ rawCold, engineCold, rawWarm, warm, fresh, load });
    }
    const mid = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
    const midRun = (runs: EngineRun[]) => [...runs].sort((a, b) => a.seconds - b.seconds)[1]!;
    const lasRawCold = mid(rounds.map((r) => r.rawCold));
    const lasRawWarm = mid(rounds.map((r) => r.rawWarm));
    const lasEngineCold = midRun(rounds.map((r) => r.engineCold));
    const lasEngineWarm = midRun(rounds.map((r) => r.warm));
    const lasEngineWarmFresh = midRun(rounds.map((r) => r.fresh));

    const lasRate = (s: number) => round(lasPoints / s / 1e6);
    const lasFigures = {
      file: las.path,
      points: lasPoints,
      bytes: las.bytes,
      rawColdSeconds: round(lasRawCold),
      rawWarmSeconds: round(lasRawWarm),
      engineColdSeconds: round(lasEngineCold.seconds),
      engineWarmSeconds: round(lasEngineWarm.seconds),
      rawColdMBps: round(las.bytes / lasRawCold / 1e6, 1),
      rawWarmMBps: round(las.bytes / lasRawWarm / 1e6, 1),
      engineColdMpointsPerSecond: lasRate(lasEngineCold.seconds),
      engineWarmMpointsPerSecond: lasRate(lasEngineWarm.seconds),
      rawEquivalentColdMpointsPerSecond: lasRate(lasRawCold),
      rawEquivalentWarmMpointsPerSecond: lasRate(lasRawWarm),
      ratioCold: round(lasRawCold / lasEngineCold.seconds),
      // The target's measure: each round's cold ratio (raw and engine read back to back), median of the rounds.
      ratioColdMedianOfRounds: round(mid(rounds.map((r) => r.rawCold / r.engineCold.seconds))),
      ratioWarm: round(lasRawWarm / lasEngineWarm.seconds),
      mode: 'reuse: columns overwritten chunk after chunk, as the tiler reads (WebAssembly decode on the reading thread)',
      engineWarmFreshColumnsMpointsPerSecond: lasRate(lasEngineWarmFresh.seconds),
      ratioColdIfFreshColumns: round(lasRawCold / lasEngineWarmFresh.seconds),
      rounds: rounds.map((r) => ({
        rawColdSeconds: round(r.rawCold),
        engineColdSeconds: round(r.engineCold.seconds),
        ratioCold: round(r.rawCold / r.engineCold.seconds),
        engineColdCpuSeconds: round(r.engineCold.cpuSeconds),
        engineWarmSeconds: round(r.warm.seconds),
        loadAverage1m: round(r.load, 2),
      })),
      peakRssMB: Math.max(lasEngineCold.peakRssMB, lasEngineWarm.peakRssMB),
      engineWarmCpuSeconds: round(lasEngineWarm.cpuSeconds),
      engineMpointsPerCpuSecond: lasRate(lasEngineWarm.cpuSeconds),
      target: 'ratioColdMedianOfRounds >= 0.8',
    };
    if (args.includes('--las-only')) {
      return {
        cacheDrop: cold ? 'dropped with /proc/sys/vm/drop_caches' : 'not permitted: cold figures are warm',
        cores: availableParallelism(),
        loadAverageAtStart,
        las: lasFigures,
        loadAverageAtEnd: loadavg().map((v) => round(v, 2)),
      };
    }

    const mosaicLaz = await ensureMosaicLaz(minPoints);
    if (cold) dropCaches();
    const mosaicLazRawCold = await rawRead([mosaicLaz.path], bufferBytes);
    // Three alternating runs of each; the run of median time is reported (this
    // shared machine's neighbours move single runs by +-15 %).
    const oneRuns: Awaited<ReturnType<typeof engineRead>>[] = [];
    const workerRuns: Awaited<ReturnType<typeof engineRead>>[] = [];
    for (let run = 0; run < 3; run++) {
      oneRuns.push(await engineRead([mosaicLaz.path], 0));
      workerRuns.push(await engineRead([mosaicLaz.path], availableParallelism()));
    }
    const median = (runs: typeof oneRuns) => [...runs].sort((a, b) => a.seconds - b.seconds)[1]!;
    const mosaicLazOne = median(oneRuns);
    const mosaicLazWorkers = median(workerRuns);
    const mosaicLazPerf = await lazPerfOnly([mosaicLaz.path]);

    const lazPaths: string[] = [];
    let lazPoints = 0;
    while (lazPoints < minPoints) {
      for (const name of REAL_LAZ_FILES) {
        const reader = await openPointCloud(realFile(name));
        lazPoints += reader.header.pointCount;
        await reader.close();
        lazPaths.push(realFile(name));
      }
    }
    let lazBytes = 0;
    for (const p of lazPaths) lazBytes += (await stat(p)).size;
    if (cold) dropCaches();
    const lazRawCold = await rawRead(lazPaths, bufferBytes);
    await rawRead(lazPaths, bufferBytes);
    const lazRawWarm = await rawRead(lazPaths, bufferBytes);
    const lazOneThread = await engineRead(lazPaths, 0);
    const cores = availableParallelism();
    const lazWorkers = await engineRead(lazPaths, cores);
    const lazPerf = await lazPerfOnly(lazPaths);
    const wiresPaths = Array.from({ length: Math.ceil(minPoints / 1_733_905) }, () => realFile('wires.laz'));
    const wiresOne = await engineRead(wiresPaths, 0);
    const wiresWorkers = await engineRead(wiresPaths, cores);

    return {
      cacheDrop: cold ? 'dropped with /proc/sys/vm/drop_caches' : 'not permitted: cold figures are warm',
      cores,
      loadAverageAtStart,
      las: lasFigures,
      lazMosaic: {
        file: mosaicLaz.path,
        input: 'copies of the bcts mosaic in one LAZ file (real compressed chunks spliced)',
        points: mosaicLazOne.points,
        compressedBytes: mosaicLaz.bytes,
        rawColdSeconds: round(mosaicLazRawCold),
        oneThreadSeconds: round(mosaicLazOne.seconds),
        workersSeconds: round(mosaicLazWorkers.seconds),
        oneThreadMpointsPerSecond: round(mosaicLazOne.points / mosaicLazOne.seconds / 1e6),
        oneThreadMpointsPerCpuSecond: round(mosaicLazOne.points / mosaicLazOne.cpuSeconds / 1e6),
        workersMpointsPerSecond: round(mosaicLazWorkers.points / mosaicLazWorkers.seconds / 1e6),
        workersMpointsPerCpuSecond: round(mosaicLazWorkers.points / mosaicLazWorkers.cpuSeconds / 1e6),
        speedup: round(mosaicLazOne.seconds / mosaicLazWorkers.seconds, 2),
        oneThreadRunsSeconds: oneRuns.map((r) => round(r.seconds, 2)),
        workersRunsSeconds: workerRuns.map((r) => round(r.seconds, 2)),
        lazPerfOnlyMpointsPerSecond: round(mosaicLazPerf.points / mosaicLazPerf.seconds / 1e6),
        lazPerfOnlyMpointsPerCpuSecond: round(mosaicLazPerf.points / mosaicLazPerf.cpuSeconds / 1e6),
        peakRssMB: Math.max(mosaicLazOne.peakRssMB, mosaicLazWorkers.peakRssMB),
        target: '>= 1.5 M points/s on one core, >= 1.8x that on 2 cores',
      },
      laz: {
        input: `${REAL_LAZ_FILES.length} real LAZ files decoded ${lazPaths.length / REAL_LAZ_FILES.length} times (no LAZ encoder in Node)`,
        points: lazOneThread.points,
        compressedBytes: lazBytes,
        rawColdSeconds: round(lazRawCold),
        rawWarmSeconds: round(lazRawWarm),
        oneThreadSeconds: round(lazOneThread.seconds),
        workersSeconds: round(lazWorkers.seconds),
        oneThreadMpointsPerSecond: round(lazOneThread.points / lazOneThread.seconds / 1e6),
        workersMpointsPerSecond: round(lazWorkers.points / lazWorkers.seconds / 1e6),
        speedup: round(lazOneThread.seconds / lazWorkers.seconds, 2),
        ratioToRawCold: round(lazRawCold / lazOneThread.seconds),
        peakRssMB: Math.max(lazOneThread.peakRssMB, lazWorkers.peakRssMB),
        oneThreadCpuSeconds: round(lazOneThread.cpuSeconds),
        workersCpuSeconds: round(lazWorkers.cpuSeconds),
        oneThreadMpointsPerCpuSecond: round(lazOneThread.points / lazOneThread.cpuSeconds / 1e6),
        workersMpointsPerCpuSecond: round(lazWorkers.points / lazWorkers.cpuSeconds / 1e6),
        lazPerfOnlyMpointsPerCpuSecond: round(lazPerf.points / lazPerf.cpuSeconds / 1e6),
        lazPerfOnlyMpointsPerSecond: round(lazPerf.points / lazPerf.seconds / 1e6),
        wires: {
          input: `wires.laz (point format 1, single returns) decoded ${wiresPaths.length} times`,
          points: wiresOne.points,
          oneThreadMpointsPerSecond: round(wiresOne.points / wiresOne.seconds / 1e6),
          oneThreadMpointsPerCpuSecond: round(wiresOne.points / wiresOne.cpuSeconds / 1e6),
          workersMpointsPerSecond: round(wiresWorkers.points / wiresWorkers.seconds / 1e6),
          speedup: round(wiresOne.seconds / wiresWorkers.seconds, 2),
        },
        loadAverageAtEnd: loadavg().map((v) => round(v, 2)),
        target: '>= 1.5 M points/s on one core, >= 1.8x that on 2 cores',
      },
    };
  },
} satisfies BenchSuite;

export default suite;
