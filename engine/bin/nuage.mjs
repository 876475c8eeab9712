#!/usr/bin/env node
// The `nuage` command: registers tsx so the TypeScript sources run directly (no build step).
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
process.exitCode = await runCli(process.argv.slice(2));
