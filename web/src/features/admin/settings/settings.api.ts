import useSWR from 'swr';
import { z } from 'zod';
import { api } from '../../../shared/api/api.js';
import type { components } from '../../../shared/api/schema.generated.js';

/** The admin settings of spec §6: viewer point size, globe opacity, imagery keys and the tiler options text. */
export type GlobalParameters = components['schemas']['GlobalParameters'];

/** Point size range the server accepts (PATCH /globalParameters). */
export const POINT_SIZE_MIN = 0.5;
export const POINT_SIZE_MAX = 50;
/** Longest tiling parameters text the server accepts. */
export const TILING_PARAMETERS_MAX = 2000;
/** Longest imagery keys the server accepts (PATCH /globalParameters). */
export const ION_TOKEN_MAX = 2000;
export const BING_KEY_MAX = 500;

/**
 * The settings form: the point size is checked here as the server does; the
 * tiling text only for its length, its options are checked by the server with
 * the engine's own parser so both never disagree.
 */
export const settingsSchema = z.object({
  pointSize: z
    .number({ error: 'admin:settings.pointSizeRange' })
    .min(POINT_SIZE_MIN, { error: 'admin:settings.pointSizeRange' })
    .max(POINT_SIZE_MAX, { error: 'admin:settings.pointSizeRange' }),
  tilingParameters: z.string().max(TILING_PARAMETERS_MAX, { error: 'admin:settings.tilingTooLong' }),
  /** Percent (spec §9). */
  globeOpacity: z
    .number({ error: 'admin:imagerySettings.globeOpacityRange' })
    .min(0, { error: 'admin:imagerySettings.globeOpacityRange' })
    .max(100, { error: 'admin:imagerySettings.globeOpacityRange' }),
  cesiumIonToken: z.string().max(ION_TOKEN_MAX, { error: 'admin:imagerySettings.tooLong' }),
  bingMapsKey: z.string().max(BING_KEY_MAX, { error: 'admin:imagerySettings.tooLong' }),
});
export type SettingsValues = z.infer<typeof settingsSchema>;

/** GET /globalParameters (admin). */
export function useGlobalParameters() {
  return useSWR(['admin-global-parameters'], () => api.get<GlobalParameters>('/globalParameters'));
}

/** PATCH /globalParameters: 400 INVALID_TILING_PARAMETERS with the parser's message on a bad option text. */
export function saveGlobalParameters(values: Partial<GlobalParameters>): Promise<GlobalParameters> {
  return api.patch<GlobalParameters>('/globalParameters', { body: values });
}
