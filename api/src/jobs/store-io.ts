import { createWriteStream } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { InvalidInput } from '@nuage/engine/core/errors.js';
import type { ByteSource } from '@nuage/engine/readers/index.js';
import { ObjectNotFound, type ObjectStore, putLocalFile, readAll } from '@nuage/tiles-cache';
import type { TilesStoreLike } from '../storage.js';
import { PermanentJobError } from './job-runner.js';

/**
 * The input file of a job as a local path: the stored file itself when the
 * store is a local folder, else a copy downloaded (streamed) into `tmpDir`.
 */
export async function localCopy(
  storage: TilesStoreLike,
  key: string,
  tmpDir: string,
  onProgress?: (fraction: number) => void,
): Promise<string> {
  const local = storage.localPath(key);
  if (local) {
    try {
      await access(local);
    } catch {
      throw new PermanentJobError('INPUT_MISSING', 'the stored point cloud file is missing: upload it again');
    }
    onProgress?.(1);
    return local;
  }
  const target = path.join(tmpDir, `input${path.extname(key)}`);
  let got: Awaited<ReturnType<ObjectStore['get']>>;
  try {
    got = await storage.objects.get(key);
  } catch (err) {
    if (err instanceof ObjectNotFound) {
      throw new PermanentJobError('INPUT_MISSING', 'the stored point cloud file is missing: upload it again');
    }
    throw err;
  }
  let done = 0;
  got.body.on('data', (chunk: Buffer) => {
    done += chunk.byteLength;
    onProgress?.(got.size > 0 ? done / got.size : 1);
  });
  await pipeline(got.body, createWriteStream(target));
  return target;
}

/** Every file under a folder, as paths relative to it with forward slashes, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (sub: string) => {
    for (const e of await readdir(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(rel);
      else if (e.isFile()) out.push(rel);
    }
  };
  await walk('');
  return out.sort();
}

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.geojson': 'application/geo+json',
  '.glb': 'model/gltf-binary',
  '.png': 'image/png',
  '.tif': 'image/tiff',
  '.las': 'application/vnd.las',
  '.laz': 'application/vnd.laszip',
  '.csv': 'text/csv',
  '.pdf': 'application/pdf',
  '.dxf': 'image/vnd.dxf',
  '.zip': 'application/zip',
};

/** The content type the store and downloads use for a file name. */
export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Uploads a folder under a key prefix (4 files at a time), streaming each file.
 * Returns the number of files and bytes written.
 */
export async function uploadFolder(
  store: ObjectStore,
  dir: string,
  prefix: string,
  options: {
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
    /** Files (relative paths, forward slashes) not to upload. */
    skip?: (file: string) => boolean;
  } = {},
): Promise<{ files: number; bytes: number }> {
  const skip = options.skip;
  const files = (await listFiles(dir)).filter((f) => !skip?.(f));
  let next = 0;
  let bytes = 0;
  let done = 0;
  const worker = async () => {
    while (next < files.length) {
      if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
      const rel = files[next++]!;
      const full = path.join(dir, rel);
      const info = await putLocalFile(store, `${prefix}${rel}`, full, { contentType: contentTypeOf(rel) });
      bytes += info.size;
      done++;
      options.onProgress?.(done / files.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, files.length) }, worker));
  return { files: files.length, bytes };
}

/** Uploads one local file under a key; returns its size. */
export async function uploadFile(store: ObjectStore, file: string, key: string): Promise<number> {
  const info = await putLocalFile(store, key, file, { contentType: contentTypeOf(file) });
  return info.size;
}

/** Size of a local file in bytes. */
export async function fileSize(file: string): Promise<number> {
  return (await stat(file)).size;
}

/**
 * Random access to a stored object (for reading a LAS header from the stored
 * bytes): each read is one ranged get, so only the bytes asked for move.
 */
export function storeSource(store: ObjectStore, key: string, size: number): ByteSource {
  return {
    size,
    async read(position, length, into) {
      if (position < 0 || length < 0 || position + length > size) {
        throw new InvalidInput(
          'file',
          `needs bytes ${position}..${position + length} but the file has ${size} bytes (truncated)`,
          position,
        );
      }
      if (length === 0) return new Uint8Array(0);
      const got = await store.get(key, { range: { start: position, end: position + length - 1 } });
      const bytes = await readAll(got.body);
      if (bytes.byteLength !== length) throw new InvalidInput('file', 'unexpected end of file (truncated)', position);
      if (into && into.byteLength >= length) {
        into.set(bytes);
        return into.subarray(0, length);
      }
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    async close() {},
  };
}
