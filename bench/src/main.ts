/**
 * `npm run bench -- <suite> [args]`: runs one benchmark suite (or all) and writes
 * its figures to bench/results/<suite>-latest.json (earlier results are in git log).
 *
 * A suite is a module in ./suites named `<name>.bench.ts` exporting `run(args)`;
 * it returns a plain JSON-able record of figures (always with the reference it
 * was measured against in the same run).
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { relaunchTuned } from '@nuage/engine/core/malloc-tuning.mjs';

export interface BenchSuite {
  description: string;
  run(args: string[]): Promise<Record<string, unknown>>;
}

const suitesDir = path.join(import.meta.dirname, 'suites');
const resultsDir = path.join(import.meta.dirname, '..', 'results');

async function listSuites(): Promise<string[]> {
  const files = await readdir(suitesDir).catch(() => [] as string[]);
  return files.filter((f) => f.endsWith('.bench.ts')).map((f) => f.replace(/\.bench\.ts$/, ''));
}

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const suites = await listSuites();
  if (!name || name === '--help') {
    console.log(`usage: npm run bench -- <suite|all> [args]\nsuites: ${suites.join(', ')}`);
    return;
  }
  const chosen = name === 'all' ? suites : [name];
  // The pipeline suite runs the API's jobs in this process: with the job worker's malloc settings
  // (engine/src/core/malloc-tuning.mjs, set when `npm start` forks the worker), so started again with them.
  if (chosen.includes('pipeline')) {
    const code = await relaunchTuned();
    if (code !== null) {
      process.exitCode = code;
      return;
    }
  }
  for (const s of chosen) {
    if (!suites.includes(s)) {
      console.error(`error: unknown suite "${s}" (known: ${suites.join(', ')})`);
      process.exitCode = 2;
      return;
    }
    const mod = (await import(path.join(suitesDir, `${s}.bench.ts`))) as { default: BenchSuite };
    console.log(`# ${s}: ${mod.default.description}`);
    const started = new Date();
    const figures = await mod.default.run(args);
    const record = { suite: s, startedAt: started.toISOString(), node: process.version, figures };
    await mkdir(resultsDir, { recursive: true });
    const json = `${JSON.stringify(record, null, 2)}\n`;
    await writeFile(path.join(resultsDir, `${s}-latest.json`), json);
    console.log(json);
  }
}

await main();
