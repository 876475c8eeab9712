import { describe, expect, it } from 'vitest';
import { parseTilerOptions, resolveTilerOptions } from './tiler-options.js';

describe('parseTilerOptions', () => {
  it('reads the admin text, with defaults for the rest', () => {
    expect(parseTilerOptions('--max-points 60000 --min-node-size 0.15')).toEqual({
      maxPoints: 60000,
      minNodeSize: 0.15,
      grid: 128,
      quantize: true,
    });
    expect(parseTilerOptions('--quantize false').quantize).toBe(false);
    expect(() => parseTilerOptions('--quantize maybe')).toThrow(/true or false/);
    expect(parseTilerOptions('  --max-points=20000\n--epsg 2154 --grid 64 --workers 1 ')).toEqual({
      maxPoints: 20000,
      minNodeSize: 0.15,
      epsg: 2154,
      grid: 64,
      workers: 1,
      quantize: true,
    });
    expect(parseTilerOptions('')).toEqual({ maxPoints: 60000, minNodeSize: 0.15, grid: 128, quantize: true });
  });

  it('names the bad option in a typed error', () => {
    const bad: [string, RegExp][] = [
      ['--max-pts 5', /unknown option --max-pts/],
      ['--max-points', /needs a value/],
      ['--max-points --grid 64', /needs a value/],
      ['--max-points lots', /needs a number/],
      ['--max-points 10', /maxPoints.*>=1000/],
      ['--min-node-size -1', /needs a number|minNodeSize/],
      ['--min-node-size 0', /minNodeSize/],
      ['--grid 100', /grid/],
      ['max-points 5', /expected a --flag/],
    ];
    for (const [text, message] of bad) {
      expect(() => parseTilerOptions(text), text).toThrow(message);
      expect(() => parseTilerOptions(text), text).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    }
  });

  it('fills the worker count from the machine', () => {
    expect(resolveTilerOptions({}).workers).toBeGreaterThanOrEqual(1);
    expect(resolveTilerOptions({ workers: 0 }).workers).toBe(0);
    expect(() => resolveTilerOptions({ maxPoints: 1.5e3 + 0.5 })).toThrow(/maxPoints/);
  });
});
