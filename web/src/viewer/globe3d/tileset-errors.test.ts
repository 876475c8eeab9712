import { describe, expect, it } from 'vitest';
import { boundingDiagonal, normaliseTileset, type TilesetJsonLike } from './tileset-errors.js';

/** A two-level tileset as the Nuage tiler writes it (errors are point spacings). */
function nuageTileset(generator = 'Nuage tiler'): TilesetJsonLike {
  return {
    asset: { version: '1.1', generator },
    geometricError: 5.8,
    root: {
      boundingVolume: { box: [0, 0, 0, 150, 0, 0, 0, 100, 0, 0, 0, 20] },
      geometricError: 2.9,
      refine: 'ADD',
      content: { uri: 'content/0-0-0-0.glb' },
      children: [
        {
          boundingVolume: { box: [1, 2, 3, 1, 0, 0, 0, 1, 0, 0, 0, 1] },
          geometricError: 0,
          content: { uri: 'content/1-0-0-0.glb' },
        },
      ],
    },
    extras: { hasColor: true },
  } as TilesetJsonLike;
}

const URL_ = 'https://nuage.example/tiles/s/abc/123/projects/p/assets/a/tileset.json';

describe('normaliseTileset', () => {
  it('puts Nuage tiler errors on the py3dtiles scale (10 × spacing, tileset error = diagonal)', () => {
    const { json, scaled } = normaliseTileset(nuageTileset(), URL_);
    expect(scaled).toBe(true);
    expect(json.root!.geometricError).toBeCloseTo(29, 9);
    expect(json.root!.children![0]!.geometricError).toBe(0);
    const diagonal = 2 * Math.sqrt(150 ** 2 + 100 ** 2 + 20 ** 2);
    expect(json.geometricError).toBeCloseTo(diagonal, 9);
    expect(json.extras).toEqual({ hasColor: true });
  });

  it('makes content URIs absolute and leaves the input untouched', () => {
    const input = nuageTileset();
    const { json } = normaliseTileset(input, URL_);
    expect(json.root!.content!.uri).toBe(
      'https://nuage.example/tiles/s/abc/123/projects/p/assets/a/content/0-0-0-0.glb',
    );
    expect(json.root!.children![0]!.content!.uri).toMatch(/\/assets\/a\/content\/1-0-0-0\.glb$/);
    expect(input.root!.content!.uri).toBe('content/0-0-0-0.glb');
    expect(input.root!.geometricError).toBe(2.9);
  });

  it('keeps the errors of other generators', () => {
    const { json, scaled } = normaliseTileset(nuageTileset('py3dtiles'), URL_);
    expect(scaled).toBe(false);
    expect(json.geometricError).toBe(5.8);
    expect(json.root!.geometricError).toBe(2.9);
  });

  it('measures the diagonal of boxes and spheres', () => {
    expect(boundingDiagonal({ box: [0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0] })).toBe(10);
    expect(boundingDiagonal({ sphere: [0, 0, 0, 7] })).toBe(14);
    expect(boundingDiagonal({ region: [0, 0, 1, 1, 0, 10] })).toBe(0);
  });
});
