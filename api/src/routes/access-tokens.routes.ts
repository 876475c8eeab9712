import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonBody, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { createAccessTokensService, MAX_ACCESS_TOKENS } from '../services/access-tokens.service.js';

const TAG = ['Access tokens'];
const AUTH = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;

const AccessTokenSchema = z
  .object({
    id: z.string().openapi({ example: '12' }),
    name: z.string().openapi({ example: 'QGIS on my laptop' }),
    prefix: z.string().openapi({ description: 'The first characters of the token, to tell tokens apart.' }),
    scope: z.literal('read').openapi({ description: 'Read-only: OGC API collections, items and vector tiles.' }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().openapi({ description: 'Last use, to the minute; null when never used.' }),
    expiresAt: z.string().nullable().openapi({ description: 'When it stops working; null: until revoked.' }),
    expired: z.boolean(),
  })
  .openapi('AccessToken');

const listRoute = createRoute({
  method: 'get',
  path: '/users/current/access-tokens',
  tags: TAG,
  summary: "The current user's personal access tokens",
  description: 'Tokens not revoked, newest first. The tokens themselves are never shown again after creation.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  responses: {
    200: jsonResponse(z.object({ results: z.array(AccessTokenSchema) }).openapi('AccessTokenList'), 'The tokens'),
    ...errorResponses(AUTH),
  },
});

const createTokenRoute = createRoute({
  method: 'post',
  path: '/users/current/access-tokens',
  tags: TAG,
  summary: 'Make a personal access token for a GIS tool or a script',
  description: [
    'A read-only token that opens the OGC API (`/ogc/...`: collections, items, vector tiles) as this user,',
    'sent as `Authorization: Bearer <token>` or, for tools that cannot set headers, `?token=<token>`.',
    'It never opens `/api`. The answer holds the token itself: it is shown this once (only its SHA-256 is kept).',
    `At most ${MAX_ACCESS_TOKENS} usable tokens per user.`,
  ].join(' '),
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: {
    body: jsonBody(
      z
        .strictObject({
          name: z.string().trim().min(1).max(100).openapi({ example: 'QGIS on my laptop' }),
          expiresInDays: z
            .number()
            .int()
            .min(1)
            .max(3650)
            .nullable()
            .optional()
            .openapi({ description: 'Days until it stops working; omitted or null: until revoked.' }),
        })
        .openapi('AccessTokenCreate'),
    ),
  },
  responses: {
    201: jsonResponse(
      AccessTokenSchema.extend({
        token: z.string().openapi({ description: 'The token: copy it now, it is not shown again.' }),
      }).openapi('CreatedAccessToken'),
      'The token, shown once',
    ),
    ...errorResponses({ 400: ['FORM_INVALID', 'FIELD_NOT_EDITABLE'], ...AUTH, 409: ['ACCESS_TOKEN_LIMIT'] }),
  },
});

const revokeRoute = createRoute({
  method: 'delete',
  path: '/users/current/access-tokens/{id}',
  tags: TAG,
  summary: 'Revoke a personal access token',
  description: 'The token stops working at once, on every server.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: z.string().max(20).openapi({ example: '12' }) }) },
  responses: {
    204: { description: 'Revoked' },
    ...errorResponses({ ...AUTH, 404: ['ACCESS_TOKEN_NOT_FOUND'] }),
  },
});

/** Personal access tokens of the current user (read-only credentials for GIS tools on /ogc). */
export function accessTokensRoutes(deps: AppDeps) {
  const tokens = createAccessTokensService(deps);
  const app = createRouteGroup();
  app.use('/users/current/access-tokens', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  app.use('/users/current/access-tokens/*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });

  app.openapi(listRoute, async (c) => c.json({ results: await tokens.list(c.get('user').id) }, 200));

  app.openapi(createTokenRoute, async (c) => c.json(await tokens.create(c.get('user').id, c.req.valid('json')), 201));

  app.openapi(revokeRoute, async (c) => {
    await tokens.revoke(c.get('user').id, c.req.valid('param').id);
    return c.body(null, 204);
  });

  return app;
}
