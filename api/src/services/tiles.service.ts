import type { AppDeps } from '../context.js';
import { expiresIn, notExpired, signer } from './signing.service.js';

/**
 * Signed tile URLs. Access to a project is checked once, when a URL is handed
 * out (owner, admin or share token); every tile request then only checks an
 * HMAC over the asset's tile prefix and an expiry — no database round trip:
 *
 *   /tiles/s/<sig>/<exp>/projects/<pid>/assets/<aid>/<run>/tileset.json
 *
 * Relative URIs inside tileset.json (content/…glb) resolve under the same
 * signed prefix. A revoked share token stops new URLs at once; URLs already
 * handed out work until they expire (TILE_URL_SECONDS).
 */

/** Lifetime of a tile or download URL (6 hours: a viewing session). */
export const TILE_URL_SECONDS = 6 * 3600;

/** A tile prefix: `projects/<pid>/assets/<aid>/<run>/` (what tiling writes under). */
const PREFIX = /^projects\/[A-Za-z0-9_-]{1,128}\/assets\/[A-Za-z0-9_-]{1,128}\/[A-Za-z0-9_-]{1,64}\/$/;

/** Splits a tile path into its signed prefix (`projects/<pid>/assets/<aid>/<run>/`) and the rest. */
export function splitTilePath(path: string): { prefix: string; rest: string } | null {
  const parts = path.split('/');
  if (parts.length < 6) return null;
  const prefix = `${parts.slice(0, 5).join('/')}/`;
  const rest = parts.slice(5).join('/');
  if (!PREFIX.test(prefix) || rest === '') return null;
  return { prefix, rest };
}

function base(deps: AppDeps): string {
  return deps.config.PUBLIC_URL.replace(/\/$/, '');
}

/**
 * The signed base URL of a tile prefix (ends with a slash); append
 * `tileset.json` (3D Tiles, under `/tiles/s/`) or `{z}/{x}/{y}.png` (raster
 * tiles, under `/tiles/raster/`). Both paths check the same signature.
 */
export async function signedTilesBase(
  deps: AppDeps,
  prefix: string,
  seconds = TILE_URL_SECONDS,
  kind: 's' | 'raster' = 's',
): Promise<string> {
  if (!PREFIX.test(prefix)) throw new Error(`not a tile prefix: ${prefix}`);
  const exp = expiresIn(seconds);
  const sig = await signer(deps).sign('tiles', [prefix, exp]);
  return `${base(deps)}/tiles/${kind}/${sig}/${exp}/${prefix}`;
}

/** Checks the signature and expiry of a tile request. */
export async function verifyTilesSignature(
  deps: AppDeps,
  sig: string,
  exp: string,
  prefix: string,
): Promise<'ok' | 'expired' | 'bad-signature'> {
  if (!(await signer(deps).verify('tiles', [prefix, exp], sig))) return 'bad-signature';
  return notExpired(exp) ? 'ok' : 'expired';
}

/** A signed download URL of one stored file: `/tiles/files/<sig>/<exp>/<key>?name=<file name>`. */
export async function signedFileUrl(
  deps: AppDeps,
  key: string,
  fileName: string,
  seconds = TILE_URL_SECONDS,
): Promise<string> {
  const exp = expiresIn(seconds);
  const sig = await signer(deps).sign('file', [key, exp, fileName]);
  const path = key.split('/').map(encodeURIComponent).join('/');
  return `${base(deps)}/tiles/files/${sig}/${exp}/${path}?name=${encodeURIComponent(fileName)}`;
}

export async function verifyFileSignature(
  deps: AppDeps,
  sig: string,
  exp: string,
  key: string,
  fileName: string,
): Promise<'ok' | 'expired' | 'bad-signature'> {
  if (/\n/.test(fileName) || !(await signer(deps).verify('file', [key, exp, fileName], sig))) return 'bad-signature';
  return notExpired(exp) ? 'ok' : 'expired';
}
