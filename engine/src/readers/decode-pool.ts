import { Worker } from 'node:worker_threads';
import type { PointChunk } from '../core/chunk.js';
import { threadExecArgv } from '../core/worker-bundle.mjs';
import type { RecordLayout } from './record-decoder.js';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Entry {
  message: Record<string, unknown>;
  transfer: ArrayBuffer[];
  pending: Pending;
}

/** The part of a header the workers need to decode records (plain data, cloned to the worker). */
function plainLayout(layout: RecordLayout): RecordLayout {
  const { pointFormat, recordLength, scale, offset, extraBytes } = layout;
  return { pointFormat, recordLength, scale, offset, extraBytes, layout: layout.layout };
}

/** The bytes as a whole ArrayBuffer of their own (transferred, so never a view into a shared buffer). */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  return own.buffer as ArrayBuffer;
}

/**
 * A small pool of worker threads decoding LAZ chunks (lazjs or laz-perf),
 * to raw records or straight to columns. Chunks are independent, so decoding
 * spreads over every core; buffers travel both ways by transfer (no copy),
 * and the reading thread is left with almost no work per point.
 */
export class DecodePool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: Entry[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly busy = new Map<Worker, number>();
  private nextId = 0;

  constructor(readonly size: number) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(new URL('./decode.worker.mjs', import.meta.url), { execArgv: threadExecArgv() });
      worker.unref();
      worker.on('message', (reply: { id: number; records?: ArrayBuffer; chunk?: PointChunk; error?: string }) => {
        const task = this.pending.get(reply.id);
        this.pending.delete(reply.id);
        this.busy.delete(worker);
        if (task) {
          if (reply.chunk) task.resolve(reply.chunk);
          else if (reply.records) task.resolve(new Uint8Array(reply.records));
          else task.reject(new Error(reply.error ?? 'decode worker failed'));
        }
        this.release(worker);
      });
      worker.on('error', (error) => {
        const id = this.busy.get(worker);
        if (id !== undefined) this.pending.get(id)?.reject(error);
      });
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  /** Decodes one compressed LAZ chunk to raw records (the buffer is transferred to the worker). */
  decode(compressed: Uint8Array, pointFormat: number, recordLength: number, pointCount: number): Promise<Uint8Array> {
    const bytes = ownBuffer(compressed);
    return this.submit({ bytes, pointFormat, recordLength, pointCount }, [bytes]) as Promise<Uint8Array>;
  }

  /** Decodes the `pointCount` points of a compressed chunk to columns (the bytes are transferred). */
  decodeColumns(compressed: Uint8Array, layout: RecordLayout, pointCount: number): Promise<PointChunk> {
    const bytes = ownBuffer(compressed);
    const message = {
      bytes,
      pointFormat: layout.pointFormat,
      recordLength: layout.recordLength,
      pointCount,
      layout: plainLayout(layout),
    };
    return this.submit(message, [bytes]) as Promise<PointChunk>;
  }

  private submit(message: Record<string, unknown>, transfer: ArrayBuffer[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const entry = { message, transfer, pending: { resolve, reject } };
      const worker = this.idle.pop();
      if (worker) this.dispatch(worker, entry);
      else this.queue.push(entry);
    });
  }

  private dispatch(worker: Worker, entry: Entry): void {
    const id = this.nextId++;
    // A busy worker keeps the process alive until its answer arrives; idle ones do not.
    worker.ref();
    this.pending.set(id, entry.pending);
    this.busy.set(worker, id);
    worker.postMessage({ id, ...entry.message }, entry.transfer);
  }

  private release(worker: Worker): void {
    const next = this.queue.shift();
    if (next) this.dispatch(worker, next);
    else {
      worker.unref();
      this.idle.push(worker);
    }
  }

  /** Stops every worker. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

let shared: DecodePool | null = null;

/**
 * The process-wide pool (workers load their decoders once, so they are kept
 * between files; idle workers do not keep the process alive).
 */
export function sharedDecodePool(size: number): DecodePool {
  if (!shared || shared.size < size) {
    void shared?.close();
    shared = new DecodePool(size);
  }
  return shared;
}
