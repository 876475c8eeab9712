import { describe, expect, it } from 'vitest';
import { settingsSchema } from './settings.api.js';

/** The imagery fields at their defaults: what the other fields are checked with. */
const imagery = { globeOpacity: 100, cesiumIonToken: '', bingMapsKey: '' };

describe('admin settings form', () => {
  it('accepts the server range of point sizes and any tiling text', () => {
    expect(settingsSchema.safeParse({ pointSize: 2, tilingParameters: '', ...imagery }).success).toBe(true);
    expect(
      settingsSchema.safeParse({ pointSize: 0.5, tilingParameters: '--max-points 60000', ...imagery }).success,
    ).toBe(true);
    expect(settingsSchema.safeParse({ pointSize: 50, tilingParameters: '--nonsense', ...imagery }).success).toBe(true);
  });

  const bad = (v: unknown) => {
    const r = settingsSchema.safeParse(v);
    return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
  };

  it('refuses a point size out of range or missing, and an over-long text', () => {
    expect(bad({ pointSize: 0.4, tilingParameters: '', ...imagery })).toEqual([
      'pointSize:admin:settings.pointSizeRange',
    ]);
    expect(bad({ pointSize: 51, tilingParameters: '', ...imagery })).toEqual([
      'pointSize:admin:settings.pointSizeRange',
    ]);
    expect(bad({ pointSize: Number.NaN, tilingParameters: '', ...imagery })).toEqual([
      'pointSize:admin:settings.pointSizeRange',
    ]);
    expect(bad({ pointSize: 2, tilingParameters: 'x'.repeat(2001), ...imagery })).toEqual([
      'tilingParameters:admin:settings.tilingTooLong',
    ]);
  });

  it('takes a globe opacity from 0 to 100 percent and imagery keys up to the server’s lengths', () => {
    const base = { pointSize: 2, tilingParameters: '' };
    expect(bad({ ...base, ...imagery, globeOpacity: 0, bingMapsKey: 'Ak' })).toBeNull();
    expect(bad({ ...base, ...imagery, globeOpacity: 100.5 })).toEqual([
      'globeOpacity:admin:imagerySettings.globeOpacityRange',
    ]);
    expect(bad({ ...base, ...imagery, globeOpacity: -1 })).toEqual([
      'globeOpacity:admin:imagerySettings.globeOpacityRange',
    ]);
    expect(bad({ ...base, ...imagery, cesiumIonToken: 'x'.repeat(2001), bingMapsKey: 'y'.repeat(501) })).toEqual([
      'cesiumIonToken:admin:imagerySettings.tooLong',
      'bingMapsKey:admin:imagerySettings.tooLong',
    ]);
  });
});
