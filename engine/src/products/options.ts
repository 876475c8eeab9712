/**
 * The processing options of spec §2 and §5, described once: the engine's
 * products, the `nuage` CLI flags, the API's request schema (and its OpenAPI
 * document) and the web processing form all derive from {@link OPTION_FIELDS}.
 *
 * This module imports zod only, so the browser bundles it as it is.
 */
import { z } from 'zod';
import {
  type CentimetreListField,
  type ChoiceField,
  OPTION_FIELDS,
  OPTION_NAMES,
  OPTION_RULES,
  type OptionField,
  type OptionName,
  PRODUCT_ID,
} from './option-fields.js';

export * from './option-fields.js';

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
