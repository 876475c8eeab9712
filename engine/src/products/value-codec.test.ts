import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { isPacked, packValue, unpackValue } from './value-codec.js';

/**
 * Where `actual` differs from `expected` as a structured clone would keep it
 * (same keys in the same order, Object.is on numbers, same typed array
 * classes, holes kept), or null.
 */
function difference(actual: unknown, expected: unknown, at = '$'): string | null {
  if (expected === null || typeof expected !== 'object') {
    return Object.is(actual, expected) ? null : `${at}: ${String(actual)} instead of ${String(expected)}`;
  }
  if (actual === null || typeof actual !== 'object') return `${at}: not an object`;
  if (ArrayBuffer.isView(expected)) {
    if (actual.constructor !== expected.constructor) return `${at}: a ${actual.constructor.name}`;
    const a = actual as unknown as ArrayLike<number>;
    const e = expected as unknown as ArrayLike<number>;
    if (a.length !== e.length) return `${at}: length ${a.length} instead of ${e.length}`;
    for (let i = 0; i < e.length; i++) if (!Object.is(a[i], e[i])) return `${at}[${i}]: ${a[i]} instead of ${e[i]}`;
    return null;
  }
  if (Array.isArray(actual) !== Array.isArray(expected)) return `${at}: array or not`;
  const keys = Object.keys(actual);
  const expectedKeys = Object.keys(expected);
  if (keys.join() !== expectedKeys.join()) return `${at}: keys ${keys.join()} instead of ${expectedKeys.join()}`;
  for (const key of expectedKeys) {
    const d = difference(
      (actual as Record<string, unknown>)[key],
      (expected as Record<string, unknown>)[key],
      `${at}.${key}`,
    );
    if (d) return d;
  }
  if (Array.isArray(expected) && (actual as unknown[]).length !== expected.length) return `${at}: length`;
  return null;
}

/** A value packed, posted to another port (as to a lane thread) and unpacked there. */
function throughPort<T>(value: unknown): { back: T; packed: unknown } {
  const { port1, port2 } = new MessageChannel();
  const packed = packValue(value);
  port1.postMessage(packed);
  const received = receiveMessageOnPort(port2)!.message;
  port1.close();
  return { back: unpackValue<T>(received), packed: received };
}

function contours(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    elevation: 100 + i * 0.5,
    kind: i % 5 === 0 ? 'major' : 'minor',
    coordinates: Float64Array.from({ length: 2 * (3 + (i % 7)) }, (_, j) => 1000 * i + j + 0.25),
    closed: i % 3 === 0,
  }));
}

describe('packed product values', () => {
  it('give back the contours exactly, their coordinates views of one shared column', () => {
    const lines = contours(500);
    lines[7]!.coordinates[0] = -0;
    lines[8]!.coordinates[1] = Number.NaN;
    const value = { lines, crs: { epsg: 3005, name: 'NAD83 / BC Albers' }, written: { file: 'c.geojson' } };
    const { back, packed } = throughPort<typeof value>(value);
    expect(difference(back, value)).toBeNull();
    // Each line's coordinates are a view of the same shared buffer, not a copy of its own.
    const buffers = new Set(back.lines.map((l) => l.coordinates.buffer));
    expect(buffers.size).toBe(1);
    const [buffer] = buffers;
    expect(buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(buffer!.byteLength).toBe(8 * lines.reduce((s, l) => s + l.coordinates.length, 0));
    // Shared with the packed form that crossed: a second unpacking sees a write of the first.
    back.lines[3]!.coordinates[2] = 12345;
    expect(unpackValue<typeof value>(packed).lines[3]!.coordinates[2]).toBe(12345);
    expect(lines[3]!.coordinates[2]).not.toBe(12345);
  });

  it('take lines already in one shared buffer, end to end, as that buffer (no copy); other shared views as they are', () => {
    const lines = contours(300);
    const total = lines.reduce((s, l) => s + l.coordinates.length, 0);
    const all = new Float64Array(new SharedArrayBuffer(8 * (total + 10)));
    let at = 5;
    const shared = lines.map((l) => {
      const coordinates = all.subarray(at, at + l.coordinates.length);
      coordinates.set(l.coordinates);
      at += l.coordinates.length;
      return { ...l, coordinates };
    });
    const { back } = throughPort<typeof shared>(shared);
    expect(difference(back, lines)).toBeNull();
    expect(new Set(back.map((l) => l.coordinates.buffer)).size).toBe(1);
    // The lines' own buffer: a write through the original is seen through what came back.
    shared[4]!.coordinates[1] = 777;
    expect(back[4]!.coordinates[1]).toBe(777);

    // Views of a shared buffer out of order: nothing copied into a column, each still a view of that buffer.
    const swapped = [shared[1]!, shared[0]!, ...shared.slice(2)];
    const other = throughPort<typeof swapped>(swapped).back;
    expect(difference(other, swapped)).toBeNull();
    other[0]!.coordinates[0] = 4242;
    expect(shared[1]!.coordinates[0]).toBe(4242);
  });

  it('give back crowns (records with number[][] rings or null) and tree tops exactly', () => {
    const tops = Array.from({ length: 300 }, (_, i) => ({
      treeId: i + 1,
      x: 500_000 + i * 1.5,
      y: 6e6 - i,
      height: 3 + (i % 20),
    }));
    const crowns = tops.map((t, i) => ({
      treeId: t.treeId,
      height: t.height,
      crownArea: i * 0.75,
      ring:
        i % 11 === 0
          ? null
          : Array.from({ length: 4 + (i % 9) }, (_, j) =>
              j % 4 === 3 ? [t.x + j, t.y - j, 12.5] : [t.x + j, t.y - j],
            ),
    }));
    const chm = { data: new Float32Array(40_000).fill(1.5), width: 200, height: 200 };
    const value = { crowns, tops: { tops, chm } };
    const { back } = throughPort<typeof value>(value);
    expect(difference(back, value)).toBeNull();
    // The CHM's large array crosses shared, not copied.
    expect(back.tops.chm.data.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('give back mixed, sparse and odd values exactly', () => {
    const sparse: unknown[] = [1, 2, 3, 4, 5];
    delete sparse[2];
    const value = {
      numbers: [0, -0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -1e308, 2 ** 53 + 2],
      few: [1, 2],
      flags: [true, false, true, true],
      names: ['a', 'b', 'a', 'é', ''],
      maybe: [1, null, 3, undefined, 5],
      sparse,
      mixed: [1, 'one', { a: 1 }, [1], null, new Uint8Array([1, 2])],
      unlike: [{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1 }, { a: 1, b: 2, c: 3 }],
      nested: [
        { id: 1, parts: [{ p: [1, 2] }, { p: [] }] },
        { id: 2, parts: [] },
        { id: 3, parts: [{ p: [3] }] },
        { id: 4, parts: [{ p: [4, 5, 6] }] },
      ],
      typed: [new Int32Array([1, -2]), new Int32Array(0), new Int32Array([3]), new Int32Array([4, 5, 6])],
      classes: [new Uint8Array([1]), new Uint16Array([2]), new Uint8Array([3]), new Uint8Array([4])],
      views: Array.from({ length: 5 }, (_, i) => new Float64Array(100).fill(i).subarray(10, 12 + i)),
      date: new Date(0),
      map: new Map([[1, 'a']]),
      __nuagePacked: 'an object of the value with the tag key',
      empty: [],
      objects: { a: { b: { c: [1, 2, 3, 4, 5] } } },
    };
    const { back } = throughPort<typeof value>(value);
    expect(difference(back, value)).toBeNull();
    expect(back.date).toEqual(new Date(0));
    expect(back.map.get(1)).toBe('a');
    expect(back.views[4]!.length).toBe(6);
    // Values that are no object: packed and given back.
    for (const v of [undefined, null, 3, 'x', true]) expect(unpackValue(packValue(v))).toBe(v);
  });

  it('shares large typed arrays once, even when held twice, and leaves the value packed as it was', () => {
    const x = Float64Array.from({ length: 20_000 }, (_, i) => i * 0.5);
    const small = new Uint16Array(10).fill(7);
    const value = { cloud: { x, small }, again: { x } };
    const packed = packValue(value);
    const { back } = throughPort<typeof value>(packed);
    expect(value.cloud.x).toBe(x);
    expect(back.cloud.x.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(back.again.x.buffer).toBe(back.cloud.x.buffer);
    expect(back.cloud.x[19_999]).toBe(9999.5);
    expect(back.cloud.small.buffer).not.toBeInstanceOf(SharedArrayBuffer);
    expect(packValue(packed)).toBe(packed);
    expect(isPacked(packed)).toBe(true);
    expect(isPacked(value)).toBe(false);
    expect(unpackValue(value)).toBe(value);
  });

  it('hands a value with a cycle on as it is, its large arrays shared', () => {
    const data = new Float32Array(50_000);
    const value: { data: Float32Array; items: unknown[]; self?: unknown } = { data, items: [1, 2, 3, 4] };
    value.self = value;
    const { back } = throughPort<typeof value>(value);
    expect(back.self).toBe(back);
    expect(back.items).toEqual([1, 2, 3, 4]);
    expect(back.data.buffer).toBeInstanceOf(SharedArrayBuffer);
    const records: Array<{ id: number; me?: unknown }> = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
    records[2]!.me = records;
    for (const r of records) r.me = records;
    const again = throughPort<typeof records>(records).back;
    expect(again[0]!.me).toBe(again);
    expect(again.map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });

  it('costs a few objects to post, whatever the number of lines', () => {
    const packed = packValue({ lines: contours(5000) });
    // Objects in the packed form (not in its shared columns): what a structured clone walks.
    let objects = 0;
    const walk = (v: unknown) => {
      if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return;
      objects++;
      for (const child of Object.values(v)) walk(child);
    };
    walk(packed);
    expect(objects).toBeLessThan(20);
  });
});
