import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { AppDeps, AppEnv } from '../context.js';

/** Conformance classes this server implements (OGC API - Features - Part 1: Core, GeoJSON). */
export const OGC_CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
];

/** OGC API landing page and conformance under `/ogc`; feature collections plug in per product. */
export function ogcRoutes(deps: AppDeps) {
  const base = `${deps.config.PUBLIC_URL.replace(/\/$/, '')}/ogc`;
  return new Hono<AppEnv>()
    .use('*', cors({ origin: '*' }))
    .get('/', (c) =>
      c.json({
        title: 'Nuage',
        description: 'Point-cloud products (contours, buildings, trees, power lines) as OGC API Features.',
        links: [
          { href: `${base}/`, rel: 'self', type: 'application/json', title: 'this document' },
          { href: `${base}/conformance`, rel: 'conformance', type: 'application/json', title: 'conformance classes' },
          { href: `${base}/collections`, rel: 'data', type: 'application/json', title: 'feature collections' },
        ],
      }),
    )
    .get('/conformance', (c) => c.json({ conformsTo: OGC_CONFORMANCE }));
}
