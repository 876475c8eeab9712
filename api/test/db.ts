import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../src/db/client.js';
import { templateName, testDatabaseName, withDatabase } from './db-url.js';

export interface TestDatabase extends DatabaseHandle {
  url: string;
  name: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of its own for one test file (a clone of the
 * template that global-setup built).
 *
 * @example
 * let tdb: TestDatabase;
 * beforeAll(async () => { tdb = await createTestDatabase(); });
 * afterAll(() => tdb.drop());
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = inject('testDatabaseBaseUrl');
  const runPid = inject('testRunPid');
  const name = testDatabaseName(runPid, randomBytes(6).toString('hex'));
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName(runPid)}"`);
        break;
      } catch (err) {
        // Two files cloning at the same instant: "source database is being accessed by other users".
        if (attempt >= 20 || (err as { code?: string }).code !== '55006') throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = withDatabase(base, name);
  const handle = createDatabase(url, { max: 5, applicationName: 'nuage-test' });
  return {
    ...handle,
    url,
    name,
    async drop() {
      await handle.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
