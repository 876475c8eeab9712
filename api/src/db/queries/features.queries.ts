import { type Kysely, sql } from 'kysely';
import type { Database } from '../types.js';

type Db = Kysely<Database>;

/** A GeoJSON feature in EPSG:4326 (longitude, latitude). */
export interface GeoFeature {
  type: 'Feature';
  geometry: { type: string; coordinates: unknown };
  properties: Record<string, unknown>;
}

/** Rows per INSERT when loading features. */
const BATCH = 500;

/**
 * Replaces the features of an asset (in the caller's transaction, so readers
 * see the old set or the new one). Geometries are validated by PostGIS.
 * Returns how many were inserted.
 */
export async function replaceFeatures(db: Db, assetId: string, features: Iterable<GeoFeature>): Promise<number> {
  await db.deleteFrom('features').where('asset_id', '=', assetId).execute();
  let batch: GeoFeature[] = [];
  let n = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await db
      .insertInto('features')
      .values(
        batch.map((f) => ({
          asset_id: assetId,
          // 2D: heights travel in the properties (elevation), as OGC API Features clients expect.
          geom: sql`ST_SetSRID(ST_Force2D(ST_GeomFromGeoJSON(${JSON.stringify(f.geometry)})), 4326)`,
          properties: JSON.stringify(f.properties ?? {}),
        })),
      )
      .execute();
    n += batch.length;
    batch = [];
  };
  for (const f of features) {
    batch.push(f);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return n;
}

/** A vector asset seen as an OGC API collection. */
export interface CollectionRow {
  asset_id: string;
  project_id: string;
  owner_id: string;
  share_token: string | null;
  type: string;
  name: string;
  project_name: string;
  features: number;
  west: number | null;
  south: number | null;
  east: number | null;
  north: number | null;
}

/**
 * READY vector assets that have features, with their count and extent; only
 * those of `projectIds` (null: every project, for admins).
 */
export async function listCollections(db: Db, projectIds: readonly string[] | null): Promise<CollectionRow[]> {
  if (projectIds !== null && projectIds.length === 0) return [];
  const filter = projectIds === null ? sql`TRUE` : sql`a.project_id IN (${sql.join([...projectIds])})`;
  const r = await sql<CollectionRow>`
    SELECT a.id AS asset_id, a.project_id, p.owner_id, p.share_token, a.type, a.name, p.name AS project_name,
           count(f.id)::int AS features,
           ST_XMin(ST_Extent(f.geom)) AS west, ST_YMin(ST_Extent(f.geom)) AS south,
           ST_XMax(ST_Extent(f.geom)) AS east, ST_YMax(ST_Extent(f.geom)) AS north
    FROM assets a
    JOIN projects p ON p.id = a.project_id
    JOIN features f ON f.asset_id = a.id
    WHERE a.status = 'READY' AND ${filter}
    GROUP BY a.id, p.id
    ORDER BY a.project_id, a.id`.execute(db);
  return r.rows;
}

/** One collection (asset), whatever its state; undefined when it has no features or does not exist. */
export async function findCollection(db: Db, assetId: string): Promise<CollectionRow | undefined> {
  const r = await sql<CollectionRow>`
    SELECT a.id AS asset_id, a.project_id, p.owner_id, p.share_token, a.type, a.name, p.name AS project_name,
           count(f.id)::int AS features,
           ST_XMin(ST_Extent(f.geom)) AS west, ST_YMin(ST_Extent(f.geom)) AS south,
           ST_XMax(ST_Extent(f.geom)) AS east, ST_YMax(ST_Extent(f.geom)) AS north
    FROM assets a
    JOIN projects p ON p.id = a.project_id
    JOIN features f ON f.asset_id = a.id
    WHERE a.id = ${assetId} AND a.status = 'READY'
    GROUP BY a.id, p.id`.execute(db);
  return r.rows[0];
}

/**
 * One page of an asset's features inside an optional bbox (EPSG:4326), in id
 * order, with the number matching. Geometries come back as GeoJSON text.
 */
export async function pageFeatures(
  db: Db,
  q: { assetId: string; bbox: [number, number, number, number] | null; limit: number; offset: number },
): Promise<{ matched: number; rows: Array<{ id: string; geometry: string; properties: Record<string, unknown> }> }> {
  const inBox = q.bbox
    ? sql`AND geom && ST_MakeEnvelope(${q.bbox[0]}, ${q.bbox[1]}, ${q.bbox[2]}, ${q.bbox[3]}, 4326)`
    : sql``;
  const [rows, count] = await Promise.all([
    sql<{ id: string; geometry: string; properties: Record<string, unknown> }>`
      SELECT id, ST_AsGeoJSON(geom, 8) AS geometry, properties
      FROM features WHERE asset_id = ${q.assetId} ${inBox}
      ORDER BY id LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM features WHERE asset_id = ${q.assetId} ${inBox}`.execute(db),
  ]);
  return { matched: count.rows[0]?.n ?? 0, rows: rows.rows };
}
