import { z } from 'zod';

/**
 * Ranges of the processing form (spec §5) shared by every terrain product, in
 * centimetres as the form shows them.
 */
export const dtmResolutionCm = z.number().min(20).max(3000);
export const contourIntervalCm = z.number().min(10).max(1000);
export const gridResolutionCm = z.number().min(100).max(10000);

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
