import { contourIntervalCm, dtmResolutionCm, gridResolutionCm } from '@nuage/engine/products/terrain-options.js';
import { z } from 'zod';

/**
 * Options of the processing form (spec §2) with the exact ranges of spec §5,
 * in centimetres. The terrain ranges are the engine's own schemas, so the form,
 * the API, the job and the CLI refuse the same values.
 */
export const processingOptionsSchema = z
  .object({
    /** DTM cell size, 20–3000 cm. */
    dtmResolution: dtmResolutionCm.default(50),
    /** Compute the shaded DTM (hillshade) and slope. */
    shadedDtm: z.boolean().default(true),
    /** Compute contour lines. */
    contours: z.boolean().default(true),
    /** Minor contour interval, 10–1000 cm. */
    contourMinorInterval: contourIntervalCm.default(50),
    /** Major contour interval, 10–1000 cm, greater than the minor one. */
    contourMajorInterval: contourIntervalCm.default(250),
    /** Point grid cell, 100–10000 cm. */
    gridResolution: gridResolutionCm.default(1000),
    /** Power-line buffer zones: 1 to 3 radii of 100–1000 cm. */
    powerLineBufferZones: z.array(z.number().min(100).max(1000)).min(1).max(3).default([300, 600, 900]),
    /** Clearance zone height, 100–10000 cm. */
    clearanceZoneHeight: z.number().min(100).max(10000).default(300),
    /** Tree-fall height buffer, 10–1000 cm. */
    treeFallHeightBuffer: z.number().min(10).max(1000).default(100),
    crownShape: z.enum(['NARROW', 'WIDE']).default('NARROW'),
    buildingSimplification: z.enum(['RURAL', 'URBAN']).default('RURAL'),
  })
  .strict()
  .refine((o) => o.contourMajorInterval > o.contourMinorInterval, {
    path: ['contourMajorInterval'],
    message: 'the major contour interval must be greater than the minor one',
  });

/** Validated processing options (every field set). */
export type ProcessingOptions = z.output<typeof processingOptionsSchema>;
/** Processing options as a client sends them (every field optional). */
export type ProcessingOptionsInput = z.input<typeof processingOptionsSchema>;
