/**
 * The worker-thread side of products run off the main thread (see
 * product-lanes.ts): a thread takes one product at a time, with the values of
 * the products it reads (their big typed arrays shared, not copied), runs it
 * from the registry and hands back its result. Progress, log lines and
 * cancellation cross the thread boundary as messages.
 */
import { type MessagePort, threadId } from 'node:worker_threads';
import { Cancelled } from '../core/errors.js';
import { collectGarbage } from '../core/gc.js';
import type { ProductContext, ProductDefinition, ProductResult } from '../core/product.js';
import type { TilerOptions } from '../tiler/tiler-options.js';
import { packFeatures } from '../writers/ewkb.js';
import type { ProcessingOptions } from './options.js';
import { PRODUCTS } from './registry.js';
import { isPacked, packValue, unpackValue } from './value-codec.js';

/** A product to run in a thread. */
export interface LaneTask {
  type: 'run';
  productId: string;
  input: ProductContext['input'];
  options: ProcessingOptions;
  /** Values of the products it needs or uses that have one, packed ({@link packValue}). */
  values: Record<string, unknown>;
  artifacts: ReturnType<ProductContext['artifacts']>;
  language: ProductContext['language'];
  workDir: string;
  tmpDir: string;
  sourceName: string;
  tilerOptions: Partial<TilerOptions>;
  /** Materialise the features (the caller stores them). */
  wantFeatures: boolean;
  /** Hand back the product's value, packed (products after it read it); else it is dropped. */
  wantValue: boolean;
}

/** What a thread posts back while and after it runs a product. */
export type LaneMessage =
  | { type: 'progress'; fraction: number }
  | { type: 'log'; message: string; data?: Record<string, unknown> }
  | { type: 'done'; thread: number; result: Omit<ProductResult, 'features'> }
  | { type: 'error'; error: SerializedError };

/** An error as it crosses threads: its class name, message, stack and own fields (code, field...). */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  props: Record<string, unknown>;
}

/** Own enumerable fields of an error that survive a structured clone. */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), props: {} };
  const props: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(error)) {
    if (v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') props[k] = v;
  }
  return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}), props };
}

/**
 * `need` and `use` of a product's context over the values of a run, refusing
 * what it did not declare. A packed value ({@link packValue}) is unpacked on
 * its first read, once for the product.
 */
export function valueReaders(
  product: ProductDefinition,
  values: ReadonlyMap<string, unknown>,
): Pick<ProductContext, 'need' | 'use'> {
  const unpacked = new Map<string, unknown>();
  const read = (id: string): unknown => {
    const v = values.get(id);
    if (!isPacked(v)) return v;
    if (!unpacked.has(id)) unpacked.set(id, unpackValue(v));
    return unpacked.get(id);
  };
  return {
    need: <T>(id: string): T => {
      if (!product.needs.includes(id)) throw new Error(`product ${product.id} reads ${id} without needing it`);
      if (!values.has(id)) throw new Error(`product ${product.id} needs ${id}, which has no value`);
      return read(id) as T;
    },
    use: <T>(id: string): T | undefined => {
      if (!product.uses?.includes(id)) throw new Error(`product ${product.id} uses ${id} without declaring it`);
      return read(id) as T | undefined;
    },
  };
}

/** Runs one task; every message goes through `post`. Exported for tests (no thread needed). */
export async function runLaneTask(task: LaneTask, post: (m: LaneMessage) => void, signal: AbortSignal): Promise<void> {
  try {
    const product = PRODUCTS.find((p) => p.id === task.productId);
    if (!product) throw new Error(`no product ${task.productId} in the registry`);
    const values = new Map(Object.entries(task.values));
    const result = await product.run({
      input: task.input,
      options: task.options,
      ...valueReaders(product, values),
      language: task.language,
      artifacts: () => task.artifacts,
      workDir: task.workDir,
      tmpDir: task.tmpDir,
      sourceName: task.sourceName,
      tilerOptions: task.tilerOptions,
      signal,
      progress: (fraction) => post({ type: 'progress', fraction }),
      log: (message, data) => post({ type: 'log', message, ...(data ? { data } : {}) }),
    });
    if (signal.aborted) throw new Cancelled();
    const { features, packFeatures: pack, value, ...rest } = result;
    post({
      type: 'done',
      thread: threadId,
      result: {
        ...rest,
        // Packed here, on this thread: the main thread only passes its shared columns on.
        ...(value !== undefined && task.wantValue ? { value: packValue(value) } : {}),
        // Packed here: EWKB in one shared buffer, not millions of coordinate arrays cloned to the main thread.
        ...(features && task.wantFeatures ? { packedFeatures: pack ? pack() : packFeatures(features()) } : {}),
      },
    });
  } catch (error) {
    post({ type: 'error', error: serializeError(error) });
  }
}

/** Serves tasks on a port: one at a time; `abort` cancels the running one. */
export function serveLane(port: MessagePort): void {
  let controller: AbortController | null = null;
  port.on('message', (m: LaneTask | { type: 'abort' }) => {
    if (m.type === 'abort') {
      controller?.abort();
      return;
    }
    controller = new AbortController();
    const signal = controller.signal;
    void runLaneTask(
      m,
      (message) => {
        try {
          port.postMessage(message);
        } catch (error) {
          // A value that cannot cross threads (a function in it): say so rather than hang.
          port.postMessage({ type: 'error', error: serializeError(error) } satisfies LaneMessage);
        }
      },
      signal,
    ).finally(() => {
      // The task's arrays (and the values it read, views of shared memory) freed now, not when V8 next
      // feels pressure in this thread's small heap.
      collectGarbage();
    });
  });
}
