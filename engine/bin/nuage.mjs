#!/usr/bin/env node
// The `nuage` command: runs the TypeScript sources with no build step, as a
// bundle cached by core/worker-bundle.mjs (rebuilt after any source edit;
// through tsx when none can be built).
import { statSync } from 'node:fs';
import { relaunchTuned } from '../src/core/malloc-tuning.mjs';
import { importCompiled } from '../src/core/worker-bundle.mjs';

// A command on a large input runs with glibc malloc tuned (see core/malloc-tuning.mjs): started again with
// it, unless it is there. Smaller inputs, and the light verbs (info, export, help), do not pay a second
// start (about 0.07 CPU-s): freed memory kept by the process matters only when it is counted in gigabytes.
const LIGHT = new Set([undefined, 'info', 'export', 'help', '--help', '-h', '--version', '-v']);
const TUNED_FROM_BYTES = 256 * 1024 * 1024;
if (!LIGHT.has(process.argv[2]) && inputBytes(process.argv[3]) >= TUNED_FROM_BYTES) {
  const code = await relaunchTuned();
  // The child ran the command.
  if (code !== null) process.exit(code);
}

/** Size of the command's input file, 0 when it is not one. */
function inputBytes(file) {
  try {
    return file ? statSync(file).size : 0;
  } catch {
    return 0;
  }
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
