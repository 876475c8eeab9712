import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FsStore } from './fs.store.js';
import { MemoryFrontStore } from './memory-front.store.js';
import { HOSTILE_KEYS, runStoreConformance } from './store.conformance.js';

async function fresh(): Promise<{ dir: string; root: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-fs-store-'));
  return { dir, root: path.join(dir, 'root') };
}

runStoreConformance('fs', async () => {
  const { dir, root } = await fresh();
  return { store: new FsStore(root), cleanup: () => rm(dir, { recursive: true, force: true }) };
});

runStoreConformance('memory front over fs', async () => {
  const { dir, root } = await fresh();
  return {
    store: new MemoryFrontStore(new FsStore(root), { maxBytes: 200_000, maxObjectBytes: 100_000 }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('FsStore on disk', () => {
  it('writes nothing outside its root for hostile keys, and leaves no temp files', async () => {
    const { dir, root } = await fresh();
    const store = new FsStore(root);
    await store.put('projects/p/assets/a/ok.txt', 'ok');
    for (const key of HOSTILE_KEYS) await store.put(key, 'pwned').catch(() => undefined);
    expect((await readdir(dir)).sort()).toEqual(['root']);
    expect((await readdir(root)).sort()).toEqual(['.tmp', 'projects']);
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    await rm(dir, { recursive: true, force: true });
  });

  it('throws NOT_FOUND for a key under a file or a folder, through the memory front too', async () => {
    const { dir, root } = await fresh();
    const store = new FsStore(root);
    const front = new MemoryFrontStore(store);
    await store.put('projects/p/assets/a/file.bin', 'x');
    for (const s of [store, front]) {
      await expect(s.get('projects/p/assets/a/file.bin/under')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(s.get('projects/p/assets/a')).rejects.toMatchObject({ code: 'NOT_FOUND' });
      await expect(s.get('projects/p/assets/b/missing.bin')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('prunes empty folders after deletes', async () => {
    const { dir, root } = await fresh();
    const store = new FsStore(root);
    await store.put('projects/p/assets/a/deep/er/file.bin', 'x');
    expect(await store.deletePrefix('projects/p/')).toBe(1);
    expect((await readdir(root)).sort()).toEqual(['.tmp']);
    await rm(dir, { recursive: true, force: true });
  });
});
