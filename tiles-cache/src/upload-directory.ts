import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { checkKey } from './keys.js';
import { type ObjectStore, putLocalFile } from './store.js';

/** Content types of the files Nuage produces, by extension. */
export const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.geojson': 'application/geo+json',
  '.glb': 'model/gltf-binary',
  '.b3dm': 'application/octet-stream',
  '.pnts': 'application/octet-stream',
  '.subtree': 'application/octet-stream',
  '.tif': 'image/tiff',
  '.png': 'image/png',
  '.pdf': 'application/pdf',
  '.dxf': 'image/vnd.dxf',
  '.las': 'application/vnd.las',
  '.laz': 'application/vnd.laszip',
  '.zip': 'application/zip',
  '.csv': 'text/csv',
};

/** Content type of a key or file name (application/octet-stream when unknown). */
export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

export interface UploadOptions {
  /** Files uploaded at once (default 8). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called after each file with the running totals. */
  progress?: (done: number, total: number) => void;
}

async function listFiles(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(dir, r)));
    else if (e.isFile()) out.push(r);
  }
  return out.sort();
}

/**
 * Uploads every file under a local folder to `prefix` + its relative path
 * (streamed, each put atomic), e.g. a tileset the tiler wrote to a temporary
 * folder. Returns the number of files and bytes.
 *
 * @example
 * await uploadDirectory(store, '/tmp/tiles', assetKey(projectId, assetId, 'tiles/'));
 */
export async function uploadDirectory(
  store: ObjectStore,
  dir: string,
  prefix: string,
  options: UploadOptions = {},
): Promise<{ files: number; bytes: number }> {
  if (prefix !== '' && !prefix.endsWith('/')) prefix += '/';
  const files = await listFiles(dir);
  for (const f of files) checkKey(prefix + f);
  let next = 0;
  let done = 0;
  let bytes = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
      const f = files[next++]!;
      const full = path.join(dir, f);
      const info = await putLocalFile(store, prefix + f, full, { contentType: contentTypeOf(f) });
      bytes += info.size;
      done++;
      options.progress?.(done, files.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, files.length) }, worker));
  // Sizes come from the store: a short upload would show here.
  let expected = 0;
  for (const f of files) expected += (await stat(path.join(dir, f))).size;
  if (expected !== bytes) throw new Error(`uploaded ${bytes} bytes, expected ${expected}`);
  return { files: files.length, bytes };
}
