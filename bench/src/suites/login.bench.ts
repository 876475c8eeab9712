/**
 * `npm run bench -- login [--rounds N]`: time of `POST /api/auth-jwt/login` through
 * the real app for a wrong password on a known email, for an unknown email and for a
 * successful login, interleaved, over a scratch database on BENCH_DATABASE_URL
 * (default: the local PostgreSQL server). The first two must take similar time, so
 * the answer's timing does not tell whether an account exists; the reference is
 * one argon2id hash and one verification measured in the same run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '@nuage/api/app.js';
import { loadConfig } from '@nuage/api/config.js';
import { createDatabase } from '@nuage/api/db/client.js';
import { createLogger } from '@nuage/api/log.js';
import { hashPassword, verifyPassword } from '@nuage/api/services/password.js';
import { openLocalStorage } from '@nuage/api/storage.js';
import { migrate } from '@nuage/migrations';
import pg from 'pg';
import type { BenchSuite } from '../main.js';

const PASSWORD = 'Bench-Mark-2024x';

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  const round = (v: number) => Math.round(v * 100) / 100;
  return { n: s.length, medianMs: round(at(0.5)), p10Ms: round(at(0.1)), p90Ms: round(at(0.9)) };
}

export default {
  description: 'login time: wrong password vs unknown email vs success (account enumeration by timing)',
  async run(args) {
    const i = args.indexOf('--rounds');
    const rounds = i >= 0 ? Number(args[i + 1]) : 60;
    const base = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `nuage_bench_login_${process.pid}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const database = createDatabase(url.toString(), { max: 5 });
    const dataDir = await mkdtemp(path.join(tmpdir(), 'nuage-bench-login-'));
    try {
      await migrate(database.pool);
      const config = loadConfig({
        DATABASE_URL: url.toString(),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        TRUST_PROXY: 'true',
      });
      const app = createApp({
        config,
        database,
        log: createLogger({ level: 'silent', role: 'bench' }),
        storage: await openLocalStorage(path.join(dataDir, 'files')),
        migrationVersion: 0,
      });

      let t = performance.now();
      const hash = await hashPassword(PASSWORD);
      const hashMs = performance.now() - t;
      t = performance.now();
      await verifyPassword(hash, 'wrong');
      const verifyMs = performance.now() - t;

      // One account per round, so the per-account limit (10 failures / 15 min) never trips.
      await database.db
        .insertInto('users')
        .values(
          Array.from({ length: rounds }, (_, k) => ({
            email: `bench-${k}@example.com`,
            password_hash: hash,
            roles: ['user'],
            enabled: true,
          })),
        )
        .execute();

      const time = async (k: number, username: string, password: string, expected: number) => {
        const started = performance.now();
        const res = await app.request('/api/auth-jwt/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${k >> 8}.${k & 255}` },
          body: JSON.stringify({ username, password }),
        });
        const ms = performance.now() - started;
        if (res.status !== expected) throw new Error(`login answered ${res.status}, expected ${expected}`);
        await res.arrayBuffer();
        return ms;
      };
      // Warm-up (dummy hash, JWT key, connections).
      await time(10_000, 'warm@example.com', 'x', 401);
      await time(10_001, 'bench-0@example.com', PASSWORD, 200);

      const wrong: number[] = [];
      const unknown: number[] = [];
      const success: number[] = [];
      for (let k = 0; k < rounds; k++) {
        wrong.push(await time(3 * k, `bench-${k}@example.com`, 'Wrong-Guess-1x', 401));
        unknown.push(await time(3 * k + 1, `nobody-${k}@example.com`, 'Wrong-Guess-1x', 401));
        success.push(await time(3 * k + 2, `bench-${k}@example.com`, PASSWORD, 200));
      }
      const w = stats(wrong);
      const u = stats(unknown);
      return {
        rounds,
        wrongPasswordKnownEmail: w,
        unknownEmail: u,
        successfulLogin: stats(success),
        medianGapMs: Math.round(Math.abs(w.medianMs - u.medianMs) * 100) / 100,
        medianGapPercent: Math.round((Math.abs(w.medianMs - u.medianMs) / w.medianMs) * 1000) / 10,
        reference: {
          argon2idHashMs: Math.round(hashMs * 100) / 100,
          argon2idVerifyMs: Math.round(verifyMs * 100) / 100,
        },
      };
    } finally {
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
} satisfies BenchSuite;
