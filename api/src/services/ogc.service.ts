import type { AuthContext } from '../auth.types.js';
import {
  type CollectionRow,
  type CollectionStats,
  collectionStats,
  type FeatureText,
  type FeatureWhere,
  findCollection,
  findCollectionAccess,
  findFeature,
  type GeometryOutput,
  isStoredOutput,
  listCollections,
  listCollectionsOfOwner,
  pageFeatures,
  pageStoredFeatures,
  propertyStats,
  recordAccessTokenUse,
  type ScalarType,
} from '../db/queries/features.queries.js';
import { findProjectByShareToken } from '../db/queries/projects.queries.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { canRead, type Viewer } from './access.service.js';
import {
  accessTokenUser,
  createAccessTokensService,
  hashAccessToken,
  invalidAccessToken,
  isAccessToken,
  isWellFormedAccessToken,
} from './access-tokens.service.js';
import { NORTH_FIRST_EPSG_RANGES } from './ogc-axis-order.generated.js';
import { Cql2Error, type Cql2Expr, cql2Properties, parseCql2 } from './ogc-cql2.js';

/**
 * OGC API - Features (Part 1 Core, Part 2 CRS by reference, Part 3 basic
 * CQL2 filters) over the PostGIS `features` table: one collection per READY
 * vector asset that has features. No HTTP here: routes hand in the request's
 * parameters and credentials, and format what comes back (JSON or HTML).
 */

// ---------------------------------------------------------------------------
// Errors

/** 400 for a query parameter, naming it (details.parameter). */
export function invalidParameter(parameter: string, message: string, code = 'INVALID_PARAMETER'): AppError {
  return new AppError(400, code, `${parameter}: ${message}`, { parameter });
}

const needCredentials = () =>
  new AppError(
    401,
    'UNAUTHORIZED',
    'collections of private projects need credentials: log in, or send a personal access token (Authorization: Bearer or ?token=) or a share token (?token=)',
  );
const noSuchCollection = () => new AppError(404, 'NOT_FOUND', 'no such collection');

// ---------------------------------------------------------------------------
// Who asks

/** What a request carries to prove who it is. */
export interface OgcCredentials {
  /** `?token=`: a personal access token or a project's share token (for tools that cannot set headers). */
  tokenParam: string | undefined;
  /** The bearer token of the Authorization header, if any. */
  bearer: string | undefined;
  /** The request's session (session JWT as bearer, or the web app's cookie). */
  auth: AuthContext;
}

const asUser = (u: { id: string; roles: readonly string[] }): Viewer => ({
  kind: 'user',
  id: u.id,
  admin: u.roles.includes('admin'),
});

const SHARE_TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;
const invalidTokenParam = () =>
  new AppError(401, 'ACCESS_TOKEN_INVALID', 'token: not a valid access token or share token (revoked or mistyped)');

/**
 * The viewer of an OGC request, or null when it carries no credentials at all.
 * `?token=` first (a personal access token, else a share token), then a bearer
 * personal access token, then the session. Credentials that do not hold
 * (unknown or revoked token, expired session) are a 401, never a silent anonymous.
 */
export async function ogcViewer(deps: AppDeps, creds: OgcCredentials): Promise<Viewer | null> {
  const tokens = createAccessTokensService(deps);
  if (creds.tokenParam !== undefined && creds.tokenParam !== '') {
    const token = creds.tokenParam;
    if (isAccessToken(token)) return asUser(await tokens.authenticate(token));
    const project = SHARE_TOKEN_SHAPE.test(token) ? await findProjectByShareToken(deps.database.db, token) : undefined;
    if (!project) throw invalidTokenParam();
    return { kind: 'share', token };
  }
  if (creds.bearer && isAccessToken(creds.bearer)) return asUser(await tokens.authenticate(creds.bearer));
  if (creds.auth.token) return asUser(await creds.auth.user());
  return null;
}

// ---------------------------------------------------------------------------
// CRS (Part 2)

export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
export const epsgUri = (code: number) => `http://www.opengis.net/def/crs/EPSG/0/${code}`;

/** A CRS a collection offers: its URI, PostGIS SRID, axis order and the decimals written. */
export interface CrsDef extends GeometryOutput {
  uri: string;
  title: string;
}

const northFirst: Set<number> = (() => {
  const set = new Set<number>();
  for (const line of NORTH_FIRST_EPSG_RANGES) {
    for (const part of line.split(',')) {
      const [a, b] = part.split('-').map(Number);
      for (let c = a!; c <= (b ?? a)!; c++) set.add(c);
    }
  }
  return set;
})();

/** True when the EPSG CRS's first axis is latitude or northing (EPSG:4326, Gauss-Krüger, SWEREF99 TM...). */
export function isNorthFirst(epsg: number): boolean {
  return northFirst.has(epsg);
}

const DEGREES = 8; // about 1 mm
const METRES = 3;

const CRS84_DEF: CrsDef = {
  uri: CRS84,
  title: 'WGS 84 longitude, latitude',
  srid: 4326,
  flip: false,
  decimals: DEGREES,
};

/**
 * The CRSs of a collection: CRS84 (the storage CRS), EPSG:4326 (latitude
 * first), EPSG:3857 and the project's own EPSG code when PostGIS knows it.
 */
export function collectionCrs(row: Pick<CollectionRow, 'epsg_code' | 'project_srid' | 'project_geographic'>): CrsDef[] {
  const list: CrsDef[] = [
    CRS84_DEF,
    { uri: epsgUri(4326), title: 'WGS 84 latitude, longitude', srid: 4326, flip: true, decimals: DEGREES },
    { uri: epsgUri(3857), title: 'WGS 84 / Pseudo-Mercator', srid: 3857, flip: false, decimals: METRES },
  ];
  const code = row.epsg_code;
  if (code && row.project_srid && code !== 4326 && code !== 3857) {
    list.push({
      uri: epsgUri(code),
      title: `EPSG:${code} (the project's CRS)`,
      srid: row.project_srid,
      flip: isNorthFirst(code),
      // Projected CRSs are in metres or feet: 3 decimals is below a centimetre either way.
      decimals: row.project_geographic ? DEGREES : METRES,
    });
  }
  return list;
}

/** Reads a CRS URI (or `EPSG:n`, `[EPSG:n]`, `urn:ogc:def:crs:EPSG::n`, `CRS84`) into a canonical URI. */
export function canonicalCrs(value: string): string | null {
  const v = value.trim().replace(/^\[(.*)\]$/, '$1');
  if (
    /^(https?:\/\/www\.opengis\.net\/def\/crs\/OGC\/(1\.3|0)\/CRS84|(OGC:)?CRS84|urn:ogc:def:crs:OGC:1\.3:CRS84)$/i.test(
      v,
    )
  ) {
    return CRS84;
  }
  const m =
    /^https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/[0-9.]+\/(\d{1,9})$/i.exec(v) ??
    /^EPSG:(\d{1,9})$/i.exec(v) ??
    /^urn:ogc:def:crs:EPSG:[0-9.]*:(\d{1,9})$/i.exec(v);
  return m ? epsgUri(Number(m[1])) : null;
}

/** The CRS a `crs` or `bbox-crs` parameter names among those offered; 400 INVALID_CRS otherwise. */
export function pickCrs(value: string | undefined, offered: readonly CrsDef[], parameter: 'crs' | 'bbox-crs'): CrsDef {
  if (value === undefined || value === '') return offered[0]!;
  const uri = canonicalCrs(value);
  const found = uri ? offered.find((c) => c.uri === uri) : undefined;
  if (!found) {
    throw new AppError(
      400,
      'INVALID_CRS',
      `${parameter}: ${value} is not offered by this collection (${offered.map((c) => c.uri).join(', ')})`,
      { parameter, supported: offered.map((c) => c.uri) },
    );
  }
  return found;
}

// ---------------------------------------------------------------------------
// Query parameters

/** Default and largest `limit` of an items page. */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 10_000;
const MAX_OFFSET = 1_000_000_000;

/** `limit`: a positive integer; above {@link MAX_LIMIT} it is brought down to it (OGC API: not an error). */
export function parseLimit(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_LIMIT;
  if (!/^\d{1,12}$/.test(value) || Number(value) < 1) {
    throw invalidParameter('limit', `must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  return Math.min(Number(value), MAX_LIMIT);
}

export function parseOffset(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  if (!/^\d{1,10}$/.test(value) || Number(value) > MAX_OFFSET) {
    throw invalidParameter('offset', `must be a whole number from 0 to ${MAX_OFFSET}`);
  }
  return Number(value);
}

/** The envelopes of a `bbox` in its CRS (x/y order as PostGIS takes them); two when it crosses the antimeridian. */
export type BboxBoxes = NonNullable<FeatureWhere['bbox']>;

/**
 * Parses `bbox` (4 or 6 numbers: the 3D form's heights are ignored) in the
 * axis order of `crs` (CRS84: lon,lat; EPSG:4326: lat,lon). 400 INVALID_BBOX.
 */
export function parseBbox(text: string | undefined, crs: CrsDef): BboxBoxes | null {
  if (text === undefined || text === '') return null;
  const bad = (why: string) => invalidParameter('bbox', why, 'INVALID_BBOX');
  const v = text.split(',').map((s) => (s.trim() === '' ? Number.NaN : Number(s)));
  if ((v.length !== 4 && v.length !== 6) || v.some((n) => !Number.isFinite(n))) {
    throw bad('must be 4 numbers (minx,miny,maxx,maxy) or 6 (with heights), comma-separated');
  }
  let [a, b, c, d] = v.length === 4 ? v : [v[0]!, v[1]!, v[3]!, v[4]!];
  if (crs.flip) [a, b, c, d] = [b!, a!, d!, c!];
  const geographic = crs.srid === 4326;
  if (geographic) {
    if ([a, c].some((x) => Math.abs(x!) > 180) || [b, d].some((y) => Math.abs(y!) > 90)) {
      throw bad('longitudes must be within ±180 and latitudes within ±90');
    }
    if (b! > d!) throw bad('the southern edge is north of the northern edge');
    // West edge east of the east edge: the box crosses the antimeridian.
    if (a! > c!) {
      return {
        srid: 4326,
        boxes: [
          [a!, b!, 180, d!],
          [-180, b!, c!, d!],
        ],
      };
    }
    return { srid: 4326, boxes: [[a!, b!, c!, d!]] };
  }
  if (a! > c! || b! > d!) throw bad('the lower corner must come first (minx <= maxx and miny <= maxy)');
  return { srid: crs.srid, boxes: [[a!, b!, c!, d!]] };
}

/** An interval of time; null ends are open. */
export interface TimeInterval {
  start: number | null;
  end: number | null;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function parseInstant(text: string, end: boolean): number {
  if (DATE.test(text)) {
    const t = Date.parse(`${text}T00:00:00Z`);
    if (Number.isNaN(t)) throw invalidParameter('datetime', `${text} is not a date`);
    return end ? t + 86_400_000 - 1 : t;
  }
  const t = DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(t)) {
    throw invalidParameter(
      'datetime',
      `${text} is not an RFC 3339 date-time (2024-05-01T12:00:00Z), a date, or an interval start/end with .. for open ends`,
    );
  }
  return t;
}

/** `datetime`: an instant, a date, or an interval `a/b` (`..` or nothing for an open end). 400 naming datetime. */
export function parseDatetime(text: string | undefined): TimeInterval | null {
  if (text === undefined || text === '') return null;
  if (text.length > 100) throw invalidParameter('datetime', 'is too long');
  const parts = text.split('/');
  if (parts.length === 1) {
    if (parts[0] === '..') throw invalidParameter('datetime', '.. is only an end of an interval');
    return { start: parseInstant(parts[0]!, false), end: parseInstant(parts[0]!, true) };
  }
  if (parts.length !== 2) throw invalidParameter('datetime', 'an interval is start/end');
  const open = (s: string) => s === '' || s === '..';
  const start = open(parts[0]!) ? null : parseInstant(parts[0]!, false);
  const end = open(parts[1]!) ? null : parseInstant(parts[1]!, true);
  if (start === null && end === null) throw invalidParameter('datetime', 'an interval needs at least one end');
  if (start !== null && end !== null && start > end)
    throw invalidParameter('datetime', 'the interval ends before it starts');
  return { start, end };
}

/**
 * The time of a collection's features: the survey day (the LAS header's
 * creation day and year), else the day the point cloud was uploaded. Features
 * carry no time of their own, so `datetime` keeps all of them or none.
 */
export function surveyDay(row: Pick<CollectionRow, 'creation_year' | 'creation_day' | 'project_created_at'>): {
  start: number;
  end: number;
} {
  let start: number;
  if (
    row.creation_year &&
    row.creation_year > 1900 &&
    row.creation_day &&
    row.creation_day >= 1 &&
    row.creation_day <= 366
  ) {
    start = Date.UTC(row.creation_year, 0, row.creation_day);
  } else {
    const d = new Date(row.project_created_at);
    start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  }
  return { start, end: start + 86_400_000 - 1000 };
}

// ---------------------------------------------------------------------------
// Collections, statistics and queryables (cached per asset version)

/** A collection's features' properties, as filters may use them. */
export interface Queryable {
  name: string;
  /** Scalar JSON types its values take (a filter compares with one of them). */
  types: ScalarType[];
  /** Every number is whole. */
  integral: boolean;
}

interface Derived {
  stats?: CollectionStats;
  queryables?: Queryable[];
}

const MAX_CACHED = 2000;
/** Per asset version (id and updated_at, which changes whenever its features are replaced). */
const derived = new Map<string, Derived>();

function derivedOf(row: CollectionRow): Derived {
  const key = `${row.asset_id}@${new Date(row.updated_at).getTime()}`;
  let d = derived.get(key);
  if (!d) {
    d = {};
    derived.set(key, d);
    if (derived.size > MAX_CACHED) derived.delete(derived.keys().next().value!);
  }
  return d;
}

/** A collection with what its documents need. */
export interface Collection {
  row: CollectionRow;
  stats: CollectionStats;
  crs: CrsDef[];
}

async function withStats(deps: AppDeps, rows: CollectionRow[]): Promise<Collection[]> {
  const missing = rows.filter((r) => !derivedOf(r).stats).map((r) => r.asset_id);
  if (missing.length > 0) {
    const fresh = await collectionStats(deps.database.db, missing);
    for (const r of rows) {
      const s = fresh.get(r.asset_id);
      if (s) derivedOf(r).stats = s;
    }
  }
  return rows.map((row) => ({
    row,
    stats: derivedOf(row).stats ?? { features: 0, bbox: null },
    crs: collectionCrs(row),
  }));
}

/** The collections a viewer may read; 401 without credentials. */
export async function listCollectionsFor(deps: AppDeps, viewer: Viewer | null): Promise<Collection[]> {
  if (!viewer) throw needCredentials();
  const { db } = deps.database;
  let rows: CollectionRow[];
  if (viewer.kind === 'share') {
    const project = await findProjectByShareToken(db, viewer.token);
    rows = project ? await listCollections(db, [project.id]) : [];
  } else if (viewer.admin) {
    rows = await listCollections(db, null);
  } else {
    rows = await listCollectionsOfOwner(db, viewer.id);
  }
  return withStats(
    deps,
    rows.filter((r) => canRead(viewer, r)),
  );
}

/** One collection the viewer may read: 401 without credentials, 404 when it does not exist or is not theirs. */
export async function collectionFor(deps: AppDeps, viewer: Viewer | null, id: string): Promise<Collection> {
  if (!viewer) throw needCredentials();
  const row = /^\d{1,18}$/.test(id) ? await findCollection(deps.database.db, id) : undefined;
  if (!row || !canRead(viewer, row)) throw noSuchCollection();
  return (await withStats(deps, [row]))[0]!;
}

/** When this process last recorded each token's use (ms): at most once a minute, whatever the concurrency. */
const usesRecorded = new Map<string, number>();

async function recordUse(deps: AppDeps, tokenId: string): Promise<void> {
  const now = Date.now();
  if (now - (usesRecorded.get(tokenId) ?? 0) < 60_000) return;
  if (usesRecorded.size >= MAX_CACHED) usesRecorded.clear();
  usesRecorded.set(tokenId, now);
  await recordAccessTokenUse(deps.database, tokenId);
}

/**
 * The collection `id` for a request's credentials, as {@link ogcViewer} then
 * {@link collectionFor} decide (same order, same errors), in one database
 * round trip for a personal access token or a share token: the token, its
 * user, the share and the collection with its project are read by one query
 * (nothing cached, so a revoked token or share, or a deleted asset, ends at
 * once); a token's use is recorded by a second one, once a minute. A session
 * still costs its own look-up of the user.
 */
export async function ogcCollection(deps: AppDeps, creds: OgcCredentials, id: string): Promise<Collection> {
  let accessToken: string | null = null;
  let shareToken: string | null = null;
  if (creds.tokenParam !== undefined && creds.tokenParam !== '') {
    if (isAccessToken(creds.tokenParam)) accessToken = creds.tokenParam;
    else if (SHARE_TOKEN_SHAPE.test(creds.tokenParam)) shareToken = creds.tokenParam;
    else throw invalidTokenParam();
  } else if (creds.bearer && isAccessToken(creds.bearer)) {
    accessToken = creds.bearer;
  } else {
    return collectionFor(deps, await ogcViewer(deps, creds), id);
  }
  if (accessToken !== null && !isWellFormedAccessToken(accessToken)) throw invalidAccessToken();
  const found = await findCollectionAccess(deps.database, {
    assetId: /^\d{1,18}$/.test(id) ? id : null,
    tokenHash: accessToken === null ? null : hashAccessToken(accessToken),
    shareToken,
  });
  let viewer: Viewer;
  if (accessToken !== null) {
    viewer = asUser(accessTokenUser(found.token));
    if (found.token!.use_unrecorded) await recordUse(deps, found.token!.token_id);
  } else if (found.shareTokenKnown) viewer = { kind: 'share', token: shareToken! };
  else throw invalidTokenParam();
  if (!found.collection || !canRead(viewer, found.collection)) throw noSuchCollection();
  return (await withStats(deps, [found.collection]))[0]!;
}

/** The properties filters may use (scalar values), from the collection's features; cached per asset version. */
export async function queryablesOf(deps: AppDeps, c: Collection): Promise<Queryable[]> {
  const d = derivedOf(c.row);
  if (d.queryables) return d.queryables;
  const byName = new Map<string, Queryable>();
  for (const s of await propertyStats(deps.database.db, c.row.asset_id)) {
    if (s.type !== 'string' && s.type !== 'number' && s.type !== 'boolean') continue;
    const q = byName.get(s.key) ?? { name: s.key, types: [], integral: true };
    q.types.push(s.type);
    if (s.type === 'number') q.integral &&= s.integral;
    byName.set(s.key, q);
  }
  d.queryables = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  return d.queryables;
}

/** The JSON Schema type of a queryable. */
export function jsonSchemaType(q: Queryable): string | string[] {
  const types = q.types.map((t) => (t === 'number' && q.integral ? 'integer' : t));
  return types.length === 1 ? types[0]! : types;
}

// ---------------------------------------------------------------------------
// Filters (Part 3)

const FILTER_LANGS = new Set(['cql2-text', 'cql-text']);

/**
 * Parses `filter` (CQL2 text) and checks it against the queryables: every
 * property must be one, and every value of the type the property takes.
 * 400 INVALID_FILTER naming filter (or filter-lang).
 */
export function parseFilter(
  text: string | undefined,
  lang: string | undefined,
  queryables: readonly Queryable[],
): Cql2Expr | null {
  if (lang !== undefined && lang !== '' && !FILTER_LANGS.has(lang)) {
    throw invalidParameter('filter-lang', `${lang} is not supported (cql2-text only)`, 'INVALID_FILTER');
  }
  if (text === undefined || text.trim() === '') return null;
  let tree: Cql2Expr;
  try {
    tree = parseCql2(text);
  } catch (err) {
    if (err instanceof Cql2Error) {
      throw invalidParameter('filter', `${err.message} (at character ${err.position + 1})`, 'INVALID_FILTER');
    }
    throw err;
  }
  const byName = new Map(queryables.map((q) => [q.name, q]));
  for (const name of cql2Properties(tree)) {
    if (!byName.has(name)) {
      const known = queryables.map((q) => q.name).join(', ') || 'none';
      throw invalidParameter(
        'filter',
        `${name} is not a queryable of this collection (queryables: ${known})`,
        'INVALID_FILTER',
      );
    }
  }
  const check = (e: Cql2Expr): void => {
    const typeOf = (v: unknown): ScalarType =>
      typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string';
    const expect = (property: string, type: ScalarType, what: string) => {
      const q = byName.get(property)!;
      if (!q.types.includes(type)) {
        throw invalidParameter(
          'filter',
          `${property} holds ${q.types.join(' or ')} values: ${what} compares it with a ${type}`,
          'INVALID_FILTER',
        );
      }
    };
    switch (e.kind) {
      case 'and':
      case 'or':
        e.args.forEach(check);
        return;
      case 'not':
        check(e.arg);
        return;
      case 'compare':
        expect(e.property, typeOf(e.value), `${e.op}`);
        if (typeof e.value === 'boolean' && e.op !== '=' && e.op !== '<>') {
          throw invalidParameter('filter', `booleans are compared with = or <> only`, 'INVALID_FILTER');
        }
        return;
      case 'like':
        expect(e.property, 'string', 'LIKE');
        return;
      case 'between':
        expect(e.property, 'number', 'BETWEEN');
        return;
      case 'in': {
        const type = typeOf(e.values[0]);
        if (e.values.some((v) => typeOf(v) !== type)) {
          throw invalidParameter('filter', 'the values of an IN list must all have one type', 'INVALID_FILTER');
        }
        expect(e.property, type, 'IN');
        return;
      }
      case 'isNull':
        return;
    }
  };
  check(tree);
  return tree;
}

// ---------------------------------------------------------------------------
// Items

/** What an items request asks for, parsed and checked. */
export interface ItemsQuery {
  limit: number;
  offset: number;
  bbox: BboxBoxes | null;
  datetime: TimeInterval | null;
  filter: Cql2Expr | null;
  crs: CrsDef;
}

/** Parses an items request's parameters for a collection (400 naming the first bad one). */
export async function parseItemsQuery(
  deps: AppDeps,
  c: Collection,
  p: Record<string, string | undefined>,
): Promise<ItemsQuery> {
  const limit = parseLimit(p.limit);
  const offset = parseOffset(p.offset);
  const crs = pickCrs(p.crs, c.crs, 'crs');
  const bboxCrs = pickCrs(p['bbox-crs'], c.crs, 'bbox-crs');
  const bbox = parseBbox(p.bbox, bboxCrs);
  const datetime = parseDatetime(p.datetime);
  const hasFilter = (p.filter ?? '').trim() !== '' || (p['filter-lang'] ?? '') !== '';
  const filter = hasFilter ? parseFilter(p.filter, p['filter-lang'], await queryablesOf(deps, c)) : null;
  return { limit, offset, bbox, datetime, filter, crs };
}

function timeMatches(c: Collection, t: TimeInterval | null): boolean {
  if (!t) return true;
  const day = surveyDay(c.row);
  return (t.start === null || t.start <= day.end) && (t.end === null || t.end >= day.start);
}

/** What a page of items reads, whatever the form of its features: `matched` when counted, and their number. */
interface ReadPage {
  matched: number | null;
  returned: number;
}

/**
 * One page of items, read by `read` (parts, or the joined GeoJSON texts). `matched`
 * is the number of features matching (every page).
 */
async function readItems<P extends ReadPage>(
  c: Collection,
  q: ItemsQuery,
  read: (ask: Parameters<typeof pageFeatures>[1]) => Promise<P>,
  empty: () => P,
): Promise<P & { matched: number }> {
  if (!timeMatches(c, q.datetime)) return { ...empty(), matched: 0 };
  const unfiltered = !q.bbox && !q.filter;
  const ask = {
    where: { assetId: c.row.asset_id, bbox: q.bbox, filter: q.filter, points: c.stats.points === true },
    output: q.crs,
    limit: q.limit,
    offset: q.offset,
    countMatched: !unfiltered,
  };
  const { denseFrom } = c.stats;
  if (unfiltered && denseFrom) {
    // Ids first…first+n-1 (this asset version's): the page starts at id first+offset, found in the index
    // instead of stepping over `offset` entries. A page that does not hold what the statistics promise
    // (the features were replaced meanwhile: new ids are above the old ones) is read again by offset.
    const expected = Math.max(0, Math.min(q.limit, c.stats.features - q.offset));
    if (expected === 0) return { ...empty(), matched: c.stats.features };
    const first = BigInt(denseFrom);
    const ids = { from: String(first + BigInt(q.offset)), to: String(first + BigInt(c.stats.features - 1)) };
    const page = await read({ ...ask, ids });
    if (page.returned === expected) return { ...page, matched: c.stats.features };
  }
  const page = await read(ask);
  return { ...page, matched: page.matched ?? c.stats.features };
}

/** One page of items, each feature's parts (id, geometry and properties texts). */
export async function itemsPage(
  deps: AppDeps,
  c: Collection,
  q: ItemsQuery,
): Promise<{ matched: number; rows: FeatureText[] }> {
  const page = await readItems(
    c,
    q,
    async (ask) => {
      const p = await pageFeatures(deps.database, ask);
      return { ...p, returned: p.rows.length };
    },
    () => ({ matched: null, returned: 0, rows: [] }),
  );
  return { matched: page.matched, rows: page.rows };
}

/**
 * One page of items as the features' GeoJSON texts ({@link featureJson}) joined
 * by commas, and their number: in the storage CRS the texts stored with the
 * features (features.feature_json, the same bytes) joined by PostgreSQL, else
 * built from the parts.
 */
export function itemsPageGeoJson(
  deps: AppDeps,
  c: Collection,
  q: ItemsQuery,
): Promise<{ matched: number; returned: number; features: string }> {
  const empty = () => ({ matched: null, returned: 0, features: '' });
  if (isStoredOutput(q.crs)) return readItems(c, q, (ask) => pageStoredFeatures(deps.database, ask), empty);
  return readItems(
    c,
    q,
    async (ask) => {
      const page = await pageFeatures(deps.database, ask);
      return {
        matched: page.matched,
        returned: page.rows.length,
        features: page.rows.map((r) => featureJson(r)).join(','),
      };
    },
    empty,
  );
}

/** One feature of a collection; 404 when the collection has no such feature. */
export async function itemOf(deps: AppDeps, c: Collection, featureId: string, crs: CrsDef): Promise<FeatureText> {
  const row = /^\d{1,18}$/.test(featureId)
    ? await findFeature(deps.database, c.row.asset_id, featureId, crs)
    : undefined;
  if (!row) throw new AppError(404, 'NOT_FOUND', `collection ${c.row.asset_id} has no feature ${featureId}`);
  return row;
}

/** A feature id as JSON: a number (GDAL reads it as the FID) while it is a safe integer. */
export function featureIdJson(id: string): string {
  return Number.isSafeInteger(Number(id)) ? id : JSON.stringify(id);
}

/** A GeoJSON feature's text, assembled from PostGIS's geometry text and the stored properties (no re-parsing). */
export function featureJson(f: FeatureText, links?: unknown[]): string {
  const tail = links ? `,"links":${JSON.stringify(links)}` : '';
  return `{"type":"Feature","id":${featureIdJson(f.id)},"geometry":${f.geometry},"properties":${f.properties}${tail}}`;
}
