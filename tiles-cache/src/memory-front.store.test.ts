import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsStore } from './fs.store.js';
import { MemoryFrontStore } from './memory-front.store.js';
import { readAll } from './store.js';

describe('MemoryFrontStore', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-lru-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('holds values in memory alone: recalled, served, evicted and deleted like cached objects, never stored', async () => {
    const inner = new FsStore(dir);
    const store = new MemoryFrontStore(inner, { maxBytes: 3000, maxObjectBytes: 1500 });
    expect(store.hold('h/a', Buffer.alloc(1000, 'a'), { etag: '"a1"', contentType: 'x/y' })).toBe(true);
    expect(store.hold('h/big', Buffer.alloc(2000, 'z'), { etag: '"z"' })).toBe(false);
    expect(() => store.hold('../escape', Buffer.alloc(1), { etag: '"e"' })).toThrow();
    const got = store.recall('h/a');
    expect(got?.bytes.toString()).toBe('a'.repeat(1000));
    expect(got?.info).toMatchObject({ key: 'h/a', size: 1000, etag: '"a1"', contentType: 'x/y' });
    expect(store.recall('h/big')).toBeUndefined();
    expect(await inner.head('h/a')).toBeNull();
    expect((await store.head('h/a'))?.etag).toBe('"a1"');
    expect((await store.get('h/a')).bytes?.length).toBe(1000);
    // Least recently used first: b, then c, push a out unless a was recalled since.
    store.hold('h/b', Buffer.alloc(1000, 'b'), { etag: '"b"' });
    store.hold('h/c', Buffer.alloc(1000, 'c'), { etag: '"c"' });
    store.recall('h/a');
    store.hold('h/d', Buffer.alloc(1000, 'd'), { etag: '"d"' });
    expect(store.recall('h/b')).toBeUndefined();
    expect(store.recall('h/a')?.info.etag).toBe('"a1"');
    await store.deletePrefix('h/');
    expect(store.recall('h/a')).toBeUndefined();
    expect(store.cachedBytes).toBe(0);
  });

  it('bounds memory by bytes and evicts the least recently used', async () => {
    const inner = new FsStore(dir);
    const store = new MemoryFrontStore(inner, { maxBytes: 3000, maxObjectBytes: 1500 });
    for (const k of ['a', 'b', 'c']) await store.put(`t/${k}`, Buffer.alloc(1000, k));
    await store.put('t/big', Buffer.alloc(2000, 'z'));
    for (const k of ['a', 'b', 'c']) await readAll((await store.get(`t/${k}`)).body);
    expect(store.cachedBytes).toBe(3000);
    expect(store.stats).toEqual({ hits: 0, misses: 3, evictions: 0 });
    await readAll((await store.get('t/a')).body); // a becomes most recent; b is now the oldest
    await store.put('t/d', Buffer.alloc(1000, 'd'));
    await readAll((await store.get('t/d')).body);
    expect(store.cachedCount).toBe(3);
    expect(store.cachedBytes).toBeLessThanOrEqual(3000);
    expect(store.stats.evictions).toBe(1);
    const before = store.stats.hits;
    await readAll((await store.get('t/a')).body);
    expect(store.stats.hits).toBe(before + 1);
    await readAll((await store.get('t/b')).body);
    expect(store.stats.misses).toBe(5);
    // too big to cache: served by the backend, never held
    const big = await readAll((await store.get('t/big')).body);
    expect(big.length).toBe(2000);
    expect(store.cachedBytes).toBeLessThanOrEqual(3000);
  });

  it('serves ranges from memory and invalidates on overwrite', async () => {
    const store = new MemoryFrontStore(new FsStore(dir), { maxBytes: 10_000 });
    await store.put('r/x', 'hello world');
    await readAll((await store.get('r/x')).body);
    const r = await store.get('r/x', { range: { start: 6, end: 10 } });
    expect((await readAll(r.body)).toString()).toBe('world');
    expect(store.stats.hits).toBe(1);
    await store.put('r/x', 'bye');
    expect((await readAll((await store.get('r/x')).body)).toString()).toBe('bye');
  });

  it('hands over the bytes it holds of a whole object, not of a range', async () => {
    const store = new MemoryFrontStore(new FsStore(dir), { maxBytes: 10_000 });
    await store.put('b/x', 'some bytes');
    const first = await store.get('b/x');
    expect(first.bytes?.toString()).toBe('some bytes');
    const hit = await store.get('b/x');
    expect(hit.bytes).toBe(first.bytes);
    expect((await readAll(hit.body)).equals(hit.bytes!)).toBe(true);
    expect((await store.get('b/x', { range: { start: 5 } })).bytes).toBeUndefined();
  });
  it('keeps the bytes of a put asked to, with the etag the backend gives them', async () => {
    const inner = new FsStore(dir);
    const store = new MemoryFrontStore(inner, { maxBytes: 10_000, maxObjectBytes: 1000 });
    const tile = Buffer.from('a vector tile');
    const info = await store.put('k/tile', tile, { keepInMemory: true });
    expect(store.cachedCount).toBe(1);
    const got = await store.get('k/tile');
    expect(store.stats).toEqual({ hits: 1, misses: 0, evictions: 0 });
    expect(got.bytes).toBe(tile);
    expect(got.etag).toBe(info.etag);
    expect(got.size).toBe(tile.byteLength);
    expect((await inner.get('k/tile')).etag).toBe(info.etag);
    // Not asked, too big, or a stream: stored only.
    await store.put('k/plain', Buffer.from('x'));
    await store.put('k/big', Buffer.alloc(1001), { keepInMemory: true });
    await store.put('k/text', 'text', { keepInMemory: true });
    expect(store.cachedCount).toBe(1);
  });

  it('does not keep the bytes of a put when a delete or another put of the key started meanwhile', async () => {
    const store = new MemoryFrontStore(new FsStore(dir), { maxBytes: 10_000 });
    const first = store.put('race/a', Buffer.from('old'), { keepInMemory: true });
    const second = store.put('race/a', Buffer.from('new'));
    await Promise.all([first, second]);
    expect(store.cachedCount).toBe(0);
    const kept = store.put('race/b', Buffer.from('b'), { keepInMemory: true });
    const gone = store.delete('race/b');
    await Promise.all([kept, gone]);
    expect(store.cachedCount).toBe(0);
    const underPrefix = store.put('race/c/1', Buffer.from('c'), { keepInMemory: true });
    const prefixGone = store.deletePrefix('race/c/');
    await Promise.all([underPrefix, prefixGone]);
    expect(store.cachedCount).toBe(0);
    // Alone, the same put keeps its bytes.
    await store.put('race/d', Buffer.from('d'), { keepInMemory: true });
    expect(store.cachedCount).toBe(1);
  });
});
