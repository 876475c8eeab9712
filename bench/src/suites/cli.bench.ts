/**
 * `npm run bench -- cli [--runs N] [--before DIR]`: what a `nuage` command
 * costs before it starts working, and whole small commands (issue 24: "bring
 * the fixed start-up under 0.3 CPU-s").
 *
 * Each case runs the `nuage` command (engine/bin/nuage.mjs, from its cached
 * bundle, as a user runs it) in a fresh process, N times (default 7), cases
 * interleaved; the figure is the median CPU time of the process (user +
 * system, every thread, from bash's `times`) and its wall time. Reference in
 * the same run: a bare Node start (`node -e 0`), the floor of any command.
 * Cases: `nuage --help`, `nuage dtm --help`, `nuage info` of a small file,
 * `nuage tile` of fusa.laz (277 k points) and Megaplot.laz (82 k), the two
 * small files on which the fixed start-up once made `nuage tile` lose to
 * PotreeConverter (3.6× and 5.6× its CPU).
 *
 * `--before DIR`: the same commands from another checkout (its own
 * engine/bin/nuage.mjs and bundle cache), alternated with this one's run by
 * run, for a before/after in one run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { realFile } from '@nuage/fixtures/real-data.js';
import type { BenchSuite } from '../main.js';

const HERE = path.resolve(import.meta.dirname, '../../..');

interface Timing {
  cpuSeconds: number;
  wallSeconds: number;
}

/** Runs `node args…` in a fresh process through bash; its CPU (children's times) and wall time. */
function timeNode(args: string[]): Timing {
  const t0 = performance.now();
  const out = execFileSync('bash', ['-c', '"$@" > /dev/null || exit $?; times', 'bench', process.execPath, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const wallSeconds = (performance.now() - t0) / 1000;
  // `times`: the shell's user/system, then its children's ("0m0.270s 0m0.031s").
  const children = out.trim().split('\n').at(-1) ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (seconds.length !== 2) throw new Error(`cannot read the CPU time from "${children}"`);
  return { cpuSeconds: seconds[0]! + seconds[1]!, wallSeconds };
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const round = (v: number, d = 3) => Number(v.toFixed(d));

interface Case {
  name: string;
  /** Arguments after the `nuage` script; `{out}` is a fresh output folder. */
  args: string[];
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

const suite: BenchSuite = {
  description: 'the `nuage` command: fixed start-up (--help) and small commands, CPU per process, vs a bare Node start',
  async run(args) {
    const runs = Number(option(args, '--runs') ?? 7);
    const beforeDir = option(args, '--before');
    const binaries: Record<string, string> = { now: path.join(HERE, 'engine/bin/nuage.mjs') };
    if (beforeDir) {
      const bin = path.resolve(beforeDir, 'engine/bin/nuage.mjs');
      if (!existsSync(bin)) throw new Error(`--before: no engine/bin/nuage.mjs in ${beforeDir}`);
      binaries.before = bin;
    }
    const small = realFile('Megaplot.laz');
    const cases: Case[] = [
      { name: 'help', args: ['--help'] },
      { name: 'verbHelp', args: ['dtm', '--help'] },
      { name: 'infoMegaplot', args: ['info', small] },
      { name: 'tileFusa', args: ['tile', realFile('fusa.laz'), '{out}'] },
      { name: 'tileMegaplot', args: ['tile', small, '{out}'] },
    ];
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'nuage-cli-bench-'));
    const loadAverageAtStart = os.loadavg().map((v) => round(v, 2));
    try {
      // One unmeasured run of each binary builds (or checks) its bundle cache.
      for (const bin of Object.values(binaries)) timeNode([bin, '--help']);
      const samples = new Map<string, Timing[]>();
      const add = (key: string, t: Timing) => samples.set(key, [...(samples.get(key) ?? []), t]);
      let n = 0;
      for (let r = 0; r < runs; r++) {
        add('reference:bareNode', timeNode(['-e', '0']));
        for (const c of cases) {
          for (const [label, bin] of Object.entries(binaries)) {
            const out = path.join(scratch, `out-${n++}`);
            add(`${label}:${c.name}`, timeNode([bin, ...c.args.map((a) => (a === '{out}' ? out : a))]));
            await rm(out, { recursive: true, force: true });
          }
        }
      }
      const figures: Record<string, Record<string, { cpuSeconds: number; wallSeconds: number }>> = {};
      for (const [key, list] of samples) {
        const [label, name] = key.split(':') as [string, string];
        figures[label] ??= {};
        figures[label]![name] = {
          cpuSeconds: round(median(list.map((t) => t.cpuSeconds))),
          wallSeconds: round(median(list.map((t) => t.wallSeconds))),
        };
      }
      const bare = figures.reference!.bareNode!.cpuSeconds;
      const startUp = figures.now!.help!.cpuSeconds;
      return {
        runs,
        loadAverageAtStart,
        loadAverageAtEnd: os.loadavg().map((v) => round(v, 2)),
        reference: figures.reference,
        now: figures.now,
        ...(figures.before ? { before: figures.before, beforeDir: path.resolve(beforeDir!) } : {}),
        fixedStartUp: {
          cpuSeconds: startUp,
          overBareNodeCpuSeconds: round(startUp - bare),
          target: 0.3,
          met: startUp < 0.3,
          ...(figures.before
            ? {
                beforeCpuSeconds: figures.before.help!.cpuSeconds,
                nowOverBefore: round(startUp / figures.before.help!.cpuSeconds),
              }
            : {}),
        },
      };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  },
};

export default suite;
