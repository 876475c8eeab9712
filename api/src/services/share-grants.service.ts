import { createHash } from 'node:crypto';
import type { AppDeps } from '../context.js';
import { findProject } from '../db/queries/projects.queries.js';
import type { Viewer } from './access.service.js';

/**
 * Share grants: the id of a project's share link that goes into the tile and
 * download URLs handed out through it, so that revoking the link ends them.
 *
 * A grant id is `<projectId>.<fingerprint>`, the fingerprint a truncated
 * SHA-256 of the share token: it names the share without revealing the
 * token, and a new token (or none) gives the old grant nothing. The signed
 * URL binds the grant id, so it cannot be swapped or removed.
 *
 * Each process keeps a cache grant id → {valid, checkedAt}: a tile request
 * with a grant costs one database query on a miss or when the entry is older
 * than {@link SHARE_GRANT_TTL_MS}, none otherwise. Revoking or replacing a
 * share (or deleting its project) in this process evicts the project's
 * grants at once; another process sees it within the TTL.
 */

/** How long a checked grant is trusted before the database is asked again (60 s). */
export const SHARE_GRANT_TTL_MS = 60_000;

/** Entries kept at most; the oldest checks are dropped first. */
const MAX_ENTRIES = 10_000;

const GRANT = /^(\d{1,18})\.([A-Za-z0-9_-]{22})$/;

function fingerprint(token: string): string {
  return createHash('sha256').update(`nuage share grant\n${token}`).digest('base64url').slice(0, 22);
}

/** The grant id of a project's share token. */
export function shareGrantId(projectId: string, token: string): string {
  return `${projectId}.${fingerprint(token)}`;
}

/** True when the text has the shape of a grant id (says nothing of its validity). */
export function isShareGrantId(grant: string): boolean {
  return GRANT.test(grant);
}

/** The project id a grant id names; null when it is not a grant id. */
export function projectOfGrant(grant: string): string | null {
  return GRANT.exec(grant)?.[1] ?? null;
}

/**
 * The grant to put into the URLs minted for a viewer of a project: the share's
 * grant id for a share-token viewer, undefined for a logged-in user (owner or
 * admin URLs carry no grant).
 */
export function grantForViewer(viewer: Viewer, projectId: string): string | undefined {
  return viewer.kind === 'share' ? shareGrantId(projectId, viewer.token) : undefined;
}

export interface ShareGrantCacheOptions {
  /** Trust a check this long (ms); default {@link SHARE_GRANT_TTL_MS}. */
  ttlMs?: number;
  /** The clock (ms); default `Date.now`. */
  now?: () => number;
  /** Entries kept at most; default 10 000. */
  maxEntries?: number;
}

/** Reads the current share token of a project (null when none or no such project). */
export type ShareTokenLookup = (projectId: string) => Promise<string | null>;

/**
 * The per-process cache of grant checks.
 *
 * @example
 * const grants = new ShareGrantCache(async (id) => (await findProject(db, id))?.share_token ?? null);
 * if (!(await grants.isValid(grant))) return forbidden();
 */
export class ShareGrantCache {
  readonly #lookup: ShareTokenLookup;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, { valid: boolean; checkedAt: number }>();
  readonly #pending = new Map<string, Promise<boolean>>();
  /** Bumped by every eviction: a check begun before it must not fill the cache. */
  #epoch = 0;

  constructor(lookup: ShareTokenLookup, options: ShareGrantCacheOptions = {}) {
    this.#lookup = lookup;
    this.#ttlMs = options.ttlMs ?? SHARE_GRANT_TTL_MS;
    this.#now = options.now ?? Date.now;
    this.#maxEntries = options.maxEntries ?? MAX_ENTRIES;
  }

  /** Entries held (valid or not). */
  get size(): number {
    return this.#entries.size;
  }

  /** True while the share the grant names is the project's current share. */
  async isValid(grant: string): Promise<boolean> {
    const m = GRANT.exec(grant);
    if (!m) return false;
    const hit = this.#entries.get(grant);
    if (hit && this.#now() - hit.checkedAt < this.#ttlMs) return hit.valid;
    // Concurrent requests of one viewer (a burst of tiles) share one query.
    let pending = this.#pending.get(grant);
    if (!pending) {
      pending = this.#check(grant, m[1]!, m[2]!).finally(() => {
        if (this.#pending.get(grant) === pending) this.#pending.delete(grant);
      });
      this.#pending.set(grant, pending);
    }
    return pending;
  }

  async #check(grant: string, projectId: string, print: string): Promise<boolean> {
    const epoch = this.#epoch;
    const token = await this.#lookup(projectId);
    const valid = token !== null && fingerprint(token) === print;
    if (epoch === this.#epoch) {
      this.#entries.delete(grant);
      if (this.#entries.size >= this.#maxEntries) {
        const oldest = this.#entries.keys().next();
        if (!oldest.done) this.#entries.delete(oldest.value);
      }
      this.#entries.set(grant, { valid, checkedAt: this.#now() });
    }
    return valid;
  }

  /** Forgets every grant of a project (its share was revoked, replaced or the project deleted). */
  evictProject(projectId: string): void {
    this.#epoch++;
    const start = `${projectId}.`;
    for (const key of this.#entries.keys()) if (key.startsWith(start)) this.#entries.delete(key);
    for (const key of this.#pending.keys()) if (key.startsWith(start)) this.#pending.delete(key);
  }
}

const caches = new WeakMap<AppDeps, ShareGrantCache>();

/**
 * The grant cache of a process (one per deps). Pass options before first use
 * to set the clock or TTL (tests); later calls return the same cache.
 */
export function shareGrants(deps: AppDeps, options?: ShareGrantCacheOptions): ShareGrantCache {
  let cache = caches.get(deps);
  if (!cache) {
    cache = new ShareGrantCache(
      async (projectId) => (await findProject(deps.database.db, projectId))?.share_token ?? null,
      options,
    );
    caches.set(deps, cache);
  }
  return cache;
}
