import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, runPrepared } from '../src/db/client.js';
import { createTestDatabase, type TestDatabase } from './db.js';

/**
 * runPrepared: a query of a fixed shape runs as a named prepared statement
 * (parsed and planned once per connection) on a server database, as a plain
 * query where named statements are off (the embedded database), with the same rows.
 */
describe('runPrepared (named prepared statements for hot queries)', () => {
  let tdb: TestDatabase;

  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => {
    await tdb?.drop();
  });

  const query = (n: number) =>
    sql<{
      n: number;
      doubled: number;
    }>`SELECT g::int AS n, (g * 2)::int AS doubled FROM generate_series(1, ${n}::int) g`;
  const statements = async (database: ReturnType<typeof createDatabase>) =>
    (
      await sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`.execute(
        database.db,
      )
    ).rows;

  it('opens connections without JIT compilation (it once cost 380 ms of a 403 ms vector tile)', async () => {
    const database = createDatabase(tdb.url, { max: 2 });
    try {
      const shown = await Promise.all(
        [0, 1].map(async () => (await sql<{ jit: string }>`SHOW jit`.execute(database.db)).rows[0]!.jit),
      );
      expect(shown).toEqual(['off', 'off']);
    } finally {
      await database.close();
    }
  });

  it('prepares a statement once per connection and answers the same rows as the query run plainly', async () => {
    // One connection, so that the statements listed are the ones it holds.
    const database = createDatabase(tdb.url, { max: 1 });
    try {
      const plain = (await query(3).execute(database.db)).rows;
      expect(await runPrepared(database, query(3))).toEqual(plain);
      expect(await runPrepared(database, query(5))).toHaveLength(5);
      const held = (await statements(database)).filter((s) => s.statement.includes('generate_series'));
      // One statement for one SQL text, whatever its parameters.
      expect(held).toHaveLength(1);
      expect(held[0]!.name).toMatch(/^nuage_[0-9a-f]{24}$/);
    } finally {
      await database.close();
    }
  });

  it('runs plain queries, preparing nothing, when named statements are off', async () => {
    const database = createDatabase(tdb.url, { max: 1, namedStatements: false });
    try {
      expect(await runPrepared(database, query(4))).toEqual((await query(4).execute(database.db)).rows);
      expect(await statements(database)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
