import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { postgis } from '@electric-sql/pglite-postgis';
import { PgliteMultiplexServer } from './embedded-mux.js';

/** A running embedded database: PGlite with PostGIS behind a loopback PostgreSQL socket. */
export interface EmbeddedDatabase {
  /** Connection string pg, kysely and graphile-worker use, as for any PostgreSQL. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts PGlite (data kept in `dir`, or in memory when `dir` is `memory://`)
 * with the PostGIS extension and serves it on 127.0.0.1 so that ordinary
 * PostgreSQL clients connect to it. The server multiplexes several client
 * connections onto the single PGlite session (see embedded-mux.ts).
 *
 * @example
 * const db = await startEmbeddedDatabase({ dir: './data/db' });
 * process.env.DATABASE_URL = db.url;
 */
export async function startEmbeddedDatabase(options: {
  dir: string;
  port?: number;
  maxConnections?: number;
}): Promise<EmbeddedDatabase> {
  if (!options.dir.startsWith('memory://')) await mkdir(options.dir, { recursive: true });
  const db = await PGlite.create(options.dir, { extensions: { postgis } });
  await db.exec('CREATE EXTENSION IF NOT EXISTS postgis');
  const server = new PgliteMultiplexServer({ db, maxConnections: options.maxConnections ?? 32 });
  let port: number;
  try {
    port = await server.listen(options.port ?? 0);
  } catch (err) {
    await db.close();
    throw err;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await server.close();
      await db.close();
    },
  };
}
