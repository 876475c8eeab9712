import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PROCESSING_OPTIONS,
  formatCentimetres,
  OPTION_FIELDS,
  OPTION_GROUPS,
  OPTION_NAMES,
  optionsOfGroup,
  type ProcessingOptions,
  processingOptionsSchema,
  productsToSend,
  withNeeds,
  withoutDependents,
} from './processing-options.schema.js';
import { projectNameRule } from './project-name.schema.js';

function issues(patch: Partial<ProcessingOptions>): Array<[string, string]> {
  const r = processingOptionsSchema.safeParse({ ...DEFAULT_PROCESSING_OPTIONS, ...patch });
  return r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message]);
}

const CENTIMETRE_FIELDS = OPTION_NAMES.flatMap((name) => {
  const f = OPTION_FIELDS[name];
  return f.kind === 'centimetres' ? [[name, f.min, f.max] as const] : [];
});

describe('processingOptionsSchema (spec §5 ranges, from the engine descriptors)', () => {
  it("accepts the defaults, which are the server's", () => {
    expect(issues({})).toEqual([]);
    expect(DEFAULT_PROCESSING_OPTIONS).toMatchObject({ dtmResolutionCm: 50, powerLineBuffersCm: [300, 600, 900] });
    expect(DEFAULT_PROCESSING_OPTIONS.products).toBeUndefined();
  });

  it('checks every length option of OPTION_FIELDS', () => {
    expect(CENTIMETRE_FIELDS.map(([name]) => name)).toEqual([
      'dtmResolutionCm',
      'gridResolutionCm',
      'contourMinorCm',
      'contourMajorCm',
      'clearanceHeightCm',
      'treeFallHeightBufferCm',
      'chmResolutionCm',
    ]);
  });

  it.each(CENTIMETRE_FIELDS.filter(([name]) => !name.startsWith('contour')))(
    '%s accepts %d..%d and refuses just outside',
    (field, min, max) => {
      expect(issues({ [field]: min })).toEqual([]);
      expect(issues({ [field]: max })).toEqual([]);
      expect(issues({ [field]: min - 0.5 })).toEqual([[field, 'projects:processing.errors.range']]);
      expect(issues({ [field]: max + 1 })).toEqual([[field, 'projects:processing.errors.range']]);
    },
  );

  it('takes contour intervals of 10 to 1000 cm', () => {
    expect(issues({ contourMinorCm: 10, contourMajorCm: 1000 })).toEqual([]);
    expect(issues({ contourMinorCm: 9, contourMajorCm: 1000 })).toEqual([
      ['contourMinorCm', 'projects:processing.errors.range'],
    ]);
    expect(issues({ contourMinorCm: 10, contourMajorCm: 1001 })).toEqual([
      ['contourMajorCm', 'projects:processing.errors.range'],
    ]);
  });

  it('needs a major contour interval greater than the minor one (OPTION_RULES)', () => {
    expect(issues({ contourMinorCm: 200, contourMajorCm: 200 })).toEqual([
      ['contourMajorCm', 'projects:processing.errors.majorAboveMinor'],
    ]);
    expect(issues({ contourMinorCm: 200, contourMajorCm: 201 })).toEqual([]);
  });

  it('takes 1 to 3 power-line buffer radii of 100 to 1000 cm', () => {
    expect(issues({ powerLineBuffersCm: [100] })).toEqual([]);
    expect(issues({ powerLineBuffersCm: [] })).toEqual([
      ['powerLineBuffersCm', 'projects:processing.errors.bufferCount'],
    ]);
    expect(issues({ powerLineBuffersCm: [200, 300, 400, 500] })).toEqual([
      ['powerLineBuffersCm', 'projects:processing.errors.bufferCount'],
    ]);
    expect(issues({ powerLineBuffersCm: [200, 1001] })).toEqual([
      ['powerLineBuffersCm.1', 'projects:processing.errors.range'],
    ]);
  });

  it('takes only the listed crown shapes and building simplifications', () => {
    expect(issues({ crownShape: 'ROUND' as never })).toEqual([['crownShape', 'projects:processing.errors.choice']]);
    expect(issues({ vendorWireClasses: 'FIND' })).toEqual([]);
    expect(issues({ vendorWireClasses: 'MAYBE' as never })).toEqual([
      ['vendorWireClasses', 'projects:processing.errors.choice'],
    ]);
    expect(issues({ buildingSimplification: 'SUBURBAN' as never })).toEqual([
      ['buildingSimplification', 'projects:processing.errors.choice'],
    ]);
  });

  it('refuses a field left empty (NaN from a cleared number input)', () => {
    expect(issues({ dtmResolutionCm: Number.NaN })).toEqual([['dtmResolutionCm', 'projects:processing.errors.number']]);
  });

  it('takes a list of products to make, not an empty one', () => {
    expect(issues({ products: ['dtm'] })).toEqual([]);
    expect(issues({ products: [] })).toEqual([['products', 'projects:processing.errors.noProduct']]);
  });

  it("sends only the API's fields", () => {
    const parsed = processingOptionsSchema.parse({ ...DEFAULT_PROCESSING_OPTIONS, shadedDtm: true });
    expect(Object.keys(parsed).sort()).toEqual([...OPTION_NAMES].sort());
  });
});

describe('form groups', () => {
  it("places every option in one group, in the groups' order", () => {
    expect(OPTION_GROUPS.flatMap(optionsOfGroup).sort()).toEqual([...OPTION_NAMES].sort());
  });
});

describe('texts of the processing form', () => {
  const locales = path.resolve(import.meta.dirname, '..', '..', '..', 'public', 'locales');
  const projects = (lang: string) =>
    JSON.parse(readFileSync(path.join(locales, lang, 'projects.json'), 'utf8')).processing as {
      fields: Record<string, string>;
      groups: Record<string, string>;
      choices: Record<string, Record<string, string>>;
    };

  it.each(['en-US', 'fr'])('names every option, choice and group of the engine in %s', (lang) => {
    const texts = projects(lang);
    for (const name of OPTION_NAMES) {
      expect(texts.fields[name], `fields.${name}`).toBeTruthy();
      const f = OPTION_FIELDS[name];
      if (f.kind === 'choice') {
        for (const v of f.choices) expect(texts.choices[name]?.[v], `choices.${name}.${v}`).toBeTruthy();
      }
    }
    for (const g of OPTION_GROUPS) expect(texts.groups[g], `groups.${g}`).toBeTruthy();
    // Nothing left over from options that no longer exist.
    expect(Object.keys(texts.fields).sort()).toEqual([...OPTION_NAMES].sort());
    expect(Object.keys(texts.groups).sort()).toEqual([...OPTION_GROUPS].sort());
  });
});

describe('products to make', () => {
  const products = [
    { id: 'classify', needs: [] },
    { id: 'contours', needs: ['dtm'] },
    { id: 'contours-major', needs: ['contours'] },
    { id: 'dtm', needs: ['classify'] },
    { id: 'hillshade', needs: ['dtm'] },
    { id: 'quality', needs: ['classify', 'dtm'] },
  ];
  const all = products.map((p) => p.id);

  it('ticks what a product needs, transitively', () => {
    expect(withNeeds(['contours-major'], products)).toEqual(['classify', 'contours', 'contours-major', 'dtm']);
    expect(withNeeds(['classify'], products)).toEqual(['classify']);
  });

  it('unticks the products that need the one unticked, transitively', () => {
    expect(withoutDependents(all, 'dtm', products)).toEqual(['classify']);
    expect(withoutDependents(all, 'contours', products)).toEqual(['classify', 'dtm', 'hillshade', 'quality']);
    expect(withoutDependents(all, 'hillshade', products)).toEqual([
      'classify',
      'contours',
      'contours-major',
      'dtm',
      'quality',
    ]);
  });

  it('sends products only when not every one is ticked', () => {
    expect(productsToSend(all, products)).toBeUndefined();
    expect(productsToSend(['dtm', 'classify'], products)).toEqual(['classify', 'dtm']);
    expect(productsToSend([], products)).toEqual([]);
  });
});

describe('projectNameRule', () => {
  it('needs a name under 255 characters without a slash', () => {
    expect(projectNameRule.safeParse('Autzen 2015').success).toBe(true);
    expect(projectNameRule.safeParse('  ').error?.issues[0]?.message).toBe('projects:create.errors.nameRequired');
    expect(projectNameRule.safeParse('a/b').error?.issues[0]?.message).toBe('projects:create.errors.nameSlash');
    expect(projectNameRule.safeParse('x'.repeat(254)).success).toBe(true);
    expect(projectNameRule.safeParse('x'.repeat(255)).error?.issues[0]?.message).toBe(
      'projects:create.errors.nameTooLong',
    );
  });
});

describe('formatCentimetres', () => {
  it('shows centimetres under a metre and metres above', () => {
    expect(formatCentimetres(50)).toBe('50 cm');
    expect(formatCentimetres(150)).toBe('1.5 m');
    expect(formatCentimetres(10000)).toBe('100 m');
    expect(formatCentimetres(150, 'fr')).toBe('1,5 m');
  });
});
