#!/usr/bin/env node
// The `nuage` command: runs the TypeScript sources with no build step, as a
// bundle cached by core/worker-bundle.mjs (rebuilt after any source edit;
// through tsx when none can be built).
import { importCompiled } from '../src/core/worker-bundle.mjs';

// `nuage info x.laz | head`: a reader that stops early ends the command quietly, as it would cat's.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

const {
  modules: [{ runCli }],
} = await importCompiled(import.meta.url, ['../src/cli.ts']);
process.exitCode = await runCli(process.argv.slice(2));
