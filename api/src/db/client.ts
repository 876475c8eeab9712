import { createHash } from 'node:crypto';
import { Kysely, PostgresDialect, type RawBuilder } from 'kysely';
import pg from 'pg';
import type { Database } from './types.js';

// bigint (int8) columns come back as strings by default; ids stay strings, counts are cast in SQL.
// numeric stays a string too; timestamps are Dates.

/** A connection pool and the kysely instance over it. */
export interface DatabaseHandle {
  pool: pg.Pool;
  db: Kysely<Database>;
  /** Hot queries run as named prepared statements (see {@link runPrepared}). */
  namedStatements: boolean;
  close(): Promise<void>;
}

/** Options of {@link createDatabase}. */
export interface DatabaseOptions {
  /** Largest number of connections (10). */
  max?: number;
  applicationName?: string;
  /**
   * Milliseconds to get a connection, whether the pool opens a new one or waits for a
   * busy one to come back (5,000): when the database is away, requests fail fast
   * (503 DATABASE_UNAVAILABLE) rather than pile up.
   */
  connectTimeoutMs?: number;
  /** Server-side limit of one statement in milliseconds (60,000; 0 for none). */
  statementTimeoutMs?: number;
  /**
   * Let {@link runPrepared} use named prepared statements (true). False for the
   * embedded database: its connections share one PGlite session, where two
   * connections preparing the same name would collide.
   */
  namedStatements?: boolean;
}

/**
 * Opens a pool on `url` (PostgreSQL with PostGIS, embedded or server).
 *
 * @example
 * const { db, close } = createDatabase(config.DATABASE_URL);
 * const n = await db.selectFrom('users').select(db.fn.countAll().as('n')).executeTakeFirst();
 */
export function createDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  const statementTimeout = options.statementTimeoutMs ?? 60_000;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'nuage',
    idleTimeoutMillis: 30_000,
    // Long enough for a busy pool on a loaded 2-core machine to hand over a client; short enough to answer 503 soon.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    // A server that vanishes without closing its sockets is noticed by TCP, not only at the next query.
    keepAlive: true,
    ...(statementTimeout > 0 ? { statement_timeout: statementTimeout } : {}),
    // No JIT compilation: PostgreSQL compiles a plan whose estimated cost passes jit_above_cost at every
    // execution, and PostGIS declares its functions costly. The vector tile query run plainly (as psql
    // does, a custom plan) over 47,000 features of a z14 tile took 403 ms, 380 of them compiling, and
    // 64 ms without. The prepared statements' generic plans stayed under the threshold in the OGC bench
    // (same figures with and without); plain statements (other CRSs, HTML pages, exports) do not.
    // (The embedded database ignores startup options; PGlite is built without JIT.)
    options: '-c jit=off',
  });
  // A client that loses its server must not crash the process: idle ones
  // report on the pool, checked-out ones on themselves (their next query fails).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    pool,
    db,
    namedStatements: options.namedStatements ?? true,
    async close() {
      await db.destroy();
    },
  };
}

/** Statement names by SQL text (a hash: the same text always has the same name, as node-pg requires). */
const statementNames = new Map<string, string>();
const MAX_STATEMENT_NAMES = 500;

export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `nuage_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (statementNames.size >= MAX_STATEMENT_NAMES) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Runs a query of a fixed shape (its SQL text does not vary with the request,
 * only its parameters) on the pool as a named prepared statement: PostgreSQL
 * parses and plans it once per connection instead of once per request, which
 * is most of the cost of the API's hottest small queries (OGC items, vector
 * tiles, credential look-ups: about 3× the rate for the collection-access
 * query on this machine). Queries whose text varies (IN lists, filters) must
 * not come here: each text is a statement kept by every connection.
 * Without named statements (the embedded database) it runs as any kysely query.
 */
export async function runPrepared<R>(database: DatabaseHandle, query: RawBuilder<R>): Promise<R[]> {
  const compiled = query.compile(database.db);
  if (!database.namedStatements) return (await database.db.executeQuery(compiled)).rows as R[];
  const r = await database.pool.query({
    name: statementName(compiled.sql),
    text: compiled.sql,
    values: compiled.parameters as unknown[],
  });
  return r.rows as R[];
}

/** SQLSTATE classes and codes that mean "the database is away", not "the query is wrong". */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|connection (?:is )?(?:closed|ended)|Client has encountered a connection error|terminating connection|the database system is (?:shutting down|starting up|in recovery mode)|Query read timeout/i;

/**
 * True when `err` says the database cannot be reached or cannot answer now
 * (connection refused or lost, pool acquire timeout, server shutting down or
 * starting, too many connections, statement timeout): the API answers these
 * with 503 DATABASE_UNAVAILABLE and Retry-After, and the next request tries again.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_NODE_CODES.has(code)) return true;
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    // AggregateError (a host with several addresses) and wrapped causes.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((x) => isDatabaseUnavailable(x))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
