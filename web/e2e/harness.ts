import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { StripeFake } from '../../api/test/stripe-server.js';

/**
 * Global set-up of the browser tests: builds web/dist when stale, starts a
 * real SMTP catcher (maildev), creates a fresh PostGIS database, starts the
 * real Nuage server on a free port and waits for /api/health; tears all of it
 * down afterwards. Tests read the addresses with `inject()` (see support.ts).
 */

const REPO = path.resolve(import.meta.dirname, '..', '..');
/** The admin account the server creates on first start. */
export const E2E_ADMIN = { email: 'admin@example.com', password: 'Admin-e2e-Passw0rd!' };
/** Folder where the journeys save their screenshots. */
export const SCREENSHOT_DIR = path.join(tmpdir(), 'nuage-e2e-screens');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, what: string, ms: number, child: ChildProcess, logFile?: string): Promise<void> {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const log = logFile && existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') : '';
  throw new Error(
    `${what} did not answer at ${url} (${child.exitCode !== null ? `exited with ${child.exitCode}` : last})\n${log}`,
  );
}

async function stop(child: ChildProcess | undefined, ms = 15_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // 1. The built app, rebuilt only when its sources are newer.
  const ensure = path.join(REPO, 'scripts', 'ensure-web-build.mjs');
  const build = existsSync(ensure)
    ? spawnSync(process.execPath, [ensure], { cwd: REPO, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: REPO, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the web app could not be built (npm run build -w web)');

  const work = mkdtempSync(path.join(tmpdir(), 'nuage-e2e-'));
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const children: ChildProcess[] = [];
  const stops: Array<() => Promise<void>> = [];
  let dbName: string | null = null;
  const serverUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

  const teardown = async () => {
    for (const c of children.reverse()) await stop(c);
    for (const s of stops) await s().catch(() => {});
    if (dbName) {
      const admin = new pg.Client({ connectionString: serverUrl });
      try {
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      } catch {
        // Left behind: the next run drops idle leftovers.
      } finally {
        await admin.end().catch(() => {});
      }
    }
    // The server's log (warnings and errors) outlives the run, beside the failure screenshots.
    const serverLog = path.join(work, 'server.log');
    if (existsSync(serverLog)) copyFileSync(serverLog, path.join(SCREENSHOT_DIR, `server-${process.pid}.log`));
    rmSync(work, { recursive: true, force: true });
  };

  try {
    // 2. A real SMTP server that keeps every mail (its REST API lists them).
    const [smtpPort, mailWebPort, appPort] = [await freePort(), await freePort(), await freePort()];
    const maildev = spawn(
      process.execPath,
      [
        path.join(REPO, 'node_modules', 'maildev', 'bin', 'maildev'),
        '--smtp',
        String(smtpPort),
        '--web',
        String(mailWebPort),
        '--ip',
        '127.0.0.1',
        '--silent',
      ],
      { cwd: work, stdio: 'ignore' },
    );
    children.push(maildev);
    const maildevUrl = `http://127.0.0.1:${mailWebPort}`;
    await waitFor(`${maildevUrl}/email`, 'maildev', 60_000, maildev);

    // 3. A fresh PostGIS database (idle leftovers of earlier runs are dropped).
    const admin = new pg.Client({ connectionString: serverUrl });
    try {
      await admin.connect();
    } catch (err) {
      throw new Error(`browser tests need PostgreSQL with PostGIS at ${serverUrl}: ${(err as Error).message}`);
    }
    try {
      const stale = await admin.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname LIKE 'nuage\\_e2e\\_%'",
      );
      for (const { datname } of stale.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => {});
      dbName = `nuage_e2e_${randomBytes(6).toString('hex')}`;
      await admin.query(`CREATE DATABASE "${dbName}"`);
    } finally {
      await admin.end();
    }

    // 4. A local Stripe-speaking server (Checkout page, webhooks signed with the endpoint secret).
    const baseUrl = `http://localhost:${appPort}`;
    const stripe = new StripeFake();
    await stripe.start();
    stripe.webhookUrl = `${baseUrl}/api/billing/stripe/webhook`;
    const monthlyPrice = stripe.addPrice({ unit_amount: 4900, currency: 'eur', recurring: { interval: 'month' } });
    const packPrice = stripe.addPrice({ unit_amount: 9900, currency: 'eur', recurring: null });
    stops.push(() => stripe.stop());

    // 5. The real server: API, worker and the built web app on one port.
    const logFile = path.join(work, 'server.log');
    const log = createWriteStream(logFile);
    const server = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], {
      cwd: REPO,
      env: {
        ...process.env,
        PORT: String(appPort),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseUrl,
        DATABASE_URL: withDatabase(serverUrl, dbName),
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        DATA_DIR: path.join(work, 'data'),
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        LOG_LEVEL: 'warn',
        ...stripe.env(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.pipe(log);
    server.stderr?.pipe(log);
    children.push(server);
    await waitFor(`${baseUrl}/api/health`, 'the Nuage server', 180_000, server, logFile);

    project.provide('e2e', {
      baseUrl,
      maildevUrl,
      adminEmail: E2E_ADMIN.email,
      adminPassword: E2E_ADMIN.password,
      screenshotDir: SCREENSHOT_DIR,
      serverLog: logFile,
      stripe: { url: `http://127.0.0.1:${stripe.port}`, monthlyPrice: monthlyPrice.id, packPrice: packPrice.id },
    });
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}

/** What the harness hands to the tests. */
export interface E2eContext {
  baseUrl: string;
  maildevUrl: string;
  adminEmail: string;
  adminPassword: string;
  screenshotDir: string;
  serverLog: string;
  /** The local Stripe-speaking server and the price ids it knows (a monthly plan, a one-off pack). */
  stripe: { url: string; monthlyPrice: string; packPrice: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eContext;
  }
}
