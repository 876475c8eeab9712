/**
 * Brings a tileset's geometric errors to the scale the viewer's screen-space
 * error of 120 (spec §9) is calibrated for: py3dtiles writes each tile's
 * error as 10 × its point spacing and the tileset's as the diagonal of its
 * bounds. The Nuage tiler (engine/src/tiler) writes the spacing itself, so
 * its errors are multiplied by 10 and the tileset's raised to the diagonal;
 * without this, Cesium draws nothing of a Nuage tileset once the camera
 * stands back far enough to see all of it. Tilesets of other generators pass
 * through unchanged.
 */

/** py3dtiles' geometric error per unit of point spacing. */
export const PY3DTILES_ERROR_PER_SPACING = 10;
/** `asset.generator` of tilesets whose errors are point spacings. */
export const SPACING_ERROR_GENERATORS = ['Nuage tiler'];

interface TileJson {
  boundingVolume?: { box?: number[]; sphere?: number[]; region?: number[] };
  geometricError?: number;
  content?: { uri?: string; url?: string };
  contents?: Array<{ uri?: string }>;
  children?: TileJson[];
}

export interface TilesetJsonLike {
  asset?: { version?: string; generator?: string };
  geometricError?: number;
  root?: TileJson;
  [key: string]: unknown;
}

/** Length of the diagonal of a bounding volume (metres), 0 when unknown. */
export function boundingDiagonal(volume: TileJson['boundingVolume']): number {
  const box = volume?.box;
  if (box && box.length === 12) {
    // Orthogonal half-axes: the diagonal is twice the length of their sum.
    let s = 0;
    for (const k of [3, 6, 9]) s += box[k]! ** 2 + box[k + 1]! ** 2 + box[k + 2]! ** 2;
    return 2 * Math.sqrt(s);
  }
  const sphere = volume?.sphere;
  if (sphere && sphere.length === 4) return 2 * sphere[3]!;
  return 0;
}

function walk(tile: TileJson, visit: (t: TileJson) => void): void {
  visit(tile);
  for (const child of tile.children ?? []) walk(child, visit);
}

/**
 * Returns a copy of `json` with errors on the py3dtiles scale (when its
 * generator writes spacings) and every content URI made absolute against
 * `tilesetUrl`, so the copy can be loaded from anywhere (a blob URL).
 */
export function normaliseTileset(
  json: TilesetJsonLike,
  tilesetUrl: string,
): { json: TilesetJsonLike; scaled: boolean } {
  const copy = structuredClone(json);
  const generator = copy.asset?.generator ?? '';
  const scaled = SPACING_ERROR_GENERATORS.some((g) => generator.startsWith(g));
  const root = copy.root;
  if (root) {
    walk(root, (tile) => {
      if (scaled && typeof tile.geometricError === 'number') tile.geometricError *= PY3DTILES_ERROR_PER_SPACING;
      if (tile.content?.uri) tile.content.uri = new URL(tile.content.uri, tilesetUrl).href;
      if (tile.content?.url) tile.content.url = new URL(tile.content.url, tilesetUrl).href;
      for (const c of tile.contents ?? []) if (c.uri) c.uri = new URL(c.uri, tilesetUrl).href;
    });
    if (scaled) {
      const top = (copy.geometricError ?? 0) * PY3DTILES_ERROR_PER_SPACING;
      copy.geometricError = Math.max(top, root.geometricError ?? 0, boundingDiagonal(root.boundingVolume));
    }
  }
  return { json: copy, scaled };
}
