/** Name of the migrated template database the test files of one run (vitest process `pid`) clone. */
export function templateName(pid: number): string {
  return `nuage_test_template_${pid}`;
}

/** Name of a test file's database in the run `pid`. */
export function testDatabaseName(pid: number, suffix: string): string {
  return `nuage_test_${pid}_${suffix}`;
}

/** The vitest process id a test database name carries, or null for names of another shape. */
export function runPidOf(datname: string): number | null {
  const m = /^nuage_test_(?:template_)?(\d+)(?:_|$)/.exec(datname);
  return m ? Number(m[1]) : null;
}

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
