import { migrate } from '@nuage/migrations';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { pidAlive } from '../src/jobs/recovery.js';
import { runPidOf, templateName, testServerUrl, withDatabase } from './db-url.js';

/**
 * Once per `vitest run`: checks the PostgreSQL server has PostGIS, drops test
 * databases left by earlier runs, and builds a migrated template database that
 * every test file clones (CREATE DATABASE ... TEMPLATE), so files never share state.
 * Several runs may share the server (engineers testing at once): each run names
 * its databases after its process id and only drops those of runs that are gone.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = templateName(process.pid);
  const base = testServerUrl();
  const admin = new pg.Client({ connectionString: base });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `API tests need PostgreSQL with PostGIS at ${base} (set TEST_DATABASE_URL): ${(err as Error).message}. ` +
        'On a fresh machine run: bash .ci/setup',
    );
  }
  try {
    const ext = await admin.query("SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'");
    if (ext.rowCount === 0) {
      throw new Error(`PostGIS is not installed on the PostgreSQL server at ${base}. Run: bash .ci/setup`);
    }
    const existing = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'nuage\\_test\\_%'",
    );
    for (const { datname } of existing.rows) {
      const owner = runPidOf(datname);
      if (owner !== null && owner !== process.pid && pidAlive(owner)) continue;
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await admin.query(`CREATE DATABASE "${template}"`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: withDatabase(base, template), max: 1 });
  try {
    await migrate(pool);
  } finally {
    await pool.end();
  }
  project.provide('testDatabaseBaseUrl', base);
  project.provide('testRunPid', process.pid);
  return async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    } finally {
      await c.end();
    }
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseBaseUrl: string;
    /** Process id of the vitest run: its databases carry it in their names. */
    testRunPid: number;
  }
}
