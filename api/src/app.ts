import { existsSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { ZodError } from 'zod';
import { REPO_ROOT } from './config.js';
import type { AppDeps, AppEnv } from './context.js';
import { AppError, databaseUnavailable, type ErrorBody } from './errors.js';
import { authContext } from './middleware/auth.js';
import { csrfGuard } from './middleware/csrf.js';
import { serveOpenApiDocument } from './openapi/document.js';
import { accessTokensRoutes } from './routes/access-tokens.routes.js';
import { adminJobsRoutes } from './routes/admin-jobs.routes.js';
import { adminUsersRoutes } from './routes/admin-users.routes.js';
import { assetsRoutes } from './routes/assets.routes.js';
import { authRoutes } from './routes/auth.routes.js';
import { billingRoutes } from './routes/billing.routes.js';
import { classificationEditsRoutes } from './routes/classification-edits.routes.js';
import { clipRoutes } from './routes/clip.routes.js';
import { globalParametersRoutes } from './routes/global-parameters.routes.js';
import { healthRoutes } from './routes/health.routes.js';
import { jobsRoutes } from './routes/jobs.routes.js';
import { measureRoutes } from './routes/measure.routes.js';
import { ogcRoutes } from './routes/ogc.routes.js';
import { projectsRoutes } from './routes/projects.routes.js';
import { shareRoutes } from './routes/share.routes.js';
import { statisticsRoutes } from './routes/statistics.routes.js';
import { subscriptionsRoutes } from './routes/subscriptions.routes.js';
import { terrainRoutes } from './routes/terrain.routes.js';
import { tilesRoutes } from './routes/tiles.routes.js';
import { usersRoutes } from './routes/users.routes.js';

/** Folder of the built web app (`npm run build -w web`). */
export const WEB_DIST = path.join(REPO_ROOT, 'web', 'dist');

/** Route groups mounted under `/api`; each area adds one line here. */
const apiGroups: Array<(deps: AppDeps) => Hono<AppEnv>> = [
  healthRoutes,
  authRoutes,
  usersRoutes, // before adminUsersRoutes: /users/current must not reach /users/{id}
  accessTokensRoutes, // /users/current/access-tokens, before adminUsersRoutes too
  adminUsersRoutes,
  shareRoutes, // before projectsRoutes: /projects/from-share-token must not reach /projects/{id}
  projectsRoutes,
  jobsRoutes,
  assetsRoutes,
  adminJobsRoutes,
  globalParametersRoutes,
  subscriptionsRoutes,
  billingRoutes,
  statisticsRoutes,
  measureRoutes,
  clipRoutes, // clip and download: /projects/{id}/clip…
  classificationEditsRoutes, // classification editing: /projects/{id}/classification-edits…
  terrainRoutes, // terrain from the DTM: /assets/custom-tiler/terrain-url and the /terrain/… heightmap tiles
];

/**
 * Builds the whole HTTP app: `/api/*` (spec §7 paths), `/tiles/*`, `/ogc/*`
 * and the web app at `/`. Tests drive it with `app.request()`.
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use('*', requestId());
  app.use('*', async (c, next) => {
    const log = deps.log.child({ reqId: c.get('requestId') });
    c.set('log', log);
    const started = performance.now();
    await next();
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const status = c.res.status;
    if (c.req.path !== '/api/health' || status >= 400) {
      log[status >= 500 ? 'error' : 'info']({ method: c.req.method, path: c.req.path, status, ms }, 'request');
    }
  });
  app.use('*', secureHeaders({ crossOriginEmbedderPolicy: false, crossOriginResourcePolicy: false }));
  app.use('*', authContext(deps));
  // Cookie-authenticated writes from another site are refused before any route runs.
  app.use('*', csrfGuard(deps.config));
  // JSON bodies are small; uploads stream through their own route with their own limit.
  app.use('/api/*', async (c, next) => {
    if (c.req.header('content-type')?.includes('application/json')) {
      return bodyLimit({
        maxSize: 1024 * 1024,
        onError: (cc) =>
          cc.json<ErrorBody>({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'request body too large' } }, 413),
      })(c, next);
    }
    await next();
  });

  const api = new OpenAPIHono<AppEnv>();
  for (const group of apiGroups) api.route('/', group(deps));
  serveOpenApiDocument(api);
  api.all('*', (c) =>
    c.json<ErrorBody>(
      { error: { code: 'NOT_FOUND', message: `no such endpoint: ${c.req.method} ${c.req.path}` } },
      404,
    ),
  );
  app.route('/api', api);
  app.route('/', ogcRoutes(deps)); // at the root: /ogc and /ogc/ are both the landing page
  app.route('/tiles', tilesRoutes(deps));

  if (existsSync(WEB_DIST)) {
    const root = path.relative(process.cwd(), WEB_DIST) || '.';
    app.use(
      '/*',
      serveStatic({
        root,
        onFound: (p, c) => {
          // Hashed bundles are immutable; index.html must always be revalidated.
          c.header(
            'Cache-Control',
            /[.-][A-Za-z0-9_-]{8,}\.(js|css)$/.test(p) ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      }),
    );
  }
  app.notFound((c) => c.json<ErrorBody>({ error: { code: 'NOT_FOUND', message: 'not found' } }, 404));

  app.onError((thrown, c) => {
    let err = thrown;
    const unavailable = databaseUnavailable(thrown);
    if (unavailable) {
      (c.get('log') ?? deps.log).warn({ err: (thrown as Error).message }, 'database unavailable');
      err = unavailable;
    }
    if (err instanceof AppError) {
      const wait = err.details?.retryAfterSeconds;
      if (typeof wait === 'number') c.header('Retry-After', String(wait));
      const body: ErrorBody = {
        error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
      };
      return c.json(body, err.status as 400);
    }
    if (err instanceof ZodError) {
      return c.json<ErrorBody>(
        { error: { code: 'VALIDATION_FAILED', message: 'validation failed', details: { issues: err.issues } } },
        400,
      );
    }
    const log = c.get('log') ?? deps.log;
    log.error({ err }, 'unhandled error');
    return c.json<ErrorBody>({ error: { code: 'INTERNAL', message: 'internal server error' } }, 500);
  });
  return app;
}
