#!/usr/bin/env node
// The `nuage` command: runs the TypeScript sources with no build step, as a
// bundle cached by core/worker-bundle.mjs (rebuilt after any source edit;
// through tsx when none can be built).
import { relaunchTuned } from '../src/core/malloc-tuning.mjs';
import { importCompiled } from '../src/core/worker-bundle.mjs';

// The verbs that hold a cloud in memory run with glibc malloc tuned (see core/malloc-tuning.mjs): started
// again with it, unless it is there. The light ones (info, export, help) do not pay a second start.
const LIGHT = new Set([undefined, 'info', 'export', 'help', '--help', '-h', '--version', '-v']);
if (!LIGHT.has(process.argv[2])) {
  const code = await relaunchTuned();
  // The child ran the command.
  if (code !== null) process.exit(code);
}

// `nuage info x.laz | head`: a reader that stops early ends the command quietly, as it would cat's.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

const {
  modules: [{ runCli }],
} = await importCompiled(import.meta.url, ['../src/cli.ts']);
process.exitCode = await runCli(process.argv.slice(2));
