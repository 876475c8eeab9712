import { InvalidKey } from './errors.js';

const SEGMENT = /^[A-Za-z0-9._-]+$/;
const ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Validates a storage key and returns it unchanged. Keys are relative
 * slash-separated paths: no leading slash, no empty, `.` or `..` segment, no
 * backslash, NUL or control character, at most 1024 bytes. A valid key can
 * never resolve outside the store's root.
 *
 * @example
 * checkKey('projects/p1/assets/a1/tileset.json'); // ok
 * checkKey('../etc/passwd'); // throws InvalidKey
 */
export function checkKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidKey(String(key), 'empty');
  if (Buffer.byteLength(key) > 1024) throw new InvalidKey(key, 'longer than 1024 bytes');
  if (/[\u0000-\u001f\u007f\\]/.test(key)) throw new InvalidKey(key, 'contains a backslash or a control character');
  if (key.startsWith('/')) throw new InvalidKey(key, 'absolute paths are not keys');
  if (/^[A-Za-z]:/.test(key)) throw new InvalidKey(key, 'drive letters are not keys');
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw new InvalidKey(key, `segment ${JSON.stringify(segment)} is not allowed`);
    }
    if (!SEGMENT.test(segment))
      throw new InvalidKey(key, `segment ${JSON.stringify(segment)} has characters outside [A-Za-z0-9._-]`);
  }
  return key;
}

/**
 * Validates a listing/deletion prefix: either empty (everything) or a valid key
 * followed by an optional trailing slash.
 */
export function checkPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  checkKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  return prefix;
}

/**
 * The key of a file that belongs to an asset:
 * `projects/<projectId>/assets/<assetId>/<path>`.
 *
 * @example
 * assetKey('p1', 'a7', 'tiles/0-0-0.glb'); // 'projects/p1/assets/a7/tiles/0-0-0.glb'
 */
export function assetKey(projectId: string, assetId: string, path = ''): string {
  if (!ID.test(projectId)) throw new InvalidKey(String(projectId), 'project id must match [A-Za-z0-9_-]{1,128}');
  if (!ID.test(assetId)) throw new InvalidKey(String(assetId), 'asset id must match [A-Za-z0-9_-]{1,128}');
  const base = `projects/${projectId}/assets/${assetId}/`;
  if (path === '') return base;
  return checkKey(base + path);
}

/** The prefix holding every file of a project: `projects/<projectId>/`. */
export function projectPrefix(projectId: string): string {
  if (!ID.test(projectId)) throw new InvalidKey(String(projectId), 'project id must match [A-Za-z0-9_-]{1,128}');
  return `projects/${projectId}/`;
}
