import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppDeps, AppEnv } from '../context.js';
import { AppError, databaseUnavailable } from '../errors.js';
import { ogcFeaturesRoutes } from './ogc-features.routes.js';
import { html, linkList, page, table } from './ogc-html.js';
import { OPENAPI_30_TYPE, ogcOpenApiDocument } from './ogc-openapi.js';
import { formatOf, OgcLinks } from './ogc-request.js';
import { ogcTilesRoutes } from './ogc-tiles.routes.js';

/** Conformance classes this server implements. */
export const OGC_CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/landing-page',
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/json',
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/html',
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/oas30',
  'http://www.opengis.net/spec/ogcapi-common-2/1.0/conf/collections',
  // Features Part 1: Core, GeoJSON, HTML, OpenAPI 3.0.
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
  // Part 2: CRS by reference.
  'http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs',
  // Part 3: queryables and CQL2 text filters on properties.
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter',
  'http://www.opengis.net/spec/cql2/1.0/conf/cql2-text',
  'http://www.opengis.net/spec/cql2/1.0/conf/basic-cql2',
  'http://www.opengis.net/spec/cql2/1.0/conf/advanced-comparison-operators',
  // Tiles: vector tiles of each collection.
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tileset',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tilesets-list',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/geodata-tilesets',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/mvt',
];

const TITLE = 'Nuage OGC API';
const DESCRIPTION =
  'Vector products of LiDAR projects (contours, grid, buildings, trees, forest inventory, power lines...) as OGC API Features collections and vector tiles.';

/** The OGC exception body: OGC's `code` and `description`, plus the API's usual `error` object. */
export function ogcException(err: AppError) {
  const parameter = typeof err.details?.parameter === 'string' ? err.details.parameter : undefined;
  return {
    code: err.code,
    description: err.message,
    status: err.status,
    ...(parameter ? { parameter } : {}),
    error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) },
  };
}

/**
 * CORS for any origin: preflights (OPTIONS) answered by `preflight` (Hono's
 * cors), other requests given `Access-Control-Allow-Origin: *` (and the
 * exposed headers) once the route has answered — the same headers as Hono's
 * cors, which sets them before the route runs and so makes every response be
 * built twice (the early one's headers copied into the route's), a cost paid
 * by each of the OGC API's many small requests.
 */
function anyOrigin(preflight: MiddlewareHandler, expose?: string): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    c.res.headers.set('Access-Control-Allow-Origin', '*');
    if (expose) c.res.headers.set('Access-Control-Expose-Headers', expose);
  };
}

/**
 * Everything under `/ogc` (mounted at the app's root so that `/ogc` and
 * `/ogc/` are both the landing page): landing page, conformance, the OpenAPI
 * 3.0 service description, the collections (ogc-features.routes.ts) and their
 * vector tiles (ogc-tiles.routes.ts). Errors are OGC exceptions (JSON, with
 * `WWW-Authenticate` on a 401).
 */
export function ogcRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use(
    '/ogc/*',
    anyOrigin(
      cors({
        origin: '*',
        allowMethods: ['GET', 'HEAD', 'OPTIONS'],
        allowHeaders: ['Authorization', 'If-None-Match'],
        exposeHeaders: ['ETag', 'Content-Crs', 'Content-Length'],
        maxAge: 86_400,
      }),
      'ETag,Content-Crs,Content-Length',
    ),
  );
  app.use('/ogc', anyOrigin(cors({ origin: '*', allowHeaders: ['Authorization'] })));

  const landing = (c: Context<AppEnv>) => {
    const format = formatOf(c);
    const links = new OgcLinks(deps, c);
    c.header('Cache-Control', 'no-cache');
    const doc = {
      title: TITLE,
      description: DESCRIPTION,
      links: [
        ...links.selfAndAlternate('/', format),
        {
          href: links.href('/api'),
          rel: 'service-desc',
          type: OPENAPI_30_TYPE,
          title: 'the API definition (OpenAPI 3.0)',
        },
        {
          href: links.href('/api', { f: 'html' }),
          rel: 'service-doc',
          type: 'text/html',
          title: 'the API documentation',
        },
        {
          href: links.href('/conformance'),
          rel: 'conformance',
          type: 'application/json',
          title: 'conformance classes',
        },
        {
          href: links.href('/conformance'),
          rel: 'http://www.opengis.net/def/rel/ogc/1.0/conformance',
          type: 'application/json',
          title: 'conformance classes',
        },
        { href: links.href('/collections'), rel: 'data', type: 'application/json', title: 'feature collections' },
        {
          href: links.href('/collections'),
          rel: 'http://www.opengis.net/def/rel/ogc/1.0/data',
          type: 'application/json',
          title: 'feature collections',
        },
      ],
    };
    if (format === 'html') {
      return c.html(
        page({
          title: TITLE,
          crumbs: [{ text: TITLE }],
          json: { href: links.href('/'), type: 'application/json' },
          body: html`<p>${DESCRIPTION}</p>${linkList([
            {
              href: links.href('/collections', { f: 'html' }),
              title: 'Collections',
              note: 'the vector products you may read',
            },
            { href: links.href('/conformance', { f: 'html' }), title: 'Conformance classes' },
            { href: links.href('/api', { f: 'html' }), title: 'API documentation' },
            { href: links.href('/api'), title: 'API definition', note: 'OpenAPI 3.0 JSON' },
          ])}<p>Private projects need credentials: log in to the web app, or give GIS tools a personal access token
(account settings) as <code>Authorization: Bearer …</code> or <code>?token=…</code>.</p>`,
        }),
      );
    }
    return c.json(doc);
  };
  app.get('/ogc', landing);
  app.get('/ogc/', landing);

  app.get('/ogc/conformance', (c) => {
    const format = formatOf(c);
    const links = new OgcLinks(deps, c);
    c.header('Cache-Control', 'public, max-age=3600');
    if (format === 'html') {
      return c.html(
        page({
          title: 'Conformance classes',
          crumbs: [{ text: TITLE, href: links.href('/', { f: 'html' }) }, { text: 'Conformance' }],
          json: { href: links.href('/conformance'), type: 'application/json' },
          body: html`<ul>${OGC_CONFORMANCE.map((u) => html`<li><code>${u}</code></li>`)}</ul>`,
        }),
      );
    }
    return c.json({ links: links.selfAndAlternate('/conformance', 'json'), conformsTo: OGC_CONFORMANCE });
  });

  let document: ReturnType<typeof ogcOpenApiDocument> | null = null;
  app.get('/ogc/api', (c) => {
    const format = formatOf(c);
    const links = new OgcLinks(deps, c);
    document ??= ogcOpenApiDocument(links.base);
    c.header('Cache-Control', 'public, max-age=3600');
    if (format === 'html') {
      const rows: unknown[][] = [];
      for (const [path, item] of Object.entries(document.paths)) {
        for (const [method, op] of Object.entries(
          item as Record<string, { summary: string; parameters: Array<{ $ref: string }> }>,
        )) {
          const params = op.parameters.map((p) => p.$ref.split('/').pop()).join(', ');
          rows.push([html`<code>${method.toUpperCase()} /ogc${path === '/' ? '' : path}</code>`, op.summary, params]);
        }
      }
      return c.html(
        page({
          title: 'API documentation',
          crumbs: [{ text: TITLE, href: links.href('/', { f: 'html' }) }, { text: 'API' }],
          json: { href: links.href('/api'), type: OPENAPI_30_TYPE },
          body: html`<p>${document.info.description}</p>${table(['path', 'what', 'parameters'], rows)}`,
        }),
      );
    }
    c.header('Content-Type', OPENAPI_30_TYPE);
    return c.body(JSON.stringify(document));
  });

  app.route('/ogc', ogcFeaturesRoutes(deps));
  app.route('/ogc', ogcTilesRoutes(deps));
  app.all('/ogc/*', () => {
    throw new AppError(404, 'NOT_FOUND', 'no such OGC API resource');
  });

  app.onError((err, c) => {
    // As the rest of the API: a busy or absent database is a 503 with Retry-After, never a 500.
    const unavailable = databaseUnavailable(err);
    if (unavailable) (c.get('log') ?? deps.log).warn({ err: (err as Error).message }, 'database unavailable');
    const known = err instanceof AppError ? err : unavailable;
    if (!known) {
      (c.get('log') ?? deps.log).error({ err }, 'unhandled error');
    }
    const e = known ?? new AppError(500, 'INTERNAL', 'internal server error');
    const wait = e.details?.retryAfterSeconds;
    if (typeof wait === 'number') c.header('Retry-After', String(wait));
    if (e.status === 401) c.header('WWW-Authenticate', 'Bearer realm="nuage-ogc"');
    c.header('Cache-Control', 'no-store');
    return c.json(ogcException(e), e.status as 400);
  });
  return app;
}
