import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonBody, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { userViewer } from '../services/access.service.js';
import { shareViewer } from '../services/assets.service.js';
import { CLIP_MAX_AREA_M2, clipStatus, estimateClipRequest, startClip } from '../services/clip.service.js';
import { CLIP_VECTOR_FORMATS } from '../services/clip-vectors.service.js';
import { IdSchema } from './projects.schemas.js';

const TAG = ['Clip'];
const AUTH = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;
const TokenSchema = z.string().min(1).max(200).openapi({ description: 'The project’s share token.' });
const ClipIdSchema = z.string().max(64).openapi({ description: 'The clip id (24 hex digits).' });

const ClipRequestSchema = z
  .strictObject({
    source: z.enum(['original', 'classified']).openapi({
      description:
        '`original`: the uploaded point cloud; `classified`: the classified point cloud of the processing (premium, 403 PREMIUM_REQUIRED otherwise).',
    }),
    kind: z.enum(['polygon', 'box', 'corridor']).openapi({
      description:
        '`polygon`: a Polygon or MultiPolygon (holes cut out); `box`: the project-CRS box around the geometry; `corridor`: a LineString buffered by width/2 each side.',
    }),
    area: z
      .object({
        type: z.enum(['Polygon', 'MultiPolygon', 'LineString']),
        coordinates: z.array(z.unknown()).min(1).max(10_000),
      })
      .openapi({ description: 'A GeoJSON geometry in EPSG:4326 (longitude, latitude).' }),
    width: z.number().positive().max(10_000).optional().openapi({ description: 'Corridor width in metres.' }),
    classes: z
      .array(z.number().int().min(0).max(255))
      .max(256)
      .optional()
      .openapi({ description: 'ASPRS class codes to keep (all when absent or empty).' }),
    returns: z.enum(['first', 'last', 'all']).optional().openapi({ description: 'Which returns to keep (all).' }),
    format: z.enum(['las', 'laz']).openapi({
      description:
        '`las`: LAS 1.4 (point format 6, 7 with RGB, 8 with NIR; extra bytes kept). `laz`: LAZ (LAS 1.4 header) in the cloud’s own point format, offered for point formats 0-3 without extra bytes only (the estimate’s `formats` says which); otherwise 400 CLIP_FORMAT_UNAVAILABLE.',
    }),
    vectors: z
      .strictObject({
        format: z.enum(CLIP_VECTOR_FORMATS).openapi({
          description:
            '`geojson`: EPSG:4326 (RFC 7946); `dxf`: project CRS, a .prj beside each drawing; `shapefile`: project CRS, .shp/.shx/.dbf/.prj/.cpg per asset.',
        }),
      })
      .optional()
      .openapi({
        description:
          'Also the area’s vector products in one zip: for every READY vector asset of the project, its features inside the area, cut to it (attributes and Z kept), one file (or Shapefile set) per asset named after its type, assets without a feature inside left out, and a README.txt listing the files and counts.',
      }),
  })
  .openapi('ClipRequest');

const ClipEstimateSchema = z
  .object({
    points: z
      .number()
      .int()
      .openapi({ description: 'Estimated points inside (from the density; filters not applied).' }),
    bytes: z.number().int().openapi({ description: 'Estimated size of the LAS file.' }),
    areaSquareMetres: z.number(),
    maxAreaSquareMetres: z.number(),
    formats: z.array(z.enum(['las', 'laz'])).openapi({ description: 'Output formats offered for this cloud.' }),
    crs: z.object({ epsg: z.number().int().nullable(), name: z.string() }),
  })
  .openapi('ClipEstimate');

const ClipStatusSchema = z
  .object({
    id: z.string(),
    state: z.enum(['PENDING', 'PROGRESS', 'SUCCESS', 'FAILURE']),
    step: z.string().openapi({ description: 'queued, downloading, clipping, uploading, done, retrying or error.' }),
    percentage: z.number(),
    estimate: z.object({ points: z.number(), bytes: z.number() }),
    pointCount: z.number().nullable(),
    bytes: z.number().nullable(),
    fileName: z.string(),
    url: z.string().nullable().openapi({ description: 'Signed, expiring (6 h) download URL once SUCCESS.' }),
    errorCode: z
      .string()
      .nullable()
      .openapi({ description: 'CLIP_EMPTY (no point inside), CRS_REQUIRED, INPUT_MISSING, INTERNAL…' }),
    errorMessage: z.string().nullable(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    vectors: z
      .object({
        format: z.enum(CLIP_VECTOR_FORMATS),
        fileName: z.string(),
        bytes: z.number().nullable(),
        url: z
          .string()
          .nullable()
          .openapi({ description: 'Signed, expiring (6 h) download URL of the zip once SUCCESS.' }),
        files: z.array(
          z.object({
            assetType: z.string(),
            files: z.array(z.string()),
            features: z.number().int().openapi({ description: 'Features of the asset intersecting the area.' }),
            parts: z
              .number()
              .int()
              .openapi({ description: 'Parts written (a feature the area cuts in two gives two).' }),
          }),
        ),
      })
      .nullable()
      .openapi({ description: 'The zip of the area’s vector products, when the request asked for it.' }),
  })
  .openapi('ClipStatus');

const REQUEST_ERRORS = {
  400: ['FORM_INVALID', 'FIELD_NOT_EDITABLE', 'CLIP_FORMAT_UNAVAILABLE'],
  403: ['PREMIUM_REQUIRED'],
  404: ['PROJECT_NOT_FOUND', 'ASSET_NOT_FOUND'],
  409: ['ASSET_NOT_READY', 'ASSET_NOT_UPLOADED', 'CRS_REQUIRED'],
  413: ['CLIP_AREA_TOO_LARGE'],
} as const;
const DESCRIPTION = `The area is a GeoJSON geometry in EPSG:4326, moved into the project CRS. Areas over ${CLIP_MAX_AREA_M2 / 1e6} km² are refused (413 CLIP_AREA_TOO_LARGE). The owner, an admin or a share-token holder may clip the original cloud; the classified cloud needs a premium subscription (spec §6).`;

const estimateRoute = createRoute({
  method: 'post',
  path: '/projects/{id}/clip/estimate',
  tags: TAG,
  summary: 'Estimated point count and size of a clip',
  description: `${DESCRIPTION} The estimate comes from the stored header (point density over the area): no point is read.`,
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: IdSchema }), body: jsonBody(ClipRequestSchema) },
  responses: {
    200: jsonResponse(ClipEstimateSchema, 'The estimate'),
    ...errorResponses({ ...REQUEST_ERRORS, ...AUTH }),
  },
});

const estimateSharedRoute = createRoute({
  method: 'post',
  path: '/projects/{id}/clip/estimate-from-shared-token',
  tags: TAG,
  summary: 'Estimated point count and size of a clip, for a share-token holder',
  description: DESCRIPTION,
  request: {
    params: z.object({ id: IdSchema }),
    query: z.object({ token: TokenSchema }),
    body: jsonBody(ClipRequestSchema),
  },
  responses: {
    200: jsonResponse(ClipEstimateSchema, 'The estimate'),
    ...errorResponses({ ...REQUEST_ERRORS, 404: [...REQUEST_ERRORS[404], 'SHARE_TOKEN_INVALID'] }),
  },
});

const startRoute = createRoute({
  method: 'post',
  path: '/projects/{id}/clip',
  tags: TAG,
  summary: 'Clip the points inside an area into a LAS or LAZ file (a job)',
  description: `${DESCRIPTION} Answers 202 with the clip's status; poll GET /projects/{id}/clip/{clipId} until SUCCESS (then \`url\` is a signed download URL) or FAILURE.`,
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: IdSchema }), body: jsonBody(ClipRequestSchema) },
  responses: {
    202: jsonResponse(ClipStatusSchema, 'The clip is queued'),
    ...errorResponses({ ...REQUEST_ERRORS, ...AUTH }),
  },
});

const startSharedRoute = createRoute({
  method: 'post',
  path: '/projects/{id}/clip-from-shared-token',
  tags: TAG,
  summary: 'Clip the points inside an area, for a share-token holder',
  description: DESCRIPTION,
  request: {
    params: z.object({ id: IdSchema }),
    query: z.object({ token: TokenSchema }),
    body: jsonBody(ClipRequestSchema),
  },
  responses: {
    202: jsonResponse(ClipStatusSchema, 'The clip is queued'),
    ...errorResponses({ ...REQUEST_ERRORS, 404: [...REQUEST_ERRORS[404], 'SHARE_TOKEN_INVALID'] }),
  },
});

const STATUS_ERRORS = { 403: ['PREMIUM_REQUIRED'], 404: ['PROJECT_NOT_FOUND', 'CLIP_NOT_FOUND'] } as const;

const statusRoute = createRoute({
  method: 'get',
  path: '/projects/{id}/clip/{clipId}',
  tags: TAG,
  summary: 'State, progress and download URL of a clip',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: IdSchema, clipId: ClipIdSchema }) },
  responses: { 200: jsonResponse(ClipStatusSchema, 'The clip'), ...errorResponses({ ...STATUS_ERRORS, ...AUTH }) },
});

const statusSharedRoute = createRoute({
  method: 'get',
  path: '/projects/{id}/clip/{clipId}/from-shared-token',
  tags: TAG,
  summary: 'State, progress and download URL of a clip, for a share-token holder',
  request: { params: z.object({ id: IdSchema, clipId: ClipIdSchema }), query: z.object({ token: TokenSchema }) },
  responses: {
    200: jsonResponse(ClipStatusSchema, 'The clip'),
    ...errorResponses({ ...STATUS_ERRORS, 404: [...STATUS_ERRORS[404], 'SHARE_TOKEN_INVALID'] }),
  },
});

/** Clip and download (issue 23): estimate, start and follow a clip of the project's point cloud. */
export function clipRoutes(deps: AppDeps) {
  const app = createRouteGroup();
  app.use('/projects/*', async (c, next) => {
    await next();
    if (c.req.path.includes('/clip') && !c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });

  app.openapi(estimateRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await estimateClipRequest(deps, userViewer(c.get('user')), id, c.req.valid('json')), 200);
  });

  app.openapi(estimateSharedRoute, async (c) => {
    const viewer = await shareViewer(deps, c.req.valid('query').token);
    return c.json(await estimateClipRequest(deps, viewer, c.req.valid('param').id, c.req.valid('json')), 200);
  });

  app.openapi(startRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await startClip(deps, userViewer(c.get('user')), id, c.req.valid('json')), 202);
  });

  app.openapi(startSharedRoute, async (c) => {
    const viewer = await shareViewer(deps, c.req.valid('query').token);
    return c.json(await startClip(deps, viewer, c.req.valid('param').id, c.req.valid('json')), 202);
  });

  app.openapi(statusRoute, async (c) => {
    const { id, clipId } = c.req.valid('param');
    return c.json(await clipStatus(deps, userViewer(c.get('user')), id, clipId), 200);
  });

  app.openapi(statusSharedRoute, async (c) => {
    const viewer = await shareViewer(deps, c.req.valid('query').token);
    const { id, clipId } = c.req.valid('param');
    return c.json(await clipStatus(deps, viewer, id, clipId), 200);
  });

  return app;
}
