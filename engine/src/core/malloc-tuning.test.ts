import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MALLOC_TUNING, tunedEnv } from './malloc-tuning.mjs';

const run = promisify(execFile);
const tuning = path.join(import.meta.dirname, 'malloc-tuning.mjs');

let dir: string;
let script: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nuage-malloc-'));
  script = path.join(dir, 'relaunched.mjs');
  // Prints what the process runs with, then ends with the code given as its argument.
  await writeFile(
    script,
    `import { relaunchTuned } from ${JSON.stringify(tuning)};
const code = await relaunchTuned();
if (code !== null) process.exit(code);
console.log(JSON.stringify({ pid: process.pid, arena: process.env.MALLOC_ARENA_MAX, threshold: process.env.MALLOC_MMAP_THRESHOLD_, args: process.argv.slice(2) }));
process.exit(Number(process.argv[2] ?? 0));
`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function clean(env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const out = { ...process.env, ...env };
  delete out.NUAGE_MALLOC_TUNED;
  for (const k of Object.keys(MALLOC_TUNING)) if (!(k in env)) delete out[k];
  return out;
}

describe.runIf(process.platform === 'linux')('relaunchTuned', () => {
  it('runs the command again once, with the settings, its arguments and its exit code', async () => {
    const err = await run(process.execPath, [script, '3', 'more'], { env: clean() }).catch((e) => e);
    expect(err.code).toBe(3);
    const seen = JSON.parse(err.stdout);
    expect(seen).toMatchObject({ arena: '2', threshold: '131072', args: ['3', 'more'] });
    const ok = await run(process.execPath, [script, '0'], { env: clean() });
    expect(JSON.parse(ok.stdout).arena).toBe('2');
  });

  it('keeps the settings the user gave', async () => {
    const { stdout } = await run(process.execPath, [script], { env: clean({ MALLOC_ARENA_MAX: '4' }) });
    expect(JSON.parse(stdout)).toMatchObject({ arena: '4', threshold: '131072' });
  });

  it('does not start itself again in a process started with the settings', async () => {
    const { stdout } = await run(process.execPath, [script], { env: { ...clean(), NUAGE_MALLOC_TUNED: '1' } });
    expect(JSON.parse(stdout).arena).toBeUndefined();
  });

  it('reports a child killed by a signal as 128 + its number', async () => {
    const killer = path.join(dir, 'killed.mjs');
    await writeFile(
      killer,
      `import { relaunchTuned } from ${JSON.stringify(tuning)};
const code = await relaunchTuned();
if (code !== null) process.exit(code);
process.kill(process.pid, 'SIGTERM');
await new Promise((r) => setTimeout(r, 5000));
`,
    );
    const err = await run(process.execPath, [killer], { env: clean() }).catch((e) => e);
    expect(err.code).toBe(143);
  });
});

describe('tunedEnv', () => {
  it('adds the settings under what the environment already says', () => {
    expect(tunedEnv({ MALLOC_ARENA_MAX: '8', PATH: '/bin' })).toEqual({
      MALLOC_ARENA_MAX: '8',
      MALLOC_MMAP_THRESHOLD_: '131072',
      NUAGE_MALLOC_TUNED: '1',
      PATH: '/bin',
    });
  });
});
