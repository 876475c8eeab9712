import { describe, expect, it } from 'vitest';
import {
  declutterLabels,
  elevationToHeight,
  fetchAllFeatures,
  firstFinite,
  formatLabel,
  nearestIndices,
  placeLabels,
  propertyLookup,
  truncationNotices,
  vectorShapes,
} from './vector-features.js';

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
        feature: 0,
      },
      // A one-point line is dropped.
      {
        kind: 'line',
        positions: [
          [0, 0, -1],
          [1, 1, -1],
        ],
        feature: 1,
      },
      {
        kind: 'line',
        positions: [
          [0, 0, -1],
          [1, 0, -1],
          [1, 1, -1],
          [0, 0, -1],
        ],
        feature: 2,
      },
      { kind: 'point', position: [5, 6, 198], feature: 3 },
      { kind: 'point', position: [7, 8, -1], feature: 4 },
      {
        kind: 'line',
        positions: [
          [0, 0, -1],
          [2, 2, -1],
        ],
        feature: 6,
      },
    ]);
  });

  it('keeps polygons as rings when asked, at the elevation of a named property or of a join', () => {
    const square = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
    ];
    const collection = {
      features: [
        // A crown: no z of its own, its tree top's z through the join.
        { geometry: { type: 'Polygon', coordinates: [square] }, properties: { treeId: 7, height: 20 } },
        // A building: its groundZ.
        { geometry: { type: 'MultiPolygon', coordinates: [[square, square]] }, properties: { groundZ: '12.5' } },
        // An outer ring of two points is no polygon.
        {
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 1],
              ],
            ],
          },
          properties: {},
        },
        // A tree top: its z property.
        { geometry: { type: 'Point', coordinates: [4, 5] }, properties: { treeId: 8, z: 30.25 } },
      ],
    };
    const tops = propertyLookup({ features: [{ geometry: null, properties: { treeId: 7, z: 41 } }] }, 'treeId', 'z');
    const heightOf = (e: number | null) => (e === null ? -1 : e);
    const crowns = vectorShapes(collection, heightOf, { polygons: true, elevationProperty: 'z', elevationOf: tops });
    expect(crowns.map((s) => [s.kind, s.feature])).toEqual([
      ['polygon', 0],
      ['polygon', 1],
      ['point', 3],
    ]);
    expect(crowns[0]).toMatchObject({
      rings: [
        [
          [0, 0, 41],
          [1, 0, 41],
          [1, 1, 41],
          [0, 0, 41],
        ],
      ],
    });
    expect(crowns[2]).toMatchObject({ position: [4, 5, 30.25] });
    const buildings = vectorShapes(collection, heightOf, { polygons: true, elevationProperty: 'groundZ' });
    expect(buildings[1]).toMatchObject({ kind: 'polygon', rings: [expect.any(Array), expect.any(Array)] });
    expect((buildings[1] as { rings: number[][][] }).rings[0]![0]).toEqual([0, 0, 12.5]);
    expect(firstFinite({ eaveHeight: null, ridgeHeight: 6.2 }, ['eaveHeight', 'ridgeHeight'])).toBe(6.2);
    expect(firstFinite({ eaveHeight: 'x' }, ['eaveHeight'])).toBeNull();
  });
});

describe('formatLabel', () => {
  const height = { property: 'height', decimals: 2, unit: 'm' };

  it('shows a height in metres to 2 decimals (spec §9), in the locale of the page', () => {
    expect(formatLabel(23.4567, height)).toBe('23.46 m');
    expect(formatLabel(23.4, height)).toBe('23.40 m');
    expect(formatLabel('7', height)).toBe('7.00 m');
    expect(formatLabel(1234.5, height)).toBe('1234.50 m');
    expect(formatLabel(23.4567, height, 'fr')).toBe('23,46 m');
    expect(formatLabel(3, { property: 'n', decimals: 0, unit: '' })).toBe('3');
  });

  it('draws no label for a value that is not a number', () => {
    expect(formatLabel(null, height)).toBeNull();
    expect(formatLabel(undefined, height)).toBeNull();
    expect(formatLabel('tall', height)).toBeNull();
    expect(formatLabel(true, height)).toBeNull();
  });
});

describe('label declutter', () => {
  it('labels in 3D only the points nearest to the camera, within reach', () => {
    const xyz = new Float64Array([0, 0, 10, 0, 0, 1, 0, 0, 5, 0, 0, 1000]);
    expect(nearestIndices(xyz, [0, 0, 0], 2, 100)).toEqual([1, 2]);
    expect(nearestIndices(xyz, [0, 0, 0], 10, 100)).toEqual([1, 2, 0]);
    expect(nearestIndices(xyz, [0, 0, 0], 10, 0.5)).toEqual([]);
    // 20,000 trees: a bounded set, whatever the layer's size.
    const many = new Float64Array(60_000).map((_, i) => (i % 3 === 0 ? i : 0));
    expect(nearestIndices(many, [0, 0, 0], 300, 1e9)).toHaveLength(300);
  });

  it('keeps the tallest of labels that would overlap on screen', () => {
    // Boxes of 56 × 18 pixels: 0 and 1 overlap, 1 is taller; 2 is clear of both; 3 is off screen.
    const anchors: Array<[number, number] | null> = [[100, 100], [130, 108], [200, 100], null];
    expect(placeLabels(anchors, [12, 30, 8, 99])).toEqual([1, 2]);
    // Side by side but clear of each other, or stacked a box apart: all kept.
    expect(
      placeLabels(
        [
          [0, 0],
          [56, 0],
          [0, 18],
        ],
        [1, 2, 3],
      ),
    ).toEqual([0, 1, 2]);
    // A chain: 1 beats 0 and 2, which do not overlap each other but both touch 1.
    expect(
      placeLabels(
        [
          [0, 0],
          [40, 0],
          [80, 0],
        ],
        [1, 5, 1],
      ),
    ).toEqual([1]);
  });

  it('declutters a 2D map by zoom, none when zoomed out', () => {
    // Two trees 9 m apart and one 46 m away, at latitude 34°.
    const points: Array<[number, number]> = [
      [-111.2035, 34.458],
      [-111.2034, 34.458],
      [-111.203, 34.458],
    ];
    const heights = [12, 30, 8];
    // Zoom 20: 149 pixels between the first two, every label fits.
    expect(declutterLabels(points, heights, 20)).toEqual([0, 1, 2]);
    // Zoom 16: 9 pixels apart, the taller keeps its label; 48 pixels further the third overlaps it too.
    expect(declutterLabels(points, heights, 16)).toEqual([1]);
    // Zoom 17: the third is 75 pixels from the taller: clear.
    expect(declutterLabels(points, heights, 17)).toEqual([1, 2]);
    expect(declutterLabels(points, heights, 20, { minZoom: 21 })).toEqual([]);
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
    // A READY vector without features is no collection of the API: an empty layer, not a failure.
    const empty = (async () => new Response('{}', { status: 404 })) as unknown as typeof fetch;
    await expect(fetchAllFeatures('/x', 100, empty)).resolves.toEqual({ features: [] });
    // A later page that went missing is one.
    const gone = (async (url: string) =>
      url === '/p1'
        ? new Response(JSON.stringify({ features: [{ geometry: null }], links: [{ rel: 'next', href: '/p2' }] }))
        : new Response('{}', { status: 404 })) as unknown as typeof fetch;
    await expect(fetchAllFeatures('/p1', 100, gone)).rejects.toThrow('/p2: HTTP 404');
  });

  it('says when it left pages unread (more features than a viewer reads)', async () => {
    const endless = (async (url: string) => {
      const at = Number(new URL(url, 'http://h').searchParams.get('offset') ?? 0);
      return new Response(
        JSON.stringify({
          features: [{ geometry: null }, { geometry: null }],
          links: [{ rel: 'next', href: `/items?offset=${at + 2}` }],
        }),
      );
    }) as unknown as typeof fetch;
    const first = await fetchAllFeatures('/items', 5, endless);
    expect(first.features).toHaveLength(6);
    expect(first.truncated).toBe(true);
    // Every page read: not truncated.
    const two = (async (url: string) =>
      new Response(
        JSON.stringify(
          url === '/a'
            ? { features: [{ geometry: null }], links: [{ rel: 'next', href: '/b' }] }
            : { features: [{ geometry: null }], links: [] },
        ),
      )) as unknown as typeof fetch;
    expect((await fetchAllFeatures('/a', 2, two)).truncated).toBeUndefined();
  });
});

describe('truncationNotices', () => {
  it('says once per layer that it was read in part, with the count in the page locale', () => {
    const events: unknown[] = [];
    const check = truncationNotices(
      (e) => events.push(e),
      () => 'fr',
    );
    const part = { features: Array.from({ length: 200_000 }, () => ({ geometry: null })), truncated: true };
    check('a', { features: [] });
    check('a', part);
    check('a', part);
    check('b', part);
    expect(events).toEqual([
      { type: 'error', code: 'VECTOR_TRUNCATED', layerId: 'a', message: new Intl.NumberFormat('fr').format(200_000) },
      { type: 'error', code: 'VECTOR_TRUNCATED', layerId: 'b', message: new Intl.NumberFormat('fr').format(200_000) },
    ]);
  });
});
