import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { type ByteRange, type GetResult, InvalidRange, type ObjectStore, StorageError } from '@nuage/tiles-cache';
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import type { AppDeps, AppEnv } from '../context.js';
import type { ErrorBody } from '../errors.js';
import { contentTypeOf } from '../jobs/store-io.js';
import { EMPTY_TILE_ETAG, EMPTY_TILE_PNG, rasterTile } from '../services/raster-tiles.service.js';
import {
  grantMaxAge,
  splitGrantPath,
  splitTilePath,
  type UrlCheck,
  verifyFileSignature,
  verifyTilesSignature,
} from '../services/tiles.service.js';

/** Content types worth compressing (GLB and PNG are compressed already). */
const COMPRESSIBLE = /^(application\/(json|geo\+json)|text\/)/;

function fail(c: Context, status: 403 | 404 | 416, code: string, message: string) {
  c.header('Cache-Control', 'no-store');
  return c.json<ErrorBody>({ error: { code, message } }, status);
}

/** One `bytes=start-end` range (suffix `bytes=-n` too); null for none, 'invalid' when unusable. */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'invalid';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'invalid';
  return { start, end };
}

/**
 * Streams one stored object with ETag (304 on If-None-Match), Range (206/416),
 * gzip for JSON when the client accepts it, and the given cache lifetime.
 */
async function serveObject(
  c: Context,
  store: ObjectStore,
  key: string,
  cache: string,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const info = await store.head(key).catch((err) => {
    if (err instanceof StorageError) return null;
    throw err;
  });
  if (!info) return fail(c, 404, 'NOT_FOUND', 'no such tile or file');
  const type = contentTypeOf(key);
  const headers: Record<string, string> = {
    'Content-Type': type,
    ETag: info.etag,
    'Last-Modified': info.mtime.toUTCString(),
    'Cache-Control': cache,
    'Accept-Ranges': 'bytes',
    Vary: 'Accept-Encoding',
    ...extraHeaders,
  };
  const inm = c.req.header('if-none-match');
  if (inm?.split(',').some((t) => t.trim() === info.etag || t.trim() === '*')) {
    return new Response(null, { status: 304, headers });
  }
  const range = parseRange(c.req.header('range'), info.size);
  if (range === 'invalid') {
    c.header('Content-Range', `bytes */${info.size}`);
    return fail(c, 416, 'INVALID_RANGE', `the range is outside the file (${info.size} bytes)`);
  }
  let got: GetResult;
  try {
    got = await store.get(key, range ? { range } : {});
  } catch (err) {
    if (err instanceof InvalidRange) return fail(c, 416, 'INVALID_RANGE', err.message);
    if (err instanceof StorageError) return fail(c, 404, 'NOT_FOUND', 'no such tile or file');
    throw err;
  }
  if (c.req.method === 'HEAD') {
    got.body.destroy();
    return new Response(null, { status: 200, headers: { ...headers, 'Content-Length': String(info.size) } });
  }
  if (got.range) {
    const { start, end } = got.range;
    return new Response(Readable.toWeb(got.body) as ReadableStream, {
      status: 206,
      headers: {
        ...headers,
        'Content-Range': `bytes ${start}-${end}/${info.size}`,
        'Content-Length': String(end - start + 1),
      },
    });
  }
  const gzip = COMPRESSIBLE.test(type) && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '') && info.size > 512;
  if (gzip) {
    const zipped = got.body.pipe(createGzip({ level: 6 }));
    got.body.on('error', (e) => zipped.destroy(e));
    return new Response(Readable.toWeb(zipped) as ReadableStream, {
      status: 200,
      headers: { ...headers, 'Content-Encoding': 'gzip' },
    });
  }
  return new Response(Readable.toWeb(got.body) as ReadableStream, {
    status: 200,
    headers: { ...headers, 'Content-Length': String(info.size) },
  });
}

/** A raster tile outside the raster: a small transparent PNG, the same for every tile. */
function emptyTile(c: Context, cache: string): Response {
  const headers = {
    'Content-Type': 'image/png',
    ETag: EMPTY_TILE_ETAG,
    'Cache-Control': cache,
    'X-Tile-Source': 'empty',
  };
  const inm = c.req.header('if-none-match');
  if (inm?.split(',').some((t) => t.trim() === EMPTY_TILE_ETAG || t.trim() === '*')) {
    return new Response(null, { status: 304, headers });
  }
  if (c.req.method === 'HEAD') return new Response(null, { status: 200, headers });
  return new Response(new Uint8Array(EMPTY_TILE_PNG), {
    status: 200,
    headers: { ...headers, 'Content-Length': String(EMPTY_TILE_PNG.length) },
  });
}

/** The path after `/tiles/<kind>/<sig>/<exp>/`, decoded segment by segment; null when malformed. */
function restOf(c: Context, kind: string): { sig: string; exp: string; path: string } | null {
  const parts = c.req.path.split('/');
  // ['', 'tiles', kind, sig, exp, ...rest]
  const i = parts.indexOf(kind);
  if (i < 0 || parts.length < i + 4) return null;
  try {
    const rest = parts.slice(i + 3).map(decodeURIComponent);
    if (rest.some((s) => s === '' || s === '.' || s === '..' || s.includes('/'))) return null;
    return { sig: parts[i + 1]!, exp: parts[i + 2]!, path: rest.join('/') };
  } catch {
    return null;
  }
}

/** The 403 of a tile or download URL that does not open its file (any more). */
function refuse(c: Context, check: Exclude<UrlCheck, 'ok'>, what: 'tile' | 'download') {
  if (check === 'expired') return fail(c, 403, 'TILE_URL_EXPIRED', `this ${what} URL has expired: ask for a new one`);
  if (check === 'revoked') {
    return fail(c, 403, 'TILE_URL_INVALID', `this ${what} URL came with a share link that was revoked`);
  }
  return fail(c, 403, 'TILE_URL_INVALID', `this ${what} URL is not valid`);
}

function maxAge(exp: string): number {
  return Math.max(0, Math.min(86_400, Number(exp) - Math.floor(Date.now() / 1000)));
}

/**
 * `/tiles`: 3D Tiles and raster tiles at signed, expiring URLs (no database
 * round trip per tile: the signature covers the asset's tile prefix, and a
 * share link's grant is checked in a per-process cache), and signed file
 * downloads (Range supported). CORS is open: the URLs are the credentials.
 */
export function tilesRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use(
    '*',
    cors({
      origin: '*',
      allowMethods: ['GET', 'HEAD', 'OPTIONS'],
      allowHeaders: ['Range', 'If-None-Match'],
      exposeHeaders: [
        'ETag',
        'Content-Range',
        'Content-Length',
        'Accept-Ranges',
        'Content-Disposition',
        'X-Tile-Source',
      ],
      maxAge: 86_400,
    }),
  );

  const tile = async (c: Context, kind: 's' | 'raster'): Promise<Response> => {
    const r = restOf(c, kind);
    if (!r) return fail(c, 404, 'NOT_FOUND', 'not a tile URL');
    const g = splitGrantPath(r.path);
    if (!g) return refuse(c, 'bad-signature', 'tile');
    const split = splitTilePath(g.path);
    if (!split) return fail(c, 404, 'NOT_FOUND', 'not a tile URL');
    const check = await verifyTilesSignature(deps, r.sig, r.exp, split.prefix, g.grant);
    if (check !== 'ok') return refuse(c, check, 'tile');
    // Tiles under a run prefix never change: cacheable until the URL expires
    // (60 s for a share link's URL, so that revoking it holds in HTTP caches too).
    const age = grantMaxAge(g.grant, maxAge(r.exp));
    const cache = g.grant ? `private, max-age=${age}` : `public, max-age=${age}, immutable`;
    if (kind === 'raster') {
      // PNG tiles of rasters are rendered from the run's COG on first request, then served from the tiles store.
      const made = await rasterTile(deps, split.prefix, split.rest);
      if (!made) return fail(c, 404, 'NOT_FOUND', 'no such tile (zoom 0 to 24, x and y inside the zoom)');
      if (made.kind === 'empty') return emptyTile(c, cache);
      if (made.kind === 'stored') {
        return serveObject(c, deps.storage.tiles, made.key, cache, {
          'X-Tile-Source': made.rendered ? 'rendered' : 'cache',
        });
      }
    }
    return serveObject(c, deps.storage.tiles, `${split.prefix}${split.rest}`, cache);
  };
  app.get('/s/*', (c) => tile(c, 's'));
  app.get('/raster/*', (c) => tile(c, 'raster'));

  app.get('/files/*', async (c) => {
    const r = restOf(c, 'files');
    if (!r) return fail(c, 404, 'NOT_FOUND', 'not a file URL');
    const g = splitGrantPath(r.path);
    if (!g) return refuse(c, 'bad-signature', 'download');
    const name = c.req.query('name') ?? '';
    const check = await verifyFileSignature(deps, r.sig, r.exp, g.path, name, g.grant);
    if (check !== 'ok') return refuse(c, check, 'download');
    const disposition = `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;
    return serveObject(c, deps.storage.objects, g.path, `private, max-age=${grantMaxAge(g.grant, maxAge(r.exp))}`, {
      'Content-Disposition': disposition,
    });
  });

  app.all('*', (c) => fail(c, 404, 'NOT_FOUND', 'not found'));
  return app;
}
