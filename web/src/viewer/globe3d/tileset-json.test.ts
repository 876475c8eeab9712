import { describe, expect, it } from 'vitest';
import { normaliseTileset, type TilesetJsonLike } from './tileset-json.js';

/** A two-level tileset as the Nuage tiler writes it. */
function nuageTileset(): TilesetJsonLike {
  return {
    asset: { version: '1.1', generator: 'Nuage tiler' },
    geometricError: 362.2,
    root: {
      boundingVolume: { box: [0, 0, 0, 150, 0, 0, 0, 100, 0, 0, 0, 20] },
      geometricError: 29,
      refine: 'ADD',
      content: { uri: 'content/0-0-0-0.glb' },
      children: [
        {
          boundingVolume: { box: [1, 2, 3, 1, 0, 0, 0, 1, 0, 0, 0, 1] },
          geometricError: 0,
          contents: [{ uri: 'content/1-0-0-0.glb' }],
        },
      ],
    },
    extras: { hasColor: true },
  } as TilesetJsonLike;
}

const URL_ = 'https://nuage.example/tiles/s/abc/123/projects/p/assets/a/tileset.json';

describe('normaliseTileset', () => {
  it('makes content URIs absolute and leaves the input untouched', () => {
    const input = nuageTileset();
    const { json } = normaliseTileset(input, URL_);
    expect(json.root!.content!.uri).toBe(
      'https://nuage.example/tiles/s/abc/123/projects/p/assets/a/content/0-0-0-0.glb',
    );
    expect(json.root!.children![0]!.contents![0]!.uri).toMatch(/\/assets\/a\/content\/1-0-0-0\.glb$/);
    expect(input.root!.content!.uri).toBe('content/0-0-0-0.glb');
  });

  it('keeps geometric errors as written (the tiler writes the py3dtiles scale)', () => {
    const { json } = normaliseTileset(nuageTileset(), URL_);
    expect(json.geometricError).toBe(362.2);
    expect(json.root!.geometricError).toBe(29);
    expect(json.root!.children![0]!.geometricError).toBe(0);
    expect(json.extras).toEqual({ hasColor: true });
  });
});
