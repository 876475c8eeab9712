import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DISPLAY,
  DISPLAY_STORAGE_KEY,
  loadDisplaySettings,
  parseDisplaySettings,
  saveDisplaySettings,
} from './display-settings.js';

/** A Storage of this test's own (node has no localStorage). */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('display settings kept between visits', () => {
  it('starts with no imagery and eye-dome lighting off', () => {
    expect(parseDisplaySettings(null)).toEqual(DEFAULT_DISPLAY);
    expect(DEFAULT_DISPLAY).toEqual({ imagery: 'none', shading: { eyeDomeLighting: false, strength: 1, radius: 1 } });
  });

  it('reads back what was saved', () => {
    const storage = memoryStorage();
    const chosen = { imagery: 'ign' as const, shading: { eyeDomeLighting: true, strength: 2.5, radius: 1.5 } };
    saveDisplaySettings(chosen, storage);
    expect(JSON.parse(storage.data.get(DISPLAY_STORAGE_KEY)!)).toEqual(chosen);
    expect(loadDisplaySettings(storage)).toEqual(chosen);
  });

  it('brings numbers into range and replaces what it cannot read by the defaults', () => {
    expect(
      parseDisplaySettings('{"imagery":"ign","shading":{"eyeDomeLighting":true,"strength":9,"radius":0}}'),
    ).toEqual({
      imagery: 'ign',
      shading: { eyeDomeLighting: true, strength: 5, radius: 0.5 },
    });
    expect(parseDisplaySettings('{"imagery":"google","shading":{"eyeDomeLighting":"yes","strength":"2"}}')).toEqual(
      DEFAULT_DISPLAY,
    );
    expect(parseDisplaySettings('not json')).toEqual(DEFAULT_DISPLAY);
    expect(parseDisplaySettings('[1,2]')).toEqual(DEFAULT_DISPLAY);
  });

  it('goes on when the storage refuses (private mode, full)', () => {
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(loadDisplaySettings(refusing)).toEqual(DEFAULT_DISPLAY);
    expect(() => saveDisplaySettings(DEFAULT_DISPLAY, refusing)).not.toThrow();
  });
});
