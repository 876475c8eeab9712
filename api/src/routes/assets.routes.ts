import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonBody, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { userViewer } from '../services/access.service.js';
import {
  assetMonitor,
  deleteAsset,
  fileSupplierUrl,
  patchAsset,
  receiveUpload,
  requestUploadUrl,
  shareViewer,
  startTiling,
  tilesSupplierUrl,
} from '../services/assets.service.js';
import { EXPORT_FORMAT_NAMES, exportUrl } from '../services/exports.service.js';
import { ionTilerUpload } from '../services/multipart-upload.service.js';
import { AssetSchema, AssetTypeSchema, IdSchema, ProcessingOptionsBodySchema } from './projects.schemas.js';

const TAG = ['Assets'];
const AUTH = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;
const EpsgSchema = z.number().int().min(1024).max(999_999).openapi({ description: 'EPSG code of the CRS.' });

const uploadUrlRoute = createRoute({
  method: 'post',
  path: '/assets/upload-signed-url',
  tags: TAG,
  summary: 'Ask for a signed upload URL (upload flow, step 1)',
  description:
    'Creates (or resets, after a failed upload) the POINT_CLOUD asset of the layer and answers a signed, single-use URL on this API that expires in 1 hour. `lasHeaderData` is accepted and ignored: the server reads the header from the stored bytes. With `type: ORTHOPHOTO` and a .tif file (any layer of the project), the orthophoto a processing colours the cloud from (`processingOptions.orthophotoAssetId`): an ORTHOPHOTO asset in the raster layer; the project status is left as it is.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: {
    body: jsonBody(
      z
        .object({
          layerId: IdSchema,
          type: AssetTypeSchema,
          filename: z.string().min(1).max(8192).openapi({
            description:
              'URL-encoded file name (.las or .laz; .tif for an ORTHOPHOTO), under 255 characters once decoded.',
          }),
          fileSize: z.number().int().nonnegative().openapi({ description: 'Exact size in bytes (0 is FILE_EMPTY).' }),
          epsgCode: EpsgSchema.nullable().optional(),
          lasHeaderData: z.unknown().optional(),
        })
        .openapi('UploadUrlRequest'),
    ),
  },
  responses: {
    200: jsonResponse(
      z.object({ signedUrl: z.string(), asset: AssetSchema, filename: z.string() }).openapi('UploadUrl'),
      'PUT the file to signedUrl',
    ),
    ...errorResponses({
      400: [
        'FORM_INVALID',
        'INVALID_FILE',
        'FILE_EMPTY',
        'FILE_NAME_TOO_LONG',
        'UNSUPPORTED_ASSET_TYPE',
        'UNKNOWN_EPSG',
      ],
      ...AUTH,
      403: ['FILE_SIZE_LIMIT_ZERO', 'STORAGE_LIMIT_REACHED', 'SUBSCRIPTION_SUSPENDED', 'NO_SUBSCRIPTION'],
      404: ['LAYER_NOT_FOUND'],
      409: ['ASSET_ALREADY_UPLOADED'],
      413: ['FILE_TOO_LARGE'],
    }),
  },
});

const UploadResultSchema = z
  .object({
    asset: AssetSchema,
    header: z
      .object({
        lasVersion: z.string(),
        pointFormat: z.number().int(),
        pointCount: z.number(),
        compressed: z.boolean(),
        fileSize: z.number(),
        crsRequired: z.boolean(),
      })
      .optional()
      .openapi({ description: 'The LAS header read back (a point cloud; absent for an ORTHOPHOTO upload).' }),
  })
  .openapi('UploadResult');

const uploadRoute = createRoute({
  method: 'put',
  path: '/assets/upload/{id}',
  tags: TAG,
  summary: 'Upload the file to a signed URL (upload flow, step 2)',
  description:
    'The body is streamed into the store; more bytes than declared stop it with 413, fewer leave UPLOAD_INCOMPLETE. The LAS header is then read back from the stored bytes. Any failure leaves the asset ABORTED or ERROR with nothing stored; ask for a new URL to upload again.',
  request: {
    params: z.object({ id: IdSchema }),
    query: z.object({ token: z.string().max(200), expires: z.string().max(20), signature: z.string().max(200) }),
    body: { required: true, content: { 'application/octet-stream': { schema: z.any() } } },
  },
  responses: {
    200: jsonResponse(UploadResultSchema, 'Stored; the asset is UPLOADED'),
    ...errorResponses({
      400: ['UPLOAD_INCOMPLETE', 'MISSING_LAS_HEADER', 'INVALID_FILE', 'FILE_EMPTY'],
      403: ['UPLOAD_URL_INVALID', 'UPLOAD_URL_EXPIRED'],
      409: ['UPLOAD_URL_USED'],
      413: ['FILE_TOO_LARGE'],
    }),
  },
});

const ionTilerRoute = createRoute({
  method: 'post',
  path: '/assets/ion-tiler',
  tags: TAG,
  summary: 'Upload a point cloud in one request and start tiling (multipart)',
  description:
    'The one-request upload path: the multipart/form-data part `file` (a .las or .laz file) is streamed into the store as the signed PUT is, with the same checks, limits and header re-read, then metadata extraction and tiling start as with start-tiling. Answers the asset (EXTRACTING_METADATA). Other parts are ignored.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: {
    query: z.object({
      layerId: IdSchema.openapi({ description: 'The point cloud layer of the project.' }),
      epsgCode: z.coerce
        .number()
        .int()
        .min(1024)
        .max(999_999)
        .optional()
        .openapi({ description: 'EPSG code of the CRS, for a file without one (or to override a wrong one).' }),
    }),
    // A plain OpenAPI schema, not zod: the body is streamed by the handler, never parsed whole by a validator.
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { file: { type: 'string', format: 'binary', description: 'The LAS or LAZ file.' } },
            required: ['file'],
          },
        },
      },
    },
  },
  responses: {
    200: jsonResponse(AssetSchema, 'Stored; the asset is EXTRACTING_METADATA, tiling follows'),
    ...errorResponses({
      400: [
        'FORM_INVALID',
        'FILE_REQUIRED',
        'INVALID_FILE',
        'FILE_EMPTY',
        'FILE_NAME_TOO_LONG',
        'MISSING_LAS_HEADER',
        'UPLOAD_INCOMPLETE',
        'UNSUPPORTED_ASSET_TYPE',
        'UNKNOWN_EPSG',
      ],
      ...AUTH,
      403: ['FILE_SIZE_LIMIT_ZERO', 'STORAGE_LIMIT_REACHED', 'SUBSCRIPTION_SUSPENDED', 'NO_SUBSCRIPTION'],
      404: ['LAYER_NOT_FOUND'],
      409: ['ASSET_ALREADY_UPLOADED'],
      413: ['FILE_TOO_LARGE'],
    }),
  },
});

const startTilingRoute = createRoute({
  method: 'post',
  path: '/assets/start-tiling',
  tags: TAG,
  summary: 'Start the jobs (upload flow, step 3)',
  description:
    'Queues metadata extraction, then tiling; with `processingOptions`, the processing runs once the tileset is ready.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: {
    body: jsonBody(
      z
        .object({
          assetId: IdSchema,
          filename: z.string().max(1024).optional(),
          fileSize: z.number().optional(),
          originalFilename: z.string().max(1024).optional(),
          processingOptions: ProcessingOptionsBodySchema.optional(),
        })
        .openapi('StartTiling'),
    ),
  },
  responses: {
    200: jsonResponse(
      z.object({ asset: AssetSchema, inputFilePath: z.string() }).openapi('TilingStarted'),
      'Jobs queued; the asset is EXTRACTING_METADATA',
    ),
    ...errorResponses({
      400: ['FORM_INVALID', 'UNSUPPORTED_ASSET_TYPE', 'INVALID_PROCESSING_OPTIONS'],
      ...AUTH,
      403: ['SUBSCRIPTION_SUSPENDED', 'NO_SUBSCRIPTION', 'SUBSCRIPTION_INACTIVE'],
      404: ['ASSET_NOT_FOUND'],
      409: ['ASSET_NOT_UPLOADED'],
    }),
  },
});

const AssetMonitorSchema = AssetSchema.extend({
  projectId: IdSchema,
  metadata: z
    .object({ intensityMin: z.number().nullable(), intensityMax: z.number().nullable() })
    .catchall(z.unknown()),
  intensityNormalisation: z.boolean(),
  intensityNormalisationMin: z.number().nullable(),
}).openapi('AssetMonitor');

const monitorRoute = createRoute({
  method: 'get',
  path: '/assets',
  tags: TAG,
  summary: 'Asset monitor',
  description:
    'The asset with its metadata (intensityMin, intensityMax...) and intensity normalisation; `files` always included.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { query: z.object({ id: IdSchema, includes: z.string().max(200).optional() }) },
  responses: {
    200: jsonResponse(AssetMonitorSchema, 'The asset'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...AUTH, 404: ['ASSET_NOT_FOUND'] }),
  },
});

const patchRoute = createRoute({
  method: 'patch',
  path: '/assets',
  tags: TAG,
  summary: 'Change an asset',
  description:
    'A new epsgCode on the point cloud (a file without CRS, or a wrong one) extracts its metadata and tiles it again.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: {
    body: jsonBody(
      z
        .strictObject({
          id: IdSchema,
          name: z.string().trim().min(1).max(254).optional(),
          epsgCode: EpsgSchema.nullable().optional(),
          intensityNormalisation: z.boolean().optional(),
          intensityNormalisationMin: z.number().int().min(0).max(65535).nullable().optional(),
        })
        .openapi('AssetPatch'),
    ),
  },
  responses: {
    200: jsonResponse(AssetSchema, 'The asset'),
    ...errorResponses({
      400: ['FORM_INVALID', 'FIELD_NOT_EDITABLE', 'UNKNOWN_EPSG'],
      ...AUTH,
      404: ['ASSET_NOT_FOUND'],
      409: ['ASSET_NOT_UPLOADED'],
    }),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/assets',
  tags: TAG,
  summary: 'Delete an asset and its files',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { query: z.object({ id: IdSchema }) },
  responses: {
    204: { description: 'Deleted' },
    ...errorResponses({ 400: ['FORM_INVALID'], ...AUTH, 404: ['ASSET_NOT_FOUND'] }),
  },
});

const tilesQuery = z.object({
  id: IdSchema,
  isTiles: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true'))
    .openapi({ description: 'false: the signed base URL (ends with /) instead of tileset.json or the XYZ template.' }),
  variant: z.string().max(40).optional().openapi({ description: '`hillshade`: the terrain model as hillshade tiles.' }),
});
const UrlSchema = z.object({ url: z.string() }).openapi('SuppliedUrl');
const SuppliedFileSchema = z
  .object({ url: z.string(), fileName: z.string(), totalSize: z.number() })
  .openapi('SuppliedFile');
const TILE_ERRORS = {
  400: ['FORM_INVALID'],
  404: ['ASSET_NOT_FOUND', 'NO_TILES'],
  409: ['PROJECT_NOT_READY', 'ASSET_NOT_READY'],
} as const;

const tilesUrlRoute = createRoute({
  method: 'get',
  path: '/assets/custom-tiler/tiles-supplier-url',
  tags: TAG,
  summary: 'Signed URL of an asset’s tiles',
  description: 'Tiles are served under /tiles with a signature and an expiry (6 h); no session is needed per tile.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { query: tilesQuery },
  responses: { 200: jsonResponse(UrlSchema, 'The URL'), ...errorResponses({ ...TILE_ERRORS, ...AUTH }) },
});

const tilesUrlSharedRoute = createRoute({
  method: 'get',
  path: '/assets/custom-tiler/tiles-supplier-url-from-shared-token',
  tags: TAG,
  summary: 'Signed URL of an asset’s tiles, for a share-token holder',
  request: { query: tilesQuery.extend({ token: z.string().min(1).max(200) }) },
  responses: {
    200: jsonResponse(UrlSchema, 'The URL'),
    ...errorResponses({ ...TILE_ERRORS, 404: ['ASSET_NOT_FOUND', 'NO_TILES', 'SHARE_TOKEN_INVALID'] }),
  },
});

const fileUrlRoute = createRoute({
  method: 'get',
  path: '/assets/custom-tiler/file-supplier-url',
  tags: TAG,
  summary: 'Signed download URL of one of an asset’s files',
  description:
    'Signed and expiring (6 h), Range supported. The classified point cloud needs a premium subscription (403 PREMIUM_REQUIRED).',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { query: z.object({ id: IdSchema, extension: z.string().regex(/^\.?[A-Za-z0-9]{1,10}$/) }) },
  responses: {
    200: jsonResponse(SuppliedFileSchema, 'The URL'),
    ...errorResponses({
      400: ['FORM_INVALID'],
      ...AUTH,
      403: ['PREMIUM_REQUIRED'],
      404: ['ASSET_NOT_FOUND', 'FILE_NOT_FOUND'],
    }),
  },
});

const fileUrlSharedRoute = createRoute({
  method: 'get',
  path: '/assets/custom-tiler/file-supplier-url-from-shared-token',
  tags: TAG,
  summary: 'Signed download URL of an asset’s file, for a share-token holder',
  description: 'Read-only access to the files of a shared project (the classified point cloud stays premium-only).',
  request: {
    query: z.object({
      id: IdSchema,
      extension: z.string().regex(/^\.?[A-Za-z0-9]{1,10}$/),
      token: z.string().min(1).max(200),
    }),
  },
  responses: {
    200: jsonResponse(SuppliedFileSchema, 'The URL'),
    ...errorResponses({
      400: ['FORM_INVALID'],
      403: ['PREMIUM_REQUIRED'],
      404: ['ASSET_NOT_FOUND', 'FILE_NOT_FOUND', 'SHARE_TOKEN_INVALID'],
    }),
  },
});

const exportQuery = z.object({
  format: z.string().max(40).openapi({
    enum: EXPORT_FORMAT_NAMES,
    description:
      '`geojson`: GeoJSON (RFC 7946, EPSG:4326, application/geo+json); `dxf`: DXF in the project CRS (image/vnd.dxf); `shp`: zipped Shapefile in the project CRS (.shp/.shx/.dbf/.prj/.cpg, application/zip). Anything else: 400 EXPORT_FORMAT_UNKNOWN.',
  }),
});
const EXPORT_ERRORS = {
  400: ['FORM_INVALID', 'EXPORT_FORMAT_UNKNOWN', 'EXPORT_NOT_VECTOR'],
  404: ['ASSET_NOT_FOUND', 'FILE_NOT_FOUND'],
  409: ['ASSET_NOT_READY', 'CRS_REQUIRED'],
  413: ['EXPORT_TOO_LARGE'],
  422: ['EXPORT_NOT_POSSIBLE'],
} as const;
const EXPORT_DESCRIPTION =
  "A vector asset (contours, grid, buildings, trees...) as GeoJSON, DXF or Shapefile: a signed, expiring (6 h) download URL, Range supported, with the download name `<project>-<asset type>.<geojson|dxf|zip>`. The export is made from the asset's stored GeoJSON on the first request (seconds for large layers) and kept beside it: later requests answer at once, until a new processing replaces the asset. The asset must be READY (409 ASSET_NOT_READY).";

const exportRoute = createRoute({
  method: 'get',
  path: '/assets/{id}/export',
  tags: TAG,
  summary: 'Signed download URL of a vector asset exported as GeoJSON, DXF or Shapefile',
  description: EXPORT_DESCRIPTION,
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: IdSchema }), query: exportQuery },
  responses: {
    200: jsonResponse(SuppliedFileSchema, 'The URL'),
    ...errorResponses({ ...EXPORT_ERRORS, ...AUTH }),
  },
});

const exportSharedRoute = createRoute({
  method: 'get',
  path: '/assets/{id}/export-from-shared-token',
  tags: TAG,
  summary: 'Signed download URL of a vector asset export, for a share-token holder',
  description: EXPORT_DESCRIPTION,
  request: {
    params: z.object({ id: IdSchema }),
    query: exportQuery.extend({ token: z.string().min(1).max(200) }),
  },
  responses: {
    200: jsonResponse(SuppliedFileSchema, 'The URL'),
    ...errorResponses({ ...EXPORT_ERRORS, 404: [...EXPORT_ERRORS[404], 'SHARE_TOKEN_INVALID'] }),
  },
});

/** Spec §7 Assets: the upload flow, the asset monitor, edits, and signed tile and file URLs. */
export function assetsRoutes(deps: AppDeps) {
  const app = createRouteGroup();
  app.use('/assets/*', async (c, next) => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });

  app.openapi(uploadUrlRoute, async (c) => {
    const body = c.req.valid('json');
    return c.json(await requestUploadUrl(deps, userViewer(c.get('user')), body), 200);
  });

  app.openapi(uploadRoute, async (c) => {
    const raw = c.req.raw.body;
    const length = c.req.header('content-length');
    const stream = raw ? Readable.fromWeb(raw as unknown as NodeWebStream<Uint8Array>) : null;
    const result = await receiveUpload(
      deps,
      c.req.valid('param').id,
      c.req.valid('query'),
      stream,
      length !== undefined && /^\d+$/.test(length) ? Number(length) : null,
    );
    return c.json(result, 200);
  });

  app.openapi(ionTilerRoute, async (c) => {
    const q = c.req.valid('query');
    const raw = c.req.raw.body;
    const asset = await ionTilerUpload(
      deps,
      userViewer(c.get('user')),
      { layerId: q.layerId, epsgCode: q.epsgCode },
      {
        contentType: c.req.header('content-type'),
        body: raw ? Readable.fromWeb(raw as unknown as NodeWebStream<Uint8Array>) : null,
      },
    );
    return c.json(asset, 200);
  });

  app.openapi(startTilingRoute, async (c) => {
    const body = c.req.valid('json');
    return c.json(
      await startTiling(deps, userViewer(c.get('user')), {
        assetId: body.assetId,
        ...(body.processingOptions !== undefined ? { processingOptions: body.processingOptions } : {}),
      }),
      200,
    );
  });

  app.openapi(monitorRoute, async (c) => {
    return c.json(await assetMonitor(deps, userViewer(c.get('user')), c.req.valid('query').id), 200);
  });

  app.openapi(patchRoute, async (c) => {
    return c.json(await patchAsset(deps, userViewer(c.get('user')), c.req.valid('json')), 200);
  });

  app.openapi(deleteRoute, async (c) => {
    await deleteAsset(deps, userViewer(c.get('user')), c.req.valid('query').id);
    return c.body(null, 204);
  });

  app.openapi(tilesUrlRoute, async (c) => {
    return c.json(await tilesSupplierUrl(deps, userViewer(c.get('user')), c.req.valid('query')), 200);
  });

  app.openapi(tilesUrlSharedRoute, async (c) => {
    const { token, ...q } = c.req.valid('query');
    return c.json(await tilesSupplierUrl(deps, await shareViewer(deps, token), q), 200);
  });

  app.openapi(fileUrlRoute, async (c) => {
    return c.json(await fileSupplierUrl(deps, userViewer(c.get('user')), c.req.valid('query')), 200);
  });

  app.openapi(fileUrlSharedRoute, async (c) => {
    const { token, ...q } = c.req.valid('query');
    return c.json(await fileSupplierUrl(deps, await shareViewer(deps, token), q), 200);
  });

  app.openapi(exportRoute, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await exportUrl(deps, userViewer(c.get('user')), id, c.req.valid('query').format), 200);
  });

  app.openapi(exportSharedRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { token, format } = c.req.valid('query');
    return c.json(await exportUrl(deps, await shareViewer(deps, token), id, format), 200);
  });

  return app;
}
