import { describe, expect, it } from 'vitest';
import { elevationToHeight, fetchAllFeatures, vectorShapes } from './vector-features.js';

describe('vectorShapes', () => {
  it('flattens every geometry type into lines and points with heights from the elevation property', () => {
    const shapes = vectorShapes(
      {
        features: [
          {
            geometry: {
              type: 'LineString',
              coordinates: [
                [1, 2],
                [3, 4],
              ],
            },
            properties: { elevation: 410 },
          },
          {
            geometry: {
              type: 'MultiLineString',
              coordinates: [
                [
                  [0, 0],
                  [1, 1],
                ],
                [[2, 2]],
              ],
            },
            properties: {},
          },
          {
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [0, 0],
                  [1, 0],
                  [1, 1],
                  [0, 0],
                ],
              ],
            },
            properties: null,
          },
          { geometry: { type: 'Point', coordinates: [5, 6, 99] }, properties: {} },
          {
            geometry: {
              type: 'MultiPoint',
              coordinates: [
                [7, 8],
                ['x', 1],
              ],
            },
          },
          { geometry: null },
          {
            geometry: {
              type: 'GeometryCollection',
              geometries: [
                {
                  type: 'MultiPolygon',
                  coordinates: [
                    [
                      [
                        [0, 0],
                        [2, 2],
                      ],
                    ],
                  ],
                },
              ],
            },
          },
        ],
      },
      (e) => (e === null ? -1 : e * 2),
    );
    expect(shapes).toEqual([
      {
        kind: 'line',
        positions: [
          [1, 2, 820],
          [3, 4, 820],
        ],
      },
      // A one-point line is dropped.
      {
        kind: 'line',
        positions: [
          [0, 0, -1],
          [1, 1, -1],
        ],
      },
      {
        kind: 'line',
        positions: [
          [0, 0, -1],
          [1, 0, -1],
          [1, 1, -1],
          [0, 0, -1],
        ],
      },
      { kind: 'point', position: [5, 6, 198] },
      { kind: 'point', position: [7, 8, -1] },
      {
        kind: 'line',
        positions: [
          [0, 0, -1],
          [2, 2, -1],
        ],
      },
    ]);
  });
});

describe('elevationToHeight', () => {
  it('maps file elevations (feet here) onto the drawn heights (metres)', () => {
    // Autzen: 406.26..520.51 ft drawn at 123.83..158.65 m.
    const f = elevationToHeight({ min: 406.26, max: 520.51 }, { min: 123.83, max: 158.65 });
    expect(f(406.26)).toBeCloseTo(123.83, 6);
    expect(f(520.51)).toBeCloseTo(158.65, 6);
    expect(f(463.385)).toBeCloseTo(141.24, 2);
    expect(f(null)).toBe(123.83);
    expect(elevationToHeight(undefined, { min: 5, max: 9 })(100)).toBe(5);
    expect(elevationToHeight({ min: 3, max: 3 }, { min: 5, max: 9 })(3)).toBe(5);
  });
});

describe('fetchAllFeatures', () => {
  it('follows the next links of OGC API Features pages', async () => {
    const pages: Record<string, unknown> = {
      '/items?limit=2': {
        features: [{ geometry: null }, { geometry: null }],
        links: [{ rel: 'next', href: '/items?offset=2' }],
      },
      '/items?offset=2': { features: [{ geometry: null }], links: [{ rel: 'prev', href: '/items?limit=2' }] },
    };
    const seen: string[] = [];
    const fetcher = (async (url: string) => {
      seen.push(url);
      return new Response(JSON.stringify(pages[url]), { status: 200 });
    }) as typeof fetch;
    const all = await fetchAllFeatures('/items?limit=2', 100, fetcher);
    expect(all.features).toHaveLength(3);
    expect(seen).toEqual(['/items?limit=2', '/items?offset=2']);
    const failing = (async () => new Response('no', { status: 403 })) as unknown as typeof fetch;
    await expect(fetchAllFeatures('/x', 100, failing)).rejects.toThrow('HTTP 403');
  });
});
