import { describe, expect, it } from 'vitest';
import { settingsSchema } from './settings.api.js';

describe('admin settings form', () => {
  it('accepts the server range of point sizes and any tiling text', () => {
    expect(settingsSchema.safeParse({ pointSize: 2, tilingParameters: '' }).success).toBe(true);
    expect(settingsSchema.safeParse({ pointSize: 0.5, tilingParameters: '--max-points 60000' }).success).toBe(true);
    expect(settingsSchema.safeParse({ pointSize: 50, tilingParameters: '--nonsense' }).success).toBe(true);
  });

  it('refuses a point size out of range or missing, and an over-long text', () => {
    const bad = (v: unknown) => {
      const r = settingsSchema.safeParse(v);
      return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
    };
    expect(bad({ pointSize: 0.4, tilingParameters: '' })).toEqual(['pointSize:admin:settings.pointSizeRange']);
    expect(bad({ pointSize: 51, tilingParameters: '' })).toEqual(['pointSize:admin:settings.pointSizeRange']);
    expect(bad({ pointSize: Number.NaN, tilingParameters: '' })).toEqual(['pointSize:admin:settings.pointSizeRange']);
    expect(bad({ pointSize: 2, tilingParameters: 'x'.repeat(2001) })).toEqual([
      'tilingParameters:admin:settings.tilingTooLong',
    ]);
  });
});
