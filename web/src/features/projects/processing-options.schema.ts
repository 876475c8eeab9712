import { z } from 'zod';

/**
 * Ranges of the processing form (spec §5), in centimetres as the form shows
 * them. The server validates the same ranges again; these give the user the
 * error before the request.
 */
export const PROCESSING_RANGES = {
  dtmResolutionCm: { min: 20, max: 3000 },
  contourIntervalCm: { min: 10, max: 1000 },
  gridResolutionCm: { min: 100, max: 10000 },
  powerLineBufferCm: { min: 100, max: 1000 },
  powerLineBufferCount: { min: 1, max: 3 },
  clearanceHeightCm: { min: 100, max: 10000 },
  treeFallHeightBufferCm: { min: 10, max: 1000 },
} as const;

export const CROWN_SHAPES = ['NARROW', 'WIDE'] as const;
export const BUILDING_SIMPLIFICATIONS = ['RURAL', 'URBAN'] as const;

/** A number field in a range; the message keys live in the projects namespace. */
function centimetres(range: { min: number; max: number }) {
  return z
    .number({ error: 'projects:processing.errors.number' })
    .refine((v) => Number.isFinite(v), { message: 'projects:processing.errors.number' })
    .refine((v) => v >= range.min && v <= range.max, { message: 'projects:processing.errors.range' });
}

/**
 * The processing options (spec §2 processing form, §5 ranges): contour
 * intervals (major greater than minor), DTM and grid resolutions, power-line
 * buffer zones (1 to 3 radii), clearance height, tree-fall height buffer,
 * crown shape and building simplification. Every length is in centimetres;
 * field names are the API's (POST processing body).
 */
export const processingOptionsSchema = z
  .object({
    dtmResolution: centimetres(PROCESSING_RANGES.dtmResolutionCm),
    shadedDtm: z.boolean(),
    contours: z.boolean(),
    contourMinorInterval: centimetres(PROCESSING_RANGES.contourIntervalCm),
    contourMajorInterval: centimetres(PROCESSING_RANGES.contourIntervalCm),
    gridResolution: centimetres(PROCESSING_RANGES.gridResolutionCm),
    powerLineBufferZones: z
      .array(centimetres(PROCESSING_RANGES.powerLineBufferCm))
      .min(PROCESSING_RANGES.powerLineBufferCount.min, { message: 'projects:processing.errors.bufferCount' })
      .max(PROCESSING_RANGES.powerLineBufferCount.max, { message: 'projects:processing.errors.bufferCount' }),
    clearanceZoneHeight: centimetres(PROCESSING_RANGES.clearanceHeightCm),
    treeFallHeightBuffer: centimetres(PROCESSING_RANGES.treeFallHeightBufferCm),
    crownShape: z.enum(CROWN_SHAPES, { error: 'projects:processing.errors.choice' }),
    buildingSimplification: z.enum(BUILDING_SIMPLIFICATIONS, { error: 'projects:processing.errors.choice' }),
  })
  .refine((o) => o.contourMajorInterval > o.contourMinorInterval, {
    path: ['contourMajorInterval'],
    message: 'projects:processing.errors.majorAboveMinor',
  });

export type ProcessingOptions = z.infer<typeof processingOptionsSchema>;

/**
 * The server's defaults (api/src/services/processing-options.ts): a 50 cm
 * DTM with hillshade and slope, 50 cm / 2.5 m contours, a 10 m point grid,
 * power-line zones at 3, 6 and 9 m, 3 m clearance height, 1 m tree-fall buffer.
 */
export const DEFAULT_PROCESSING_OPTIONS: ProcessingOptions = {
  dtmResolution: 50,
  shadedDtm: true,
  contours: true,
  contourMinorInterval: 50,
  contourMajorInterval: 250,
  gridResolution: 1000,
  powerLineBufferZones: [300, 600, 900],
  clearanceZoneHeight: 300,
  treeFallHeightBuffer: 100,
  crownShape: 'NARROW',
  buildingSimplification: 'RURAL',
};

/** A length in centimetres as the hint under a field shows it: "50 cm", "1.5 m", "12 m". */
export function formatCentimetres(cm: number, locale = 'en-US'): string {
  if (!Number.isFinite(cm)) return '';
  if (Math.abs(cm) < 100) return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(cm)} cm`;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(cm / 100)} m`;
}
