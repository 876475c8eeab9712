import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectStore } from './store.js';
import { putLocalFile, readAll } from './store.js';

/** Keys that must never be accepted by any backend. */
export const HOSTILE_KEYS = [
  '',
  '../escape.txt',
  'projects/../../escape.txt',
  'projects/p/../../../etc/passwd',
  '/etc/passwd',
  '/abs/key',
  'projects\\p\\x',
  '..\\..\\windows',
  'projects/p/a\u0000b',
  'projects//double',
  'projects/./dot',
  'projects/p/',
  'C:/windows/system32',
  'projects/p/x\nnewline',
];

/** Deterministic pseudo-random bytes. */
function bytes(n: number, seed: number): Buffer {
  const b = Buffer.allocUnsafe(n);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    b[i] = s & 0xff;
  }
  return b;
}

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/**
 * The one behaviour every backend must have. Call it from a `*.test.ts` with a
 * factory that opens a fresh, empty store and a cleanup.
 */
export function runStoreConformance(
  name: string,
  open: () => Promise<{ store: ObjectStore; cleanup: () => Promise<void> }>,
): void {
  describe(`ObjectStore conformance: ${name}`, () => {
    let store: ObjectStore;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      ({ store, cleanup } = await open());
    });
    afterAll(async () => {
      await store?.close?.();
      await cleanup?.();
    });

    it('round-trips every body kind', async () => {
      const data = bytes(70_000, 1);
      await store.put('projects/p1/assets/a1/buffer.bin', data);
      await store.put('projects/p1/assets/a1/string.json', '{"a":1}');
      await store.put(
        'projects/p1/assets/a1/readable.bin',
        Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
      );
      async function* gen(): AsyncIterable<Uint8Array> {
        for (let i = 0; i < data.length; i += 4096) yield data.subarray(i, i + 4096);
      }
      const info = await store.put('projects/p1/assets/a1/iterable.bin', gen());
      expect(info.size).toBe(70_000);
      for (const k of ['buffer.bin', 'readable.bin', 'iterable.bin']) {
        const got = await store.get(`projects/p1/assets/a1/${k}`);
        expect(got.size).toBe(70_000);
        expect(sha(await readAll(got.body))).toBe(sha(data));
      }
      const s = await store.get('projects/p1/assets/a1/string.json');
      expect((await readAll(s.body)).toString()).toBe('{"a":1}');
    });

    it('streams a body larger than one upload part (20 MiB)', async () => {
      const part = bytes(1 << 20, 7);
      async function* gen(): AsyncIterable<Uint8Array> {
        for (let i = 0; i < 20; i++) {
          part[0] = i;
          yield Buffer.from(part);
        }
      }
      const expected = createHash('sha256');
      for (let i = 0; i < 20; i++) {
        part[0] = i;
        expected.update(part);
      }
      const info = await store.put('projects/p1/assets/big/cloud.laz', gen());
      expect(info.size).toBe(20 << 20);
      const got = await store.get('projects/p1/assets/big/cloud.laz');
      const h = createHash('sha256');
      for await (const c of got.body) h.update(c as Buffer);
      expect(h.digest('hex')).toBe(expected.digest('hex'));
      await store.delete('projects/p1/assets/big/cloud.laz');
    });

    it('stores a copy of a local file (the backend copying it its own way, or streamed); a missing one stores nothing', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'nuage-put-file-'));
      try {
        const data = bytes(300_000, 11);
        const file = path.join(dir, 'classified.laz');
        await writeFile(file, data);
        await store.put('projects/p1/assets/file/a.laz', 'old');
        const info = await putLocalFile(store, 'projects/p1/assets/file/a.laz', file, {
          contentType: 'application/vnd.laszip',
        });
        expect(info.size).toBe(300_000);
        const got = await store.get('projects/p1/assets/file/a.laz');
        expect(got.size).toBe(300_000);
        expect(sha(await readAll(got.body))).toBe(sha(data));
        // A copy: the local file changing afterwards leaves the object as it was.
        await writeFile(file, 'changed');
        expect(sha(await readAll((await store.get('projects/p1/assets/file/a.laz')).body))).toBe(sha(data));
        await expect(
          putLocalFile(store, 'projects/p1/assets/file/b.laz', path.join(dir, 'none.laz')),
        ).rejects.toThrow();
        expect(await store.head('projects/p1/assets/file/b.laz')).toBeNull();
        await expect(putLocalFile(store, '../escape.laz', file)).rejects.toThrow();
        await store.deletePrefix('projects/p1/assets/file/');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('serves byte ranges', async () => {
      const data = bytes(10_000, 3);
      await store.put('projects/p1/assets/a1/range.bin', data);
      const r1 = await store.get('projects/p1/assets/a1/range.bin', { range: { start: 100, end: 199 } });
      expect(r1.range).toEqual({ start: 100, end: 199 });
      expect(r1.size).toBe(10_000);
      expect(Buffer.compare(await readAll(r1.body), data.subarray(100, 200))).toBe(0);
      const r2 = await store.get('projects/p1/assets/a1/range.bin', { range: { start: 9_990 } });
      expect(Buffer.compare(await readAll(r2.body), data.subarray(9_990))).toBe(0);
      const r3 = await store.get('projects/p1/assets/a1/range.bin', { range: { start: 9_000, end: 50_000 } });
      expect(r3.range).toEqual({ start: 9_000, end: 9_999 });
      expect((await readAll(r3.body)).length).toBe(1_000);
      await expect(store.get('projects/p1/assets/a1/range.bin', { range: { start: 10_000 } })).rejects.toMatchObject({
        code: 'INVALID_RANGE',
      });
      await expect(
        store.get('projects/p1/assets/a1/range.bin', { range: { start: 50, end: 10 } }),
      ).rejects.toMatchObject({ code: 'INVALID_RANGE' });
    });

    it('reports size, etag and mtime; etag changes with content', async () => {
      const before = Date.now();
      const put = await store.put('projects/p1/assets/a1/head.txt', 'first');
      const h1 = await store.head('projects/p1/assets/a1/head.txt');
      expect(h1).not.toBeNull();
      expect(h1!.size).toBe(5);
      expect(h1!.etag).toMatch(/^(W\/)?".+"$/);
      expect(h1!.etag).toBe(put.etag);
      expect(Math.abs(h1!.mtime.getTime() - before)).toBeLessThan(120_000);
      await new Promise((r) => setTimeout(r, 20));
      await store.put('projects/p1/assets/a1/head.txt', 'second!');
      const h2 = await store.head('projects/p1/assets/a1/head.txt');
      expect(h2!.size).toBe(7);
      expect(h2!.etag).not.toBe(h1!.etag);
      expect(await store.head('projects/p1/assets/a1/missing.txt')).toBeNull();
      const g = await store.get('projects/p1/assets/a1/head.txt');
      expect(g.etag).toBe(h2!.etag);
      await readAll(g.body);
    });

    it('throws NOT_FOUND for a missing object', async () => {
      await expect(store.get('projects/p1/assets/a1/nothing.bin')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await store.delete('projects/p1/assets/a1/nothing.bin')).toBe(false);
    });

    it('lists by prefix, sorted, without crossing into look-alike prefixes', async () => {
      await store.put('projects/p2/assets/a/tiles/1.glb', 'x');
      await store.put('projects/p2/assets/a/tiles/0.glb', 'xy');
      await store.put('projects/p2/assets/a/tileset.json', '{}');
      await store.put('projects/p20/assets/a/tileset.json', '{}');
      const all = await collect(store.list('projects/p2/'));
      expect(all.map((o) => o.key)).toEqual([
        'projects/p2/assets/a/tiles/0.glb',
        'projects/p2/assets/a/tiles/1.glb',
        'projects/p2/assets/a/tileset.json',
      ]);
      expect(all[0]!.size).toBe(2);
      const partial = await collect(store.list('projects/p2/assets/a/tile'));
      expect(partial.length).toBe(3);
      const tiles = await collect(store.list('projects/p2/assets/a/tiles/'));
      expect(tiles.map((o) => o.key)).toEqual(['projects/p2/assets/a/tiles/0.glb', 'projects/p2/assets/a/tiles/1.glb']);
      expect(await collect(store.list('projects/none/'))).toEqual([]);
    });

    it('deletes by prefix and leaves neighbours alone', async () => {
      await store.put('projects/p3/assets/a/x/1', '1');
      await store.put('projects/p3/assets/a/x/2', '2');
      await store.put('projects/p3/assets/b/x/1', '3');
      await store.put('projects/p30/assets/a/x/1', '4');
      expect(await store.deletePrefix('projects/p3/assets/a/')).toBe(2);
      expect((await collect(store.list('projects/p3/'))).map((o) => o.key)).toEqual(['projects/p3/assets/b/x/1']);
      expect(await store.head('projects/p30/assets/a/x/1')).not.toBeNull();
      expect(await store.delete('projects/p3/assets/b/x/1')).toBe(true);
      expect(await store.head('projects/p3/assets/b/x/1')).toBeNull();
    });

    it('keeps the old object when a streamed put fails midway (atomic)', async () => {
      await store.put('projects/p4/assets/a/file.bin', 'old content');
      async function* failing(): AsyncIterable<Uint8Array> {
        yield Buffer.from('new partial');
        throw new Error('network dropped');
      }
      await expect(store.put('projects/p4/assets/a/file.bin', failing())).rejects.toThrow('network dropped');
      const got = await store.get('projects/p4/assets/a/file.bin');
      expect((await readAll(got.body)).toString()).toBe('old content');
      await expect(store.put('projects/p4/assets/a/fresh.bin', failing())).rejects.toThrow('network dropped');
      expect(await store.head('projects/p4/assets/a/fresh.bin')).toBeNull();
      expect((await collect(store.list('projects/p4/'))).map((o) => o.key)).toEqual(['projects/p4/assets/a/file.bin']);
    });

    it('rejects hostile keys on every operation', async () => {
      for (const key of HOSTILE_KEYS) {
        await expect(store.put(key, 'pwned'), key).rejects.toMatchObject({ code: 'INVALID_KEY' });
        await expect(store.get(key), key).rejects.toMatchObject({ code: 'INVALID_KEY' });
        await expect(store.head(key), key).rejects.toMatchObject({ code: 'INVALID_KEY' });
        await expect(store.delete(key), key).rejects.toMatchObject({ code: 'INVALID_KEY' });
      }
      await expect(collect(store.list('../'))).rejects.toMatchObject({ code: 'INVALID_KEY' });
      await expect(store.deletePrefix('/etc/')).rejects.toMatchObject({ code: 'INVALID_KEY' });
    });
  });
}
