/**
 * The processing options of spec §2 and §5 as data: ranges, defaults, groups,
 * cross-field rules and CLI flags, with no import, so the `nuage` command
 * prints its verbs' usage without loading zod. `options.ts` builds the
 * validation schema from them and re-exports them.
 */

/** A length in centimetres within a range. */
export interface CentimetreField {
  kind: 'centimetres';
  min: number;
  max: number;
  default: number;
  /** Form group the field is shown in. */
  group: OptionGroup;
}

/** A list of 1 to N lengths in centimetres (power-line buffer radii). */
export interface CentimetreListField {
  kind: 'centimetreList';
  min: number;
  max: number;
  minItems: number;
  maxItems: number;
  default: readonly number[];
  group: OptionGroup;
}

/** One value of a fixed list. */
export interface ChoiceField {
  kind: 'choice';
  choices: readonly string[];
  default: string;
  group: OptionGroup;
}

export type OptionField = CentimetreField | CentimetreListField | ChoiceField;

/** Groups of the processing form, in display order. */
export const OPTION_GROUPS = ['terrain', 'contours', 'powerLines', 'objects'] as const;
export type OptionGroup = (typeof OPTION_GROUPS)[number];

/**
 * Every processing option with the ranges of spec §5 (centimetres). Labels are
 * translation keys derived from the name: `projects:processing.fields.<name>`
 * and, for choices, `projects:processing.choices.<name>.<value>`.
 */
export const OPTION_FIELDS = {
  dtmResolutionCm: { kind: 'centimetres', min: 20, max: 3000, default: 50, group: 'terrain' },
  gridResolutionCm: { kind: 'centimetres', min: 100, max: 10000, default: 1000, group: 'terrain' },
  contourMinorCm: { kind: 'centimetres', min: 10, max: 1000, default: 50, group: 'contours' },
  contourMajorCm: { kind: 'centimetres', min: 10, max: 1000, default: 250, group: 'contours' },
  powerLineBuffersCm: {
    kind: 'centimetreList',
    min: 100,
    max: 1000,
    minItems: 1,
    maxItems: 3,
    default: [300, 600, 900],
    group: 'powerLines',
  },
  clearanceHeightCm: { kind: 'centimetres', min: 100, max: 10000, default: 300, group: 'powerLines' },
  treeFallHeightBufferCm: { kind: 'centimetres', min: 10, max: 1000, default: 100, group: 'powerLines' },
  /**
   * A file whose vendor already labelled its power lines (class 14 conductors): `KEEP` keeps its classes
   * 13–16 (no wire search), `FIND` searches the wires and towers again as in an unlabelled file.
   */
  vendorWireClasses: { kind: 'choice', choices: ['KEEP', 'FIND'], default: 'KEEP', group: 'powerLines' },
  /** Canopy height model cell; 0 picks it from the density (about 3 returns per cell). */
  chmResolutionCm: { kind: 'centimetres', min: 0, max: 500, default: 0, group: 'objects' },
  crownShape: { kind: 'choice', choices: ['NARROW', 'WIDE'], default: 'NARROW', group: 'objects' },
  buildingSimplification: { kind: 'choice', choices: ['RURAL', 'URBAN'], default: 'RURAL', group: 'objects' },
} as const satisfies Record<string, OptionField>;

export type OptionName = keyof typeof OPTION_FIELDS;
export const OPTION_NAMES = Object.keys(OPTION_FIELDS) as OptionName[];

/** Cross-field rules of spec §5: `field` must be greater than `than`. */
export const OPTION_RULES = [
  {
    field: 'contourMajorCm',
    greaterThan: 'contourMinorCm',
    code: 'CONTOUR_MAJOR_NOT_ABOVE_MINOR',
    message: 'the major contour interval must be greater than the minor one',
  },
] as const satisfies ReadonlyArray<{ field: OptionName; greaterThan: OptionName; code: string; message: string }>;

/** Product ids are kebab-case words (`dtm`, `contours-major`). */
export const PRODUCT_ID = /^[a-z][a-z0-9-]{0,39}$/;

/** `dtmResolutionCm` → `dtm-resolution-cm` (the CLI flag). */
export function flagOf(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
