import { type FileHandle, open } from 'node:fs/promises';
import { InvalidInput } from '../core/errors.js';

/**
 * Random access to the bytes of a point cloud: a file read through a file
 * handle in bounded pieces, or a buffer already in memory (tests, fuzzing).
 */
export interface ByteSource {
  /** Total size in bytes. */
  readonly size: number;
  /** Reads exactly `length` bytes at `position`; throws InvalidInput past the end. */
  read(position: number, length: number, into?: Uint8Array): Promise<Uint8Array>;
  close(): Promise<void>;
  /** File path when the source is a file (workers reopen it). */
  readonly path?: string;
}

function checkRange(size: number, position: number, length: number, field: string): void {
  if (position < 0 || length < 0 || position + length > size) {
    throw new InvalidInput(
      field,
      `needs bytes ${position}..${position + length} but the file has ${size} bytes (truncated)`,
      position,
    );
  }
}

/** Opens a file as a byte source (one file handle, no whole-file read). */
export async function openFileSource(path: string): Promise<ByteSource> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InvalidInput('path', code === 'ENOENT' ? `no such file: ${path}` : `cannot open ${path} (${code})`);
  }
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    throw new InvalidInput('path', `not a regular file: ${path}`);
  }
  const size = stat.size;
  return {
    size,
    path,
    async read(position, length, into) {
      checkRange(size, position, length, 'file');
      const target = into && into.byteLength >= length ? into.subarray(0, length) : new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await handle.read(target, done, length - done, position + done);
        if (bytesRead === 0) throw new InvalidInput('file', 'unexpected end of file (truncated)', position + done);
        done += bytesRead;
      }
      return target;
    },
    async close() {
      await handle.close();
    },
  };
}

/** Wraps bytes already in memory as a byte source. */
export function memorySource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.byteLength,
    async read(position, length, into) {
      checkRange(bytes.byteLength, position, length, 'file');
      const view = bytes.subarray(position, position + length);
      if (into && into.byteLength >= length) {
        into.set(view);
        return into.subarray(0, length);
      }
      return view.slice();
    },
    async close() {},
  };
}
