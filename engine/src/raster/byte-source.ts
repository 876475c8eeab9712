import { open } from 'node:fs/promises';
import { EngineError } from '../core/errors.js';

/**
 * Random access to the bytes of one file, wherever it lives: a local file, a
 * buffer, or an object store that answers range requests (the API's tiles
 * store). Readers of Cloud-Optimized GeoTIFFs fetch only the ranges they need
 * through it.
 */
export interface ByteSource {
  /** Size in bytes. */
  readonly size: number;
  /** `length` bytes from `offset` (fewer only at the end of the source). */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** Releases what the source holds open (a file handle). */
  close?(): Promise<void>;
}

/**
 * A byte source over a buffer.
 *
 * @example
 * const source = bufferByteSource(await readFile('dtm.tif'));
 */
export function bufferByteSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    async read(offset, length) {
      return bytes.subarray(offset, Math.min(bytes.length, offset + length));
    },
  };
}

/**
 * A byte source over a local file (positioned reads; close it when done).
 *
 * @example
 * const source = await fileByteSource('dtm.tif');
 * try { ... } finally { await source.close?.(); }
 */
export async function fileByteSource(path: string): Promise<ByteSource> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    throw new EngineError('NOT_FOUND', `cannot read ${path}: ${(cause as Error).message}`, { cause });
  }
  const { size } = await handle.stat();
  return {
    size,
    async read(offset, length) {
      const n = Math.max(0, Math.min(length, size - offset));
      const out = new Uint8Array(n);
      let done = 0;
      while (done < n) {
        const { bytesRead } = await handle.read(out, done, n - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done === n ? out : out.subarray(0, done);
    },
    async close() {
      await handle.close();
    },
  };
}
