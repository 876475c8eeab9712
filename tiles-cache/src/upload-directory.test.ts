import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsStore } from './fs.store.js';
import { assetKey } from './keys.js';
import { readAll } from './store.js';
import { contentTypeOf, uploadDirectory } from './upload-directory.js';

describe('uploadDirectory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-upload-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('puts every file under the prefix with its relative path', async () => {
    const src = path.join(dir, 'tiles');
    await mkdir(path.join(src, 'content'), { recursive: true });
    await writeFile(path.join(src, 'tileset.json'), '{"asset":{"version":"1.1"}}');
    for (let i = 0; i < 20; i++) await writeFile(path.join(src, 'content', `0-${i}.glb`), Buffer.alloc(1000 + i, i));
    const store = new FsStore(path.join(dir, 'store'));
    const prefix = assetKey('p1', 'a1', 'tiles');
    const seen: number[] = [];
    const r = await uploadDirectory(store, src, prefix, { concurrency: 3, progress: (d) => seen.push(d) });
    expect(r.files).toBe(21);
    expect(r.bytes).toBe(27 + 20 * 1000 + 190);
    expect(seen.at(-1)).toBe(21);
    const got = await store.get('projects/p1/assets/a1/tiles/content/0-7.glb');
    expect((await readAll(got.body)).equals(Buffer.alloc(1007, 7))).toBe(true);
    const keys: string[] = [];
    for await (const o of store.list('projects/p1/assets/a1/tiles/')) keys.push(o.key);
    expect(keys.length).toBe(21);
    expect(keys.at(-1)).toBe('projects/p1/assets/a1/tiles/tileset.json');
  });

  it('refuses files whose names are not valid keys', async () => {
    const src = path.join(dir, 'bad');
    await mkdir(src, { recursive: true });
    await writeFile(path.join(src, 'bad name.json'), '{}');
    await expect(
      uploadDirectory(new FsStore(path.join(dir, 'store2')), src, 'projects/p/assets/a/'),
    ).rejects.toMatchObject({
      code: 'INVALID_KEY',
    });
  });

  it('knows the content types of produced files', () => {
    expect(contentTypeOf('tileset.json')).toBe('application/json');
    expect(contentTypeOf('content/0-0-0-0.glb')).toBe('model/gltf-binary');
    expect(contentTypeOf('x.unknown')).toBe('application/octet-stream');
  });
});
