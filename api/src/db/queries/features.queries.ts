import { type FeatureRow, featureRows, type PackedFeatures } from '@nuage/engine/writers/ewkb.js';
import type { Feature } from '@nuage/engine/writers/geojson.writer.js';
import { CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely';
import type { Cql2Expr, Cql2Literal } from '../../services/ogc-cql2.js';
import { type DatabaseHandle, runPrepared, statementName } from '../client.js';
import type { Database } from '../types.js';
import type { AccessTokenOwner } from './access-tokens.queries.js';

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
 * A feature's geometry for an INSERT: binary EWKB (PostgreSQL reads numbers
 * instead of parsing decimals; the same stored geometry), or the GeoJSON text
 * for PostGIS to judge when it is not one the encoder takes.
 */
function geometryValue(row: FeatureRow): RawBuilder<unknown> {
  if (row.ewkb)
    return sql`ST_GeomFromEWKB(${Buffer.from(row.ewkb.buffer, row.ewkb.byteOffset, row.ewkb.byteLength)}::bytea)`;
  return sql`ST_SetSRID(ST_GeomFromGeoJSON(${row.geojson}), 4326)`;
}

/**
 * Replaces the features of an asset (in the caller's transaction, so readers
 * see the old set or the new one): GeoJSON features, or features a product
 * thread packed. Geometries are validated by PostGIS. Returns how many were
 * inserted.
 */
export async function replaceFeatures(
  db: Db,
  assetId: string,
  features: Iterable<GeoFeature> | PackedFeatures,
): Promise<number> {
  await db.deleteFrom('features').where('asset_id', '=', assetId).execute();
  let batch: FeatureRow[] = [];
  let n = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await db
      .insertInto('features')
      .values(
        batch.map((row) => ({
          asset_id: assetId,
          // With Z when the product has it (power lines, towers, tree tops, grid points): items carry their heights.
          geom: geometryValue(row),
          properties: row.properties,
        })),
      )
      .execute();
    n += batch.length;
    batch = [];
  };
  for (const row of featureRows(features as Iterable<Feature> | PackedFeatures)) {
    batch.push(row);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return n;
}

/** A READY vector asset that has features, seen as an OGC API collection, with its project. */
export interface CollectionRow {
  asset_id: string;
  project_id: string;
  owner_id: string;
  share_token: string | null;
  type: string;
  name: string;
  project_name: string;
  /** EPSG code of the project's point cloud, and its SRID when PostGIS knows it (PostGIS's SRID of an EPSG code is the code). */
  epsg_code: number | null;
  project_srid: number | null;
  /** The project's CRS is geographic (degrees). */
  project_geographic: boolean | null;
  creation_year: number | null;
  creation_day: number | null;
  project_created_at: Date;
  /** Changes whenever the asset's features are replaced (same transaction). */
  updated_at: Date;
  /** Id of the processing job that stored the features (from its files' keys), when known. */
  run: string | null;
}

const collectionColumns = sql`
  a.id AS asset_id, a.project_id, p.owner_id, p.share_token, a.type, a.name, p.name AS project_name,
  p.epsg_code,
  (SELECT s.srid FROM spatial_ref_sys s WHERE s.srid = p.epsg_code AND s.auth_name = 'EPSG') AS project_srid,
  (SELECT s.srtext LIKE 'GEOGCS%' FROM spatial_ref_sys s WHERE s.srid = p.epsg_code AND s.auth_name = 'EPSG')
    AS project_geographic,
  p.creation_year, p.creation_day, p.created_at AS project_created_at, a.updated_at,
  (SELECT substring(af.key FROM '/r([0-9]+)/') FROM asset_files af WHERE af.asset_id = a.id ORDER BY af.id LIMIT 1) AS run`;

/**
 * The asset `a` has features: its first entry in the (asset_id, id) index. Written as a one-value range ordered
 * by asset_id, because the plain `EXISTS (… WHERE f.asset_id = a.id)` gets a plan that scans the table until a
 * row of the asset turns up (the planner takes an asset's rows to be spread evenly, while they are stored
 * together): with two assets, a request for the second one's collection read the 100 k rows of the first
 * (23-36 ms, EXPLAIN ANALYZE of the generic plan; 9.6 ms of a backend's CPU per request on average, the
 * planner switching between plans), prepared or not. No other plan gives the range's order without sorting
 * every row of the asset, so the index is always chosen (0.15 ms).
 */
const hasFeatures = sql`(SELECT f.asset_id FROM features f WHERE f.asset_id >= a.id AND f.asset_id <= a.id
  ORDER BY f.asset_id LIMIT 1) IS NOT NULL`;

/**
 * READY vector assets that have features (the OGC API collections), only
 * those of `projectIds` (null: every project, for admins), by project then id.
 * Cheap: counts and extents come from {@link collectionStats}.
 */
export async function listCollections(db: Db, projectIds: readonly string[] | null): Promise<CollectionRow[]> {
  if (projectIds !== null && projectIds.length === 0) return [];
  const filter = projectIds === null ? sql`TRUE` : sql`a.project_id IN (${sql.join([...projectIds])})`;
  const r = await sql<CollectionRow>`
    SELECT ${collectionColumns}
    FROM assets a JOIN projects p ON p.id = a.project_id
    WHERE a.status = 'READY' AND ${filter} AND ${hasFeatures}
    ORDER BY a.project_id, a.id`.execute(db);
  return r.rows;
}

/** READY vector assets with features of the projects a user owns. */
export async function listCollectionsOfOwner(db: Db, ownerId: string): Promise<CollectionRow[]> {
  const r = await sql<CollectionRow>`
    SELECT ${collectionColumns}
    FROM assets a JOIN projects p ON p.id = a.project_id
    WHERE a.status = 'READY' AND p.owner_id = ${ownerId} AND ${hasFeatures}
    ORDER BY a.project_id, a.id`.execute(db);
  return r.rows;
}

/** One collection; undefined when the asset does not exist, is not READY or has no features. */
export async function findCollection(db: Db, assetId: string): Promise<CollectionRow | undefined> {
  const r = await sql<CollectionRow>`
    SELECT ${collectionColumns}
    FROM assets a JOIN projects p ON p.id = a.project_id
    WHERE a.id = ${assetId} AND a.status = 'READY' AND ${hasFeatures}`.execute(db);
  return r.rows[0];
}

/** What {@link findCollectionAccess} reads in one round trip. */
export interface CollectionAccess {
  /** The collection (as {@link findCollection}), undefined when there is none. */
  collection: CollectionRow | undefined;
  /**
   * The owner of the personal access token, undefined when it is unknown (or none was given);
   * `use_unrecorded`: its last use is not recorded to the minute (see {@link recordAccessTokenUse}).
   */
  token: (AccessTokenOwner & { use_unrecorded: boolean }) | undefined;
  /** True when a project has the share token given (false when none was given). */
  shareTokenKnown: boolean;
}

/**
 * One collection and the credentials a request carries, in one read-only
 * query: the personal access token whose hash is `tokenHash`, with its user,
 * and whether a project has the share token `shareToken`. Nothing is cached: a
 * revoked token or share ends at once. The token's use is recorded by the
 * caller ({@link recordAccessTokenUse}) when `use_unrecorded` says so, at most
 * once a minute: the update inside this query (as findAccessTokenOwner does)
 * made every request's plan a data-modifying one, 0.1 ms more of PostgreSQL's
 * CPU per request (0.37 against 0.27 ms, 10 clients, same machine and run).
 */
export async function findCollectionAccess(
  database: DatabaseHandle,
  q: { assetId: string | null; tokenHash: string | null; shareToken: string | null },
): Promise<CollectionAccess> {
  const [row] = await collectionAccessQuery(database, [q.tokenHash, q.assetId, q.shareToken]);
  const c = row!.collection;
  const o = row!.token;
  return {
    collection:
      c === null
        ? undefined
        : {
            asset_id: c[0],
            project_id: c[1],
            owner_id: c[2],
            share_token: c[3],
            type: c[4],
            name: c[5],
            project_name: c[6],
            epsg_code: c[7],
            project_srid: c[8],
            project_geographic: c[9],
            creation_year: c[10],
            creation_day: c[11],
            project_created_at: new Date(c[12]),
            updated_at: new Date(c[13]),
            run: c[14],
          },
    token:
      o === null
        ? undefined
        : {
            token_id: o[0],
            user_id: o[1],
            email: o[2],
            roles: o[3],
            revoked: o[4],
            expired: o[5],
            enabled: o[6],
            activation_pending: o[7],
            use_unrecorded: o[8],
          },
    shareTokenKnown: row!.share_known,
  };
}

/**
 * The query of {@link findCollectionAccess}, parameters token hash, asset id and share token. The collection and
 * the token come as two JSON arrays (ids as text, times as ISO texts) rather than two dozen columns: node-pg
 * builds each result's row shape from its columns, by name, on every request.
 */
const collectionAccessQuery = fixedQuery(
  (tokenHash: string | null, assetId: string | null, shareToken: string | null) => sql<{
    collection:
      | [
          string,
          string,
          string,
          string | null,
          string,
          string,
          string,
          number | null,
          number | null,
          boolean | null,
          number | null,
          number | null,
          string,
          string,
          string | null,
        ]
      | null;
    token: [string, string, string, string[], boolean, boolean, boolean, boolean, boolean] | null;
    share_known: boolean;
  }>`
    WITH token_owner AS (
      SELECT t.id AS token_id, u.id AS user_id, u.email, u.roles, t.revoked_at IS NOT NULL AS revoked,
             (t.expires_at IS NOT NULL AND t.expires_at <= now()) AS expired, u.enabled, u.activation_pending,
             (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute') AS use_unrecorded
      FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = ${tokenHash}::text
    ),
    collection AS (
      SELECT ${collectionColumns}
      FROM assets a JOIN projects p ON p.id = a.project_id
      WHERE a.id = ${assetId}::bigint AND a.status = 'READY' AND ${hasFeatures}
    )
    SELECT CASE WHEN c.asset_id IS NOT NULL THEN json_build_array(
             c.asset_id::text, c.project_id::text, c.owner_id::text, c.share_token, c.type, c.name, c.project_name,
             c.epsg_code, c.project_srid, c.project_geographic, c.creation_year, c.creation_day, c.project_created_at,
             c.updated_at, c.run) END AS collection,
           CASE WHEN o.token_id IS NOT NULL THEN json_build_array(
             o.token_id::text, o.user_id::text, o.email, o.roles, o.revoked, o.expired, o.enabled,
             o.activation_pending, o.use_unrecorded) END AS token,
           EXISTS (SELECT 1 FROM projects sp WHERE sp.share_token = ${shareToken}::text) AS share_known
    FROM (SELECT 1) one
    LEFT JOIN collection c ON TRUE
    LEFT JOIN token_owner o ON TRUE`,
);

/**
 * A query whose text never varies, compiled once: run as runPrepared runs it, a named prepared statement,
 * without building and compiling the query's tree and hashing its text on every request. `build` is called
 * once, with a stand-in for each argument, to find where each goes among the statement's parameters.
 */
function fixedQuery<A extends unknown[], R>(build: (...args: A) => RawBuilder<R>) {
  let compiled: { text: string; name: string; slots: number[]; constants: readonly unknown[] } | null = null;
  return async (database: DatabaseHandle, args: A): Promise<R[]> => {
    if (compiled === null) {
      const marks = Array.from({ length: build.length }, (_, i) => ({ fixedQueryArgument: i }));
      const c = build(...(marks as unknown as A)).compile(database.db);
      compiled = {
        text: c.sql,
        name: statementName(c.sql),
        slots: c.parameters.map((v) => marks.indexOf(v as (typeof marks)[number])),
        constants: c.parameters,
      };
    }
    const { text, name, slots, constants } = compiled;
    const values = slots.map((slot, i) => (slot >= 0 ? args[slot] : constants[i]));
    if (!database.namedStatements) {
      return (await database.db.executeQuery<R>(CompiledQuery.raw(text, values))).rows;
    }
    const r = await database.pool.query({ name, text, values });
    return r.rows as R[];
  };
}

/**
 * Records a use of a personal access token (to the minute, as the token
 * look-up of the other routes does): nothing when it was recorded less than a
 * minute ago, or when another request is recording it (SKIP LOCKED: requests
 * using the token at the same moment do not queue behind it), or when it is revoked or expired.
 */
export async function recordAccessTokenUse(database: DatabaseHandle, tokenId: string): Promise<void> {
  await runPrepared(
    database,
    sql`
    UPDATE access_tokens a SET last_used_at = now()
    WHERE a.id = (
      SELECT l.id FROM access_tokens l
      WHERE l.id = ${tokenId}::bigint AND l.revoked_at IS NULL AND (l.expires_at IS NULL OR l.expires_at > now())
        AND (l.last_used_at IS NULL OR l.last_used_at < now() - interval '1 minute')
      FOR UPDATE SKIP LOCKED)`,
  );
}

/** Feature count and extent (EPSG:4326: west, south, east, north) of a collection. */
export interface CollectionStats {
  features: number;
  bbox: [number, number, number, number] | null;
  /**
   * The first feature id when the ids are exactly first, first + 1, …,
   * first + features - 1 (features stored in one go, as processing does):
   * the feature at offset k of the id order is then first + k. Null otherwise.
   */
  denseFrom?: string | null;
  /**
   * Every feature is a Point (features.pt, migration 0012, is set on every row): a bbox is then tested on
   * that native point column and its index ({@link FeatureWhere}'s `points`).
   */
  points?: boolean;
}

/** Counts and extents of several assets' features, in one query. */
export async function collectionStats(db: Db, assetIds: readonly string[]): Promise<Map<string, CollectionStats>> {
  const out = new Map<string, CollectionStats>();
  if (assetIds.length === 0) return out;
  const r = await sql<{
    asset_id: string;
    features: number;
    west: number | null;
    south: number | null;
    east: number | null;
    north: number | null;
    dense_from: string | null;
    points: boolean;
  }>`
    SELECT asset_id, n AS features, ST_XMin(e) AS west, ST_YMin(e) AS south, ST_XMax(e) AS east, ST_YMax(e) AS north,
           CASE WHEN last_id - first_id + 1 = n THEN first_id END AS dense_from, points = n AS points
    FROM (
      SELECT asset_id, count(*)::int AS n, ST_Extent(geom) AS e, min(id) AS first_id, max(id) AS last_id,
             count(pt)::int AS points
      FROM features WHERE asset_id IN (${sql.join([...assetIds])}) GROUP BY asset_id
    ) s`.execute(db);
  for (const row of r.rows) {
    out.set(row.asset_id, {
      features: row.features,
      bbox: row.west === null ? null : [row.west, row.south!, row.east!, row.north!],
      denseFrom: row.dense_from,
      points: row.points,
    });
  }
  return out;
}

/** One property name of a collection's features with one JSON type its values take. */
export interface PropertyStat {
  key: string;
  type: 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';
  /** For numbers: every value is a whole number. */
  integral: boolean;
  count: number;
}

/** The properties of an asset's features: every key with each JSON type it takes, and how often. */
export async function propertyStats(db: Db, assetId: string): Promise<PropertyStat[]> {
  const r = await sql<PropertyStat>`
    SELECT e.key, jsonb_typeof(e.value) AS type,
           bool_and(CASE WHEN jsonb_typeof(e.value) = 'number' THEN (e.value #>> '{}')::numeric % 1 = 0 ELSE TRUE END)
             AS integral,
           count(*)::int AS count
    FROM features f CROSS JOIN LATERAL jsonb_each(f.properties) e
    WHERE f.asset_id = ${assetId}
    GROUP BY 1, 2 ORDER BY 1, 2`.execute(db);
  return r.rows;
}

/** JSON types a filter may compare a property with. */
export type ScalarType = 'string' | 'number' | 'boolean';

/** Where features are read: a bbox, as one or two envelopes (x/y order, in `srid`), and a CQL2 filter. */
export interface FeatureWhere {
  assetId: string;
  bbox: { srid: number; boxes: ReadonlyArray<readonly [number, number, number, number]> } | null;
  /** A filter whose properties and literal types were checked against the queryables. */
  filter: Cql2Expr | null;
  /**
   * Every feature of the asset is a Point ({@link CollectionStats}' `points`): a CRS84 bbox is tested on
   * features.pt instead of the geometry.
   */
  points?: boolean;
}

/** How geometries are written: PostGIS SRID, axes swapped (latitude or northing first), decimals. */
export interface GeometryOutput {
  srid: number;
  flip: boolean;
  decimals: number;
}

const COMPARE_SQL: Record<string, string> = { '=': '=', '<>': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

function literalType(v: Cql2Literal): ScalarType {
  return typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';
}

/** The value of a property as `type`, null where the feature's value has another JSON type (or none). */
function typedProperty(name: string, type: ScalarType): RawBuilder<unknown> {
  const value = sql`f.properties -> ${name}::text`;
  switch (type) {
    case 'number':
      return sql`(CASE WHEN jsonb_typeof(${value}) = 'number' THEN (f.properties ->> ${name}::text)::double precision END)`;
    case 'boolean':
      return sql`(CASE WHEN jsonb_typeof(${value}) = 'boolean' THEN (f.properties ->> ${name}::text)::boolean END)`;
    default:
      return sql`(CASE WHEN jsonb_typeof(${value}) = 'string' THEN f.properties ->> ${name}::text END) COLLATE "C"`;
  }
}

function literalSql(v: Cql2Literal): RawBuilder<unknown> {
  if (typeof v === 'number') return sql`${v}::double precision`;
  if (typeof v === 'boolean') return sql`${v}::boolean`;
  return sql`${v}::text`;
}

/**
 * The SQL of a CQL2 tree over `features f`. Property names and values are
 * bound parameters; operators come from a fixed list. Comparisons read a
 * property as the type of the value it is compared with, so features whose
 * value has another type (or none) do not match (CQL2's "unknown").
 */
export function filterSql(e: Cql2Expr): RawBuilder<boolean> {
  switch (e.kind) {
    case 'and':
    case 'or':
      return sql<boolean>`(${sql.join(e.args.map(filterSql), e.kind === 'and' ? sql` AND ` : sql` OR `)})`;
    case 'not':
      return sql<boolean>`(NOT ${filterSql(e.arg)})`;
    case 'compare': {
      const op = COMPARE_SQL[e.op];
      if (!op) throw new Error(`unknown comparison ${e.op}`);
      return sql<boolean>`(${typedProperty(e.property, literalType(e.value))} ${sql.raw(op)} ${literalSql(e.value)})`;
    }
    case 'like':
      return sql<boolean>`(${typedProperty(e.property, 'string')} LIKE ${e.pattern}::text)`;
    case 'between':
      return sql<boolean>`(${typedProperty(e.property, 'number')} BETWEEN ${e.low}::double precision AND ${e.high}::double precision)`;
    case 'in': {
      const type = literalType(e.values[0]!);
      return sql<boolean>`(${typedProperty(e.property, type)} IN (${sql.join(e.values.map(literalSql))}))`;
    }
    case 'isNull':
      return sql<boolean>`(f.properties -> ${e.property}::text IS NULL OR jsonb_typeof(f.properties -> ${e.property}::text) = 'null')`;
  }
}

/**
 * The SQL of `w` over `features f`. `assetRange`: the asset as a one-value range, for queries ordered by
 * (asset_id, id) that must walk the asset's index: with `asset_id = $1` the planner also accepts the primary
 * key's id order, and a prepared statement's generic plan then walks every id from the table's first,
 * filtering (for the second of two assets, 175 ms for a page of 100 where the asset index takes 0.4 ms).
 */
function whereSql(w: FeatureWhere, assetRange = false): RawBuilder<boolean> {
  const asset = assetRange
    ? sql`f.asset_id >= ${w.assetId}::bigint AND f.asset_id <= ${w.assetId}::bigint`
    : sql`f.asset_id = ${w.assetId}`;
  const parts: RawBuilder<unknown>[] = [asset];
  if (w.bbox) {
    const { srid } = w.bbox;
    const boxes = w.bbox.boxes.map(([x0, y0, x1, y1]) => {
      if (srid === 4326 && w.points) return pointInBox(x0, y0, x1, y1);
      const envelope = sql`ST_MakeEnvelope(${x0}::float8, ${y0}::float8, ${x1}::float8, ${y1}::float8, ${srid}::int)`;
      // Another CRS: densified before it is turned into EPSG:4326, where its sides are no longer straight.
      const segment = Math.max(x1 - x0, y1 - y0) / 32;
      const box =
        srid === 4326
          ? envelope
          : sql`ST_Transform(ST_Segmentize(${envelope}, ${segment > 0 ? segment : 1}::float8), 4326)`;
      // As a scalar subquery: made once per query (an InitPlan). Written inline, the generic plan of the
      // prepared statement, where the corners are parameters and not constants, made the box again for
      // every row the index let through (about a thousand for a 300 m box of the 10 m grid).
      return sql`ST_Intersects(f.geom, (SELECT ${box}))`;
    });
    parts.push(sql`(${sql.join(boxes, sql` OR `)})`);
  }
  if (w.filter) parts.push(filterSql(w.filter));
  return sql<boolean>`${sql.join(parts, sql` AND `)}`;
}

/**
 * A point feature in a CRS84 box, as ST_Intersects(f.geom, envelope) decides (edges included), on features.pt
 * (migration 0012): `<@` finds the candidates in features_pt_idx (which holds asset_id and id, so an index-only
 * scan), and the float8 comparisons decide exactly (PostgreSQL's box operators are fuzzy by 1e-6, about 0.1 m in
 * degrees: they only narrow). Same ids as ST_Intersects on 800 boxes whose edges are points' coordinates.
 */
function pointInBox(x0: number, y0: number, x1: number, y1: number): RawBuilder<boolean> {
  const [a, b, c, d] = [sql`${x0}::float8`, sql`${y0}::float8`, sql`${x1}::float8`, sql`${y1}::float8`];
  return sql<boolean>`(f.pt <@ box(point(${a}, ${b}), point(${c}, ${d}))
    AND f.pt[0] BETWEEN ${a} AND ${c} AND f.pt[1] BETWEEN ${b} AND ${d})`;
}

function geometrySql(out: GeometryOutput): RawBuilder<string> {
  let g: RawBuilder<unknown> = sql`f.geom`;
  if (out.srid !== 4326) g = sql`ST_Transform(f.geom, ${out.srid}::int)`;
  if (out.flip) g = sql`ST_FlipCoordinates(${g})`;
  // Options 0: no `crs` member (PostGIS adds one for any SRID but 4326 by default).
  return sql<string>`ST_AsGeoJSON(${g}, ${out.decimals}::int, 0)`;
}

/** A feature as stored: id, GeoJSON geometry text (in the output CRS) and properties JSON text. */
export interface FeatureText {
  id: string;
  geometry: string;
  properties: string;
}

/**
 * The output of the stored GeoJSON texts (`features.feature_json`, migration 0011): CRS84
 * (EPSG:4326, longitude first), 8 decimals, as ST_AsGeoJSON(geom, 8, 0) writes them.
 */
export const STORED_GEOJSON: GeometryOutput = { srid: 4326, flip: false, decimals: 8 };

/** True when `out` writes geometries as the stored GeoJSON texts do. */
export function isStoredOutput(out: GeometryOutput): boolean {
  return (
    out.srid === STORED_GEOJSON.srid && out.flip === STORED_GEOJSON.flip && out.decimals === STORED_GEOJSON.decimals
  );
}

/** What a page of features is read for. */
interface PageAsk {
  where: FeatureWhere;
  output: GeometryOutput;
  limit: number;
  offset: number;
  countMatched: boolean;
  /**
   * Unfiltered pages of an asset whose ids are dense: the ids the page is read
   * from (the page's first, and the asset's last), no rows skipped.
   */
  ids?: { from: string; to: string };
}

/** A page of features with `columns` (over `features f`), in id order; `matched` is counted only when asked. */
async function readPage<R>(
  database: DatabaseHandle,
  q: PageAsk,
  columns: RawBuilder<unknown>,
): Promise<{ matched: number | null; rows: R[] }> {
  const where = whereSql(q.where);
  // Without a CQL2 filter the query's text is one of a few shapes: a prepared statement. A filter's text varies.
  const run = async <T>(query: RawBuilder<T>): Promise<T[]> =>
    q.where.filter ? (await query.execute(database.db)).rows : runPrepared(database, query);
  if (!q.countMatched) {
    if (q.ids !== undefined) {
      // Dense ids: the page is the rows of ids from…, read in the index's order and written as they come
      // (no rows to skip, so no need to find the page's ids first and join them back: 0.36 against
      // 0.60 ms of PostgreSQL's CPU per page of 100, 10 clients).
      return {
        matched: null,
        rows: await run(sql<R>`
          SELECT ${columns} FROM features f
          WHERE ${where} AND f.id BETWEEN ${q.ids.from}::bigint AND ${q.ids.to}::bigint
          ORDER BY f.id LIMIT ${q.limit}`),
      };
    }
    // The page's ids first (an index scan that skips `offset` rows without writing them), then their texts.
    return {
      matched: null,
      rows: await run(sql<R>`
        SELECT ${columns}
        FROM features f JOIN (SELECT f.id FROM features f WHERE ${whereSql(q.where, true)}
                              ORDER BY f.asset_id, f.id LIMIT ${q.limit} OFFSET ${q.offset}) page ON page.id = f.id
        ORDER BY f.id`),
    };
  }
  // Counted (bbox or filter): the matching ids are found once, for the count and the page, in one round trip.
  const counted = await run(sql<R & { matched: number; page_id: string | null }>`
    WITH m AS MATERIALIZED (SELECT f.id FROM features f WHERE ${where})
    SELECT c.n AS matched, p.*
    FROM (SELECT count(*)::int AS n FROM m) c
    LEFT JOIN LATERAL (
      SELECT f.id AS page_id, ${columns}
      FROM features f JOIN (SELECT m.id FROM m ORDER BY m.id LIMIT ${q.limit} OFFSET ${q.offset}) page ON page.id = f.id
    ) p ON TRUE
    ORDER BY p.page_id`);
  const rows: R[] = [];
  for (const { matched: _matched, page_id, ...row } of counted) {
    if (page_id !== null) rows.push(row as R);
  }
  return { matched: counted[0]?.matched ?? 0, rows };
}

/**
 * One page of features matching `where`, in id order; `matched` is counted
 * only when asked (the caller knows the count of an unfiltered collection).
 */
export async function pageFeatures(
  database: DatabaseHandle,
  q: PageAsk,
): Promise<{ matched: number | null; rows: FeatureText[] }> {
  return readPage<FeatureText>(
    database,
    q,
    sql`f.id, ${geometrySql(q.output)} AS geometry, f.properties::text AS properties`,
  );
}

/** A page of stored GeoJSON texts, joined: what {@link pageStoredFeatures} reads in one row. */
export interface StoredPage {
  /** The number of features matching, when counted (null otherwise). */
  matched: number | null;
  /** The number of features of the page. */
  returned: number;
  /** Their GeoJSON texts in id order, separated by commas (the inside of a JSON array). */
  features: string;
}

/**
 * {@link pageFeatures} as the features' whole GeoJSON texts, read from
 * `features.feature_json` and joined by PostgreSQL into one text (one row:
 * no row to parse and no string to join per feature on the server's side):
 * only for the stored output ({@link isStoredOutput}).
 */
export async function pageStoredFeatures(database: DatabaseHandle, q: PageAsk): Promise<StoredPage> {
  if (!isStoredOutput(q.output)) throw new Error('stored GeoJSON texts are in CRS84 with 8 decimals only');
  const w = q.where;
  // The usual shapes (a page of a whole collection, a page in one CRS84 box) as statements compiled once.
  if (w.filter === null && w.bbox === null && !q.countMatched) {
    const [row] =
      q.ids !== undefined
        ? await storedDensePage(database, [w.assetId, q.ids.from, q.ids.to, q.limit])
        : await storedOffsetPage(database, [w.assetId, q.limit, q.offset]);
    return { matched: null, returned: row!.returned, features: row!.features };
  }
  if (w.filter === null && w.bbox?.srid === 4326 && w.bbox.boxes.length === 1 && q.countMatched) {
    const [x0, y0, x1, y1] = w.bbox.boxes[0]!;
    const page = w.points ? storedPointBoxPage : storedBoxPage;
    return (await page(database, [w.assetId, x0, y0, x1, y1, q.limit, q.offset]))[0]!;
  }
  // Other shapes: prepared when their text is one of a few (no CQL2 filter), as readPage does.
  const run = async <T>(query: RawBuilder<T>): Promise<T[]> =>
    w.filter ? (await query.execute(database.db)).rows : runPrepared(database, query);
  if (!q.countMatched) {
    const [row] = await run(
      q.ids !== undefined
        ? storedDensePageSql(w, q.ids.from, q.ids.to, q.limit)
        : storedOffsetPageSql(w, q.limit, q.offset),
    );
    return { matched: null, returned: row!.returned, features: row!.features };
  }
  return (await run(storedCountedPageSql(w, q.limit, q.offset)))[0]!;
}

const storedJoined = sql`count(*)::int AS returned, coalesce(string_agg(f.feature_json, ',' ORDER BY f.id), '') AS features`;

/** readPage's page of dense ids, its stored texts joined. */
function storedDensePageSql(where: FeatureWhere, from: string, to: string, limit: number) {
  return sql<Omit<StoredPage, 'matched'>>`
    SELECT ${storedJoined} FROM (
      SELECT f.id, f.feature_json FROM features f
      WHERE ${whereSql(where)} AND f.id BETWEEN ${from}::bigint AND ${to}::bigint
      ORDER BY f.id LIMIT ${limit}) f`;
}

/** readPage's page by offset (the page's ids first, then their texts), its stored texts joined. */
function storedOffsetPageSql(where: FeatureWhere, limit: number, offset: number) {
  return sql<Omit<StoredPage, 'matched'>>`
    SELECT ${storedJoined}
    FROM features f JOIN (SELECT f.id FROM features f WHERE ${whereSql(where, true)}
                          ORDER BY f.asset_id, f.id LIMIT ${limit} OFFSET ${offset}) page ON page.id = f.id`;
}

/** readPage's counted page (the matching ids found once, for the count and the page), its stored texts joined. */
function storedCountedPageSql(where: FeatureWhere, limit: number, offset: number) {
  return sql<StoredPage>`
    WITH m AS MATERIALIZED (SELECT f.id FROM features f WHERE ${whereSql(where)})
    SELECT (SELECT count(*)::int FROM m) AS matched, ${storedJoined}
    FROM features f JOIN (SELECT m.id FROM m ORDER BY m.id LIMIT ${limit} OFFSET ${offset}) page ON page.id = f.id`;
}

const unfiltered = (assetId: string): FeatureWhere => ({ assetId, bbox: null, filter: null });
const storedDensePage = fixedQuery((assetId: string, from: string, to: string, limit: number) =>
  storedDensePageSql(unfiltered(assetId), from, to, limit),
);
const storedOffsetPage = fixedQuery((assetId: string, limit: number, offset: number) =>
  storedOffsetPageSql(unfiltered(assetId), limit, offset),
);
const storedBoxPage = fixedQuery(
  (assetId: string, x0: number, y0: number, x1: number, y1: number, limit: number, offset: number) =>
    storedCountedPageSql({ assetId, bbox: { srid: 4326, boxes: [[x0, y0, x1, y1]] }, filter: null }, limit, offset),
);
const storedPointBoxPage = fixedQuery(
  (assetId: string, x0: number, y0: number, x1: number, y1: number, limit: number, offset: number) =>
    storedCountedPageSql(
      { assetId, bbox: { srid: 4326, boxes: [[x0, y0, x1, y1]] }, filter: null, points: true },
      limit,
      offset,
    ),
);

/** One feature of an asset, or undefined. */
export async function findFeature(
  database: DatabaseHandle,
  assetId: string,
  featureId: string,
  output: GeometryOutput,
): Promise<FeatureText | undefined> {
  const rows = await runPrepared(
    database,
    sql<FeatureText>`
    SELECT f.id, ${geometrySql(output)} AS geometry, f.properties::text AS properties
    FROM features f WHERE f.asset_id = ${assetId} AND f.id = ${featureId}`,
  );
  return rows[0];
}

/** Extent of a vector tile (MVT units) and the buffer around it, as ST_AsMVTGeom takes them. */
export const MVT_EXTENT = 4096;
export const MVT_BUFFER = 64;

/**
 * One Mapbox Vector Tile of an asset's features in the WebMercatorQuad tile
 * `z/x/y` (ST_AsMVT: one layer named `layer`, feature ids, every property);
 * an empty buffer when no feature reaches the tile.
 */
export async function vectorTile(
  database: DatabaseHandle,
  q: { assetId: string; z: number; x: number; y: number; layer: string },
): Promise<Buffer> {
  const rows = await vectorTileQuery(database, [q.assetId, q.z, q.x, q.y, q.layer]);
  return rows[0]?.tile ?? Buffer.alloc(0);
}

/** The query of {@link vectorTile}. (Not in binary: node-pg 8 reads binary columns as UTF-8 text first.) */
const vectorTileQuery = fixedQuery(
  (assetId: string, z: number, x: number, y: number, layer: string) => sql<{ tile: Buffer | null }>`
    SELECT ST_AsMVT(t.*, ${layer}::text, ${MVT_EXTENT}::int, 'geom', 'id') AS tile FROM (
      SELECT f.id,
             ST_AsMVTGeom(ST_Transform(f.geom, 3857), ST_TileEnvelope(${z}::int, ${x}::int, ${y}::int),
                          ${MVT_EXTENT}::int, ${MVT_BUFFER}::int, true) AS geom,
             f.properties
      FROM features f
      WHERE f.asset_id = ${assetId}
        AND f.geom && ST_Transform(
          ST_TileEnvelope(${z}::int, ${x}::int, ${y}::int, margin => ${MVT_BUFFER / MVT_EXTENT}::float8), 4326)
    ) t WHERE t.geom IS NOT NULL`,
);

/** A feature clipped to a tile and its buffer, in tile coordinates (0..extent, y down), as GeoJSON text. */
export interface TileFeatureText {
  id: string;
  properties: string;
  geometry: string | null;
}

/**
 * The features of a WebMercatorQuad tile in tile coordinates, for PostGIS
 * builds without protobuf (the embedded database), where ST_AsMVTGeom and
 * ST_AsMVT are missing: clipped to the tile and its buffer, scaled to the
 * extent with y pointing down and snapped to whole units, as ST_AsMVTGeom does.
 */
export async function vectorTileFeatures(
  db: Db,
  q: { assetId: string; z: number; x: number; y: number },
): Promise<TileFeatureText[]> {
  const r = await sql<TileFeatureText>`
    WITH b AS (
      SELECT env, ST_XMax(env) - ST_XMin(env) AS w, ST_YMax(env) - ST_YMin(env) AS h
      FROM (SELECT ST_TileEnvelope(${q.z}::int, ${q.x}::int, ${q.y}::int) AS env) e
    )
    SELECT f.id, f.properties::text AS properties,
           ST_AsGeoJSON(ST_SnapToGrid(ST_TransScale(
             ST_ClipByBox2D(ST_Transform(f.geom, 3857), ST_Expand(b.env, b.w * ${MVT_BUFFER / MVT_EXTENT}::float8)::box2d),
             -ST_XMin(b.env), -ST_YMax(b.env), ${MVT_EXTENT}::float8 / b.w, -${MVT_EXTENT}::float8 / b.h), 1), 0, 0) AS geometry
    FROM features f, b
    WHERE f.asset_id = ${q.assetId}
      AND f.geom && ST_Transform(
        ST_TileEnvelope(${q.z}::int, ${q.x}::int, ${q.y}::int, margin => ${MVT_BUFFER / MVT_EXTENT}::float8), 4326)
    ORDER BY f.id`.execute(db);
  return r.rows;
}
