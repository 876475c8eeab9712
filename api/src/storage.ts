import { mkdir, statfs } from 'node:fs/promises';
import path from 'node:path';
import { FsStore, MemoryFrontStore, type ObjectStore, openStore } from '@nuage/tiles-cache';

/**
 * The file store of a process: every uploaded and produced file, from the
 * tiles-cache package (a local folder, or an S3-compatible bucket with
 * `STORAGE_URL=s3://…`).
 */
export interface TilesStoreLike {
  /** Human-readable place the files live (folder or bucket URL). */
  readonly location: string;
  /** Free bytes where files are written, or null when unknown (S3). */
  freeBytes(): Promise<number | null>;
  /** The store itself: uploads, products, downloads. */
  readonly objects: ObjectStore;
  /**
   * The same store behind a bounded memory front, for serving tiles. Tile keys
   * are never rewritten (each tiling run writes under a prefix of its own), so
   * a cached tile can never be stale. Vector tiles are held in its memory
   * alone (see ogc-tiles.service).
   */
  readonly tiles: MemoryFrontStore;
  /** Absolute path of a key when the store is a local folder (the worker reads inputs in place), else null. */
  localPath(key: string): string | null;
}

/** Bytes of hot tiles an API process keeps in memory. */
const TILE_MEMORY_BYTES = 64 * 1024 * 1024;

/** Local folder store; the folder is created when missing. */
export async function openLocalStorage(dir: string): Promise<TilesStoreLike> {
  const root = path.resolve(dir);
  await mkdir(root, { recursive: true });
  const objects = new FsStore(root);
  return {
    location: root,
    objects,
    tiles: new MemoryFrontStore(objects, { maxBytes: TILE_MEMORY_BYTES }),
    async freeBytes() {
      const s = await statfs(root);
      return s.bavail * s.bsize;
    },
    localPath(key) {
      return path.join(root, ...key.split('/'));
    },
  };
}

/**
 * Opens the store the configuration names: `STORAGE_URL` (s3://bucket/prefix?endpoint=…)
 * when set, else the folder `STORAGE_DIR`.
 *
 * @example
 * const storage = await openStorage(config);
 * await storage.objects.put('projects/1/assets/2/r3/cloud.laz', stream);
 */
export async function openStorage(config: { STORAGE_URL: string; STORAGE_DIR: string }): Promise<TilesStoreLike> {
  if (!config.STORAGE_URL) return openLocalStorage(config.STORAGE_DIR);
  if (!config.STORAGE_URL.startsWith('s3://') && !config.STORAGE_URL.startsWith('file://')) {
    return openLocalStorage(config.STORAGE_URL);
  }
  if (config.STORAGE_URL.startsWith('file://')) return openLocalStorage(new URL(config.STORAGE_URL).pathname);
  const objects = openStore({ storageUrl: config.STORAGE_URL, memory: false });
  const shown = new URL(config.STORAGE_URL);
  return {
    location: `s3://${shown.hostname}${shown.pathname}`,
    objects,
    tiles: new MemoryFrontStore(objects, { maxBytes: TILE_MEMORY_BYTES }),
    async freeBytes() {
      return null;
    },
    localPath() {
      return null;
    },
  };
}
