import { describe, expect, it } from 'vitest';
import { assetKey, checkKey, checkPrefix, projectPrefix } from './keys.js';
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
});
