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

/** A run segment as read back from a prefix (`t42`, `r42`, `u0a1b…`, or an older run name). */
const RUN = /^[A-Za-z0-9_-]{1,64}$/;
/** A run or upload id put after its one-letter kind, so that the segment stays within {@link RUN}. */
const RUN_ID = /^[A-Za-z0-9_-]{1,63}$/;
/** A file extension: `laz`, `tif`, `geojson`. */
const EXTENSION = /^[A-Za-z0-9]{1,16}$/;

function checkId(what: 'project' | 'asset', id: string): string {
  if (typeof id !== 'string' || !ID.test(id)) {
    throw new InvalidKey(String(id), `${what} id must match [A-Za-z0-9_-]{1,128}`);
  }
  return id;
}

/** A job id (a bigint column read as a string) or an upload id: what follows a run's kind letter. */
export type RunId = string | number | bigint;

function runSegment(kind: 'r' | 't' | 'u', runId: RunId): string {
  const id = String(runId);
  if (!RUN_ID.test(id)) throw new InvalidKey(id, 'run id must match [A-Za-z0-9_-]{1,63}');
  return `${kind}${id}`;
}

/**
 * The key of a file that belongs to an asset:
 * `projects/<projectId>/assets/<assetId>/<path>`.
 *
 * @example
 * assetKey('p1', 'a7', 'tiles/0-0-0.glb'); // 'projects/p1/assets/a7/tiles/0-0-0.glb'
 */
export function assetKey(projectId: string, assetId: string, path = ''): string {
  checkId('project', projectId);
  checkId('asset', assetId);
  const base = `projects/${projectId}/assets/${assetId}/`;
  if (path === '') return base;
  return checkKey(base + path);
}

/** The prefix holding every file of a project: `projects/<projectId>/`. */
export function projectPrefix(projectId: string): string {
  checkId('project', projectId);
  return `projects/${projectId}/`;
}

/**
 * The prefix of one run of an asset: `projects/<projectId>/assets/<assetId>/<run>/`,
 * where `run` is one segment of `[A-Za-z0-9_-]{1,64}`. Keys of a run are never
 * reused by a later run, so what is stored under it never changes (tile URLs
 * are cacheable) and an earlier run's prefix can be deleted as a whole.
 * {@link parseAssetRunPrefix} reads it back. Prefer the typed builders below.
 *
 * @example
 * assetRunPrefix('p1', 'a7', 't42'); // 'projects/p1/assets/a7/t42/'
 */
export function assetRunPrefix(projectId: string, assetId: string, run: string): string {
  if (typeof run !== 'string' || !RUN.test(run))
    throw new InvalidKey(String(run), 'run must match [A-Za-z0-9_-]{1,64}');
  return `${assetKey(projectId, assetId)}${run}/`;
}

/**
 * The prefix of the files (downloads) a processing job writes for an asset:
 * `projects/<projectId>/assets/<assetId>/r<runId>/`; the run id is the job id.
 *
 * @example
 * runFilesPrefix('p1', 'a7', '42'); // 'projects/p1/assets/a7/r42/'
 */
export function runFilesPrefix(projectId: string, assetId: string, runId: RunId): string {
  return assetRunPrefix(projectId, assetId, runSegment('r', runId));
}

/**
 * The key of one file of a processing run: `projects/<projectId>/assets/<assetId>/r<runId>/<fileName>`
 * (`fileName` may hold sub-folders; every segment is checked as {@link checkKey} does).
 *
 * @example
 * runFileKey('p1', 'a7', '42', 'a7.tif'); // 'projects/p1/assets/a7/r42/a7.tif'
 */
export function runFileKey(projectId: string, assetId: string, runId: RunId, fileName: string): string {
  return checkKey(runFilesPrefix(projectId, assetId, runId) + fileName);
}

/**
 * The prefix of the tiles (3D Tiles tileset or raster `{z}/{x}/{y}.png`) a
 * tiling or processing job writes for an asset: `projects/<projectId>/assets/<assetId>/t<runId>/`;
 * the run id is the job id. This is what `assets.tiles_prefix` holds and what tile URLs sign.
 *
 * @example
 * runTilesPrefix('p1', 'a7', 42); // 'projects/p1/assets/a7/t42/'
 */
export function runTilesPrefix(projectId: string, assetId: string, runId: RunId): string {
  return assetRunPrefix(projectId, assetId, runSegment('t', runId));
}

/**
 * The key an uploaded point cloud is stored under:
 * `projects/<projectId>/assets/<assetId>/u<uploadId>/input.<extension>`; each
 * upload gets a fresh id, so a retried upload never overwrites a file in use.
 *
 * @example
 * uploadKey('p1', 'a7', '0a1b2c3d4e5f', 'laz'); // 'projects/p1/assets/a7/u0a1b2c3d4e5f/input.laz'
 */
export function uploadKey(projectId: string, assetId: string, uploadId: string, extension: string): string {
  if (typeof extension !== 'string' || !EXTENSION.test(extension)) {
    throw new InvalidKey(String(extension), 'extension must match [A-Za-z0-9]{1,16}');
  }
  return checkKey(`${assetRunPrefix(projectId, assetId, runSegment('u', uploadId))}input.${extension}`);
}

/** The parts of a run prefix (see {@link assetRunPrefix}). */
export interface AssetRunPrefix {
  projectId: string;
  assetId: string;
  /** The run segment as stored: `t42` (tiles), `r42` (files), `u…` (upload), or an older name. */
  run: string;
}

/**
 * Reads back a prefix made by {@link assetRunPrefix} (and so by
 * {@link runTilesPrefix}, {@link runFilesPrefix}): exactly
 * `projects/<projectId>/assets/<assetId>/<run>/`, trailing slash included;
 * null for anything else (never throws).
 *
 * @example
 * parseAssetRunPrefix('projects/p1/assets/a7/t42/'); // { projectId: 'p1', assetId: 'a7', run: 't42' }
 * parseAssetRunPrefix('projects/p1/assets/a7/');     // null
 */
export function parseAssetRunPrefix(prefix: string): AssetRunPrefix | null {
  if (typeof prefix !== 'string' || !prefix.endsWith('/')) return null;
  const parts = prefix.slice(0, -1).split('/');
  if (parts.length !== 5 || parts[0] !== 'projects' || parts[2] !== 'assets') return null;
  const [, projectId = '', , assetId = '', run = ''] = parts;
  if (!ID.test(projectId) || !ID.test(assetId) || !RUN.test(run)) return null;
  return { projectId, assetId, run };
}

/**
 * Splits a key (or a URL path that should be one) under a run prefix into the
 * prefix, its parts, and the rest: `projects/p1/assets/a7/t42/content/0.glb` →
 * prefix `projects/p1/assets/a7/t42/`, rest `content/0.glb`. Null when the key
 * does not start with a run prefix or nothing follows it. The rest is not
 * checked here: the store checks the whole key when it is read.
 */
export function splitAssetRunKey(key: string): { prefix: string; rest: string; parts: AssetRunPrefix } | null {
  if (typeof key !== 'string') return null;
  const segments = key.split('/');
  if (segments.length < 6) return null;
  const prefix = `${segments.slice(0, 5).join('/')}/`;
  const rest = segments.slice(5).join('/');
  const parts = parseAssetRunPrefix(prefix);
  if (!parts || rest === '') return null;
  return { prefix, rest, parts };
}

/**
 * The key of raster map tile z/x/y (web mercator, PNG) of a run's tiles
 * prefix: `<prefix><z>/<x>/<y>.png`, where tiles rendered on demand from the
 * run's COG are cached (and where older runs stored pre-rendered pyramids).
 *
 * @example
 * rasterTileKey('projects/p1/assets/a7/t42/', 17, 66390, 45090); // 'projects/p1/assets/a7/t42/17/66390/45090.png'
 */
export function rasterTileKey(runPrefix: string, z: number, x: number, y: number): string {
  if (!parseAssetRunPrefix(runPrefix)) throw new InvalidKey(String(runPrefix), 'not a run prefix');
  const n = 2 ** Math.min(z, 31);
  if (!Number.isInteger(z) || z < 0 || z > 30 || !Number.isInteger(x) || !Number.isInteger(y)) {
    throw new InvalidKey(`${z}/${x}/${y}`, 'tile address must be whole numbers, zoom 0 to 30');
  }
  if (x < 0 || y < 0 || x >= n || y >= n) throw new InvalidKey(`${z}/${x}/${y}`, `tile outside zoom ${z}`);
  return checkKey(`${runPrefix}${z}/${x}/${y}.png`);
}
