/**
 * A minimal ZIP writer (PKWARE APPNOTE 6.3): stored or deflated members,
 * UTF-8 names, no ZIP64 (members and the archive stay under 4 GiB). Members
 * are streamed through node:zlib and their sizes and CRC-32 patched into the
 * local header afterwards, so no data descriptors are needed: every reader
 * (unzip, GDAL's /vsizip/, Windows Explorer, QGIS) opens the result.
 */
import { once } from 'node:events';
import { type FileHandle, open } from 'node:fs/promises';
import { crc32, createDeflateRaw } from 'node:zlib';
import { InvalidInput } from '../core/errors.js';

/** Bytes that fit the 32-bit size and offset fields of a ZIP without ZIP64. */
const ZIP32_LIMIT = 0xffff_ffff;

/** Options of {@link ZipWriter.create}. */
export interface ZipWriterOptions {
  /** Modification time stamped on every member (default: now). */
  date?: Date;
}

/** Options of {@link ZipWriter.add}. */
export interface ZipEntryOptions {
  /** Store the member as it is instead of deflating it. */
  store?: boolean;
  /**
   * Deflate level, 1–9 (default 4: on Shapefiles and DXF as small as 6 and
   * about twice as fast).
   */
  level?: number;
}

interface CentralEntry {
  name: Buffer;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** Member data: bytes, or chunks (sync or async) streamed one by one. */
export type ZipData = Uint8Array | string | Iterable<Uint8Array> | AsyncIterable<Uint8Array>;

function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, Math.min(2107, d.getFullYear()));
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

async function* chunksOf(data: ZipData): AsyncGenerator<Uint8Array> {
  if (typeof data === 'string') yield Buffer.from(data, 'utf8');
  else if (data instanceof Uint8Array) yield data;
  else yield* data;
}

/**
 * Writes a ZIP archive member by member.
 *
 * @example
 * const zip = await ZipWriter.create('layer.zip');
 * await zip.add('layer.cpg', 'UTF-8');
 * await zip.add('layer.shp', shpChunks());
 * const bytes = await zip.close();
 */
export class ZipWriter {
  private readonly entries: CentralEntry[] = [];
  private offset = 0;
  private closed = false;

  private constructor(
    private readonly handle: FileHandle,
    private readonly stamp: { time: number; date: number },
  ) {}

  /** Opens (truncates) `path` for writing. */
  static async create(path: string, options: ZipWriterOptions = {}): Promise<ZipWriter> {
    const handle = await open(path, 'w');
    return new ZipWriter(handle, dosDateTime(options.date ?? new Date()));
  }

  private async writeAt(bytes: Uint8Array, position: number): Promise<void> {
    let done = 0;
    while (done < bytes.byteLength) {
      const { bytesWritten } = await this.handle.write(bytes, done, bytes.byteLength - done, position + done);
      done += bytesWritten;
    }
  }

  private localHeader(name: Buffer, method: number, crc: number, compressed: number, size: number): Buffer {
    const h = Buffer.alloc(30 + name.length);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    h.writeUInt16LE(0x0800, 6); // bit 11: UTF-8 names
    h.writeUInt16LE(method, 8);
    h.writeUInt16LE(this.stamp.time, 10);
    h.writeUInt16LE(this.stamp.date, 12);
    h.writeUInt32LE(crc >>> 0, 14);
    h.writeUInt32LE(compressed, 18);
    h.writeUInt32LE(size, 22);
    h.writeUInt16LE(name.length, 26);
    h.writeUInt16LE(0, 28);
    name.copy(h, 30);
    return h;
  }

  /** Adds a member named `name` (forward slashes for folders). */
  async add(name: string, data: ZipData, options: ZipEntryOptions = {}): Promise<void> {
    if (this.closed) throw new Error('zip: add after close');
    const nameBytes = Buffer.from(name, 'utf8');
    const method = options.store ? 0 : 8;
    const start = this.offset;
    await this.writeAt(this.localHeader(nameBytes, method, 0, 0, 0), start);
    let position = start + 30 + nameBytes.length;
    let crc = 0;
    let size = 0;
    const sink = async (bytes: Uint8Array) => {
      await this.writeAt(bytes, position);
      position += bytes.byteLength;
    };
    if (method === 0) {
      for await (const chunk of chunksOf(data)) {
        crc = crc32(chunk, crc);
        size += chunk.byteLength;
        await sink(chunk);
      }
    } else {
      const deflate = createDeflateRaw({ level: options.level ?? 4 });
      const drained = (async () => {
        for await (const out of deflate) await sink(out as Buffer);
      })();
      drained.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
      try {
        for await (const chunk of chunksOf(data)) {
          crc = crc32(chunk, crc);
          size += chunk.byteLength;
          if (!deflate.write(chunk)) await Promise.race([once(deflate, 'drain'), drained]);
        }
        deflate.end();
      } catch (error) {
        deflate.destroy();
        throw error;
      }
      await drained;
    }
    const compressed = position - start - 30 - nameBytes.length;
    if (size > ZIP32_LIMIT || position > ZIP32_LIMIT) {
      throw new InvalidInput('zip', `${name} is too large for a ZIP without ZIP64 (${size} bytes)`);
    }
    await this.writeAt(this.localHeader(nameBytes, method, crc, compressed, size), start);
    this.entries.push({ name: nameBytes, method, crc, compressed, size, offset: start });
    this.offset = position;
  }

  /** Writes the central directory and closes the file; resolves to the archive's size in bytes. */
  async close(): Promise<number> {
    if (this.closed) return this.offset;
    this.closed = true;
    try {
      const centralStart = this.offset;
      const parts: Buffer[] = [];
      for (const e of this.entries) {
        const c = Buffer.alloc(46 + e.name.length);
        c.writeUInt32LE(0x02014b50, 0);
        c.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0 (so unzip keeps the mode below)
        c.writeUInt16LE(20, 6);
        c.writeUInt16LE(0x0800, 8);
        c.writeUInt16LE(e.method, 10);
        c.writeUInt16LE(this.stamp.time, 12);
        c.writeUInt16LE(this.stamp.date, 14);
        c.writeUInt32LE(e.crc >>> 0, 16);
        c.writeUInt32LE(e.compressed, 20);
        c.writeUInt32LE(e.size, 24);
        c.writeUInt16LE(e.name.length, 28);
        c.writeUInt32LE((0o100644 << 16) >>> 0, 38); // external attributes: regular file, rw-r--r--
        c.writeUInt32LE(e.offset, 42);
        e.name.copy(c, 46);
        parts.push(c);
      }
      const central = Buffer.concat(parts);
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(this.entries.length, 8);
      end.writeUInt16LE(this.entries.length, 10);
      end.writeUInt32LE(central.length, 12);
      end.writeUInt32LE(centralStart, 16);
      await this.writeAt(Buffer.concat([central, end]), centralStart);
      this.offset = centralStart + central.length + end.length;
      return this.offset;
    } finally {
      await this.handle.close();
    }
  }

  /** Closes the file without finishing the archive (after an error). */
  async abort(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.handle.close();
  }
}
