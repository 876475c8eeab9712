import { parseAssetRunPrefix, splitAssetRunKey } from '@nuage/tiles-cache';
import type { AppDeps } from '../context.js';
import { isShareGrantId, projectOfGrant, SHARE_GRANT_TTL_MS, shareGrants } from './share-grants.service.js';
import { expiresIn, notExpired, signer } from './signing.service.js';

/**
 * Signed tile URLs. Access to a project is checked when a URL is handed out
 * (owner, admin or share token); a tile request then checks an HMAC over the
 * asset's tile prefix and an expiry:
 *
 *   /tiles/s/<sig>/<exp>/projects/<pid>/assets/<aid>/<run>/tileset.json
 *
 * A URL handed out through a share link also carries the share's grant id
 * (`<pid>.<fingerprint of the token>`, never the token), inside the signature:
 *
 *   /tiles/s/<sig>/<exp>/g/<grant>/projects/<pid>/assets/<aid>/<run>/tileset.json
 *
 * and each request with a grant asks the process's grant cache whether the
 * share still stands (share-grants.service.ts): no database round trip per
 * tile, one query per share per 60 s (SHARE_GRANT_TTL_MS) at most. Revoking or
 * replacing the share (or deleting the project) stops its URLs at once on the
 * API process that did it, and within 60 s on the others. Responses to grant
 * URLs are `private, max-age=60` (not `public, immutable`), so a browser may
 * show what it already fetched for at most 60 s more; a shared cache keeps
 * none. Owner and admin URLs carry no grant and work until they expire
 * (TILE_URL_SECONDS).
 *
 * Relative URIs inside tileset.json (content/…glb) resolve under the same
 * signed prefix, grant included. Download URLs (`/tiles/files/`) follow the
 * same rules.
 */

/** Lifetime of a tile or download URL (6 hours: a viewing session). */
export const TILE_URL_SECONDS = 6 * 3600;

/**
 * Splits a tile path into its signed prefix (`projects/<pid>/assets/<aid>/<run>/`, what
 * tiling writes under: tiles-cache's runTilesPrefix) and the rest.
 */
export function splitTilePath(path: string): { prefix: string; rest: string } | null {
  const split = splitAssetRunKey(path);
  return split && { prefix: split.prefix, rest: split.rest };
}

/**
 * Splits a leading `g/<grant>/` off a path after `/tiles/<kind>/<sig>/<exp>/`:
 * the grant id (null when the URL carries none) and the path that follows;
 * null when the segment after `g/` is not a grant id.
 */
export function splitGrantPath(path: string): { grant: string | null; path: string } | null {
  if (!path.startsWith('g/')) return { grant: null, path };
  const end = path.indexOf('/', 2);
  if (end < 0) return null;
  const grant = path.slice(2, end);
  return isShareGrantId(grant) ? { grant, path: path.slice(end + 1) } : null;
}

function base(deps: AppDeps): string {
  return deps.config.PUBLIC_URL.replace(/\/$/, '');
}

/** What is signed besides the path and expiry: the grant, when the URL carries one. */
const grantParts = (grant: string | null | undefined) => (grant ? ['share', grant] : []);
const grantPath = (grant: string | null | undefined) => (grant ? `g/${grant}/` : '');

export type UrlCheck = 'ok' | 'expired' | 'bad-signature' | 'revoked';

/** The signature and expiry are good: 'ok' unless the URL's share was revoked since. */
async function grantStands(deps: AppDeps, grant: string | null | undefined): Promise<UrlCheck> {
  if (!grant) return 'ok';
  return (await shareGrants(deps).isValid(grant)) ? 'ok' : 'revoked';
}

/** The project id of a tile prefix (undefined when it is not one). */
const projectOfPrefix = (prefix: string) => parseAssetRunPrefix(prefix)?.projectId;

/**
 * The signed base URL of a tile prefix (ends with a slash); append
 * `tileset.json` (3D Tiles, under `/tiles/s/`) or `{z}/{x}/{y}.png` (raster
 * tiles, under `/tiles/raster/`). Both paths check the same signature. A
 * `grant` (share-link viewers) ties the URL to the share: see the top of this file.
 */
export async function signedTilesBase(
  deps: AppDeps,
  prefix: string,
  seconds = TILE_URL_SECONDS,
  kind: 's' | 'raster' = 's',
  grant?: string,
): Promise<string> {
  const parsed = parseAssetRunPrefix(prefix);
  if (!parsed) throw new Error(`not a tile prefix: ${prefix}`);
  if (grant && projectOfGrant(grant) !== parsed.projectId) {
    throw new Error(`share grant ${grant} is not for ${prefix}`);
  }
  const exp = expiresIn(seconds);
  const sig = await signer(deps).sign('tiles', [prefix, exp, ...grantParts(grant)]);
  return `${base(deps)}/tiles/${kind}/${sig}/${exp}/${grantPath(grant)}${prefix}`;
}

/**
 * Checks a tile request: signature, expiry, then (URLs handed out through a
 * share link) that the share still stands — from the grant cache, so at most
 * one database query per share per {@link SHARE_GRANT_TTL_MS}.
 */
export async function verifyTilesSignature(
  deps: AppDeps,
  sig: string,
  exp: string,
  prefix: string,
  grant?: string | null,
): Promise<UrlCheck> {
  if (grant && projectOfGrant(grant) !== projectOfPrefix(prefix)) return 'bad-signature';
  if (!(await signer(deps).verify('tiles', [prefix, exp, ...grantParts(grant)], sig))) return 'bad-signature';
  if (!notExpired(exp)) return 'expired';
  return grantStands(deps, grant);
}

/**
 * A signed download URL of one stored file:
 * `/tiles/files/<sig>/<exp>/[g/<grant>/]<key>?name=<file name>`.
 */
export async function signedFileUrl(
  deps: AppDeps,
  key: string,
  fileName: string,
  seconds = TILE_URL_SECONDS,
  grant?: string,
): Promise<string> {
  const exp = expiresIn(seconds);
  const sig = await signer(deps).sign('file', [key, exp, fileName, ...grantParts(grant)]);
  const path = key.split('/').map(encodeURIComponent).join('/');
  return `${base(deps)}/tiles/files/${sig}/${exp}/${grantPath(grant)}${path}?name=${encodeURIComponent(fileName)}`;
}

/** Checks a download request as {@link verifyTilesSignature} checks a tile request. */
export async function verifyFileSignature(
  deps: AppDeps,
  sig: string,
  exp: string,
  key: string,
  fileName: string,
  grant?: string | null,
): Promise<UrlCheck> {
  if (/\n/.test(fileName) || /\n/.test(key)) return 'bad-signature';
  if (!(await signer(deps).verify('file', [key, exp, fileName, ...grantParts(grant)], sig))) return 'bad-signature';
  if (!notExpired(exp)) return 'expired';
  return grantStands(deps, grant);
}

/** How long a response to a tile or file URL may be kept by HTTP caches (s): 60 s for grant URLs. */
export function grantMaxAge(grant: string | null | undefined, untilExpiry: number): number {
  return grant ? Math.min(untilExpiry, SHARE_GRANT_TTL_MS / 1000) : untilExpiry;
}
