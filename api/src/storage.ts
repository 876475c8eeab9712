import { mkdir, statfs } from 'node:fs/promises';

/**
 * The part of the file store the API's foundation needs. The full store
 * (put/get/range/list/delete, S3 backend) lives in the tiles-cache package.
 */
export interface TilesStoreLike {
  /** Human-readable place the files live (folder or bucket URL). */
  readonly location: string;
  /** Free bytes where files are written, or null when unknown (S3). */
  freeBytes(): Promise<number | null>;
}

/** Local folder store; the folder is created when missing. */
export async function openLocalStorage(dir: string): Promise<TilesStoreLike> {
  await mkdir(dir, { recursive: true });
  return {
    location: dir,
    async freeBytes() {
      const s = await statfs(dir);
      return s.bavail * s.bsize;
    },
  };
}
