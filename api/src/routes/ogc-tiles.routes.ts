import { type Context, Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context.js';
import { AppError } from '../errors.js';
import { type Collection, queryablesOf } from '../services/ogc.service.js';
import {
  collectionTile,
  MAX_ZOOM,
  MVT_TYPE,
  parseTileAddress,
  TILE_MATRIX_SET,
  TILE_MATRIX_SET_URI,
  tileLayerName,
  tileRun,
} from '../services/ogc-tiles.service.js';
import { collectionOf, OgcLinks } from './ogc-request.js';

/** TileJSON field types of the queryables' JSON types. */
const FIELD_TYPE: Record<string, string> = { number: 'Number', string: 'String', boolean: 'Boolean' };

function zoomToFit(bbox: readonly number[] | null): number {
  if (!bbox) return 0;
  const span = Math.max(bbox[2]! - bbox[0]!, bbox[3]! - bbox[1]!, 1e-9);
  return Math.max(0, Math.min(22, Math.floor(Math.log2(360 / span))));
}

/**
 * OGC API - Tiles for the collections (`/ogc/collections/{id}/tiles`): the
 * list of tilesets, the WebMercatorQuad tileset (TileJSON 3.0.0 and OGC
 * TileSet members in one document) and its MVT tiles with ETag and
 * Cache-Control. Same credentials as the features.
 */
export function ogcTilesRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  const collection = async (c: Context<AppEnv>): Promise<Collection> => {
    const col = await collectionOf(deps, c);
    const tms = c.req.param('tileMatrixSetId');
    if (tms !== undefined && tms !== TILE_MATRIX_SET) {
      throw new AppError(404, 'NOT_FOUND', `no tile matrix set ${tms}: this server tiles in ${TILE_MATRIX_SET} only`);
    }
    return col;
  };

  /** The tile URL template: `{z}/{y}/{x}` (TileJSON) or `{tileMatrix}/{tileRow}/{tileCol}` (OGC). */
  const template = (links: OgcLinks, col: Collection, ogc: boolean) => {
    const query = new URL(links.href('', { v: tileRun(col) })).search;
    const parts = ogc ? '{tileMatrix}/{tileRow}/{tileCol}' : '{z}/{y}/{x}';
    return `${links.base}/collections/${col.row.asset_id}/tiles/${TILE_MATRIX_SET}/${parts}${query}`;
  };

  app.get('/collections/:collectionId/tiles', async (c) => {
    const col = await collection(c);
    const links = new OgcLinks(deps, c);
    const path = `/collections/${col.row.asset_id}/tiles`;
    c.header('Cache-Control', 'no-store');
    return c.json({
      links: [
        { href: links.href(path), rel: 'self', type: 'application/json' },
        { href: links.href(`/collections/${col.row.asset_id}`), rel: 'collection', type: 'application/json' },
      ],
      tilesets: [
        {
          title: `${col.row.project_name} — ${col.row.name}`,
          dataType: 'vector',
          crs: 'http://www.opengis.net/def/crs/EPSG/0/3857',
          tileMatrixSetURI: TILE_MATRIX_SET_URI,
          links: [
            {
              href: links.href(`${path}/${TILE_MATRIX_SET}`),
              rel: 'self',
              type: 'application/json',
              title: 'TileJSON',
            },
            { href: template(links, col, true), rel: 'item', type: MVT_TYPE, templated: true },
          ],
        },
      ],
    });
  });

  app.get('/collections/:collectionId/tiles/:tileMatrixSetId', async (c) => {
    const col = await collection(c);
    const links = new OgcLinks(deps, c);
    const queryables = await queryablesOf(deps, col);
    const bbox = col.stats.bbox;
    const layer = tileLayerName(col);
    const title = `${col.row.project_name} — ${col.row.name}`;
    const path = `/collections/${col.row.asset_id}/tiles/${TILE_MATRIX_SET}`;
    c.header('Cache-Control', 'no-store');
    return c.json({
      tilejson: '3.0.0',
      name: title,
      description: `${col.row.type} of project ${col.row.project_name}, as Mapbox Vector Tiles`,
      version: '1.0.0',
      scheme: 'xyz',
      tiles: [template(links, col, false)],
      minzoom: 0,
      maxzoom: MAX_ZOOM,
      bounds: bbox ?? [-180, -85.0511, 180, 85.0511],
      center: bbox ? [(bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2, zoomToFit(bbox)] : [0, 0, 0],
      vector_layers: [
        {
          id: layer,
          description: `${col.stats.features} features`,
          minzoom: 0,
          maxzoom: MAX_ZOOM,
          fields: Object.fromEntries(queryables.map((q) => [q.name, FIELD_TYPE[q.types[0]!] ?? 'String'])),
        },
      ],
      // OGC API - Tiles TileSet members.
      title,
      dataType: 'vector',
      crs: 'http://www.opengis.net/def/crs/EPSG/0/3857',
      tileMatrixSetURI: TILE_MATRIX_SET_URI,
      layers: [{ id: layer, dataType: 'vector', title }],
      links: [
        { href: links.href(path), rel: 'self', type: 'application/json', title: 'this tileset' },
        { href: template(links, col, true), rel: 'item', type: MVT_TYPE, templated: true, title: 'tiles' },
        {
          href: 'https://raw.githubusercontent.com/opengeospatial/2D-Tile-Matrix-Set/master/registry/json/WebMercatorQuad.json',
          rel: 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme',
          type: 'application/json',
          title: 'WebMercatorQuad',
        },
        { href: links.href(`/collections/${col.row.asset_id}`), rel: 'collection', type: 'application/json' },
      ],
    });
  });

  app.get('/collections/:collectionId/tiles/:tileMatrixSetId/:tileMatrix/:tileRow/:tileCol', async (c) => {
    const col = await collection(c);
    const address = parseTileAddress(c.req.param('tileMatrix'), c.req.param('tileRow'), c.req.param('tileCol'));
    const tile = await collectionTile(deps, col, address);
    // A URL naming the current run (`v`, as TileJSON hands out) never changes; one without it may after a processing.
    const pinned = c.req.query('v') === tileRun(col);
    const headers: Record<string, string> = {
      ETag: tile.etag,
      'Cache-Control': pinned ? 'private, max-age=86400, immutable' : 'private, max-age=60',
      Vary: 'Authorization, Cookie',
    };
    const inm = c.req.header('if-none-match');
    if (inm?.split(',').some((t) => t.trim() === tile.etag || t.trim() === '*')) {
      return new Response(null, { status: 304, headers });
    }
    if (tile.bytes.byteLength === 0) return new Response(null, { status: 204, headers });
    // A view of the tile's bytes, not a copy of them (up to a few hundred kB per request).
    const body = new Uint8Array(tile.bytes.buffer as ArrayBuffer, tile.bytes.byteOffset, tile.bytes.byteLength);
    return new Response(body, {
      status: 200,
      headers: { ...headers, 'Content-Type': MVT_TYPE, 'Content-Length': String(tile.bytes.byteLength) },
    });
  });

  return app;
}
