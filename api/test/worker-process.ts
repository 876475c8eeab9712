import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../src/config.js';
import type { TestApp } from './app.js';

/** A worker child process with what it printed. */
export type WorkerProcess = ChildProcess & { output: string[] };

/** A real worker process (`main.ts --role worker`) on the test database and store, with extra variables. */
export function spawnWorker(t: TestApp, name: string, env: Record<string, string> = {}): WorkerProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'api/src/main.ts'), '--role', 'worker'],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        ...env,
        DATABASE_URL: t.tdb.url,
        DATA_DIR: t.dataDir,
        ADMIN_PASSWORD: 'Admin-Passw0rd!',
        LOG_LEVEL: 'warn',
        PUBLIC_URL: 'http://localhost:8080',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  ) as WorkerProcess;
  child.output = [];
  const keep = (d: Buffer) => child.output.push(`[${name}] ${d.toString()}`);
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}

/** How a child process ended (at once when it already has). */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}
