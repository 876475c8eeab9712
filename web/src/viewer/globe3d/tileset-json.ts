/**
 * Tileset JSON as the viewer loads it. The Nuage tiler (engine/src/tiler)
 * writes geometric errors on the py3dtiles scale (10 × each tile's point
 * spacing; the tileset's error is the diagonal of its bounds), the scale the
 * viewer's screen-space error of 120 (spec §9) is calibrated for, so errors
 * pass through unchanged.
 */

/** py3dtiles' (and the Nuage tiler's) geometric error per unit of point spacing. */
export const PY3DTILES_ERROR_PER_SPACING = 10;

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

function walk(tile: TileJson, visit: (t: TileJson) => void): void {
  visit(tile);
  for (const child of tile.children ?? []) walk(child, visit);
}

/**
 * Returns a copy of `json` with every content URI made absolute against
 * `tilesetUrl`, so the copy can be loaded from anywhere (a blob URL).
 */
export function normaliseTileset(json: TilesetJsonLike, tilesetUrl: string): { json: TilesetJsonLike } {
  const copy = structuredClone(json);
  if (copy.root) {
    walk(copy.root, (tile) => {
      if (tile.content?.uri) tile.content.uri = new URL(tile.content.uri, tilesetUrl).href;
      if (tile.content?.url) tile.content.url = new URL(tile.content.url, tilesetUrl).href;
      for (const c of tile.contents ?? []) if (c.uri) c.uri = new URL(c.uri, tilesetUrl).href;
    });
  }
  return { json: copy };
}
