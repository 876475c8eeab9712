import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonBody, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { userViewer } from '../services/access.service.js';
import { shareViewer } from '../services/assets.service.js';
import { dtmHeights, measureCrs } from '../services/measure.service.js';
import { IdSchema } from './projects.schemas.js';

const TAG = ['Measure'];
const AUTH = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;
const TokenSchema = z.string().min(1).max(200).openapi({ description: 'The project’s share token.' });

const MeasureCrsSchema = z
  .object({
    epsg: z.number().int().nullable(),
    name: z.string(),
    proj4: z.string().openapi({ description: 'A definition proj4 reads (proj4 string, or WKT).' }),
    horizontalUnitToMetre: z.number().openapi({ description: 'Metres per horizontal unit (0: geographic CRS).' }),
    verticalUnitToMetre: z.number().openapi({ description: 'Metres per unit of Z.' }),
    vertical: z
      .object({
        heights: z.enum(['orthometric', 'ellipsoidal']).openapi({
          description:
            'How the 3D tiles hold heights: `orthometric` files are on the globe at Z × unit + N (geoid undulation), `ellipsoidal` ones at Z × unit.',
        }),
        geoidModel: z.string().nullable(),
        undulation: z
          .object({
            west: z.number(),
            south: z.number(),
            east: z.number(),
            north: z.number(),
            nx: z.number().int(),
            ny: z.number().int(),
            values: z.array(z.number()).openapi({ description: 'N in metres, row-major from the south-west node.' }),
          })
          .nullable()
          .openapi({ description: 'Geoid undulations on a WGS84 grid over the project (bilinear between nodes).' }),
      })
      .openapi('MeasureVertical'),
  })
  .openapi('MeasureCrs');

const DtmHeightsBodySchema = z
  .object({
    points: z
      .array(z.tuple([z.number().finite(), z.number().finite()]))
      .min(1)
      .max(2000)
      .openapi({ description: 'X, Y in the project CRS (at most 2000 points).' }),
  })
  .openapi('DtmHeightsRequest');

const DtmHeightsSchema = z
  .object({
    dtmAssetId: z.string(),
    resolution: z.number().openapi({ description: 'Cell size of the DTM, project horizontal units.' }),
    heights: z.array(z.number().nullable()).openapi({
      description:
        'DTM height at each point (bilinear between cell centres), project vertical unit; null off the DTM or on nodata.',
    }),
  })
  .openapi('DtmHeights');

const CRS_ERRORS = { 404: ['PROJECT_NOT_FOUND'], 409: ['CRS_REQUIRED'] } as const;
const DTM_ERRORS = {
  400: ['FORM_INVALID'],
  404: ['PROJECT_NOT_FOUND', 'ASSET_NOT_FOUND', 'FILE_NOT_FOUND'],
  409: ['ASSET_NOT_READY'],
} as const;
const DTM_DESCRIPTION =
  'Heights of the project’s DTM at points given in the project CRS, for the viewer’s height-above-ground tool (point Z minus the DTM at its X, Y). 404 ASSET_NOT_FOUND when the project has no DTM.';

const crsRoute = createRoute({
  method: 'get',
  path: '/projects/{id}/measure/crs',
  tags: TAG,
  summary: 'The project CRS as a proj4 definition with its units, for the viewer’s measurement tools',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: IdSchema }) },
  responses: { 200: jsonResponse(MeasureCrsSchema, 'The CRS'), ...errorResponses({ ...CRS_ERRORS, ...AUTH }) },
});

const crsSharedRoute = createRoute({
  method: 'get',
  path: '/projects/{id}/measure/crs-from-shared-token',
  tags: TAG,
  summary: 'The project CRS for the measurement tools, for a share-token holder',
  request: { params: z.object({ id: IdSchema }), query: z.object({ token: TokenSchema }) },
  responses: {
    200: jsonResponse(MeasureCrsSchema, 'The CRS'),
    ...errorResponses({ ...CRS_ERRORS, 404: ['PROJECT_NOT_FOUND', 'SHARE_TOKEN_INVALID'] }),
  },
});

const dtmRoute = createRoute({
  method: 'post',
  path: '/projects/{id}/measure/dtm-heights',
  tags: TAG,
  summary: 'DTM heights at points of the project CRS',
  description: DTM_DESCRIPTION,
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: IdSchema }), body: jsonBody(DtmHeightsBodySchema) },
  responses: { 200: jsonResponse(DtmHeightsSchema, 'The heights'), ...errorResponses({ ...DTM_ERRORS, ...AUTH }) },
});

const dtmSharedRoute = createRoute({
  method: 'post',
  path: '/projects/{id}/measure/dtm-heights-from-shared-token',
  tags: TAG,
  summary: 'DTM heights at points of the project CRS, for a share-token holder',
  description: DTM_DESCRIPTION,
  request: {
    params: z.object({ id: IdSchema }),
    query: z.object({ token: TokenSchema }),
    body: jsonBody(DtmHeightsBodySchema),
  },
  responses: {
    200: jsonResponse(DtmHeightsSchema, 'The heights'),
    ...errorResponses({ ...DTM_ERRORS, 404: [...DTM_ERRORS[404], 'SHARE_TOKEN_INVALID'] }),
  },
});

/** The viewer's measurement tools: the project CRS and DTM heights, for users and share-token holders. */
export function measureRoutes(deps: AppDeps) {
  const app = createRouteGroup();

  app.openapi(crsRoute, async (c) => {
    return c.json(await measureCrs(deps, userViewer(c.get('user')), c.req.valid('param').id), 200);
  });

  app.openapi(crsSharedRoute, async (c) => {
    const viewer = await shareViewer(deps, c.req.valid('query').token);
    return c.json(await measureCrs(deps, viewer, c.req.valid('param').id), 200);
  });

  app.openapi(dtmRoute, async (c) => {
    const { points } = c.req.valid('json');
    return c.json(await dtmHeights(deps, userViewer(c.get('user')), c.req.valid('param').id, points), 200);
  });

  app.openapi(dtmSharedRoute, async (c) => {
    const viewer = await shareViewer(deps, c.req.valid('query').token);
    const { points } = c.req.valid('json');
    return c.json(await dtmHeights(deps, viewer, c.req.valid('param').id, points), 200);
  });

  return app;
}
