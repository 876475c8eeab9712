/** Name of the migrated template database test files clone. */
export const TEMPLATE_DB = 'nuage_test_template';

/** The PostgreSQL server tests use: TEST_DATABASE_URL, else the local server on 127.0.0.1:5432. */
export function testServerUrl(): string {
  return process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** The same server URL pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
