import { migrate } from '@nuage/migrations';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { TEMPLATE_DB, testServerUrl, withDatabase } from './db-url.js';

/**
 * Once per `vitest run`: checks the PostgreSQL server has PostGIS, drops test
 * databases left by earlier runs, and builds a migrated template database that
 * every test file clones (CREATE DATABASE ... TEMPLATE), so files never share state.
 */
export default async function setup(project: TestProject): Promise<void> {
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
    const stale = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'nuage\\_test\\_%' OR datname = $1",
      [TEMPLATE_DB],
    );
    for (const { datname } of stale.rows) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    await admin.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: withDatabase(base, TEMPLATE_DB), max: 1 });
  try {
    await migrate(pool);
  } finally {
    await pool.end();
  }
  project.provide('testDatabaseBaseUrl', base);
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseBaseUrl: string;
  }
}
