/**
 * The processing options of spec §2 and §5, described once: the engine's
 * products, the `nuage` CLI flags, the API's request schema (and its OpenAPI
 * document) and the web processing form all derive from {@link OPTION_FIELDS}.
 *
 * This module imports zod only, so the browser bundles it as it is.
 */
import { z } from 'zod';

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

function fieldSchema(name: string, f: OptionField): z.ZodType {
  const unit = (min: number, max: number) =>
    z
      .number({ error: `${name} must be a number of centimetres` })
      .min(min, { error: `${name} must be between ${min} and ${max} cm` })
      .max(max, { error: `${name} must be between ${min} and ${max} cm` });
  switch (f.kind) {
    case 'centimetres':
      return unit(f.min, f.max).default(f.default);
    case 'centimetreList':
      return z
        .array(unit(f.min, f.max))
        .min(f.minItems, { error: `${name} needs ${f.minItems} to ${f.maxItems} values` })
        .max(f.maxItems, { error: `${name} needs ${f.minItems} to ${f.maxItems} values` })
        .default([...f.default]);
    case 'choice':
      return z.enum(f.choices as [string, ...string[]], { error: `${name} must be one of ${f.choices.join(', ')}` });
  }
}

const shape = Object.fromEntries(
  OPTION_NAMES.map((name) => {
    const f: OptionField = OPTION_FIELDS[name];
    const schema = fieldSchema(name, f);
    return [name, f.kind === 'choice' ? (schema as z.ZodEnum).default(f.default as never) : schema];
  }),
) as {
  [K in OptionName]: (typeof OPTION_FIELDS)[K] extends ChoiceField
    ? z.ZodDefault<z.ZodEnum<{ [V in (typeof OPTION_FIELDS)[K]['choices'][number]]: V }>>
    : (typeof OPTION_FIELDS)[K] extends CentimetreListField
      ? z.ZodDefault<z.ZodArray<z.ZodNumber>>
      : z.ZodDefault<z.ZodNumber>;
};

/**
 * The processing options: every field of {@link OPTION_FIELDS} with its
 * default, plus `products`, the products to make (with what they need; every
 * product when absent). Unknown fields are refused.
 *
 * @example
 * processingOptionsSchema.parse({ dtmResolutionCm: 100 }).contourMajorCm; // 250
 */
export const processingOptionsSchema = z
  .object({
    ...shape,
    /** Product ids to make (their prerequisites are made too); every product when absent. */
    products: z
      .array(z.string().regex(PRODUCT_ID, { error: 'product ids are lower-case words such as dtm' }))
      .min(1)
      .optional(),
    /**
     * Uploaded ORTHOPHOTO asset (an RGB GeoTIFF) the classified cloud takes its colours from; the
     * processing job hands the engine its local copy as `input.orthophoto` (CLI: `--orthophoto FILE.tif`).
     */
    orthophotoAssetId: z
      .string()
      .regex(/^\d{1,18}$/, { error: 'orthophotoAssetId must be the id of an uploaded orthophoto' })
      .optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    for (const rule of OPTION_RULES) {
      if (!((o[rule.field] as number) > (o[rule.greaterThan] as number))) {
        ctx.addIssue({ code: 'custom', path: [rule.field], message: rule.message, params: { code: rule.code } });
      }
    }
  });

/** Validated processing options (every field set). */
export type ProcessingOptions = z.output<typeof processingOptionsSchema>;
/** Processing options as a client sends them (every field optional). */
export type ProcessingOptionsInput = z.input<typeof processingOptionsSchema>;

/** The default of every option. */
export const DEFAULT_PROCESSING_OPTIONS: ProcessingOptions = processingOptionsSchema.parse({});

/** `dtmResolutionCm` → `dtm-resolution-cm` (the CLI flag). */
export function flagOf(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
