import { EngineError } from '@nuage/engine/core/errors.js';
import { parseTilerOptions, type TilerOptions } from '@nuage/engine/tiler/tiler-options.js';
import type { AppDeps } from '../context.js';
import { readSetting, writeSetting } from '../db/queries/global-parameters.queries.js';
import { AppError } from '../errors.js';

/** Viewer point size when the admin never set one (spec §9). */
export const DEFAULT_POINT_SIZE = 2;

/** Globe opacity when the admin never set one (spec §9: a percentage). */
export const DEFAULT_GLOBE_OPACITY = 100;

const POINT_SIZE_KEY = 'cesium.pointSize';
const TILING_KEY = 'tiling.parameters';
const GLOBE_OPACITY_KEY = 'cesium.globeOpacity';
const ION_TOKEN_KEY = 'imagery.cesiumIonToken';
const BING_KEY = 'imagery.bingMapsKey';

/**
 * The admin settings of spec §6: viewer point size, globe opacity and the
 * keys of the world imagery services (spec §2: cesium, bing), and the tiler
 * options text.
 */
export interface GlobalParameters {
  pointSize: number;
  /** Free text of tiler options (`--max-points 60000 --min-node-size 0.15`); empty: the tiler's defaults. */
  tilingParameters: string;
  /** Percent, 0..100 (spec §9). */
  globeOpacity: number;
  /** Cesium ion access token of the "cesium" world imagery; empty: not offered. */
  cesiumIonToken: string;
  /** Bing Maps key of the "bing" world imagery; empty: not offered. */
  bingMapsKey: string;
}

export async function readGlobalParameters(deps: AppDeps): Promise<GlobalParameters> {
  const db = deps.database.db;
  const [size, tiling, opacity, ion, bing] = await Promise.all(
    [POINT_SIZE_KEY, TILING_KEY, GLOBE_OPACITY_KEY, ION_TOKEN_KEY, BING_KEY].map((k) => readSetting(db, k)),
  );
  return {
    pointSize: typeof size === 'number' && size > 0 ? size : DEFAULT_POINT_SIZE,
    tilingParameters: typeof tiling === 'string' ? tiling : '',
    globeOpacity: typeof opacity === 'number' && opacity >= 0 && opacity <= 100 ? opacity : DEFAULT_GLOBE_OPACITY,
    cesiumIonToken: typeof ion === 'string' ? ion : '',
    bingMapsKey: typeof bing === 'string' ? bing : '',
  };
}

/** Validates tiler options text with the engine's own parser; 400 INVALID_TILING_PARAMETERS otherwise. */
export function checkTilingParameters(text: string): TilerOptions {
  try {
    return parseTilerOptions(text);
  } catch (err) {
    if (err instanceof EngineError) throw new AppError(400, 'INVALID_TILING_PARAMETERS', err.message);
    throw err;
  }
}

/** Saves admin settings (each field optional); the tiling text is validated before it is stored. */
export async function updateGlobalParameters(
  deps: AppDeps,
  patch: Partial<GlobalParameters>,
): Promise<GlobalParameters> {
  const db = deps.database.db;
  if (patch.tilingParameters !== undefined) {
    checkTilingParameters(patch.tilingParameters);
    await writeSetting(db, TILING_KEY, patch.tilingParameters.trim());
  }
  if (patch.pointSize !== undefined) await writeSetting(db, POINT_SIZE_KEY, patch.pointSize);
  if (patch.globeOpacity !== undefined) await writeSetting(db, GLOBE_OPACITY_KEY, patch.globeOpacity);
  if (patch.cesiumIonToken !== undefined) await writeSetting(db, ION_TOKEN_KEY, patch.cesiumIonToken.trim());
  if (patch.bingMapsKey !== undefined) await writeSetting(db, BING_KEY, patch.bingMapsKey.trim());
  return readGlobalParameters(deps);
}

/**
 * The tiler options the tiling job uses: the admin text parsed by the engine.
 * A text that no longer parses (written by an older version) falls back to the
 * tiler's defaults with a warning rather than blocking every tiling.
 */
export async function tilerOptionsForJobs(deps: AppDeps): Promise<Partial<TilerOptions>> {
  const { tilingParameters } = await readGlobalParameters(deps);
  if (!tilingParameters) return {};
  try {
    return parseTilerOptions(tilingParameters);
  } catch (err) {
    deps.log.warn({ err, tilingParameters }, 'the tiling parameters setting is invalid: using the defaults');
    return {};
  }
}
