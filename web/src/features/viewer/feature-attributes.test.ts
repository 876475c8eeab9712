import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attributeRows, KNOWN_ATTRIBUTES } from './feature-attributes.js';

describe('attributeRows (the attributes panel)', () => {
  it('shows a tree top: known names first, heights in metres to 2 decimals, other properties raw', () => {
    // As PostgreSQL's jsonb gives them back: shorter keys first.
    const rows = attributeRows({ x: 481300.12, y: 3813008.66, z: 23.46, note: null, height: 23.4567, treeId: 12 });
    expect(rows.map((r) => [r.name, r.known, r.value])).toEqual([
      ['treeId', true, '12'],
      ['height', true, '23.46 m'],
      ['x', false, '481300.12'],
      ['y', false, '3813008.66'],
      ['z', false, '23.46'],
      ['note', false, '—'],
    ]);
  });

  it('writes numbers the French way in French', () => {
    expect(attributeRows({ height: 23.4567, crownArea: 12.34 }, 'fr').map((r) => r.value)).toEqual([
      '23,46 m',
      '12,3 m²',
    ]);
  });

  it('keeps the words it translates (roof type, contour kind)', () => {
    const rows = attributeRows({ other: 'x', roofType: 'pitched', kind: 'major', eaveHeight: 5, area: 120 });
    expect(rows.map((r) => [r.name, r.value, r.word])).toEqual([
      ['area', '120.0 m²', null],
      ['eaveHeight', '5.00 m', null],
      ['roofType', 'pitched', 'pitched'],
      ['kind', 'major', 'major'],
      ['other', 'x', null],
    ]);
  });

  it('names the properties of every vector product', () => {
    for (const name of [
      'treeId',
      'height',
      'crownArea',
      'buildingId',
      'area',
      'eaveHeight',
      'ridgeHeight',
      'roofType',
    ]) {
      expect(KNOWN_ATTRIBUTES).toContain(name);
    }
    for (const name of ['elevation', 'kind']) expect(KNOWN_ATTRIBUTES).toContain(name);
  });

  it('has a name for every known property and a word for every engine value, in en-US and fr', () => {
    for (const lang of ['en-US', 'fr']) {
      const file = path.resolve(import.meta.dirname, '../../../public/locales', lang, 'viewer.json');
      const viewer = JSON.parse(readFileSync(file, 'utf8')) as {
        attributes: Record<string, string>;
        attributeValues: Record<string, Record<string, string>>;
      };
      for (const name of KNOWN_ATTRIBUTES) expect(viewer.attributes[name], `${lang} ${name}`).toBeTruthy();
      expect(Object.keys(viewer.attributes).sort()).toEqual([...KNOWN_ATTRIBUTES].sort());
      expect(Object.keys(viewer.attributeValues.roofType ?? {}).sort(), lang).toEqual(['flat', 'pitched']);
      expect(Object.keys(viewer.attributeValues.kind ?? {}).sort(), lang).toEqual(['major', 'minor']);
    }
  });
});
