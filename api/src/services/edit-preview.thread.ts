import { Worker } from 'node:worker_threads';
import { threadExecArgv } from '@nuage/engine/core/worker-bundle.mjs';
import type { ClassEdit, EditChange } from '@nuage/engine/edit/class-edits.js';
import type { PreviewReply, PreviewRequest } from './edit-preview.task.js';

const WORKER_FILE = new URL('./edit-preview.worker.mjs', import.meta.url);

/** An error of the preview thread, as it reported it. */
export class PreviewThreadError extends Error {
  readonly code: string | undefined;
  readonly field: string | undefined;
  constructor(error: { name: string; code?: string; message: string; field?: string }) {
    super(error.message);
    this.name = error.name;
    this.code = error.code;
    this.field = error.field;
  }
}

/**
 * The one worker thread that counts classification-edit previews
 * (edit-preview.task.ts) and keeps the last classified cloud it read. Started
 * on the first preview, replaced when it dies (its pending previews fail),
 * never keeps the process alive.
 */
class PreviewThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, { resolve(r: PreviewReply): void; reject(e: Error): void }>();
  private nextId = 1;

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_FILE, { execArgv: threadExecArgv() });
    worker.unref();
    worker.on('message', (reply: PreviewReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiting?.resolve(reply);
    });
    const lose = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    };
    worker.on('error', lose);
    worker.on('exit', (code) => lose(new Error(`the edit preview thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  ask(request: Omit<PreviewRequest, 'id'>): Promise<PreviewReply> {
    const id = this.nextId++;
    const worker = this.thread();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id } satisfies PreviewRequest);
    });
  }

  /** Ends the thread (tests, shutdown). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}

const shared = new PreviewThread();

/**
 * What `edit` would change in the classified cloud stored under `key`,
 * counted in the preview thread. `fetch` makes a local copy of the file when
 * the thread does not hold it yet (I/O on this thread; the copy is removed
 * once read); a thread that holds `key` answers at once.
 */
export async function previewInThread(
  key: string,
  edit: ClassEdit,
  fetch: () => Promise<{ path: string; done(): Promise<void> }>,
  epsg?: number,
): Promise<EditChange> {
  let reply = await shared.ask({ key, edit });
  if (!reply.ok && 'miss' in reply) {
    const file = await fetch();
    try {
      reply = await shared.ask({ key, edit, path: file.path, ...(epsg === undefined ? {} : { epsg }) });
    } finally {
      await file.done();
    }
  }
  if (reply.ok) return reply.change;
  if ('error' in reply) throw new PreviewThreadError(reply.error);
  throw new Error('the edit preview thread did not read the file');
}

/** Ends the preview thread (tests). */
export function closePreviewThread(): Promise<void> {
  return shared.close();
}
