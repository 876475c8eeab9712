import { checkKey } from './keys.js';
import {
  type Body,
  bufferStream,
  type GetOptions,
  type GetResult,
  type ObjectInfo,
  type ObjectStore,
  type PutOptions,
  putLocalFile,
  readAll,
  resolveRange,
} from './store.js';

export interface MemoryFrontOptions {
  /** Total bytes kept in memory (default 64 MiB). */
  maxBytes?: number;
  /** Objects larger than this are never cached (default 1 MiB): tiles are hot and small, LAS files are not. */
  maxObjectBytes?: number;
}

interface Entry {
  info: ObjectInfo;
  bytes: Buffer;
}

/**
 * A bounded LRU memory cache in front of another store, sized in bytes. Reads
 * of small objects are served from memory (ranges included; a whole object's
 * bytes are handed over too, as `bytes`); writes and deletes go through and
 * invalidate; a write asked to (`keepInMemory`) leaves its bytes in memory.
 * Meant for hot tiles in an API process; a second process writing the same
 * store is seen only after eviction, which is fine for immutable tile content.
 *
 * @example
 * const store = new MemoryFrontStore(new FsStore(root), { maxBytes: 128 << 20 });
 */
export class MemoryFrontStore implements ObjectStore {
  readonly kind: string;
  readonly maxBytes: number;
  readonly maxObjectBytes: number;
  private readonly entries = new Map<string, Entry>();
  /** Keys with a write or delete under way that involves keeping bytes, and the latest one's ticket (see put). */
  private readonly tickets = new Map<string, number>();
  private serial = 0;
  private bytes = 0;
  /** Counters for monitoring and tests. */
  readonly stats = { hits: 0, misses: 0, evictions: 0 };

  constructor(
    readonly inner: ObjectStore,
    options: MemoryFrontOptions = {},
  ) {
    this.kind = `memory+${inner.kind}`;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.maxObjectBytes = Math.min(options.maxObjectBytes ?? 1024 * 1024, this.maxBytes);
  }

  /** Bytes currently held in memory. */
  get cachedBytes(): number {
    return this.bytes;
  }

  /** Number of objects currently held in memory. */
  get cachedCount(): number {
    return this.entries.size;
  }

  private forget(key: string): void {
    const e = this.entries.get(key);
    if (e) {
      this.entries.delete(key);
      this.bytes -= e.bytes.byteLength;
    }
  }

  private remember(info: ObjectInfo, bytes: Buffer): void {
    if (bytes.byteLength > this.maxObjectBytes) return;
    this.forget(info.key);
    this.entries.set(info.key, { info, bytes });
    this.bytes += bytes.byteLength;
    // Map iteration order is insertion order: the first key is the least recently used.
    while (this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.forget(oldest);
      this.stats.evictions++;
    }
  }

  /**
   * A write or delete of `key` starts: a put under way that would keep its bytes must not (this one may land
   * after it). Returns this operation's ticket, for {@link release}.
   */
  private claim(key: string): number {
    const ticket = ++this.serial;
    this.tickets.set(key, ticket);
    return ticket;
  }

  private release(key: string, ticket: number): void {
    if (this.tickets.get(key) === ticket) this.tickets.delete(key);
  }

  /**
   * A write or delete of `key` on the backend that keeps nothing in memory: claimed while it runs only when a
   * put that would keep bytes is under way (so that put does not keep them; see claim).
   */
  private async through<T>(key: string, op: () => Promise<T>): Promise<T> {
    this.forget(key);
    if (!this.tickets.has(key)) return op();
    const ticket = this.claim(key);
    try {
      return await op();
    } finally {
      this.release(key, ticket);
    }
  }

  async put(key: string, body: Body, options?: PutOptions): Promise<ObjectInfo> {
    const keep = options?.keepInMemory === true && body instanceof Uint8Array && body.byteLength <= this.maxObjectBytes;
    if (!keep) return this.through(key, () => this.inner.put(key, body, options));
    this.forget(key);
    const ticket = this.claim(key);
    try {
      const info = await this.inner.put(key, body, options);
      if (this.tickets.get(key) === ticket) {
        const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
        this.remember({ ...info, size: bytes.byteLength }, bytes);
      }
      return info;
    } finally {
      this.release(key, ticket);
    }
  }

  /** A local file, copied by the backend's own means when it has them; nothing kept in memory. */
  putFile(key: string, file: string, options?: PutOptions): Promise<ObjectInfo> {
    return this.through(key, () => putLocalFile(this.inner, key, file, options));
  }

  /** The entry held for `key`, now the most recently used; counted as a hit or a miss. */
  private lookup(key: string): Entry | undefined {
    const hit = this.entries.get(key);
    if (!hit) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  async get(key: string, options: GetOptions = {}): Promise<GetResult> {
    const hit = this.lookup(key);
    if (hit) return this.serve(hit, options);
    if (options.range) {
      // A range of a large object (a COG read by parts) is asked of the backend alone, never read whole.
      const info = await this.inner.head(key);
      if (!info || info.size > this.maxObjectBytes) return this.inner.get(key, options);
    }
    // Otherwise one call to the backend, missing or not (a head first cost a file status and, for a missing
    // tile, a second error): small objects are read whole and kept, large ones streamed as they come.
    const whole = await this.inner.get(key);
    if (whole.size <= this.maxObjectBytes) {
      const bytes = await readAll(whole.body);
      const { body: _, ...info } = whole;
      const entry = { info: { ...info, size: bytes.byteLength }, bytes };
      this.remember(entry.info, bytes);
      return this.serve(entry, options);
    }
    if (!options.range) return whole;
    whole.body.destroy();
    return this.inner.get(key, options);
  }

  private serve(entry: Entry, options: GetOptions): GetResult {
    if (options.range) {
      const range = resolveRange(options.range, entry.bytes.byteLength);
      return { ...entry.info, body: bufferStream(entry.bytes.subarray(range.start, range.end + 1)), range };
    }
    return { ...entry.info, body: bufferStream(entry.bytes), bytes: entry.bytes };
  }

  /**
   * Holds `bytes` under `key` in memory only: the backend never sees them. For values that can be made again
   * at will (vector tiles, made from the database), where writing each to the backend would cost more than
   * making it again once evicted. Seen by {@link recall}, `get` and `head` of this store until evicted or
   * deleted; false when too large to hold.
   */
  hold(key: string, bytes: Buffer, options: { etag: string; contentType?: string }): boolean {
    checkKey(key);
    if (bytes.byteLength > this.maxObjectBytes || this.tickets.has(key)) return false;
    const info: ObjectInfo = { key, size: bytes.byteLength, etag: options.etag, mtime: new Date() };
    if (options.contentType) info.contentType = options.contentType;
    this.remember(info, bytes);
    return true;
  }

  /** The bytes and info held in memory for `key` (now the most recently used), without asking the backend. */
  recall(key: string): { bytes: Buffer; info: ObjectInfo } | undefined {
    return this.lookup(key);
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const hit = this.entries.get(key);
    if (hit) return hit.info;
    return this.inner.head(key);
  }

  list(prefix: string): AsyncIterable<ObjectInfo> {
    return this.inner.list(prefix);
  }

  delete(key: string): Promise<boolean> {
    return this.through(key, () => this.inner.delete(key));
  }

  async deletePrefix(prefix: string): Promise<number> {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.forget(key);
    const claimed = [...this.tickets.keys()]
      .filter((k) => k.startsWith(prefix))
      .map((k) => [k, this.claim(k)] as const);
    try {
      return await this.inner.deletePrefix(prefix);
    } finally {
      for (const [key, ticket] of claimed) this.release(key, ticket);
    }
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.bytes = 0;
    await this.inner.close?.();
  }
}
