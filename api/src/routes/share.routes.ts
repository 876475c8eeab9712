import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { userViewer } from '../services/access.service.js';
import { createShareToken, projectFromShareToken, revokeShareToken } from '../services/projects.service.js';
import { IdSchema, ProjectSchema } from './projects.schemas.js';

const TAG = ['Sharing'];
const AUTH = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;
const ShareTokenSchema = z.string().min(1).max(200).openapi({ description: 'The share token of the link.' });

const fromShareTokenRoute = createRoute({
  method: 'get',
  path: '/projects/from-share-token',
  tags: TAG,
  summary: 'The project a share link opens (no account needed)',
  description:
    'Read-only view of one project with its layers and signed tile URLs. Use the same token with `tiles-supplier-url-from-shared-token` and `/ogc/...?token=`.',
  request: { query: z.object({ token: ShareTokenSchema }) },
  responses: {
    200: jsonResponse(ProjectSchema, 'The shared project'),
    ...errorResponses({ 400: ['FORM_INVALID'], 404: ['SHARE_TOKEN_INVALID'] }),
  },
});

const createShareRoute = createRoute({
  method: 'post',
  path: '/projects/{id}/share-token',
  tags: TAG,
  summary: 'Create (or replace) the share token of a project',
  description: 'A new token replaces the old one: the old link stops working.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: IdSchema }) },
  responses: {
    201: jsonResponse(
      z.object({ token: z.string(), url: z.string() }).openapi('ShareToken'),
      'The token and the web link it opens',
    ),
    ...errorResponses({ ...AUTH, 404: ['PROJECT_NOT_FOUND'] }),
  },
});

const revokeShareRoute = createRoute({
  method: 'delete',
  path: '/projects/{id}/share-token',
  tags: TAG,
  summary: 'Revoke the share token of a project',
  description:
    'The link stops opening the project at once; tile and file URLs already handed out through it stop working at once on this server and within 60 s on others.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: IdSchema }) },
  responses: {
    204: { description: 'Revoked' },
    ...errorResponses({ ...AUTH, 404: ['PROJECT_NOT_FOUND'] }),
  },
});

/** Share links: create and revoke a project's token; open a project with it. */
export function shareRoutes(deps: AppDeps) {
  const app = createRouteGroup();

  app.openapi(fromShareTokenRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    return c.json(await projectFromShareToken(deps, c.req.valid('query').token), 200);
  });

  app.openapi(createShareRoute, async (c) => {
    const { token } = await createShareToken(deps, userViewer(c.get('user')), c.req.valid('param').id);
    const url = `${deps.config.PUBLIC_URL.replace(/\/$/, '')}/#/project-from-share-token?token=${token}`;
    c.header('Cache-Control', 'no-store');
    return c.json({ token, url }, 201);
  });

  app.openapi(revokeShareRoute, async (c) => {
    await revokeShareToken(deps, userViewer(c.get('user')), c.req.valid('param').id);
    return c.body(null, 204);
  });

  return app;
}
