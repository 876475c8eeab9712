import { Worker } from 'node:worker_threads';
import type { WasmRecordDecoder } from './record-decoder-wasm.js';

interface Reply {
  id?: number;
  ready?: boolean;
  buffer?: ArrayBuffer;
  error?: string;
}

interface Job {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

/**
 * One worker thread decoding blocks of uncompressed LAS records next to the
 * reading thread (which decodes the other blocks): it instantiates the
 * reader's WebAssembly decoder over the same shared memory, where records are
 * read and columns written, so nothing crosses threads but offsets. Jobs are
 * decoded in the order they are sent.
 */
export class LasDecodeThread {
  /** False until the worker has loaded its decoder: blocks are decoded inline meanwhile. */
  ready = false;
  /** Resolves once the worker has loaded its decoder (or has failed). */
  readonly started: Promise<void>;
  /** Blocks the worker has decoded since it started. */
  decodedBlocks = 0;
  private readonly worker: Worker;
  private readonly jobs = new Map<number, Job>();
  private nextId = 0;
  private nextReader = 0;
  private failure: Error | null = null;
  private onStarted: () => void = () => {};

  constructor() {
    this.started = new Promise((resolve) => {
      this.onStarted = resolve;
    });
    this.worker = new Worker(new URL('./las-decode.worker.mjs', import.meta.url));
    this.worker.on('message', (reply: Reply) => {
      if (reply.ready) {
        this.ready = true;
        this.onStarted();
        return;
      }
      const job = this.jobs.get(reply.id!);
      this.jobs.delete(reply.id!);
      if (this.jobs.size === 0) this.worker.unref();
      if (!job) return;
      if (reply.error !== undefined) job.reject(new Error(`LAS decode worker: ${reply.error}`));
      else {
        this.decodedBlocks++;
        job.resolve(reply);
      }
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`LAS decode worker exited (${code})`)));
    // Idle, it does not keep the process alive; while jobs are out it does.
    // (After the listeners: adding a 'message' listener refs the worker again.)
    this.worker.unref();
  }

  /** True while the worker can take jobs. */
  get usable(): boolean {
    return this.ready && this.failure === null;
  }

  /** Lets the worker run `decoder` (whose memory is shared) on its memory; returns the reader's id. */
  open(decoder: WasmRecordDecoder): number {
    const reader = this.nextReader++;
    this.worker.postMessage({ type: 'open', reader, module: decoder.module, memory: decoder.memory });
    return reader;
  }

  /** Forgets a reader's memory (its jobs have all been answered). */
  close(reader: number): void {
    if (!this.failure) this.worker.postMessage({ type: 'close', reader });
  }

  /**
   * Decodes `count` records at byte `records` of the reader's memory into
   * fixed columns at byte `columns`; resolves to a buffer of their own the
   * worker copied them to when `copyBytes` > 0, else to undefined (they are
   * in the shared memory).
   */
  decode(
    reader: number,
    records: number,
    count: number,
    columns: number,
    copyBytes: number,
  ): Promise<ArrayBuffer | undefined> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const reply = new Promise<Reply>((resolve, reject) => this.jobs.set(id, { resolve, reject }));
    if (this.jobs.size === 1) this.worker.ref();
    this.worker.postMessage({ id, reader, records, count, columns, copyBytes });
    return reply.then(({ buffer }) => buffer);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.ready = false;
    this.onStarted();
    for (const job of this.jobs.values()) job.reject(error);
    this.jobs.clear();
    if (shared === this) shared = null;
  }
}

let shared: LasDecodeThread | null = null;

/**
 * The process-wide decode thread, started on first use and kept between
 * files (it loads its decoder once; idle, it does not keep the process alive).
 */
export function lasDecodeThread(): LasDecodeThread {
  shared ??= new LasDecodeThread();
  return shared;
}
