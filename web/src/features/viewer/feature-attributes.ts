import { formatLabel } from '../../viewer/vector-features.js';

/**
 * Properties of vector features the attributes panel names in the user's
 * language (`viewer:attributes.<name>`); any other property shows its raw name.
 */
export const KNOWN_ATTRIBUTES = [
  'treeId',
  'height',
  'crownArea',
  'buildingId',
  'area',
  'groundZ',
  'eaveHeight',
  'ridgeHeight',
  'pointCount',
  'roofType',
  'elevation',
  'kind',
] as const;

/** Properties whose values are words of the engine, shown translated (`viewer:attributeValues.<name>.<value>`). */
export const TRANSLATED_VALUES: ReadonlySet<string> = new Set(['roofType', 'kind']);

/** Measures and their units: heights in metres to 2 decimals (spec §9), areas in m² to 1 decimal. */
const MEASURES: Readonly<Record<string, { unit: string; decimals: number }>> = {
  height: { unit: 'm', decimals: 2 },
  eaveHeight: { unit: 'm', decimals: 2 },
  ridgeHeight: { unit: 'm', decimals: 2 },
  crownArea: { unit: 'm²', decimals: 1 },
  area: { unit: 'm²', decimals: 1 },
};

const KNOWN: ReadonlySet<string> = new Set(KNOWN_ATTRIBUTES);

/** One row of the attributes panel. */
export interface AttributeRow {
  name: string;
  /** True when `viewer:attributes.<name>` names it. */
  known: boolean;
  /** The value as shown, numbers in the locale's notation ("23.45 m"); '—' for none. */
  value: string;
  /** The raw value, when the panel translates it (roof type, contour kind). */
  word: string | null;
}

/**
 * The rows of the attributes panel for a feature's properties: the known
 * ones first, in the order of {@link KNOWN_ATTRIBUTES} (the server's JSON
 * comes in any order), then the others as they come. Measures show with
 * their unit, other numbers as they are (no grouping: ids and coordinates),
 * words are kept for translation, nothing shows as '—'.
 *
 * @example
 * attributeRows({ height: 23.4567, treeId: 7 }) // [{ name: 'treeId', value: '7' }, { name: 'height', value: '23.46 m' }]
 */
export function attributeRows(properties: Record<string, unknown>, locale = 'en-US'): AttributeRow[] {
  const rank = (name: string) => {
    const i = (KNOWN_ATTRIBUTES as readonly string[]).indexOf(name);
    return i < 0 ? KNOWN_ATTRIBUTES.length : i;
  };
  const entries = Object.entries(properties).sort(([a], [b]) => rank(a) - rank(b));
  return entries.map(([name, raw]) => {
    const known = KNOWN.has(name);
    const measure = MEASURES[name];
    let value: string;
    if (raw === null || raw === undefined || raw === '') value = '—';
    else if (measure && typeof raw === 'number')
      value = formatLabel(raw, { property: name, ...measure }, locale) ?? '—';
    else if (typeof raw === 'number')
      value = raw.toLocaleString(locale, { useGrouping: false, maximumFractionDigits: 3 });
    else if (typeof raw === 'object') value = JSON.stringify(raw);
    else value = String(raw);
    const word = TRANSLATED_VALUES.has(name) && typeof raw === 'string' ? raw : null;
    return { name, known, value, word };
  });
}
