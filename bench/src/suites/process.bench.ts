/**
 * `npm run bench -- process [--file NAME] [--runs N] [--reference DIR] [--current DIR] [--tsx]`:
 * the whole `nuage process` on a real file (default wires.laz), as a user runs
 * it (a child process of `engine/bin/nuage.mjs`, the cached bundle; `--tsx`, or
 * a checkout without it: `tsx engine/src/cli.ts`), timed: wall clock, user and system CPU, peak
 * RSS (from /usr/bin/time when installed), and each product's time from the
 * run's manifest, with the load average before and after each run.
 *
 * Reference, same run: `--reference DIR` names another checkout (or a copy of
 * an older `engine/src` with `node_modules` reachable) whose CLI is run the
 * same way, alternating with this one, so a change is measured against the
 * code before it on the same machine under the same load. `--current DIR`
 * times another checkout in place of this one (a copy of the reference with
 * only one change applied, when others change the same tree meanwhile).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { realFile } from '@nuage/fixtures/real-data.js';
import type { BenchSuite } from '../main.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const TIME = '/usr/bin/time';
/** Products whose time went to XYZ pyramids before tiles were rendered on demand. */
const RASTER_PRODUCTS = ['hillshade', 'slope', 'imagery-dtm', 'chm', 'dsm'];

interface RunFigures {
  variant: string;
  wallSeconds: number;
  userSeconds: number | null;
  systemSeconds: number | null;
  maxRssMb: number | null;
  loadBefore: number[];
  loadAfter: number[];
  productsMs: Record<string, number>;
  rasterProductsMs: number;
  artifactsBytes: number;
}

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function timeProcess(variant: string, checkout: string, input: string, tsx: boolean): Promise<RunFigures> {
  const out = await mkdtemp(path.join(tmpdir(), `nuage-bench-process-${variant}-`));
  const bin = path.join(checkout, 'engine', 'bin', 'nuage.mjs');
  const cli = !tsx && existsSync(bin) ? [process.execPath, bin] : [TSX, path.join(checkout, 'engine', 'src', 'cli.ts')];
  const timed = existsSync(TIME);
  const command = timed ? TIME : cli[0]!;
  const argv = [...(timed ? ['-f', 'TIME %e %U %S %M', cli[0]!] : []), ...cli.slice(1), 'process', input, out];
  const loadBefore = loadavg().map((l) => Math.round(l * 100) / 100);
  const t0 = performance.now();
  const stderr = await new Promise<string>((resolve, reject) => {
    const child = spawn(command, argv, { cwd: checkout, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(err) : reject(new Error(`${variant}: nuage process exited ${code}\n${err.slice(-2000)}`)),
    );
  });
  const wallSeconds = (performance.now() - t0) / 1000;
  const loadAfter = loadavg().map((l) => Math.round(l * 100) / 100);
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  const manifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8')) as {
    products: { id: string; ms?: number }[];
    artifacts: { bytes: number }[];
  };
  const productsMs = Object.fromEntries(manifest.products.map((p) => [p.id, p.ms ?? 0]));
  await rm(out, { recursive: true, force: true });
  return {
    variant,
    wallSeconds: Math.round(wallSeconds * 100) / 100,
    userSeconds: m ? Number(m[2]) : null,
    systemSeconds: m ? Number(m[3]) : null,
    maxRssMb: m ? Math.round(Number(m[4]) / 1024) : null,
    loadBefore,
    loadAfter,
    productsMs,
    rasterProductsMs: RASTER_PRODUCTS.reduce((s, id) => s + (productsMs[id] ?? 0), 0),
    artifactsBytes: manifest.artifacts.reduce((s, a) => s + a.bytes, 0),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const suite: BenchSuite = {
  description: '`nuage process` on a real file: wall, CPU, per-product times (optionally against a reference checkout)',
  async run(args) {
    const file = arg(args, '--file') ?? 'wires.laz';
    const runs = Math.max(1, Number(arg(args, '--runs') ?? 1));
    const reference = arg(args, '--reference');
    const checkout = path.resolve(arg(args, '--current') ?? ROOT);
    const tsx = args.includes('--tsx');
    const input = realFile(file);
    const results: RunFigures[] = [];
    for (let i = 0; i < runs; i++) {
      results.push(await timeProcess('current', checkout, input, tsx));
      console.log(`current run ${i + 1}: ${results.at(-1)!.wallSeconds} s`);
      if (reference) {
        results.push(await timeProcess('reference', path.resolve(reference), input, tsx));
        console.log(`reference run ${i + 1}: ${results.at(-1)!.wallSeconds} s`);
      }
    }
    const summary = (variant: string) => {
      const mine = results.filter((r) => r.variant === variant);
      if (mine.length === 0) return null;
      return {
        runs: mine.length,
        medianWallSeconds: median(mine.map((r) => r.wallSeconds)),
        medianCpuSeconds: mine.every((r) => r.userSeconds !== null)
          ? median(mine.map((r) => r.userSeconds! + r.systemSeconds!))
          : null,
        medianRasterProductsMs: median(mine.map((r) => r.rasterProductsMs)),
      };
    };
    const current = summary('current')!;
    const ref = summary('reference');
    return {
      file,
      command: tsx ? 'tsx engine/src/cli.ts process' : 'engine/bin/nuage.mjs process (cached bundle)',
      cores: (await import('node:os')).cpus().length,
      current: { dir: checkout === ROOT ? 'this checkout' : checkout, ...current },
      ...(ref
        ? {
            reference: { dir: reference, ...ref },
            wallSpeedup: Math.round((1 - current.medianWallSeconds / ref.medianWallSeconds) * 1000) / 10,
          }
        : {}),
      runs: results,
    };
  },
};

export default suite;
