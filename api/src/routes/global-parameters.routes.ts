import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { requireRole } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonBody, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { readGlobalParameters, updateGlobalParameters } from '../services/global-parameters.service.js';

const TAG = ['Settings'];
const ADMIN = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'], 403: ['FORBIDDEN'] } as const;

const GlobalParametersSchema = z
  .object({
    pointSize: z.number().openapi({ description: 'Viewer point size (default 2).' }),
    tilingParameters: z.string().openapi({
      description: 'Tiler options as text, e.g. `--max-points 60000 --min-node-size 0.15`; empty: defaults.',
    }),
  })
  .openapi('GlobalParameters');

const cesiumRoute = createRoute({
  method: 'get',
  path: '/globalParameters/cesiumParameters',
  tags: TAG,
  summary: 'Viewer parameters (point size)',
  description: 'Public: shared projects are viewed without an account.',
  responses: { 200: jsonResponse(z.object({ pointSize: z.number() }).openapi('CesiumParameters'), 'The parameters') },
});

const readRoute = createRoute({
  method: 'get',
  path: '/globalParameters',
  tags: TAG,
  summary: 'Admin settings: point size and tiling parameters',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  responses: { 200: jsonResponse(GlobalParametersSchema, 'The settings'), ...errorResponses(ADMIN) },
});

const patchRoute = createRoute({
  method: 'patch',
  path: '/globalParameters',
  tags: TAG,
  summary: 'Change admin settings',
  description: 'The tiling parameters are checked with the engine’s tiler option parser before they are saved.',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: {
    body: jsonBody(
      z
        .strictObject({
          pointSize: z.number().min(0.5).max(50).optional(),
          tilingParameters: z.string().max(2000).optional(),
        })
        .openapi('GlobalParametersPatch'),
    ),
  },
  responses: {
    200: jsonResponse(GlobalParametersSchema, 'The settings'),
    ...errorResponses({ 400: ['FORM_INVALID', 'FIELD_NOT_EDITABLE', 'INVALID_TILING_PARAMETERS'], ...ADMIN }),
  },
});

/** `GET /globalParameters/cesiumParameters` (spec §7) and the admin settings behind it. */
export function globalParametersRoutes(deps: AppDeps) {
  const app = createRouteGroup();

  app.openapi(cesiumRoute, async (c) => {
    c.header('Cache-Control', 'public, max-age=60');
    return c.json({ pointSize: (await readGlobalParameters(deps)).pointSize }, 200);
  });

  app.openapi(readRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await readGlobalParameters(deps), 200);
  });

  app.openapi(patchRoute, async (c) => {
    const body = c.req.valid('json');
    return c.json(
      await updateGlobalParameters(deps, {
        ...(body.pointSize !== undefined ? { pointSize: body.pointSize } : {}),
        ...(body.tilingParameters !== undefined ? { tilingParameters: body.tilingParameters } : {}),
      }),
      200,
    );
  });

  return app;
}
