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
  let capacity = 0;
  let count = 0;
  const columns = new Map<string, AnyTyped>();
  const extra = new Map<string, Float64Array>();
  let names: DimensionName[] | null = null;
  let extraNames: string[] = [];
  for await (const chunk of chunks) {
    if (context.signal?.aborted) throw new Cancelled();
    if (names === null) {
      names = (Object.keys(DIMENSIONS) as DimensionName[]).filter((n) => chunk[n] !== undefined);
      extraNames = Object.keys(chunk.extra ?? {});
    }
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
