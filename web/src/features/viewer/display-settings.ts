import { type PointShading, WORLD_IMAGERIES, type WorldImagery } from '../../viewer/scene.types.js';

/** Where the viewer's display choices are kept between visits (this browser only). */
export const DISPLAY_STORAGE_KEY = 'nuage.viewer.display';

/** Eye-dome lighting strength and radius ranges of the display panel's sliders. */
export const EDL_STRENGTH = { min: 0.1, max: 5, step: 0.1 } as const;
export const EDL_RADIUS = { min: 0.5, max: 4, step: 0.5 } as const;

/** The display choices a user makes once and finds again: world imagery and eye-dome lighting. */
export interface DisplaySettings {
  imagery: WorldImagery;
  shading: PointShading;
}

export const DEFAULT_DISPLAY: DisplaySettings = {
  imagery: 'none',
  shading: { eyeDomeLighting: false, strength: 1, radius: 1 },
};

function inRange(value: unknown, range: { min: number; max: number }, fallback: number): number {
  const n = typeof value === 'number' ? value : Number.NaN;
  return Number.isFinite(n) ? Math.min(range.max, Math.max(range.min, n)) : fallback;
}

/**
 * Display settings from what was stored (any JSON text, or null): each field
 * checked, out-of-range numbers brought into range, anything unreadable
 * replaced by its default.
 *
 * @example
 * parseDisplaySettings('{"imagery":"ign","shading":{"eyeDomeLighting":true,"strength":9}}')
 * // { imagery: 'ign', shading: { eyeDomeLighting: true, strength: 5, radius: 1 } }
 */
export function parseDisplaySettings(text: string | null): DisplaySettings {
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : null;
  } catch {
    raw = null;
  }
  const o = (raw && typeof raw === 'object' ? raw : {}) as { imagery?: unknown; shading?: unknown };
  const s = (o.shading && typeof o.shading === 'object' ? o.shading : {}) as Record<string, unknown>;
  const d = DEFAULT_DISPLAY.shading;
  return {
    imagery: WORLD_IMAGERIES.includes(o.imagery as WorldImagery)
      ? (o.imagery as WorldImagery)
      : DEFAULT_DISPLAY.imagery,
    shading: {
      eyeDomeLighting: typeof s.eyeDomeLighting === 'boolean' ? s.eyeDomeLighting : d.eyeDomeLighting,
      strength: inRange(s.strength, EDL_STRENGTH, d.strength),
      radius: inRange(s.radius, EDL_RADIUS, d.radius),
    },
  };
}

/** The stored display settings (defaults when nothing or nothing readable is stored, or storage is off). */
export function loadDisplaySettings(
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage,
): DisplaySettings {
  try {
    return parseDisplaySettings(storage?.getItem(DISPLAY_STORAGE_KEY) ?? null);
  } catch {
    return DEFAULT_DISPLAY;
  }
}

/** Keeps the display settings for the next visit; a storage that refuses (private mode, full) is ignored. */
export function saveDisplaySettings(
  settings: DisplaySettings,
  storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage,
): void {
  try {
    storage?.setItem(DISPLAY_STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Not kept: the choice still applies to this visit.
  }
}
