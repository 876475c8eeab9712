/**
 * `npm run bench -- lazjs [--runs N] [--files a.laz,b.laz]`: the TypeScript
 * LAZ decoder (engine/src/readers/lazjs) against laz-perf (WASM) on the same
 * chunks of real files, one thread, in memory (no I/O): N runs of each,
 * alternating which goes first, medians reported. The machine is shared, so
 * besides points per wall second it reports points per CPU second
 * (process.cpuUsage), which other processes competing for the cores do not
 * deflate. Also: the engine's worker pool on 1 and 2 threads, the 2-core
 * scaling (which other processes busy on the second core hold down).
 */
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { DecodePool } from '@nuage/engine/readers/decode-pool.js';
import { memorySource, readLasHeader } from '@nuage/engine/readers/index.js';
import { readLazChunkTable } from '@nuage/engine/readers/laz-chunk-table.js';
import { decodeLazChunkWithLazPerf } from '@nuage/engine/readers/laz-decode.mjs';
import { decodeChunk } from '@nuage/engine/readers/lazjs/chunk-decoder.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import type { BenchSuite } from '../main.js';

const DEFAULT_FILES = [
  'wires.laz',
  'bcts_3.laz',
  'ahn3_cropped_1.laz',
  'fusa.laz',
  'MixedConifer.laz',
  // LAS 1.4 (layered chunks): lazjs decodes them, laz-perf stays the production decoder (see laz-decode.mjs).
  'las_with_several_extra_byte_bloc.laz',
  'test_semis_2021_0382_6565_LA93_IGN69_cropped.laz',
];

interface Chunks {
  pointFormat: number;
  recordLength: number;
  chunks: { compressed: Uint8Array; pointCount: number }[];
  points: number;
}

async function loadChunks(file: string): Promise<Chunks> {
  const bytes = new Uint8Array(await readFile(realFile(file)));
  const source = memorySource(bytes);
  const header = await readLasHeader(source);
  const chunks = (await readLazChunkTable(source, header)).map((c) => ({
    compressed: bytes.slice(c.offset, c.offset + c.byteLength),
    pointCount: c.pointCount,
  }));
  return {
    pointFormat: header.pointFormat,
    recordLength: header.recordLength,
    chunks,
    points: chunks.reduce((s, c) => s + c.pointCount, 0),
  };
}

type Decoder = (c: Chunks) => Promise<void>;

const decoders: Record<'lazjs' | 'lazPerf', Decoder> = {
  async lazjs(c) {
    for (const chunk of c.chunks) decodeChunk(chunk.compressed, c.pointFormat, c.recordLength, chunk.pointCount);
  },
  async lazPerf(c) {
    for (const chunk of c.chunks)
      await decodeLazChunkWithLazPerf(chunk.compressed, c.pointFormat, c.recordLength, chunk.pointCount);
  },
};

async function timed(run: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await run();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - start) / 1000, cpu: (used.user + used.system) / 1e6 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const mps = (points: number, seconds: number) => Number((points / seconds / 1e6).toFixed(3));

/**
 * The engine's LAZ worker pool (decode.worker.mjs: lazjs for formats 0-3,
 * laz-perf for the others) with `size` threads over every chunk of the file,
 * two chunks in flight per worker as the LAZ reader does: after one warm-up
 * pass, the median wall time of `passes` passes.
 */
async function pool(c: Chunks, size: number, passes: number): Promise<number> {
  const workers = new DecodePool(size);
  const pass = async () => {
    let next = 0;
    const lane = async () => {
      while (next < c.chunks.length) {
        const chunk = c.chunks[next++]!;
        // The pool transfers (detaches) the buffer it is given, as the reader's fresh reads allow.
        await workers.decode(chunk.compressed.slice(), c.pointFormat, c.recordLength, chunk.pointCount);
      }
    };
    await Promise.all(Array.from({ length: size * 2 }, lane));
  };
  await pass();
  const walls: number[] = [];
  for (let i = 0; i < passes; i++) walls.push((await timed(pass)).wall);
  await workers.close();
  return median(walls);
}

const suite: BenchSuite = {
  description:
    'TypeScript LAZ decoder vs laz-perf (WASM): points/s and points per CPU-second, median of alternating runs',
  async run(args: string[]) {
    const runsAt = args.indexOf('--runs');
    const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 9;
    const filesAt = args.indexOf('--files');
    const files = filesAt >= 0 ? args[filesAt + 1]!.split(',') : DEFAULT_FILES;
    const loadAverageAtStart = loadavg().map((v) => Number(v.toFixed(2)));
    const perFile: Record<string, unknown> = {};
    for (const file of files) {
      const c = await loadChunks(file);
      await decoders.lazjs(c);
      await decoders.lazPerf(c);
      const samples = {
        lazjs: { wall: [] as number[], cpu: [] as number[] },
        lazPerf: { wall: [] as number[], cpu: [] as number[] },
      };
      for (let r = 0; r < runs; r++) {
        const order = r % 2 === 0 ? (['lazjs', 'lazPerf'] as const) : (['lazPerf', 'lazjs'] as const);
        for (const name of order) {
          const t = await timed(() => decoders[name](c));
          samples[name].wall.push(t.wall);
          samples[name].cpu.push(t.cpu);
        }
      }
      const figures = (name: 'lazjs' | 'lazPerf') => ({
        medianMPointsPerSecond: mps(c.points, median(samples[name].wall)),
        medianMPointsPerCpuSecond: mps(c.points, median(samples[name].cpu)),
      });
      const lazjs = figures('lazjs');
      const lazPerf = figures('lazPerf');
      const passes = Math.max(3, Math.ceil(runs / 2));
      const pool1 = await pool(c, 1, passes);
      const pool2 = await pool(c, 2, passes);
      perFile[file] = {
        points: c.points,
        chunks: c.chunks.length,
        pointFormat: c.pointFormat,
        runs,
        lazjs,
        lazPerf,
        speedupWall: Number((lazjs.medianMPointsPerSecond / lazPerf.medianMPointsPerSecond).toFixed(3)),
        speedupCpu: Number((lazjs.medianMPointsPerCpuSecond / lazPerf.medianMPointsPerCpuSecond).toFixed(3)),
        enginePool: {
          decoder: c.pointFormat <= 3 ? 'lazjs' : 'laz-perf',
          oneWorkerMPointsPerSecond: mps(c.points, pool1),
          twoWorkersMPointsPerSecond: mps(c.points, pool2),
          twoWorkersScaling: Number((pool1 / pool2).toFixed(3)),
        },
      };
      console.log(file, JSON.stringify(perFile[file]));
    }
    return { loadAverageAtStart, loadAverageAtEnd: loadavg().map((v) => Number(v.toFixed(2))), files: perFile };
  },
};

export default suite;
