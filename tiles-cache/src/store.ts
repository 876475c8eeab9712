import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { InvalidRange } from './errors.js';

/** What every backend knows about a stored object. */
export interface ObjectInfo {
  key: string;
  /** Size in bytes. */
  size: number;
  /** Opaque entity tag, quoted as in HTTP; changes whenever the content changes. */
  etag: string;
  /** Last modification time. */
  mtime: Date;
  contentType?: string;
}

/** Inclusive byte range, as in an HTTP `Range: bytes=start-end` header; `end` defaults to the last byte. */
export interface ByteRange {
  start: number;
  end?: number;
}

/** A body the store can consume. */
export type Body = Readable | AsyncIterable<Uint8Array> | Uint8Array | string;

export interface PutOptions {
  contentType?: string;
  /**
   * Bytes a memory front keeps once stored, so that the next read of the object is served from memory (a
   * vector tile just made). They are kept as given, not copied: the caller must never change them afterwards.
   */
  keepInMemory?: boolean;
}

export interface GetOptions {
  range?: ByteRange;
}

/** The answer of `get`: a stream of the (ranged) content with the object's info. */
export interface GetResult extends ObjectInfo {
  body: Readable;
  /** The inclusive range served, when one was asked. */
  range?: { start: number; end: number };
  /**
   * The bytes the body streams, when the store holds them in memory (the memory front): read them here
   * instead of the body, without a copy; never to be changed (they are the store's).
   */
  bytes?: Buffer;
}

/**
 * The object store every produced file goes through. Keys are checked with
 * `checkKey`; writes are atomic (readers see the old object or the new one,
 * never a partial one).
 */
export interface ObjectStore {
  /** Backend id: `fs`, `s3`, or `memory+<inner>`. */
  readonly kind: string;
  put(key: string, body: Body, options?: PutOptions): Promise<ObjectInfo>;
  /**
   * Stores a copy of a local file (atomic as `put`), where the backend copies files its own way (a local
   * folder: in the kernel, no byte through JavaScript); see {@link putLocalFile}.
   */
  putFile?(key: string, file: string, options?: PutOptions): Promise<ObjectInfo>;
  /** Throws `ObjectNotFound` when missing, `InvalidRange` for an unsatisfiable range. */
  get(key: string, options?: GetOptions): Promise<GetResult>;
  /** Info of the object, or null when missing. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Every object whose key starts with `prefix`, sorted by key. */
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /** Deletes one object; true when it existed. */
  delete(key: string): Promise<boolean>;
  /** Deletes every object under `prefix`; returns how many were deleted. */
  deletePrefix(prefix: string): Promise<number>;
  close?(): Promise<void>;
}

/**
 * Stores a local file under `key`: the backend's own copy when it has one, else its bytes streamed.
 *
 * @example
 * await putLocalFile(store, 'projects/p/assets/a/r1/a.laz', '/tmp/job/classified.laz');
 */
export function putLocalFile(store: ObjectStore, key: string, file: string, options?: PutOptions): Promise<ObjectInfo> {
  return store.putFile ? store.putFile(key, file, options) : store.put(key, createReadStream(file), options);
}

/** Turns any accepted body into an async iterable of byte chunks. */
export async function* bodyChunks(body: Body): AsyncIterable<Uint8Array> {
  if (typeof body === 'string') {
    yield Buffer.from(body);
    return;
  }
  if (body instanceof Uint8Array) {
    yield body;
    return;
  }
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
    yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
  }
}

/** Resolves a requested range against an object size; throws `InvalidRange` when unsatisfiable. */
export function resolveRange(range: ByteRange, size: number): { start: number; end: number } {
  const { start } = range;
  const end = Math.min(range.end ?? size - 1, size - 1);
  if (!Number.isInteger(start) || start < 0 || (range.end !== undefined && !Number.isInteger(range.end))) {
    throw new InvalidRange(`range start and end must be non-negative integers (got ${start}-${range.end ?? ''})`);
  }
  if (start >= size || end < start) {
    throw new InvalidRange(`range ${start}-${range.end ?? ''} is outside the object (${size} bytes)`);
  }
  return { start, end };
}

/** Reads a whole stream into one new buffer (for small objects and tests): its chunks are copied once. */
export async function readAll(stream: AsyncIterable<Uint8Array | string>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of stream) parts.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(parts);
}

/** Wraps bytes already in memory as a stream. */
export function bufferStream(bytes: Uint8Array): Readable {
  return Readable.from([bytes], { objectMode: false });
}
