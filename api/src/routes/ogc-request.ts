import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../context.js';
import type { Viewer } from '../services/access.service.js';
import {
  type Collection,
  invalidParameter,
  type OgcCredentials,
  ogcCollection,
  ogcViewer,
} from '../services/ogc.service.js';

/** What the OGC routes share about a request: its credentials, the format it wants and its links. */

/** The credentials a request carries (`?token=`, a bearer token, the session). */
export function credentialsOf(c: Context<AppEnv>): OgcCredentials {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
  return { tokenParam: c.req.query('token'), bearer, auth: c.get('auth') };
}

/** The viewer of the request (null: no credentials at all); 401 for credentials that do not hold. */
export function viewerOf(deps: AppDeps, c: Context<AppEnv>): Promise<Viewer | null> {
  return ogcViewer(deps, credentialsOf(c));
}

/**
 * The collection of the request's `collectionId` that its credentials may
 * read: one database round trip for a token (see ogcCollection); 401 / 404 otherwise.
 */
export function collectionOf(deps: AppDeps, c: Context<AppEnv>): Promise<Collection> {
  return ogcCollection(deps, credentialsOf(c), c.req.param('collectionId') ?? '');
}

/**
 * JSON or HTML: `f=json|html` first (400 naming f for anything else), then a
 * browser's Accept (text/html listed before any JSON type); JSON otherwise.
 */
export function formatOf(c: Context<AppEnv>): 'json' | 'html' {
  const f = c.req.query('f');
  if (f !== undefined && f !== '') {
    const v = f.toLowerCase();
    if (['json', 'geojson', 'application/json', 'application/geo+json', 'jsonschema'].includes(v)) return 'json';
    if (v === 'html' || v === 'text/html') return 'html';
    throw invalidParameter('f', `${f} is not a format of this API (json or html)`);
  }
  const accept = (c.req.header('accept') ?? '').toLowerCase();
  const htmlAt = accept.indexOf('text/html');
  if (htmlAt < 0) return 'json';
  const jsonAt = accept.search(/application\/([a-z.+-]*\+)?json/);
  return jsonAt >= 0 && jsonAt < htmlAt ? 'json' : 'html';
}

/** Builds absolute links under `/ogc`, keeping the request's `token` so that tools following links stay let in. */
export class OgcLinks {
  readonly base: string;
  private readonly keep: Array<[string, string]>;

  constructor(deps: AppDeps, c: Context<AppEnv>) {
    this.base = `${deps.config.PUBLIC_URL.replace(/\/$/, '')}/ogc`;
    const token = c.req.query('token');
    this.keep = token ? [['token', token]] : [];
  }

  /** `path` (starting with `/`, or '' for the landing page) with `params` and the kept token. */
  href(path: string, params: Record<string, string | number | undefined | null> = {}): string {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
    for (const [k, v] of this.keep) if (!q.has(k)) q.set(k, v);
    const s = q.toString();
    return `${this.base}${path}${s ? `?${s}` : ''}`;
  }

  /** The `self` link and its `alternate` in the other format (JSON and HTML). */
  selfAndAlternate(
    path: string,
    format: 'json' | 'html',
    jsonType = 'application/json',
    params: Record<string, string | number | undefined | null> = {},
  ) {
    const json = { href: this.href(path, params), type: jsonType, title: 'this document as JSON' };
    const page = { href: this.href(path, { ...params, f: 'html' }), type: 'text/html', title: 'this document as HTML' };
    return format === 'json'
      ? [
          { ...json, rel: 'self' },
          { ...page, rel: 'alternate' },
        ]
      : [
          { ...page, rel: 'self' },
          { ...json, rel: 'alternate' },
        ];
  }
}

/** Request parameters as a plain record (first value of each). */
export function queryOf(c: Context<AppEnv>): Record<string, string | undefined> {
  return c.req.query();
}
