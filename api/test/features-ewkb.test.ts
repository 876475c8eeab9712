import { geoJsonToEwkb, InvalidGeometry } from '@nuage/engine/writers/ewkb.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './db.js';

/**
 * Features go to PostGIS as EWKB made here instead of GeoJSON text parsed
 * there: the stored geometry must be the one `ST_GeomFromGeoJSON` stored,
 * byte for byte, for every kind of geometry the products write.
 */
describe('GeoJSON geometries as EWKB, against PostGIS reading the GeoJSON (real PostGIS)', () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(() => tdb.drop());

  const cases: Array<[string, { type: string; coordinates?: unknown; geometries?: unknown }]> = [
    ['point', { type: 'Point', coordinates: [138.55123456789, -35.0512345678] }],
    ['point with Z', { type: 'Point', coordinates: [5.1, 52.2, 12.345] }],
    [
      'contour line',
      {
        type: 'LineString',
        coordinates: [
          [5.1, 52.2],
          [5.10000001, 52.20000002],
          [5.3, 52.4],
        ],
      },
    ],
    [
      '3D conductor',
      {
        type: 'LineString',
        coordinates: [
          [5.1, 52.2, 30.1],
          [5.2, 52.3, 28.7],
          [5.3, 52.4, 31],
        ],
      },
    ],
    [
      'mixed 2D and 3D positions',
      {
        type: 'LineString',
        coordinates: [
          [5.1, 52.2, 3],
          [5.2, 52.3],
        ],
      },
    ],
    [
      'a 2D position first, a 3D one after',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [10, 0],
            [10, 10, 4],
            [0, 0],
          ],
        ],
      },
    ],
    [
      'a collection whose second member has Z',
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [1, 2] },
          {
            type: 'LineString',
            coordinates: [
              [1, 2],
              [3, 4, 5],
            ],
          },
        ],
      },
    ],
    [
      'polygon with a courtyard',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [10, 0],
            [10, 10],
            [0, 10],
            [0, 0],
          ],
          [
            [2, 2],
            [2, 4],
            [4, 4],
            [4, 2],
            [2, 2],
          ],
        ],
      },
    ],
    [
      'multi point',
      {
        type: 'MultiPoint',
        coordinates: [
          [1, 2],
          [3, 4],
        ],
      },
    ],
    [
      'multi line',
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [1, 2],
            [3, 4],
          ],
          [
            [5, 6],
            [7, 8, 9],
          ],
        ],
      },
    ],
    [
      'multi polygon',
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 0],
            ],
          ],
          [
            [
              [2, 2],
              [3, 2],
              [3, 3],
              [2, 2],
            ],
          ],
        ],
      },
    ],
    [
      'collection',
      {
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [1, 2] },
          {
            type: 'LineString',
            coordinates: [
              [1, 2],
              [3, 4],
            ],
          },
        ],
      },
    ],
    ['empty line', { type: 'LineString', coordinates: [] }],
  ];

  it.each(cases)('%s: the same stored geometry, byte for byte', async (_name, g) => {
    const ours = Buffer.from(geoJsonToEwkb(g));
    const { rows } = await tdb.pool.query<{ theirs: Buffer; back: Buffer }>(
      `SELECT ST_AsEWKB(ST_SetSRID(ST_GeomFromGeoJSON($1), 4326), 'NDR') AS theirs,
              ST_AsEWKB(ST_GeomFromEWKB($2::bytea), 'NDR') AS back`,
      [JSON.stringify(g), ours],
    );
    expect(rows[0]!.theirs.toString('hex')).toBe(ours.toString('hex'));
    expect(rows[0]!.back.toString('hex')).toBe(ours.toString('hex'));
  });

  it('refuses what ST_GeomFromGeoJSON refuses, and never writes a NaN', () => {
    expect(() => geoJsonToEwkb({ type: 'Circle', coordinates: [0, 0] })).toThrow(InvalidGeometry);
    expect(() => geoJsonToEwkb({ type: 'Point', coordinates: [0] })).toThrow(InvalidGeometry);
    expect(() => geoJsonToEwkb({ type: 'Point', coordinates: [Number.NaN, 0] })).toThrow(InvalidGeometry);
    expect(() =>
      geoJsonToEwkb({
        type: 'LineString',
        coordinates: [
          [0, 0],
          ['1', 2],
        ],
      }),
    ).toThrow(InvalidGeometry);
    expect(() => geoJsonToEwkb({ type: 'Polygon', coordinates: 7 })).toThrow(InvalidGeometry);
  });

  it('compresses long features with lz4, not pglz (migration 0013: 4 times faster inserts of contour lines)', async () => {
    const { rows } = await tdb.pool.query<{ attname: string; attcompression: string }>(
      `SELECT attname, attcompression FROM pg_attribute
       WHERE attrelid = 'features'::regclass AND attname IN ('feature_json', 'geom', 'properties') ORDER BY attname`,
    );
    expect(rows).toEqual([
      { attname: 'feature_json', attcompression: 'l' },
      { attname: 'geom', attcompression: 'l' },
      { attname: 'properties', attcompression: 'l' },
    ]);
  });
});
