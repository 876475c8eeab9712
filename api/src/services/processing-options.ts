import { InvalidInput } from '@nuage/engine/core/errors.js';
import {
  type ProcessingOptions,
  type ProcessingOptionsInput,
  processingOptionsSchema,
} from '@nuage/engine/products/options.js';
import { PRODUCT_IDS, PRODUCTS } from '@nuage/engine/products/registry.js';
import { productClosure } from '@nuage/engine/products/run-products.js';
import { AppError } from '../errors.js';

export type { ProcessingOptions, ProcessingOptionsInput };

/** Option names of jobs queued before the product registry, and their names now. */
const RENAMED: Record<string, string> = {
  dtmResolution: 'dtmResolutionCm',
  contourMinorInterval: 'contourMinorCm',
  contourMajorInterval: 'contourMajorCm',
  gridResolution: 'gridResolutionCm',
  powerLineBufferZones: 'powerLineBuffersCm',
  clearanceZoneHeight: 'clearanceHeightCm',
  treeFallHeightBuffer: 'treeFallHeightBufferCm',
};

/**
 * Options of a job row as the registry names them: rows queued before the
 * registry used other names and two switches (`shadedDtm`, `contours`), which
 * become a product selection. Requests must use the new names.
 */
export function upgradeProcessingOptions(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const o = raw as Record<string, unknown>;
  if (!Object.keys(o).some((k) => k in RENAMED || k === 'shadedDtm' || k === 'contours')) return raw;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === 'shadedDtm' || k === 'contours') continue;
    out[RENAMED[k] ?? k] = v;
  }
  const off = new Set<string>();
  if (o.shadedDtm === false) off.add('hillshade');
  if (o.contours === false) for (const id of ['contours', 'contours-major', 'contours-minor']) off.add(id);
  if (off.size > 0 && out.products === undefined) out.products = PRODUCT_IDS.filter((id) => !off.has(id));
  return out;
}

/**
 * Validates processing options (spec §5 ranges, names of the registry); a bad
 * value is a 400 INVALID_PROCESSING_OPTIONS naming the field, with every issue
 * in `details.issues`.
 */
export function parseProcessingOptions(raw: unknown): ProcessingOptions {
  const parsed = processingOptionsSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'options';
    throw new AppError(400, 'INVALID_PROCESSING_OPTIONS', `${field}: ${issue.message}`, {
      field,
      issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    });
  }
  try {
    productClosure(parsed.data.products);
  } catch (error) {
    if (error instanceof InvalidInput) {
      throw new AppError(400, 'INVALID_PROCESSING_OPTIONS', error.message, { field: 'products' });
    }
    throw error;
  }
  return parsed.data;
}

/** Whether a run with these options makes a product (it or a product needing it is selected). */
export function makesProduct(options: Partial<ProcessingOptions> | null, id: string): boolean {
  if (!options?.products) return true;
  return productClosure(options.products, PRODUCTS).some((p) => p.id === id);
}
