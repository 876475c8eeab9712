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
    globeOpacity: z.number().openapi({ description: 'Opacity of the viewer’s globe, percent 0..100 (default 100).' }),
    cesiumIonToken: z.string().openapi({ description: 'Cesium ion token of the "cesium" world imagery; empty: none.' }),
    bingMapsKey: z.string().openapi({ description: 'Bing Maps key of the "bing" world imagery; empty: none.' }),
  })
  .openapi('GlobalParameters');

const CesiumParametersSchema = z
  .object({
    pointSize: z.number(),
    globeOpacity: z.number().openapi({ description: 'Percent, 0..100.' }),
    cesiumIonToken: z.string().openapi({ description: 'Empty when none is configured.' }),
    bingMapsKey: z.string().openapi({ description: 'Empty when none is configured.' }),
  })
  .openapi('CesiumParameters');

const cesiumRoute = createRoute({
  method: 'get',
  path: '/globalParameters/cesiumParameters',
  tags: TAG,
  summary: 'Viewer parameters (point size, globe opacity, world imagery keys)',
  description:
    'Public: shared projects are viewed without an account. The imagery keys are the browser-side keys the viewer ' +
    'hands to Cesium ion and Bing Maps (restrict them to this site’s domain at the provider).',
  responses: { 200: jsonResponse(CesiumParametersSchema, 'The parameters') },
});

const readRoute = createRoute({
  method: 'get',
  path: '/globalParameters',
  tags: TAG,
  summary: 'Admin settings: point size, globe opacity, world imagery keys and tiling parameters',
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
          globeOpacity: z.number().min(0).max(100).optional(),
          cesiumIonToken: z.string().max(2000).optional(),
          bingMapsKey: z.string().max(500).optional(),
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
    const p = await readGlobalParameters(deps);
    return c.json(
      {
        pointSize: p.pointSize,
        globeOpacity: p.globeOpacity,
        cesiumIonToken: p.cesiumIonToken,
        bingMapsKey: p.bingMapsKey,
      },
      200,
    );
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
        ...(body.globeOpacity !== undefined ? { globeOpacity: body.globeOpacity } : {}),
        ...(body.cesiumIonToken !== undefined ? { cesiumIonToken: body.cesiumIonToken } : {}),
        ...(body.bingMapsKey !== undefined ? { bingMapsKey: body.bingMapsKey } : {}),
      }),
      200,
    );
  });

  return app;
}
