import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../context.js';
import { type CollectionRow, findCollection, listCollections, pageFeatures } from '../db/queries/features.queries.js';
import { AppError } from '../errors.js';
import { canRead, projectOfShareToken, userViewer, type Viewer } from '../services/access.service.js';

/** Largest page of items (OGC API Features `limit`). */
const MAX_LIMIT = 10_000;

const itemsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(1000),
  offset: z.coerce.number().int().min(0).default(0),
  bbox: z.string().max(200).optional(),
  token: z.string().max(200).optional(),
  f: z.string().max(20).optional(),
});

/** Parses `minLon,minLat,maxLon,maxLat` (EPSG:4326); 400 INVALID_BBOX otherwise. */
export function parseBbox(text: string | undefined): [number, number, number, number] | null {
  if (text === undefined || text === '') return null;
  const v = text.split(',').map(Number);
  if (v.length !== 4 || v.some((n) => !Number.isFinite(n)) || v[0]! > v[2]! || v[1]! > v[3]!) {
    throw new AppError(400, 'INVALID_BBOX', 'bbox must be minLon,minLat,maxLon,maxLat in EPSG:4326');
  }
  return v as [number, number, number, number];
}

/** Who asks: a share token (`?token=`) opens its project; else the session (owner or admin). */
async function viewerOf(deps: AppDeps, c: Context<AppEnv>): Promise<Viewer | null> {
  const token = c.req.query('token');
  if (token) {
    await projectOfShareToken(deps, token);
    return { kind: 'share', token };
  }
  const user = await c.get('auth').optionalUser();
  return user ? userViewer(user) : null;
}

function readable(viewer: Viewer | null, row: CollectionRow): boolean {
  return viewer !== null && canRead(viewer, row);
}

/**
 * OGC API Features collections from the PostGIS `features` table: one
 * collection per READY vector asset (contours, grid...), GeoJSON in EPSG:4326,
 * `bbox` + `limit` + `offset` paging. Access follows the project's rules:
 * owner or admin (session or bearer token), or `?token=<share token>`.
 */
export function ogcFeaturesRoutes(deps: AppDeps) {
  const base = `${deps.config.PUBLIC_URL.replace(/\/$/, '')}/ogc`;
  const app = new Hono<AppEnv>();
  app.use('*', cors({ origin: '*', allowHeaders: ['Authorization'] }));

  const collectionJson = (row: CollectionRow, suffix: string) => ({
    id: row.asset_id,
    title: `${row.project_name} — ${row.name}`,
    description: `${row.type} of project ${row.project_name} (${row.features} features)`,
    itemType: 'feature',
    crs: ['http://www.opengis.net/def/crs/OGC/1.3/CRS84'],
    extent:
      row.west === null
        ? undefined
        : {
            spatial: {
              bbox: [[row.west, row.south, row.east, row.north]],
              crs: 'http://www.opengis.net/def/crs/OGC/1.3/CRS84',
            },
          },
    links: [
      { href: `${base}/collections/${row.asset_id}${suffix}`, rel: 'self', type: 'application/json' },
      { href: `${base}/collections/${row.asset_id}/items${suffix}`, rel: 'items', type: 'application/geo+json' },
    ],
  });

  app.get('/collections', async (c) => {
    const viewer = await viewerOf(deps, c);
    let rows: CollectionRow[] = [];
    if (viewer?.kind === 'user' && viewer.admin) rows = await listCollections(deps.database.db, null);
    else if (viewer?.kind === 'user') {
      const owned = await deps.database.db
        .selectFrom('projects')
        .select('id')
        .where('owner_id', '=', viewer.id)
        .execute();
      rows = await listCollections(
        deps.database.db,
        owned.map((p) => p.id),
      );
    } else if (viewer?.kind === 'share') {
      const project = await projectOfShareToken(deps, viewer.token);
      rows = await listCollections(deps.database.db, [project.id]);
    }
    const suffix = viewer?.kind === 'share' ? `?token=${encodeURIComponent(viewer.token)}` : '';
    c.header('Cache-Control', 'no-store');
    return c.json({
      links: [{ href: `${base}/collections${suffix}`, rel: 'self', type: 'application/json' }],
      collections: rows.filter((r) => readable(viewer, r)).map((r) => collectionJson(r, suffix)),
    });
  });

  const collectionFor = async (c: Context<AppEnv>) => {
    const id = c.req.param('id') ?? '';
    const viewer = await viewerOf(deps, c);
    const row = /^\d{1,18}$/.test(id) ? await findCollection(deps.database.db, id) : undefined;
    if (!row || !readable(viewer, row)) throw new AppError(404, 'NOT_FOUND', 'no such collection');
    const suffix = viewer?.kind === 'share' ? `?token=${encodeURIComponent(viewer.token)}` : '';
    return { row, suffix };
  };

  app.get('/collections/:id', async (c) => {
    const { row, suffix } = await collectionFor(c);
    c.header('Cache-Control', 'no-store');
    return c.json(collectionJson(row, suffix));
  });

  app.get('/collections/:id/items', async (c) => {
    const { row } = await collectionFor(c);
    const parsed = itemsQuery.safeParse(c.req.query());
    if (!parsed.success) throw new AppError(400, 'FORM_INVALID', parsed.error.issues[0]?.message ?? 'invalid query');
    const q = parsed.data;
    const bbox = parseBbox(q.bbox);
    const page = await pageFeatures(deps.database.db, {
      assetId: row.asset_id,
      bbox,
      limit: q.limit,
      offset: q.offset,
    });
    const params = (offset: number) => {
      const s = new URLSearchParams();
      s.set('limit', String(q.limit));
      s.set('offset', String(offset));
      if (q.bbox) s.set('bbox', q.bbox);
      if (q.token) s.set('token', q.token);
      return `${base}/collections/${row.asset_id}/items?${s}`;
    };
    const links = [{ href: params(q.offset), rel: 'self', type: 'application/geo+json' }];
    if (q.offset + page.rows.length < page.matched) {
      links.push({ href: params(q.offset + q.limit), rel: 'next', type: 'application/geo+json' });
    }
    if (q.offset > 0)
      links.push({ href: params(Math.max(0, q.offset - q.limit)), rel: 'prev', type: 'application/geo+json' });
    c.header('Content-Type', 'application/geo+json');
    c.header('Cache-Control', 'no-store');
    return c.body(
      JSON.stringify({
        type: 'FeatureCollection',
        numberMatched: page.matched,
        numberReturned: page.rows.length,
        timeStamp: new Date().toISOString(),
        links,
        features: page.rows.map((r) => ({
          type: 'Feature',
          id: r.id,
          geometry: JSON.parse(r.geometry),
          properties: r.properties,
        })),
      }),
    );
  });

  return app;
}
