import type { EditRegion } from './edit.types.js';

/**
 * The classification-edit form as data: Z bounds typed by the user, the
 * request sent to the server (`POST /projects/{id}/classification-edits` and
 * its preview), the counts by class in the order shown, and the names of the
 * apply job's steps.
 */

/** What an edit asks: the region, the optional filters and the class given. */
export interface EditRequest {
  region: EditRegion;
  fromClasses?: number[];
  minZ?: number;
  maxZ?: number;
  toClass: number;
}

/** Parses a Z bound: empty is none, else a finite number (comma or point decimals); 'invalid' otherwise. */
export function parseBound(text: string): number | null | 'invalid' {
  const s = text.trim().replace(',', '.');
  if (s === '') return null;
  const v = Number(s);
  return Number.isFinite(v) ? v : 'invalid';
}

/** The request of an edit (filter classes sorted, absent bounds left out); null while something is missing or wrong. */
export function editRequestOf(
  region: EditRegion | null,
  toClass: number,
  fromClasses: readonly number[],
  minZ: number | null | 'invalid',
  maxZ: number | null | 'invalid',
): EditRequest | null {
  if (!region || minZ === 'invalid' || maxZ === 'invalid') return null;
  if (minZ !== null && maxZ !== null && minZ > maxZ) return null;
  return {
    region,
    toClass,
    ...(fromClasses.length ? { fromClasses: [...new Set(fromClasses)].sort((a, b) => a - b) } : {}),
    ...(minZ !== null ? { minZ } : {}),
    ...(maxZ !== null ? { maxZ } : {}),
  };
}

/** Counts by class (codes as text, as the server sends them) as [code, count], largest first, zeros left out. */
export function byClassEntries(counts: { byClass: Record<string, number> }): Array<[number, number]> {
  return Object.entries(counts.byClass)
    .map(([c, n]) => [Number(c), n] as [number, number])
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}

/** Steps of the apply job (api/src/jobs/classification-edit.task.ts) named as such; a product's id otherwise. */
const EDIT_STEPS = new Set(['startLasDownload', 'applyingEdits', 'writingLas', 'tilesCreation', 'done']);

/** The translation key (viewer namespace) and values of an apply job's step. */
export function stepKey(step: string): { key: string; values: Record<string, string> } {
  if (EDIT_STEPS.has(step)) return { key: `viewer:classEdit.steps.${step}`, values: {} };
  const storing = /^(.+):storing$/.exec(step);
  if (storing) return { key: 'viewer:classEdit.steps.storing', values: { product: storing[1]! } };
  return { key: 'viewer:classEdit.steps.product', values: { product: step } };
}
