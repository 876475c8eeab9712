import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Feature, writeGeoJson } from './geojson.writer.js';

const dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-geojson-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The file as JSON.stringify writes it, coordinates rounded: what the writer must produce byte for byte. */
function reference(features: Feature[], precision: number, epsg?: number): string {
  const factor = 10 ** precision;
  const round = (c: unknown): unknown =>
    Array.isArray(c) ? c.map(round) : Math.round((c as number) * factor) / factor;
  const crs =
    epsg && epsg !== 4326 ? `"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::${epsg}"}},` : '';
  const body = features
    .map((f) =>
      JSON.stringify({
        type: 'Feature',
        geometry: { type: f.geometry.type, coordinates: round(f.geometry.coordinates) },
        properties: f.properties,
      }),
    )
    .join(',\n');
  return `{"type":"FeatureCollection",${crs}"features":[\n${body}\n]}\n`;
}

describe('writeGeoJson', () => {
  const features: Feature[] = [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-0.0000001, 1.23456789, 12.3456] },
      properties: { id: 1 },
    },
    {
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: [
          [1e-9, -1e-9],
          [123456.78951, -0.5],
          [Number.NaN, 2],
        ],
      },
      properties: { name: 'quote " and \\ and é', height: 12.5, ok: true, none: null },
    },
    {
      type: 'Feature',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [10, 0],
            [10, 10],
            [0, 0],
          ],
          [
            [1, 1],
            [2, 1],
            [2, 2],
            [1, 1],
          ],
        ],
      },
      properties: {},
    },
  ];

  it('writes what JSON.stringify writes, coordinates rounded (-0 as 0, non-finite as null), with the crs member', async () => {
    for (const [precision, epsg] of [
      [3, 2154],
      [7, 4326],
    ] as const) {
      const file = path.join(dir, `small-${precision}.geojson`);
      const written = await writeGeoJson(file, features, { precision, epsg });
      const text = await readFile(file, 'utf8');
      expect(text).toBe(reference(features, precision, epsg));
      expect(written).toEqual({ path: file, type: 'geojson', bytes: Buffer.byteLength(text), features: 3 });
    }
    const parsed = JSON.parse(await readFile(path.join(dir, 'small-3.geojson'), 'utf8'));
    expect(parsed.features[1].geometry.coordinates[2]).toEqual([null, 2]);
    expect(parsed.features[0].geometry.coordinates).toEqual([0, 1.235, 12.346]);
  });

  it('writes many features in blocks, every one of them', async () => {
    const many: Feature[] = Array.from({ length: 5000 }, (_, i) => ({
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: Array.from({ length: 20 }, (_, k) => [i + k / 7, i * 3 - k / 3, k]),
      },
      properties: { elevation: i / 2 },
    }));
    const file = path.join(dir, 'many.geojson');
    const written = await writeGeoJson(file, many, { precision: 3 });
    const text = await readFile(file, 'utf8');
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(text).toBe(reference(many, 3));
    expect(written.features).toBe(5000);
    expect(written.bytes).toBe(Buffer.byteLength(text));
  });
});
