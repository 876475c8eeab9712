import type { AppDeps } from '../context.js';
import { migrationVersion, postgisVersion, workerHeartbeat } from '../db/queries/health.queries.js';
import { AppError } from '../errors.js';

export interface HealthReport {
  status: 'ok';
  database: { kind: 'embedded' | 'server'; postgis: string; migrationVersion: number };
  worker: { heartbeatAgeSeconds: number | null; live: number };
  storage: { location: string; freeBytes: number | null };
  uptimeSeconds: number;
}

/** Gathers the health figures; a database that cannot be reached is a 503 DATABASE_UNAVAILABLE. */
export async function checkHealth(deps: AppDeps): Promise<HealthReport> {
  const { db } = deps.database;
  let postgis: string;
  let version: number;
  let worker: { ageSeconds: number | null; live: number };
  try {
    [postgis, version, worker] = await Promise.all([postgisVersion(db), migrationVersion(db), workerHeartbeat(db)]);
  } catch (err) {
    deps.log.warn({ err }, 'health: database unreachable');
    throw new AppError(503, 'DATABASE_UNAVAILABLE', 'the database cannot be reached');
  }
  return {
    status: 'ok',
    database: { kind: deps.config.databaseKind, postgis, migrationVersion: version },
    worker: {
      heartbeatAgeSeconds: worker.ageSeconds === null ? null : Math.round(worker.ageSeconds * 10) / 10,
      live: worker.live,
    },
    storage: { location: deps.storage.location, freeBytes: await deps.storage.freeBytes() },
    uptimeSeconds: Math.round(process.uptime()),
  };
}
