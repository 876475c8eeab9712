import { EngineError } from '@nuage/engine/core/errors.js';
import { parseTilerOptions, type TilerOptions } from '@nuage/engine/tiler/tiler-options.js';
import type { AppDeps } from '../context.js';
import { readSetting, writeSetting } from '../db/queries/global-parameters.queries.js';
import { AppError } from '../errors.js';

/** Viewer point size when the admin never set one (spec §9). */
export const DEFAULT_POINT_SIZE = 2;

const POINT_SIZE_KEY = 'cesium.pointSize';
const TILING_KEY = 'tiling.parameters';

/** The admin settings of spec §6: viewer point size and the tiler options text. */
export interface GlobalParameters {
  pointSize: number;
  /** Free text of tiler options (`--max-points 60000 --min-node-size 0.15`); empty: the tiler's defaults. */
  tilingParameters: string;
}

export async function readGlobalParameters(deps: AppDeps): Promise<GlobalParameters> {
  const db = deps.database.db;
  const [size, tiling] = await Promise.all([readSetting(db, POINT_SIZE_KEY), readSetting(db, TILING_KEY)]);
  return {
    pointSize: typeof size === 'number' && size > 0 ? size : DEFAULT_POINT_SIZE,
    tilingParameters: typeof tiling === 'string' ? tiling : '',
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
