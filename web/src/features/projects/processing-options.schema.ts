import {
  OPTION_FIELDS,
  OPTION_GROUPS,
  OPTION_NAMES,
  OPTION_RULES,
  type OptionField,
  type OptionGroup,
  type OptionName,
  DEFAULT_PROCESSING_OPTIONS as SERVER_DEFAULTS,
  type ProcessingOptions as ServerProcessingOptions,
} from '@nuage/engine/products/options.js';
import { z } from 'zod';

/**
 * The processing form's rules, derived from the engine's option descriptors
 * (`@nuage/engine/products/options.js`, the module the API validates with):
 * every field, range, default, group and cross-field rule comes from there,
 * only the messages differ (translation keys of the projects namespace, where
 * the server answers in English).
 */
export { OPTION_FIELDS, OPTION_GROUPS, OPTION_NAMES, type OptionField, type OptionGroup, type OptionName };

/** Message keys of the form's errors; min and max are interpolated by the field (see {@link formatCentimetres}). */
export const PROCESSING_ERRORS = {
  number: 'projects:processing.errors.number',
  range: 'projects:processing.errors.range',
  count: 'projects:processing.errors.bufferCount',
  choice: 'projects:processing.errors.choice',
  noProduct: 'projects:processing.errors.noProduct',
} as const;

/** The message key of each cross-field rule of {@link OPTION_RULES} (a new rule fails `tsc` until it has one). */
const RULE_MESSAGES: Record<(typeof OPTION_RULES)[number]['code'], string> = {
  CONTOUR_MAJOR_NOT_ABOVE_MINOR: 'projects:processing.errors.majorAboveMinor',
};

/** The options of one form group, in the order of {@link OPTION_FIELDS}. */
export function optionsOfGroup(group: OptionGroup): OptionName[] {
  return OPTION_NAMES.filter((name) => OPTION_FIELDS[name].group === group);
}

/** A number of centimetres in a range. A cleared number input gives NaN, which is not a number. */
function centimetres(range: { min: number; max: number }) {
  return z
    .number({ error: PROCESSING_ERRORS.number })
    .refine((v) => v >= range.min && v <= range.max, { error: PROCESSING_ERRORS.range });
}

/** The form's schema of one option, from its descriptor. */
export function optionSchema(field: OptionField): z.ZodType {
  switch (field.kind) {
    case 'centimetres':
      return centimetres(field);
    case 'centimetreList':
      return z
        .array(centimetres(field))
        .min(field.minItems, { error: PROCESSING_ERRORS.count })
        .max(field.maxItems, { error: PROCESSING_ERRORS.count });
    case 'choice':
      return z.enum(field.choices as readonly string[] as [string, ...string[]], { error: PROCESSING_ERRORS.choice });
  }
}

/**
 * The processing options as the form holds them and the API takes them
 * (POST processing body, start-tiling `processingOptions`): every option of
 * {@link OPTION_FIELDS}, plus `products`, the product ids to make when not
 * every product is (absent: every product).
 */
export type ProcessingOptions = ServerProcessingOptions;

/**
 * The processing options (spec §2 processing form, §5 ranges), every length
 * in centimetres; `products` holds at least one id when present.
 */
export const processingOptionsSchema = z
  .object({
    ...Object.fromEntries(OPTION_NAMES.map((name) => [name, optionSchema(OPTION_FIELDS[name])])),
    products: z.array(z.string()).min(1, { error: PROCESSING_ERRORS.noProduct }).optional(),
  })
  .superRefine((o, ctx) => {
    const values = o as Record<string, unknown>;
    for (const rule of OPTION_RULES) {
      const value = values[rule.field];
      const than = values[rule.greaterThan];
      if (typeof value !== 'number' || typeof than !== 'number') continue;
      if (!(value > than)) ctx.addIssue({ code: 'custom', path: [rule.field], message: RULE_MESSAGES[rule.code] });
    }
  }) as unknown as z.ZodType<ProcessingOptions, ProcessingOptions>;

/** The server's default of every option (and every product). */
export const DEFAULT_PROCESSING_OPTIONS: ProcessingOptions = SERVER_DEFAULTS;

/** A length in centimetres as the hint under a field shows it: "50 cm", "1.5 m", "12 m". */
export function formatCentimetres(cm: number, locale = 'en-US'): string {
  if (!Number.isFinite(cm)) return '';
  if (Math.abs(cm) < 100) return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(cm)} cm`;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(cm / 100)} m`;
}

/** One product of GET /processing/products, as far as the form's product choice needs it. */
export interface ProductChoice {
  id: string;
  needs: readonly string[];
}

/** `ids` and everything they need, transitively, in the order of `products`. */
export function withNeeds(ids: Iterable<string>, products: readonly ProductChoice[]): string[] {
  const byId = new Map(products.map((p) => [p.id, p]));
  const chosen = new Set<string>();
  const visit = (id: string) => {
    if (chosen.has(id)) return;
    chosen.add(id);
    for (const need of byId.get(id)?.needs ?? []) visit(need);
  };
  for (const id of ids) visit(id);
  return products.map((p) => p.id).filter((id) => chosen.has(id));
}

/** `ids` without `removed` and every product that needs it, transitively, in the order of `products`. */
export function withoutDependents(
  ids: Iterable<string>,
  removed: string,
  products: readonly ProductChoice[],
): string[] {
  const gone = new Set([removed]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const p of products) {
      if (!gone.has(p.id) && p.needs.some((n) => gone.has(n))) {
        gone.add(p.id);
        changed = true;
      }
    }
  }
  const kept = new Set(ids);
  return products.map((p) => p.id).filter((id) => kept.has(id) && !gone.has(id));
}

/**
 * The `products` to send for the ticked ids: undefined (every product) when
 * all are ticked, else the ticked ids in registry order.
 */
export function productsToSend(ticked: readonly string[], products: readonly ProductChoice[]): string[] | undefined {
  const set = new Set(ticked);
  return products.every((p) => set.has(p.id)) ? undefined : products.map((p) => p.id).filter((id) => set.has(id));
}
