import { z } from 'zod';
import { InvalidInput } from '../core/errors.js';
import { crsFromEpsg } from '../crs/index.js';
import { OPTION_FIELDS } from './options.js';

const range = (f: { min: number; max: number }) => z.number().min(f.min).max(f.max);

/**
 * Ranges of the processing form (spec §5) for the terrain functions' own
 * options, in centimetres, taken from {@link OPTION_FIELDS}.
 */
export const dtmResolutionCm = range(OPTION_FIELDS.dtmResolutionCm);
export const contourIntervalCm = range(OPTION_FIELDS.contourMinorCm);
export const gridResolutionCm = range(OPTION_FIELDS.gridResolutionCm);

/**
 * Ratio of horizontal to vertical units, like gdaldem's `-s`: horizontal unit
 * in metres divided by vertical unit in metres (1 for metres/metres, 0.3048 for
 * a feet grid with metre heights, 111120 for degrees with metre heights).
 */
export function unitScale(crs: { horizontalUnitToMetre?: number; verticalUnitToMetre?: number } | null): number {
  const h = crs?.horizontalUnitToMetre ?? 1;
  const v = crs?.verticalUnitToMetre ?? h;
  return h / v;
}

/**
 * Parses a centimetre value given on the command line (`--resolution 50`)
 * against a form range.
 */
export function parseCmOption(value: unknown, field: string, schema: z.ZodNumber, fallback?: number): number {
  if (value === undefined || value === true) {
    if (fallback !== undefined) return fallback;
    throw new InvalidInput(field, 'is required (centimetres)');
  }
  const n = Number(value);
  const parsed = schema.safeParse(n);
  if (!Number.isFinite(n) || !parsed.success) {
    const min = schema.minValue ?? 0;
    const max = schema.maxValue ?? Number.POSITIVE_INFINITY;
    throw new InvalidInput(field, `"${value}" is not a value in ${min}–${max} cm`);
  }
  return parsed.data;
}

/** Units of a raster read from a GeoTIFF: from its EPSG code when known, metres otherwise. */
export function rasterUnits(epsg: number | null): { unitToMetre: number; verticalUnitToMetre: number } {
  if (!epsg) return { unitToMetre: 1, verticalUnitToMetre: 1 };
  try {
    const crs = crsFromEpsg(epsg);
    const unitToMetre = crs.horizontalUnitToMetre || 1;
    return { unitToMetre, verticalUnitToMetre: crs.verticalUnitToMetre || unitToMetre };
  } catch {
    return { unitToMetre: 1, verticalUnitToMetre: 1 };
  }
}
