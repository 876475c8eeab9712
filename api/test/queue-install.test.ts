import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../src/context.js';
import { createDatabase } from '../src/db/client.js';
import { ensureQueue } from '../src/jobs/queue.js';
import { createTestDatabase, type TestDatabase } from './db.js';

/**
 * graphile-worker's schema installed by several processes at once on a new
 * database (an API process answering its first request while its worker
 * process starts): each process's `ensureQueue` waits for the others under
 * an advisory lock, and every one of them ends with a complete schema.
 */
describe('ensureQueue on a new database', () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    await sql`DROP SCHEMA IF EXISTS graphile_worker CASCADE`.execute(tdb.db);
  });
  afterAll(() => tdb?.drop());

  it('installs the queue once when four processes ask at the same time', async () => {
    // One pool per "process", as separate processes have.
    const processes = Array.from({ length: 4 }, () => createDatabase(tdb.url, { max: 3 }));
    try {
      const results = await Promise.allSettled(
        processes.map((database) => ensureQueue({ database } as unknown as AppDeps)),
      );
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
      const { rows } = await sql<{ migrations: number; addJob: boolean }>`
        SELECT (SELECT count(*)::int FROM graphile_worker.migrations) AS migrations,
               to_regproc('graphile_worker.add_job') IS NOT NULL AS "addJob"`.execute(tdb.db);
      expect(rows[0]!.addJob).toBe(true);
      expect(rows[0]!.migrations).toBeGreaterThan(10);
      // A job can be queued.
      await sql`SELECT graphile_worker.add_job('noop', '{}'::json)`.execute(tdb.db);
    } finally {
      await Promise.all(processes.map((d) => d.close()));
    }
  });
});
