import { describe, expect, it } from 'vitest';
import {
  assetKey,
  assetRunPrefix,
  checkKey,
  checkPrefix,
  parseAssetRunPrefix,
  projectPrefix,
  rasterTileKey,
  runFileKey,
  runFilesPrefix,
  runTilesPrefix,
  splitAssetRunKey,
  uploadKey,
} from './keys.js';
import { HOSTILE_KEYS } from './store.conformance.js';

describe('keys', () => {
  it('builds asset keys', () => {
    expect(assetKey('p1', 'a7', 'tiles/0-0-0.glb')).toBe('projects/p1/assets/a7/tiles/0-0-0.glb');
    expect(assetKey('p1', 'a7')).toBe('projects/p1/assets/a7/');
    expect(projectPrefix('p-1')).toBe('projects/p-1/');
  });

  it('rejects hostile keys and ids', () => {
    for (const key of HOSTILE_KEYS)
      expect(() => checkKey(key), key).toThrow(expect.objectContaining({ code: 'INVALID_KEY' }));
    expect(() => assetKey('..', 'a')).toThrow(/project id/);
    expect(() => assetKey('p', 'a/b')).toThrow(/asset id/);
    expect(() => assetKey('p', 'a', '../../x')).toThrow(/segment/);
    expect(() => checkKey('x'.repeat(1025))).toThrow(/1024/);
    expect(() => checkKey('projects/p/é.txt')).toThrow(/characters/);
  });

  it('accepts prefixes with a trailing slash or none', () => {
    expect(checkPrefix('')).toBe('');
    expect(checkPrefix('projects/p/')).toBe('projects/p/');
    expect(checkPrefix('projects/p/til')).toBe('projects/p/til');
    expect(() => checkPrefix('projects//')).toThrow();
  });

  it('builds the prefixes and keys of runs and uploads', () => {
    expect(runFilesPrefix('p1', 'a7', '42')).toBe('projects/p1/assets/a7/r42/');
    expect(runTilesPrefix('p1', 'a7', '42')).toBe('projects/p1/assets/a7/t42/');
    expect(runTilesPrefix('p1', 'a7', 42)).toBe('projects/p1/assets/a7/t42/');
    expect(runTilesPrefix('p1', 'a7', 9007199254740993n)).toBe('projects/p1/assets/a7/t9007199254740993/');
    expect(runFileKey('p1', 'a7', '42', 'a7.tif')).toBe('projects/p1/assets/a7/r42/a7.tif');
    expect(runFileKey('p1', 'a7', '42', 'vectors/a7.geojson')).toBe('projects/p1/assets/a7/r42/vectors/a7.geojson');
    expect(uploadKey('p1', 'a7', '0a1b2c3d4e5f', 'laz')).toBe('projects/p1/assets/a7/u0a1b2c3d4e5f/input.laz');
    expect(assetRunPrefix('p1', 'a7', 't42')).toBe('projects/p1/assets/a7/t42/');
    // Every built key is a valid key, and every prefix a valid prefix under its asset.
    expect(checkKey(runFileKey('p1', 'a7', '42', 'a7.laz'))).toBeTruthy();
    expect(runTilesPrefix('p1', 'a7', '42').startsWith(assetKey('p1', 'a7'))).toBe(true);
    expect(checkPrefix(runFilesPrefix('p1', 'a7', '42'))).toBe('projects/p1/assets/a7/r42/');
  });

  it('refuses run and upload keys built from hostile parts', () => {
    expect(() => runTilesPrefix('..', 'a7', '1')).toThrow(/project id/);
    expect(() => runFilesPrefix('p1', 'a/7', '1')).toThrow(/asset id/);
    expect(() => runTilesPrefix('p1', 'a7', '')).toThrow(/run id/);
    expect(() => runTilesPrefix('p1', 'a7', '1/../..')).toThrow(/run id/);
    expect(() => runTilesPrefix('p1', 'a7', 'x'.repeat(64))).toThrow(/run id/);
    expect(() => runFileKey('p1', 'a7', '1', '../../x.laz')).toThrow(/segment/);
    expect(() => runFileKey('p1', 'a7', '1', '')).toThrow(/segment/);
    expect(() => uploadKey('p1', 'a7', 'abc', 'la/z')).toThrow(/extension/);
    expect(() => uploadKey('p1', 'a7', 'a.b', 'laz')).toThrow(/run id/);
    expect(() => assetRunPrefix('p1', 'a7', 't1/x')).toThrow(/run/);
    for (const bad of [() => runTilesPrefix('p1', 'a7', '..'), () => uploadKey('p1', 'a7', 'x', '')])
      expect(bad).toThrow(expect.objectContaining({ code: 'INVALID_KEY' }));
  });

  it('parses run prefixes back, and nothing else', () => {
    expect(parseAssetRunPrefix('projects/p1/assets/a7/t42/')).toEqual({ projectId: 'p1', assetId: 'a7', run: 't42' });
    expect(parseAssetRunPrefix(runFilesPrefix('p-1', 'a_7', '9'))).toEqual({
      projectId: 'p-1',
      assetId: 'a_7',
      run: 'r9',
    });
    // Round trip through every builder.
    for (const [p, a, r] of [
      ['1', '2', '3'],
      ['x'.repeat(128), 'y'.repeat(128), 'z'.repeat(63)],
    ] as const) {
      expect(parseAssetRunPrefix(runTilesPrefix(p, a, r))).toEqual({ projectId: p, assetId: a, run: `t${r}` });
      expect(parseAssetRunPrefix(assetRunPrefix(p, a, `u${r}`))).toEqual({ projectId: p, assetId: a, run: `u${r}` });
    }
    for (const bad of [
      '',
      'projects/p1/assets/a7/t42', // no trailing slash
      'projects/p1/assets/a7/',
      'projects/p1/assets/a7/t42/x/',
      'projects/p1/asset/a7/t42/',
      'project/p1/assets/a7/t42/',
      '/projects/p1/assets/a7/t42/',
      'projects/../assets/a7/t42/',
      'projects/p1/assets/a7/../',
      'projects/p1/assets/a7/t.42/',
      'projects//assets/a7/t42/',
      `projects/p1/assets/a7/${'t'.repeat(65)}/`,
      `projects/${'p'.repeat(129)}/assets/a7/t42/`,
      'projects/p1/assets/a7/t\n42/',
    ])
      expect(parseAssetRunPrefix(bad), JSON.stringify(bad)).toBeNull();
    expect(parseAssetRunPrefix(undefined as unknown as string)).toBeNull();
  });

  it('splits a key under a run prefix into the prefix and the rest', () => {
    expect(splitAssetRunKey('projects/p1/assets/a7/t42/content/0-0-0.glb')).toEqual({
      prefix: 'projects/p1/assets/a7/t42/',
      rest: 'content/0-0-0.glb',
      parts: { projectId: 'p1', assetId: 'a7', run: 't42' },
    });
    expect(splitAssetRunKey(`${runTilesPrefix('p1', 'a7', 3)}tileset.json`)?.prefix).toBe(
      runTilesPrefix('p1', 'a7', 3),
    );
    expect(splitAssetRunKey('projects/p1/assets/a7/t42/')).toBeNull();
    expect(splitAssetRunKey('projects/p1/assets/a7/tileset.json')).toBeNull();
    expect(splitAssetRunKey('projects/p1/assets/../t42/x')).toBeNull();
    expect(splitAssetRunKey('other/p1/assets/a7/t42/x')).toBeNull();
  });

  it('builds raster tile keys under a run prefix', () => {
    expect(rasterTileKey('projects/p1/assets/a7/t42/', 17, 66390, 45090)).toBe(
      'projects/p1/assets/a7/t42/17/66390/45090.png',
    );
    expect(() => rasterTileKey('projects/p1/assets/a7/', 1, 0, 0)).toThrow(/run prefix/);
    expect(() => rasterTileKey('projects/p1/assets/a7/t42/', 1, 2, 0)).toThrow(/outside zoom 1/);
    expect(() => rasterTileKey('projects/p1/assets/a7/t42/', 1.5, 0, 0)).toThrow(/whole numbers/);
    expect(() => rasterTileKey('projects/p1/assets/a7/t42/', 3, -1, 0)).toThrow(/outside/);
  });
});
