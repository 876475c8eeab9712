/**
 * Lanes: worker threads that run products of the registry beside the main
 * thread, so that products whose inputs are ready run at the same time (the
 * contours while the tree crowns are drawn...). A product's inputs reach its
 * thread in their flat form ({@link packValue}: large typed arrays moved once
 * into shared memory, so that a 20 M-point cloud is never copied, and arrays
 * of many small objects packed once into shared columns, so that posting the
 * contours or the crowns again costs nothing); its value comes back packed by
 * the lane.
 */
import { Worker } from 'node:worker_threads';
import * as errors from '../core/errors.js';
import type { ProductResult } from '../core/product.js';
import { threadExecArgv } from '../core/worker-bundle.mjs';
import { unpackFeatures } from '../writers/ewkb.js';
import type { LaneMessage, LaneTask, SerializedError } from './product-thread.task.js';
import { packValue } from './value-codec.js';

export { shareTypedArrays } from './value-codec.js';

/** The error a lane reported, as an instance of its engine class when it has one (`code`, `field`... kept). */
export function reviveError(e: SerializedError): Error {
  const Class = (errors as Record<string, unknown>)[e.name];
  const proto =
    typeof Class === 'function' && Class.prototype instanceof Error ? (Class.prototype as Error) : Error.prototype;
  const error = Object.create(proto) as Error;
  Object.defineProperty(error, 'message', { value: e.message, writable: true, configurable: true });
  Object.defineProperty(error, 'stack', {
    value: e.stack ?? `${e.name}: ${e.message}`,
    writable: true,
    configurable: true,
  });
  Object.assign(error, e.props);
  if (error.name !== e.name)
    Object.defineProperty(error, 'name', { value: e.name, writable: true, configurable: true });
  return error;
}

/** What a lane run reports back while it runs. */
export interface LaneCallbacks {
  progress(fraction: number): void;
  log(message: string, data?: Record<string, unknown>): void;
}

/** A product run in a lane could not start there (its inputs cannot cross threads): run it on the calling thread. */
export class NotTransferable extends Error {
  constructor(cause: unknown) {
    super(`the product's inputs cannot cross threads: ${(cause as Error)?.message ?? cause}`, { cause });
    this.name = 'NotTransferable';
  }
}

interface Lane {
  worker: Worker;
  busy: boolean;
}

/** A fixed number of lane threads, started on first use; {@link close} ends them. */
export class ProductLanes {
  private readonly lanes: Lane[] = [];

  constructor(readonly size: number) {}

  private lane(): Lane {
    const free = this.lanes.find((l) => !l.busy);
    if (free) return free;
    if (this.lanes.length >= this.size) throw new Error('every lane is busy');
    const worker = new Worker(new URL('./product.worker.mjs', import.meta.url), {
      execArgv: threadExecArgv(),
      // geotiff's web-worker shim takes a thread with no workerData for one of its own and fails; {} is the main thread's.
      workerData: {},
    });
    const lane: Lane = { worker, busy: false };
    // A lane that dies (out of memory, a crash in native code) is replaced on next use.
    worker.on('exit', () => {
      const at = this.lanes.indexOf(lane);
      if (at >= 0) this.lanes.splice(at, 1);
    });
    this.lanes.push(lane);
    return lane;
  }

  /**
   * Runs a product in a free lane; rejects with {@link NotTransferable} when
   * its task cannot be posted, with the product's own error when it fails.
   * The values of the task are posted packed (packed here when they are not
   * yet: pack them once beforehand to post them again for free); the value
   * of the result comes back packed ({@link unpackValue} reads it).
   */
  run(
    task: Omit<LaneTask, 'type'>,
    callbacks: LaneCallbacks,
    signal?: AbortSignal,
  ): Promise<{ result: ProductResult; thread: number }> {
    const lane = this.lane();
    const values: Record<string, unknown> = {};
    for (const [id, v] of Object.entries(task.values)) values[id] = packValue(v);
    try {
      lane.worker.postMessage({ type: 'run', ...task, values } satisfies LaneTask);
    } catch (error) {
      return Promise.reject(new NotTransferable(error));
    }
    lane.busy = true;
    return new Promise<{ result: ProductResult; thread: number }>((resolve, reject) => {
      const onAbort = () => lane.worker.postMessage({ type: 'abort' });
      signal?.addEventListener('abort', onAbort, { once: true });
      const finish = () => {
        lane.busy = false;
        lane.worker.off('message', onMessage);
        lane.worker.off('error', onError);
        lane.worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
      };
      const onMessage = (m: LaneMessage) => {
        if (m.type === 'progress') callbacks.progress(m.fraction);
        else if (m.type === 'log') callbacks.log(m.message, m.data);
        else if (m.type === 'error') {
          finish();
          reject(reviveError(m.error));
        } else {
          finish();
          const { packedFeatures } = m.result;
          const result: ProductResult = packedFeatures
            ? { ...m.result, features: () => unpackFeatures(packedFeatures) }
            : m.result;
          resolve({ result, thread: m.thread });
        }
      };
      const onError = (error: Error) => {
        finish();
        reject(error);
      };
      const onExit = (code: number) => {
        finish();
        reject(new Error(`the product thread ended (exit code ${code}) while ${task.productId} ran`));
      };
      lane.worker.on('message', onMessage);
      lane.worker.once('error', onError);
      lane.worker.once('exit', onExit);
    });
  }

  /** Ends every lane thread. */
  async close(): Promise<void> {
    await Promise.all(this.lanes.splice(0).map((l) => l.worker.terminate()));
  }
}
