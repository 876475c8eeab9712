import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { CLASS_NAMES } from '../core/dimensions.js';
import { qualityReport } from './quality.product.js';

describe('qualityReport', () => {
  it('counts the points of every class present, codes in ascending order', async () => {
    const classification = Uint8Array.from([5, 2, 255, 2, 0, 5, 2, 18, 5, 2]);
    const vendor = Uint8Array.from([2, 2, 1, 1, 64, 6, 2, 7, 200, 2]);
    const n = classification.length;
    const cloud = {
      count: n,
      x: new Float64Array(n),
      y: new Float64Array(n),
      z: new Float64Array(n),
    } as unknown as PointChunk;
    const report = await qualityReport({
      input: 'a.las',
      cloud,
      vendor,
      classification,
      dtm: null,
      dtmResolutionCm: 50,
      unitToMetre: 1,
      verticalUnitToMetre: 1,
      crs: null,
    });
    expect(Object.keys(report.classCounts)).toEqual(['0', '2', '5', '18', '255']);
    expect(report.classCounts).toEqual({
      0: { name: 'never classified', points: 1 },
      2: { name: 'ground', points: 4 },
      5: { name: 'high vegetation', points: 3 },
      18: { name: CLASS_NAMES[18], points: 1 },
      255: { name: 'user defined', points: 1 },
    });
    expect(Object.keys(report.inputClassCounts)).toEqual(['1', '2', '6', '7', '64', '200']);
    expect(report.inputClassCounts).toEqual({ 1: 2, 2: 4, 6: 1, 7: 1, 64: 1, 200: 1 });
    expect(report.ground?.groundBoth).toBe(3);
  });
});
