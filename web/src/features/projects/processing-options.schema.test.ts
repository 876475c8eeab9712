import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PROCESSING_OPTIONS,
  formatCentimetres,
  type ProcessingOptions,
  processingOptionsSchema,
} from './processing-options.schema.js';
import { projectNameRule } from './project-name.schema.js';

function issues(patch: Partial<ProcessingOptions>): Array<[string, string]> {
  const r = processingOptionsSchema.safeParse({ ...DEFAULT_PROCESSING_OPTIONS, ...patch });
  return r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message]);
}

describe('processingOptionsSchema (spec §5 ranges)', () => {
  it('accepts the defaults', () => {
    expect(issues({})).toEqual([]);
  });

  it.each([
    ['dtmResolution', 20, 3000],
    ['gridResolution', 100, 10000],
    ['clearanceZoneHeight', 100, 10000],
    ['treeFallHeightBuffer', 10, 1000],
  ] as const)('%s accepts %d..%d and refuses just outside', (field, min, max) => {
    expect(issues({ [field]: min })).toEqual([]);
    expect(issues({ [field]: max })).toEqual([]);
    expect(issues({ [field]: min - 0.5 })).toEqual([[field, 'projects:processing.errors.range']]);
    expect(issues({ [field]: max + 1 })).toEqual([[field, 'projects:processing.errors.range']]);
  });

  it('takes contour intervals of 10 to 1000 cm', () => {
    expect(issues({ contourMinorInterval: 10, contourMajorInterval: 1000 })).toEqual([]);
    expect(issues({ contourMinorInterval: 9, contourMajorInterval: 1000 })).toEqual([
      ['contourMinorInterval', 'projects:processing.errors.range'],
    ]);
    expect(issues({ contourMinorInterval: 10, contourMajorInterval: 1001 })).toEqual([
      ['contourMajorInterval', 'projects:processing.errors.range'],
    ]);
  });

  it('needs a major contour interval greater than the minor one', () => {
    expect(issues({ contourMinorInterval: 200, contourMajorInterval: 200 })).toEqual([
      ['contourMajorInterval', 'projects:processing.errors.majorAboveMinor'],
    ]);
    expect(issues({ contourMinorInterval: 200, contourMajorInterval: 201 })).toEqual([]);
  });

  it('takes 1 to 3 power-line buffer zones of 100 to 1000 cm', () => {
    expect(issues({ powerLineBufferZones: [100] })).toEqual([]);
    expect(issues({ powerLineBufferZones: [] })).toEqual([
      ['powerLineBufferZones', 'projects:processing.errors.bufferCount'],
    ]);
    expect(issues({ powerLineBufferZones: [200, 300, 400, 500] })).toEqual([
      ['powerLineBufferZones', 'projects:processing.errors.bufferCount'],
    ]);
    expect(issues({ powerLineBufferZones: [200, 1001] })).toEqual([
      ['powerLineBufferZones.1', 'projects:processing.errors.range'],
    ]);
  });

  it('takes only the listed crown shapes and building simplifications', () => {
    expect(issues({ crownShape: 'ROUND' as never })).toEqual([['crownShape', 'projects:processing.errors.choice']]);
    expect(issues({ buildingSimplification: 'SUBURBAN' as never })).toEqual([
      ['buildingSimplification', 'projects:processing.errors.choice'],
    ]);
  });

  it('refuses a field left empty (NaN from a cleared number input)', () => {
    expect(issues({ dtmResolution: Number.NaN })[0]?.[0]).toBe('dtmResolution');
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
