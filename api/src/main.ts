/**
 * Entry point of every Nuage server process.
 *
 *   tsx api/src/main.ts                 API + worker + web on one port (npm start)
 *   tsx api/src/main.ts --role api      API and web only (npm run start:api)
 *   tsx api/src/main.ts --role worker   job worker only (npm run start:worker)
 *
 * With DATABASE_URL unset the "all" role starts the embedded database in a
 * child process; the worker always runs in its own process, so heavy engine
 * work never blocks the API's event loop.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { tunedEnv } from '@nuage/engine/core/malloc-tuning.mjs';
import { migrate } from '@nuage/migrations';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import type { AppDeps } from './context.js';
import { createDatabase } from './db/client.js';
import { ensureQueue } from './jobs/queue.js';
import { createLogger } from './log.js';
import { ensureAdmin } from './services/bootstrap.service.js';
import { convertStandings } from './services/subscription.service.js';
import { closeTileRenderPool } from './services/tile-render.pool.js';
import { openStorage } from './storage.js';
import { startWorker } from './worker/runner.js';

type Role = 'all' | 'api' | 'worker';

const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
const role = values.role as Role;
if (!['all', 'api', 'worker'].includes(role)) {
  console.error(`error: unknown role "${values.role}" (all, api or worker)`);
  process.exit(2);
}

const config = loadConfig();
const log = createLogger({ level: config.LOG_LEVEL, role });
const cleanups: Array<() => Promise<void>> = [];

function forkChild(script: string, args: string[], env: Record<string, string>): ChildProcess {
  return fork(new URL(script, import.meta.url).pathname, args, {
    env: { ...process.env, ...env },
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

async function startEmbeddedChild(): Promise<{ url: string; child: ChildProcess }> {
  const child = forkChild('./db/embedded-process.ts', [], {
    EMBEDDED_DB_DIR: config.EMBEDDED_DB_DIR,
    EMBEDDED_DB_PORT: String(config.EMBEDDED_DB_PORT),
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { type: string; url?: string; message?: string }) =>
      m.type === 'ready' ? resolve(m.url!) : reject(new Error(`embedded database failed: ${m.message}`)),
    );
    child.once('exit', (code) => reject(new Error(`embedded database exited with code ${code}`)));
  });
  return { url, child };
}

function waitExit(child: ChildProcess, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

async function main(): Promise<void> {
  const started = performance.now();
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    if (role !== 'all') {
      throw new Error(
        `--role ${role} needs DATABASE_URL: the embedded database is only for the single-process "npm start"`,
      );
    }
    log.info({ dir: config.EMBEDDED_DB_DIR }, 'starting the embedded database (PGlite + PostGIS)');
    const embedded = await startEmbeddedChild();
    databaseUrl = embedded.url;
    cleanups.push(async () => {
      embedded.child.send('stop');
      await waitExit(embedded.child, 10_000);
    });
  }

  // Requests fail fast when the database is away (503); a worker's job waits for a connection
  // and for its long statements (feature inserts of a large product) instead of failing.
  const database = createDatabase(databaseUrl, {
    applicationName: `nuage-${role}`,
    ...(role === 'worker' ? { connectTimeoutMs: 30_000, statementTimeoutMs: 0 } : {}),
    // The embedded database's connections share one session: no named statements there.
    namedStatements: Boolean(config.DATABASE_URL),
  });
  cleanups.unshift(() => database.close());
  const migrationVersion = await migrate(database.pool, { log: (m) => log.info(m) });
  const storage = await openStorage(config);
  const deps: AppDeps = { config, database, log, storage, migrationVersion };
  await ensureAdmin(deps);
  // Users of before migration 0006 (a 0004 standing) get their subscription now, with the configured defaults.
  await convertStandings(deps);

  if (role === 'worker') {
    const worker = await startWorker(deps, { databaseUrl });
    cleanups.unshift(() => worker.stop());
    return;
  }

  if (role === 'all') {
    // glibc malloc tuned for the engine's large arrays (engine/src/core/malloc-tuning.mjs): read at start only.
    const child = forkChild('./main.ts', ['--role', 'worker'], { ...tunedEnv(), DATABASE_URL: databaseUrl });
    child.on('exit', (code, signal) => {
      if (!shuttingDown) log.error({ code, signal }, 'worker process exited');
    });
    cleanups.unshift(async () => {
      child.kill('SIGTERM');
      await waitExit(child, 30_000);
    });
  }

  // The job queue before the first request (a worker process may be installing it meanwhile: see ensureQueue).
  await ensureQueue(deps);
  // After the server below has closed: in-flight tile renders finish before the threads stop.
  cleanups.unshift(() => closeTileRenderPool());
  const app = createApp(deps);
  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    log.info(
      { port: info.port, database: config.databaseKind, ms: Math.round(performance.now() - started) },
      `Nuage is listening on http://localhost:${info.port}`,
    );
  });
  cleanups.unshift(
    () =>
      new Promise<void>((resolve) => {
        // In-flight requests finish; idle keep-alive sockets are closed.
        server.close(() => resolve());
        (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      }),
  );
}

let shuttingDown = false;
async function shutdown(signal: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  log.info({ signal }, 'shutting down');
  for (const fn of cleanups) {
    try {
      await fn();
    } catch (err) {
      log.warn({ err }, 'error during shutdown');
    }
  }
  log.info('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// A forked worker stops when its parent goes away.
process.on('disconnect', () => void shutdown('parent-gone'));

main().catch((err: Error) => {
  log.fatal({ err }, 'start-up failed');
  console.error(`error: ${err.message}`);
  void shutdown('startup-failure').finally(() => process.exit(1));
});
