import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MapRegion } from './edit.types.js';
import { byClassEntries, editRequestOf, parseBound, stepKey } from './edit-request.js';

const region: MapRegion = {
  kind: 'map',
  polygon: [
    [1, 2],
    [2, 2],
    [2, 3],
  ],
};

function locale(lang: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../../public/locales/${lang}/viewer.json`, import.meta.url), 'utf8'));
}

describe('the classification-edit form', () => {
  it('reads Z bounds with a point or a comma, empty as none', () => {
    expect(parseBound('')).toBeNull();
    expect(parseBound('  ')).toBeNull();
    expect(parseBound('12.5')).toBe(12.5);
    expect(parseBound('12,5')).toBe(12.5);
    expect(parseBound('-3')).toBe(-3);
    expect(parseBound('1e3')).toBe(1000);
    expect(parseBound('abc')).toBe('invalid');
    expect(parseBound('1,2,3')).toBe('invalid');
  });

  it('builds the request: classes sorted once each, bounds only when given', () => {
    expect(editRequestOf(region, 6, [], null, null)).toEqual({ region, toClass: 6 });
    expect(editRequestOf(region, 6, [5, 3, 4, 3], 100, 120.5)).toEqual({
      region,
      toClass: 6,
      fromClasses: [3, 4, 5],
      minZ: 100,
      maxZ: 120.5,
    });
    expect(editRequestOf(region, 2, [], null, 7)).toEqual({ region, toClass: 2, maxZ: 7 });
  });

  it('asks nothing without a region, with a bound that is not a number, or with bounds the wrong way round', () => {
    expect(editRequestOf(null, 6, [], null, null)).toBeNull();
    expect(editRequestOf(region, 6, [], 'invalid', null)).toBeNull();
    expect(editRequestOf(region, 6, [], 10, 5)).toBeNull();
    expect(editRequestOf(region, 6, [], 5, 5)).not.toBeNull();
  });

  it('lists counts by class largest first, without zeros', () => {
    expect(byClassEntries({ byClass: { '1': 34, '5': 1200, '3': 0, '4': 34 } })).toEqual([
      [5, 1200],
      [1, 34],
      [4, 34],
    ]);
  });

  it('names every step of the apply job, in English and French', () => {
    const steps = ['startLasDownload', 'applyingEdits', 'writingLas', 'tilesCreation', 'done', 'dtm', 'dtm:storing'];
    expect(stepKey('dtm')).toEqual({ key: 'viewer:classEdit.steps.product', values: { product: 'dtm' } });
    expect(stepKey('CLASSIFIED_POINT_CLOUD:storing')).toEqual({
      key: 'viewer:classEdit.steps.storing',
      values: { product: 'CLASSIFIED_POINT_CLOUD' },
    });
    for (const lang of ['en-US', 'fr']) {
      const texts = (locale(lang).classEdit as { steps: Record<string, string> }).steps;
      for (const step of steps) {
        const key = stepKey(step).key.replace('viewer:classEdit.steps.', '');
        expect(texts[key], `${lang}: ${step}`).toBeTruthy();
      }
    }
  });

  it('has the same classEdit keys in English and French', () => {
    const keys = (o: unknown, prefix = ''): string[] =>
      Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
        typeof v === 'object' && v !== null ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    expect(keys(locale('fr').classEdit).sort()).toEqual(keys(locale('en-US').classEdit).sort());
  });
});
