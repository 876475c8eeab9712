import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './types.js';

// bigint (int8) columns come back as strings by default; ids stay strings, counts are cast in SQL.
// numeric stays a string too; timestamps are Dates.

/** A connection pool and the kysely instance over it. */
export interface DatabaseHandle {
  pool: pg.Pool;
  db: Kysely<Database>;
  close(): Promise<void>;
}

/**
 * Opens a pool on `url` (PostgreSQL with PostGIS, embedded or server).
 *
 * @example
 * const { db, close } = createDatabase(config.DATABASE_URL);
 * const n = await db.selectFrom('users').select(db.fn.countAll().as('n')).executeTakeFirst();
 */
export function createDatabase(url: string, options: { max?: number; applicationName?: string } = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'nuage',
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
  });
  // A client that loses its server must not crash the process: idle ones
  // report on the pool, checked-out ones on themselves (their next query fails).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    pool,
    db,
    async close() {
      await db.destroy();
    },
  };
}
