import { describe, expect, it } from 'vitest';
import { PRODUCT_CATALOG } from './catalog.js';
import { assetName } from './report-texts.js';

describe('report texts', () => {
  it('names every product of the catalog in the product table, in English and in French', () => {
    for (const language of ['en-US', 'fr'] as const) {
      const unnamed = PRODUCT_CATALOG.map((p) => p.assetType).filter((type) => assetName(type, language) === type);
      expect(unnamed, language).toEqual([]);
    }
    expect(assetName('TREE_FALL_RISK', 'en-US')).toBe('Tree-fall risk');
    expect(assetName('TREE_FALL_RISK', 'fr')).toBe('Risque de chute d’arbres');
  });
});
