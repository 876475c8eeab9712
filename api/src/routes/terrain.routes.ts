import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppDeps } from '../context.js';
import type { ErrorBody } from '../errors.js';
import { requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { userViewer } from '../services/access.service.js';
import { shareViewer } from '../services/assets.service.js';
import { terrainTile, terrainUrl, terrainUrlFromTilesUrl } from '../services/terrain.service.js';
import { grantMaxAge, splitGrantPath, splitTilePath, verifyTilesSignature } from '../services/tiles.service.js';
import { IdSchema } from './projects.schemas.js';

const TAG = ['Assets'];
const AUTH = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;
const ERRORS = {
  400: ['FORM_INVALID'],
  404: ['ASSET_NOT_FOUND', 'NO_TILES', 'FILE_NOT_FOUND'],
  409: ['PROJECT_NOT_READY', 'ASSET_NOT_READY'],
} as const;

const VerticalReferenceSchema = z
  .object({
    heights: z.enum(['orthometric', 'ellipsoidal']),
    name: z.string().nullable(),
    epsg: z.number().int().nullable(),
    source: z.enum(['crs', 'assumed']),
    geoidModel: z.string().nullable(),
  })
  .openapi('VerticalReference', {
    description:
      'What the heights are measured from: orthometric heights (a vertical datum the CRS names, or assumed) reach the globe with the geoid model added; ellipsoidal ones as they are.',
  });

const TerrainUrlSchema = z
  .object({
    url: z.string().openapi({
      description:
        'Tile URL template ({z}/{x}/{y}, geographic tiling scheme). A tile: "NTH1", width and height (uint16 LE), then width × height float32 LE heights in metres above the WGS84 ellipsoid, row 0 north; NaN outside the DTM.',
    }),
    west: z.number(),
    south: z.number(),
    east: z.number(),
    north: z.number(),
    maxLevel: z.number().int().openapi({ description: 'Deepest level served; deeper tiles are interpolated.' }),
    minHeight: z.number(),
    maxHeight: z.number(),
    verticalReference: VerticalReferenceSchema,
  })
  .openapi('TerrainUrl');

const terrainUrlRoute = createRoute({
  method: 'get',
  path: '/assets/custom-tiler/terrain-url',
  tags: TAG,
  summary: 'Signed terrain tiles of a DTM asset (Cesium heightmaps, ellipsoidal heights)',
  description:
    'Heightmap tiles made from the DTM GeoTIFF, reprojected to WGS84 with the geoid undulation added to orthometric heights; signed and expiring (6 h) like the other tile URLs.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { query: z.object({ id: IdSchema }) },
  responses: {
    200: jsonResponse(TerrainUrlSchema, 'The tile URL template and the terrain’s footprint'),
    ...errorResponses({ ...ERRORS, ...AUTH }),
  },
});

const terrainUrlSharedRoute = createRoute({
  method: 'get',
  path: '/assets/custom-tiler/terrain-url-from-shared-token',
  tags: TAG,
  summary: 'Signed terrain tiles of a DTM asset, for a share-token holder',
  request: { query: z.object({ id: IdSchema, token: z.string().min(1).max(200) }) },
  responses: {
    200: jsonResponse(TerrainUrlSchema, 'The tile URL template and the terrain’s footprint'),
    ...errorResponses({ ...ERRORS, 404: ['ASSET_NOT_FOUND', 'NO_TILES', 'FILE_NOT_FOUND', 'SHARE_TOKEN_INVALID'] }),
  },
});

const terrainUrlFromTilesRoute = createRoute({
  method: 'get',
  path: '/assets/custom-tiler/terrain-url-from-tiles-url',
  tags: TAG,
  summary: 'Signed terrain tiles of the project a signed tile URL belongs to',
  description:
    'For a viewer that holds a signed tile URL of the project (its point cloud’s tileset.json): the URL is checked as a tile request is (signature, expiry, share link), and the terrain URL carries the same share grant. 404 NO_TILES when the project has no READY DTM.',
  request: { query: z.object({ tilesUrl: z.string().min(1).max(4000) }) },
  responses: {
    200: jsonResponse(TerrainUrlSchema, 'The tile URL template and the terrain’s footprint'),
    ...errorResponses({
      400: ['FORM_INVALID'],
      403: ['TILE_URL_INVALID', 'TILE_URL_EXPIRED'],
      404: ['NO_TILES', 'FILE_NOT_FOUND'],
    }),
  },
});

function fail(c: Context, status: 403 | 404, code: string, message: string) {
  c.header('Cache-Control', 'no-store');
  return c.json<ErrorBody>({ error: { code, message } }, status);
}

const TILE = /^(\d{1,2})\/(\d{1,8})\/(\d{1,8})\.heights$/;

/**
 * Terrain from a project's DTM (terrain.service.ts): the signed URL of its
 * tiles, and the tiles at `/api/terrain/<sig>/<exp>/[g/<grant>/]<run prefix><z>/<x>/<y>.heights`
 * (checked as /tiles checks its URLs: signature over the DTM run's prefix,
 * expiry, share grant).
 */
export function terrainRoutes(deps: AppDeps) {
  const app = createRouteGroup();

  app.openapi(terrainUrlRoute, async (c) => {
    return c.json(await terrainUrl(deps, userViewer(c.get('user')), c.req.valid('query').id), 200);
  });

  app.openapi(terrainUrlSharedRoute, async (c) => {
    const { id, token } = c.req.valid('query');
    return c.json(await terrainUrl(deps, await shareViewer(deps, token), id), 200);
  });

  app.openapi(terrainUrlFromTilesRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await terrainUrlFromTilesUrl(deps, c.req.valid('query').tilesUrl), 200);
  });

  app.get('/terrain/*', async (c) => {
    const parts = c.req.path.split('/');
    const i = parts.indexOf('terrain');
    if (i < 0 || parts.length < i + 4) return fail(c, 404, 'NOT_FOUND', 'not a terrain tile URL');
    const [sig, exp] = [parts[i + 1]!, parts[i + 2]!];
    const rest = parts.slice(i + 3);
    if (rest.some((s) => s === '' || s === '.' || s === '..'))
      return fail(c, 404, 'NOT_FOUND', 'not a terrain tile URL');
    const g = splitGrantPath(rest.join('/'));
    if (!g) return fail(c, 403, 'TILE_URL_INVALID', 'this tile URL is not valid');
    const split = splitTilePath(g.path);
    const tile = split ? TILE.exec(split.rest) : null;
    if (!split || !tile) return fail(c, 404, 'NOT_FOUND', 'not a terrain tile URL');
    const check = await verifyTilesSignature(deps, sig, exp, split.prefix, g.grant);
    if (check === 'expired') return fail(c, 403, 'TILE_URL_EXPIRED', 'this tile URL has expired: ask for a new one');
    if (check === 'revoked')
      return fail(c, 403, 'TILE_URL_INVALID', 'this tile URL came with a share link that was revoked');
    if (check !== 'ok') return fail(c, 403, 'TILE_URL_INVALID', 'this tile URL is not valid');
    const bytes = await terrainTile(deps, split.prefix, Number(tile[1]), Number(tile[2]), Number(tile[3]));
    if (!bytes) return fail(c, 404, 'NOT_FOUND', 'no such terrain tile');
    const age = grantMaxAge(g.grant, Math.max(0, Math.min(86_400, Number(exp) - Math.floor(Date.now() / 1000))));
    return new Response(bytes, {
      status: 200,
      headers: {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(bytes.byteLength),
        'Cache-Control': g.grant ? `private, max-age=${age}` : `public, max-age=${age}, immutable`,
        'Access-Control-Allow-Origin': '*',
      },
    });
  });

  return app;
}
