import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { DIMENSIONS, type DimensionName } from '../core/dimensions.js';
import { Cancelled } from '../core/errors.js';

type AnyTyped = Float64Array | Float32Array | Uint8Array | Uint16Array;
type Ctor = { new (buffer: ArrayBufferLike): AnyTyped; readonly BYTES_PER_ELEMENT: number };

/**
 * A column of `n` values in shared memory: the gathered cloud crosses to worker threads (the product lanes
 * that read the classified cloud) as it is, instead of as a shared copy made beside it (1 GB more for a 1 GB
 * survey while the products ran).
 */
function sharedColumn<T extends AnyTyped>(Type: Ctor, n: number): T {
  return new Type(new SharedArrayBuffer(n * Type.BYTES_PER_ELEMENT)) as T;
}

/** Options of {@link gatherCloud}. */
export interface GatherOptions {
  /**
   * Points expected (a reader's header count): the columns are allocated at
   * this size once, so they hold no spare room (they still grow if more come).
   */
  expected?: number;
}

/**
 * Columns kept on disk rather than in memory: every column but `keep` (x, y, z
 * always kept) and every extra-bytes attribute is appended to a file of its own
 * in `dir` as the chunks arrive, and read back chunk by chunk by
 * {@link SpilledColumns.chunks}. The files' bytes sit in the page cache, which
 * the kernel reclaims, not in the process's resident memory.
 */
export interface SpillOptions {
  dir: string;
  keep: readonly DimensionName[];
}

/**
 * Gathers chunks into one chunk holding every dimension present in the first
 * chunk (columns grown geometrically, or allocated once at the expected
 * count). Neighbourhood filters (noise, ground, HAG, buildings) need the
 * whole area at once.
 */
export async function gatherCloud(
  chunks: AsyncIterable<PointChunk> | Iterable<PointChunk>,
  context: StepContext = {},
  options: GatherOptions = {},
): Promise<PointChunk> {
  return gather(chunks, context, options, null);
}

/**
 * {@link gatherCloud} with the columns outside `spill.keep` on disk: the cloud
 * holds the kept columns, `spilled` the others (close it when done: it deletes
 * its files).
 */
export async function gatherCloudSpilled(
  chunks: AsyncIterable<PointChunk> | Iterable<PointChunk>,
  context: StepContext,
  options: GatherOptions & { spill: SpillOptions },
): Promise<{ cloud: PointChunk; spilled: SpilledColumns }> {
  const spilled = new SpilledColumns(options.spill.dir);
  try {
    return { cloud: await gather(chunks, context, options, { spilled, keep: options.spill.keep }), spilled };
  } catch (err) {
    spilled.close();
    throw err;
  }
}

async function gather(
  chunks: AsyncIterable<PointChunk> | Iterable<PointChunk>,
  context: StepContext,
  options: GatherOptions,
  spill: { spilled: SpilledColumns; keep: readonly DimensionName[] } | null,
): Promise<PointChunk> {
  let capacity = 0;
  let count = 0;
  const columns = new Map<string, AnyTyped>();
  const extra = new Map<string, Float64Array>();
  let names: DimensionName[] | null = null;
  let extraNames: string[] = [];
  const spilled = spill?.spilled ?? null;
  const keep = spill ? new Set<DimensionName>(['x', 'y', 'z', ...spill.keep]) : null;
  for await (const chunk of chunks) {
    if (context.signal?.aborted) throw new Cancelled();
    if (names === null) {
      names = (Object.keys(DIMENSIONS) as DimensionName[]).filter((n) => chunk[n] !== undefined);
      extraNames = Object.keys(chunk.extra ?? {});
      if (spilled && keep) {
        for (const n of names) if (!keep.has(n)) spilled.add(n, DIMENSIONS[n].type as unknown as Ctor);
        for (const n of extraNames) spilled.add(n, Float64Array, true);
        names = names.filter((n) => keep.has(n));
        extraNames = [];
      }
    }
    spilled?.append(chunk);
    if (count + chunk.count > capacity) {
      const expected = capacity === 0 ? (options.expected ?? 0) : 0;
      capacity = expected >= count + chunk.count ? expected : Math.max(count + chunk.count, capacity * 2, 65536);
      for (const n of names) {
        const Type = DIMENSIONS[n].type as unknown as Ctor;
        const next = sharedColumn(Type, capacity);
        const prev = columns.get(n);
        if (prev) next.set(prev.subarray(0, count) as never);
        columns.set(n, next);
      }
      for (const n of extraNames) {
        const next = sharedColumn<Float64Array>(Float64Array, capacity);
        const prev = extra.get(n);
        if (prev) next.set(prev.subarray(0, count));
        extra.set(n, next);
      }
    }
    for (const n of names) {
      const src = chunk[n] as AnyTyped | undefined;
      if (src) columns.get(n)!.set(src.subarray(0, chunk.count) as never, count);
    }
    for (const n of extraNames) {
      const src = chunk.extra?.[n];
      if (src) extra.get(n)!.set(src.subarray(0, chunk.count), count);
    }
    count += chunk.count;
  }
  const out: Record<string, unknown> = { count };
  if (names === null) return { count: 0, x: new Float64Array(0), y: new Float64Array(0), z: new Float64Array(0) };
  for (const n of names) out[n] = columns.get(n)!.subarray(0, count);
  if (extraNames.length > 0) {
    out.extra = Object.fromEntries(extraNames.map((n) => [n, extra.get(n)!.subarray(0, count)]));
  }
  return out as unknown as PointChunk;
}

interface SpillFile {
  name: string;
  Type: Ctor;
  extra: boolean;
  file: string;
  fd: number;
}

/**
 * Point columns held in files, one a column, appended in point order: what a
 * gathered cloud does not need in memory (times, angles, colours... wanted
 * only again when the cloud is written out). Synchronous I/O on the page cache.
 */
export class SpilledColumns {
  private readonly files: SpillFile[] = [];
  private readonly stem: string;
  private count = 0;

  constructor(dir: string) {
    this.stem = path.join(dir, `spill-${randomBytes(6).toString('hex')}`);
  }

  /** The spilled columns' names (extra-bytes attributes included). */
  get names(): string[] {
    return this.files.map((f) => f.name);
  }

  add(name: string, Type: Ctor, extra = false): void {
    const file = `${this.stem}-${this.files.length}.bin`;
    const fd = openSync(file, 'wx+', 0o600);
    this.files.push({ name, Type, extra, file, fd });
  }

  append(chunk: PointChunk): void {
    const n = chunk.count;
    for (const f of this.files) {
      const src = (f.extra ? chunk.extra?.[f.name] : chunk[f.name as DimensionName]) as AnyTyped | undefined;
      const bytes = n * f.Type.BYTES_PER_ELEMENT;
      // A chunk without the column (a reader may leave one out) spills zeros, so every file stays in step.
      const view = src ? new Uint8Array(src.buffer, src.byteOffset, bytes) : new Uint8Array(bytes);
      let done = 0;
      while (done < bytes)
        done += writeSync(f.fd, view, done, bytes - done, this.count * f.Type.BYTES_PER_ELEMENT + done);
    }
    this.count += n;
  }

  /**
   * Points `start` to `end` of the spilled columns, as new arrays: all of them, or the dimensions named in
   * `only` (no extra-bytes attribute then).
   */
  read(start: number, end: number, only?: ReadonlySet<string>): Partial<PointChunk> {
    return this.readFiles(
      this.files.filter((f) => !only || (!f.extra && only.has(f.name))),
      start,
      end,
    );
  }

  private readFiles(files: readonly SpillFile[], start: number, end: number): Partial<PointChunk> {
    const out: Record<string, unknown> = {};
    const extra: Record<string, Float64Array> = {};
    for (const f of files) {
      const column = new f.Type(new ArrayBuffer((end - start) * f.Type.BYTES_PER_ELEMENT));
      const view = new Uint8Array(column.buffer, 0, column.byteLength);
      let done = 0;
      while (done < view.byteLength) {
        const got = readSync(f.fd, view, done, view.byteLength - done, start * f.Type.BYTES_PER_ELEMENT + done);
        if (got === 0) throw new Error(`spilled column ${f.name} is short of points ${start}..${end}`);
        done += got;
      }
      if (f.extra) extra[f.name] = column as Float64Array;
      else out[f.name] = column;
    }
    if (Object.keys(extra).length > 0) out.extra = extra;
    return out as Partial<PointChunk>;
  }

  /**
   * The whole cloud again in chunks of at most `size` points: `cloud`'s columns (views) with the spilled ones
   * (read back) beside them; a column present in `cloud` wins over its spilled copy (a colourised cloud's new
   * red, green and blue). `only`: read back only these spilled dimensions (no extra-bytes attribute).
   */
  *chunks(cloud: PointChunk, size = 65536, only?: ReadonlySet<string>): Iterable<PointChunk> {
    if (cloud.count !== this.count)
      throw new Error(`spilled columns hold ${this.count} points, the cloud ${cloud.count}`);
    const files = this.files.filter((f) =>
      f.extra
        ? !only && !(cloud.extra && f.name in cloud.extra)
        : (!only || only.has(f.name)) && cloud[f.name as DimensionName] === undefined,
    );
    let start = 0;
    for (const part of splitCloud(cloud, size)) {
      const back = this.readFiles(files, start, start + part.count);
      start += part.count;
      const extra = { ...(part.extra ?? {}), ...(back.extra ?? {}) };
      yield { ...back, ...part, ...(Object.keys(extra).length > 0 ? { extra } : {}) } as PointChunk;
    }
  }

  /** Closes and deletes the files (idempotent). */
  close(): void {
    for (const f of this.files.splice(0)) {
      try {
        closeSync(f.fd);
      } finally {
        try {
          unlinkSync(f.file);
        } catch {
          // Already gone.
        }
      }
    }
  }
}

/** Splits one big chunk into views of at most `size` points (for writers). */
export function* splitCloud(cloud: PointChunk, size = 65536): Iterable<PointChunk> {
  const names = (Object.keys(DIMENSIONS) as DimensionName[]).filter((n) => cloud[n] !== undefined);
  for (let s = 0; s < cloud.count; s += size) {
    const e = Math.min(cloud.count, s + size);
    const part: Record<string, unknown> = { count: e - s };
    for (const n of names) part[n] = (cloud[n] as AnyTyped).subarray(s, e);
    if (cloud.extra) {
      part.extra = Object.fromEntries(Object.entries(cloud.extra).map(([k, v]) => [k, v.subarray(s, e)]));
    }
    yield part as unknown as PointChunk;
  }
}
