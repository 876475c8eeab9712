import type { MessagePort } from 'node:worker_threads';
import { applyClassEdits, type ClassEdit, type EditChange } from '@nuage/engine/edit/class-edits.js';
import { type LoadedCloud, loadCloud } from '@nuage/engine/edit/edit-file.js';

/**
 * The classification-edit preview as its worker thread runs it
 * (edit-preview.worker.mjs, driven by edit-preview.thread.ts): the thread
 * keeps the last classified cloud it read, by its store key, so a preview
 * that follows another as the user draws costs only the count; decoding a
 * LAZ of millions of points and testing each against the region never hold
 * the API's main thread. Only engine code is imported here.
 */
export type PreviewRequest = {
  id: number;
  /** Store key of the classified cloud: the cache's identity. */
  key: string;
  edit: ClassEdit;
  /** Local copy of the file, given when the thread does not hold `key` (or said it did not). */
  path?: string;
  epsg?: number;
};

export type PreviewReply =
  | { id: number; ok: true; change: EditChange }
  /** The thread does not hold `key` and no path came: send the file. */
  | { id: number; ok: false; miss: true }
  | { id: number; ok: false; error: { name: string; code?: string; message: string; field?: string } };

/** Clouds above this many points are not kept between previews (memory). */
export const MAX_CACHED_POINTS = 20_000_000;

/** Serves previews on `port`, one at a time in order of arrival. */
export function servePreviews(port: MessagePort | null): void {
  if (!port) throw new Error('edit-preview.task.ts runs in a worker thread');
  let held: { key: string; cloud: LoadedCloud } | undefined;
  let chain = Promise.resolve();
  port.on('message', (req: PreviewRequest) => {
    chain = chain.then(async () => {
      try {
        let cloud = held?.key === req.key ? held.cloud : undefined;
        if (!cloud) {
          if (!req.path) {
            port.postMessage({ id: req.id, ok: false, miss: true } satisfies PreviewReply);
            return;
          }
          held = undefined; // the old cloud goes before the new one comes
          cloud = await loadCloud(req.path, req.epsg === undefined ? {} : { epsg: req.epsg });
          if (cloud.cloud.count <= MAX_CACHED_POINTS) held = { key: req.key, cloud };
        }
        const { changed } = applyClassEdits(cloud.cloud, cloud.crs, [req.edit]);
        port.postMessage({ id: req.id, ok: true, change: changed[0]! } satisfies PreviewReply);
      } catch (err) {
        const e = err as { name?: string; code?: string; message?: string; field?: string };
        port.postMessage({
          id: req.id,
          ok: false,
          error: {
            name: e.name ?? 'Error',
            message: e.message ?? String(err),
            ...(typeof e.code === 'string' ? { code: e.code } : {}),
            ...(typeof e.field === 'string' ? { field: e.field } : {}),
          },
        } satisfies PreviewReply);
      }
    });
  });
}
