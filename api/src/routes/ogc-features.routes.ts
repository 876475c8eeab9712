import { type Context, Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context.js';
import {
  type Collection,
  CRS84,
  featureJson,
  itemOf,
  itemsPage,
  itemsPageGeoJson,
  jsonSchemaType,
  listCollectionsFor,
  parseItemsQuery,
  pickCrs,
  queryablesOf,
  surveyDay,
} from '../services/ogc.service.js';
import { cellValue, html, linkList, page, table } from './ogc-html.js';
import { collectionOf, formatOf, OgcLinks, queryOf, viewerOf } from './ogc-request.js';

const GEOJSON = 'application/geo+json';
const SCHEMA_JSON = 'application/schema+json';
const TILESETS_REL = 'http://www.opengis.net/def/rel/ogc/1.0/tilesets-vector';
const iso = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The JSON of one collection (OGC API - Features `collection`, with Part 2's crs and storageCrs). */
export function collectionDocument(links: OgcLinks, col: Collection, format: 'json' | 'html' = 'json') {
  const { row, stats } = col;
  const path = `/collections/${row.asset_id}`;
  const day = surveyDay(row);
  return {
    id: row.asset_id,
    title: `${row.project_name} — ${row.name}`,
    description: `${row.type} of project ${row.project_name} (${stats.features} features)`,
    itemType: 'feature',
    extent: {
      spatial: { bbox: stats.bbox ? [stats.bbox] : [[-180, -90, 180, 90]], crs: CRS84 },
      temporal: {
        interval: [[iso(day.start), iso(day.end)]],
        trs: 'http://www.opengis.net/def/uom/ISO-8601/0/Gregorian',
      },
    },
    crs: col.crs.map((c) => c.uri),
    storageCrs: CRS84,
    links: [
      ...links.selfAndAlternate(path, format),
      { href: links.href(`${path}/items`), rel: 'items', type: GEOJSON, title: 'features (GeoJSON)' },
      { href: links.href(`${path}/items`, { f: 'html' }), rel: 'items', type: 'text/html', title: 'features (HTML)' },
      {
        href: links.href(`${path}/queryables`),
        rel: 'http://www.opengis.net/def/rel/ogc/1.0/queryables',
        type: SCHEMA_JSON,
        title: 'queryables (properties filters may use)',
      },
      // The short relation name of Part 3 drafts, which GDAL before 3.7 looks for.
      { href: links.href(`${path}/queryables`), rel: 'queryables', type: SCHEMA_JSON, title: 'queryables' },
      { href: links.href(`${path}/tiles`), rel: TILESETS_REL, type: 'application/json', title: 'vector tiles' },
      { href: links.href('/collections'), rel: 'collection', type: 'application/json', title: 'every collection' },
    ],
  };
}

function collectionHtml(links: OgcLinks, col: Collection): string {
  const doc = collectionDocument(links, col, 'html');
  const path = `/collections/${col.row.asset_id}`;
  return page({
    title: doc.title,
    crumbs: [
      { text: 'Nuage OGC API', href: links.href('', { f: 'html' }) },
      { text: 'Collections', href: links.href('/collections', { f: 'html' }) },
      { text: doc.title },
    ],
    json: { href: links.href(path), type: 'application/json' },
    body: html`<p>${doc.description}</p>
${table(
  ['', ''],
  [
    ['Id', doc.id],
    ['Extent (CRS84)', doc.extent.spatial.bbox[0]!.join(', ')],
    ['Time (survey day)', doc.extent.temporal.interval[0]!.join(' – ')],
    ['CRS', html`${doc.crs.map((c) => html`<code>${c}</code><br>`)}`],
    ['Storage CRS', doc.storageCrs],
  ],
)}
${linkList([
  { href: links.href(`${path}/items`, { f: 'html' }), title: 'Features', note: 'HTML' },
  { href: links.href(`${path}/items`), title: 'Features', note: 'GeoJSON' },
  { href: links.href(`${path}/queryables`, { f: 'html' }), title: 'Queryables' },
  { href: links.href(`${path}/tiles/WebMercatorQuad`), title: 'Vector tiles', note: 'TileJSON' },
])}`,
  });
}

/**
 * OGC API - Features collections under `/ogc`: the list, one collection, its
 * items (paged, bbox, datetime, crs, CQL2 filter), one item and its
 * queryables, as JSON or HTML. Access: see ogc.service.ts (ogcViewer).
 */
export function ogcFeaturesRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const noStore = (c: Context) => c.header('Cache-Control', 'no-store');

  app.get('/collections', async (c) => {
    const format = formatOf(c);
    const list = await listCollectionsFor(deps, await viewerOf(deps, c));
    const links = new OgcLinks(deps, c);
    noStore(c);
    if (format === 'html') {
      return c.html(
        page({
          title: 'Collections',
          crumbs: [{ text: 'Nuage OGC API', href: links.href('', { f: 'html' }) }, { text: 'Collections' }],
          json: { href: links.href('/collections'), type: 'application/json' },
          body: list.length
            ? table(
                ['Collection', 'Type', 'Features', 'Extent (CRS84)'],
                list.map((col) => [
                  html`<a href="${links.href(`/collections/${col.row.asset_id}`, { f: 'html' })}">${col.row.project_name} — ${col.row.name}</a>`,
                  col.row.type,
                  col.stats.features,
                  col.stats.bbox?.map((v) => v.toFixed(5)).join(', ') ?? '',
                ]),
              )
            : html`<p>No collection: no processed project has vector products yet.</p>`,
        }),
      );
    }
    return c.json({
      links: links.selfAndAlternate('/collections', 'json'),
      collections: list.map((col) => collectionDocument(links, col)),
    });
  });

  const collection = (c: Context<AppEnv>) => collectionOf(deps, c);

  app.get('/collections/:collectionId', async (c) => {
    const format = formatOf(c);
    const col = await collection(c);
    const links = new OgcLinks(deps, c);
    noStore(c);
    if (format === 'html') return c.html(collectionHtml(links, col));
    return c.json(collectionDocument(links, col));
  });

  app.get('/collections/:collectionId/items', async (c) => {
    const format = formatOf(c);
    const col = await collection(c);
    const params = queryOf(c);
    const q = await parseItemsQuery(deps, col, params);
    // JSON: each feature's GeoJSON text (stored with the feature in the storage CRS); HTML: its parts.
    const page_ =
      format === 'html'
        ? { html: true as const, ...(await itemsPage(deps, col, q)) }
        : { html: false as const, rows: null, ...(await itemsPageGeoJson(deps, col, q)) };
    const returned = page_.html ? page_.rows.length : page_.returned;
    const links = new OgcLinks(deps, c);
    const path = `/collections/${col.row.asset_id}/items`;
    // Paging links keep every parameter of the request but the offset (and f, set per link).
    const keep: Record<string, string | undefined> = { ...params, f: undefined, offset: undefined, token: undefined };
    keep.limit = String(q.limit);
    const at = (offset: number, f?: string) => links.href(path, { ...keep, offset: offset || undefined, f });
    const self = [
      {
        href: at(q.offset),
        rel: format === 'json' ? 'self' : 'alternate',
        type: GEOJSON,
        title: 'this page (GeoJSON)',
      },
      {
        href: at(q.offset, 'html'),
        rel: format === 'html' ? 'self' : 'alternate',
        type: 'text/html',
        title: 'this page (HTML)',
      },
    ];
    const paging: Array<{ href: string; rel: string; type: string; title: string }> = [];
    const jsonOrHtml = format === 'html' ? 'html' : undefined;
    if (q.offset + returned < page_.matched) {
      paging.push({
        href: at(q.offset + q.limit, jsonOrHtml),
        rel: 'next',
        type: format === 'html' ? 'text/html' : GEOJSON,
        title: 'next page',
      });
    }
    if (q.offset > 0) {
      paging.push({
        href: at(Math.max(0, q.offset - q.limit), jsonOrHtml),
        rel: 'prev',
        type: format === 'html' ? 'text/html' : GEOJSON,
        title: 'previous page',
      });
    }
    const collectionLink = {
      href: links.href(`/collections/${col.row.asset_id}`),
      rel: 'collection',
      type: 'application/json',
      title: 'the collection',
    };
    noStore(c);
    c.header('Content-Crs', `<${q.crs.uri}>`);
    if (page_.html) {
      const features = page_.rows.map((r) => ({
        id: r.id,
        geometry: JSON.parse(r.geometry) as { type: string },
        properties: JSON.parse(r.properties) as Record<string, unknown>,
      }));
      const keys = [...new Set(features.flatMap((f) => Object.keys(f.properties)))];
      const title = `${col.row.project_name} — ${col.row.name}: features`;
      return c.html(
        page({
          title,
          crumbs: [
            { text: 'Nuage OGC API', href: links.href('', { f: 'html' }) },
            { text: 'Collections', href: links.href('/collections', { f: 'html' }) },
            {
              text: `${col.row.project_name} — ${col.row.name}`,
              href: links.href(`/collections/${col.row.asset_id}`, { f: 'html' }),
            },
            { text: 'Features' },
          ],
          json: { href: at(q.offset), type: GEOJSON },
          body: html`<p>${page_.rows.length === 0 ? 'No feature' : `Features ${q.offset + 1} to ${q.offset + page_.rows.length}`} of ${page_.matched} matching (coordinates in <code>${q.crs.uri}</code>).</p>
<nav class="pages">${paging.map((l) => html`<a href="${l.href}">${l.title}</a>`)}</nav>
${table(
  ['id', 'geometry', ...keys],
  features.map((f) => [
    html`<a href="${links.href(`${path}/${f.id}`, { f: 'html', crs: params.crs })}">${f.id}</a>`,
    f.geometry?.type ?? '',
    ...keys.map((k) => cellValue(f.properties[k])),
  ]),
)}`,
        }),
      );
    }
    c.header('Content-Type', GEOJSON);
    const head = JSON.stringify({
      type: 'FeatureCollection',
      numberMatched: page_.matched,
      numberReturned: returned,
      timeStamp: new Date().toISOString(),
      links: [...self, ...paging, collectionLink],
    });
    // The features' text is assembled from PostGIS's GeoJSON without parsing it again.
    return c.body(`${head.slice(0, -1)},"features":[${page_.features}]}`);
  });

  app.get('/collections/:collectionId/items/:featureId', async (c) => {
    const format = formatOf(c);
    const col = await collection(c);
    const crs = pickCrs(c.req.query('crs'), col.crs, 'crs');
    const feature = await itemOf(deps, col, c.req.param('featureId'), crs);
    const links = new OgcLinks(deps, c);
    const path = `/collections/${col.row.asset_id}/items/${feature.id}`;
    const crsParam = c.req.query('crs') || undefined;
    noStore(c);
    c.header('Content-Crs', `<${crs.uri}>`);
    if (format === 'html') {
      const props = JSON.parse(feature.properties) as Record<string, unknown>;
      return c.html(
        page({
          title: `Feature ${feature.id}`,
          crumbs: [
            { text: 'Nuage OGC API', href: links.href('', { f: 'html' }) },
            { text: 'Collections', href: links.href('/collections', { f: 'html' }) },
            {
              text: `${col.row.project_name} — ${col.row.name}`,
              href: links.href(`/collections/${col.row.asset_id}`, { f: 'html' }),
            },
            { text: 'Features', href: links.href(`/collections/${col.row.asset_id}/items`, { f: 'html' }) },
            { text: feature.id },
          ],
          json: { href: links.href(path, { crs: crsParam }), type: GEOJSON },
          body: html`${table(
            ['property', 'value'],
            Object.entries(props).map(([k, v]) => [k, cellValue(v)]),
          )}<h2>Geometry (<code>${crs.uri}</code>)</h2><pre>${feature.geometry}</pre>`,
        }),
      );
    }
    c.header('Content-Type', GEOJSON);
    return c.body(
      featureJson(feature, [
        ...links.selfAndAlternate(path, 'json', GEOJSON, { crs: crsParam }),
        { href: links.href(`/collections/${col.row.asset_id}`), rel: 'collection', type: 'application/json' },
      ]),
    );
  });

  app.get('/collections/:collectionId/queryables', async (c) => {
    const format = formatOf(c);
    const col = await collection(c);
    const queryables = await queryablesOf(deps, col);
    const links = new OgcLinks(deps, c);
    const path = `/collections/${col.row.asset_id}/queryables`;
    noStore(c);
    if (format === 'html') {
      return c.html(
        page({
          title: `Queryables of ${col.row.project_name} — ${col.row.name}`,
          crumbs: [
            { text: 'Nuage OGC API', href: links.href('', { f: 'html' }) },
            { text: 'Collections', href: links.href('/collections', { f: 'html' }) },
            {
              text: `${col.row.project_name} — ${col.row.name}`,
              href: links.href(`/collections/${col.row.asset_id}`, { f: 'html' }),
            },
            { text: 'Queryables' },
          ],
          json: { href: links.href(path), type: SCHEMA_JSON },
          body: html`<p>Properties a <code>filter</code> (CQL2 text) may use, e.g. <code>${queryables[0]?.name ?? 'elevation'} &gt; 20</code>.</p>${table(
            ['name', 'type'],
            queryables.map((q) => [q.name, [jsonSchemaType(q)].flat().join(' or ')]),
          )}`,
        }),
      );
    }
    // application/schema+json, unless the client asks for plain JSON only (GDAL before 3.7 refuses anything else).
    const accept = c.req.header('accept') ?? '';
    const plain = /application\/(geo\+)?json/.test(accept) && !accept.includes(SCHEMA_JSON);
    c.header('Content-Type', plain ? 'application/json' : SCHEMA_JSON);
    return c.body(
      JSON.stringify({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: links.href(path),
        type: 'object',
        title: `${col.row.project_name} — ${col.row.name}`,
        properties: Object.fromEntries(queryables.map((q) => [q.name, { title: q.name, type: jsonSchemaType(q) }])),
        additionalProperties: true,
        links: links.selfAndAlternate(path, 'json', SCHEMA_JSON),
        // Part 3 drafts listed queryables as an array (GDAL before 3.7 reads it to filter on the server).
        queryables: queryables.map((q) => ({ id: q.name, type: jsonSchemaType(q) })),
      }),
    );
  });

  return app;
}
