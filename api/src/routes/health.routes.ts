import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context.js';
import { checkHealth } from '../services/health.service.js';

/** `GET /api/health`: database kind, PostGIS version, migration version, worker heartbeat age, free storage. */
export function healthRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/health', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await checkHealth(deps));
  });
}
