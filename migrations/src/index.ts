import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';

/** Folder of the numbered, forward-only SQL migrations: `0001_init.sql`, `0002_...sql`. */
export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '..', 'sql');

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

/** Reads the migration files in order; refuses gaps, duplicates and badly named files. */
export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const out: Migration[] = [];
  for (const file of files) {
    const m = /^(\d{4})_([a-z0-9_]+)\.sql$/.exec(file);
    if (!m) throw new Error(`migration file name must look like 0001_name.sql: ${file}`);
    const version = Number(m[1]);
    if (version !== out.length + 1) throw new Error(`migration ${file}: expected version ${out.length + 1}`);
    const sql = await readFile(path.join(dir, file), 'utf8');
    out.push({ version, name: m[2]!, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return out;
}

/** The advisory lock key every migrating process takes (any constant 64-bit value). */
const LOCK_KEY = 727_172_001;

/**
 * Brings the schema up to date. Idempotent, and safe when several processes
 * start together: each takes a session advisory lock first (polling with
 * `pg_try_advisory_lock`, so a waiting process never blocks the embedded
 * database's single session), then applies the missing migrations, each in its
 * own transaction. A migration already applied with different content is an error.
 *
 * @param schema the schema to migrate (created if missing); PostGIS lives in `public`.
 * @returns the version the schema is at.
 */
export async function migrate(
  pool: pg.Pool,
  options: { schema?: string; log?: (msg: string) => void; dir?: string; timeoutMs?: number } = {},
): Promise<number> {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const migrations = await loadMigrations(options.dir);
  const client = await pool.connect();
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  try {
    for (;;) {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [LOCK_KEY]);
      if (rows[0]?.ok) break;
      if (Date.now() > deadline) throw new Error('timed out waiting for the migration lock');
      await new Promise((r) => setTimeout(r, 200));
    }
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS postgis SCHEMA public');
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query(`SET search_path TO ${schema}, public`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const applied = await client.query<{ version: number; checksum: string }>(
        `SELECT version, checksum FROM ${schema}.schema_migrations ORDER BY version`,
      );
      const done = new Map(applied.rows.map((r) => [r.version, r.checksum]));
      let version = 0;
      for (const m of migrations) {
        const checksum = done.get(m.version);
        if (checksum !== undefined) {
          if (checksum !== m.checksum) {
            throw new Error(`migration ${m.version}_${m.name} was changed after it was applied; add a new one instead`);
          }
          version = m.version;
          continue;
        }
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query(`INSERT INTO ${schema}.schema_migrations (version, name, checksum) VALUES ($1, $2, $3)`, [
            m.version,
            m.name,
            m.checksum,
          ]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${m.version}_${m.name} failed: ${(err as Error).message}`, { cause: err });
        }
        options.log?.(`applied migration ${m.version}_${m.name}`);
        version = m.version;
      }
      return version;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
      await client.query('RESET search_path');
    }
  } finally {
    client.release();
  }
}

/** The version a schema is at (0 when never migrated). */
export async function currentVersion(pool: pg.Pool, schema = 'public'): Promise<number> {
  const { rows } = await pool.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${schema}.schema_migrations`);
  return rows[0]?.v ?? 0;
}
