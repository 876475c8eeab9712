import { readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CrsInfo, crsFromEpsg } from '../crs/index.js';
import { processingOptionsSchema } from '../products/options.js';
import { featuresToWgs84, writeWgs84GeoJson } from '../products/product-values.js';
import { runProducts } from '../products/run-products.js';
import { gdal, hasGdal } from '../products/test-gdal.js';
import {
  type ExportFormat,
  exportFeatures,
  featuresFromWgs84,
  parseGeoJsonFeatures,
  readGeoJsonFeatures,
  rightHandRule,
} from './export.js';
import type { Feature } from './geojson.writer.js';
import { ringArea } from './shapefile.writer.js';

const f = (geometry: Feature['geometry'], properties: Feature['properties'] = {}): Feature => ({
  type: 'Feature',
  geometry,
  properties,
});

/** Product-like layers in a projected CRS around (x0, y0). */
function layers(x0: number, y0: number): Record<string, Feature[]> {
  return {
    POWER_LINE: [
      f(
        {
          type: 'LineString',
          coordinates: [
            [x0 + 10.123, y0 - 199.544, 60.25],
            [x0 + 50.5, y0 - 150.25, 58.75],
            [x0 + 99.987, y0 - 100.001, 61.5],
          ],
        },
        { lineId: 1, voltageClass: 'HV', minimumClearance: 7.42 },
      ),
    ],
    TREE_TOPS: [
      f({ type: 'Point', coordinates: [x0 + 24.38, y0 - 0.39, 62.18] }, { treeId: 1, height: 19.72 }),
      f({ type: 'Point', coordinates: [x0 + 21.3, y0 - 6.16, 61.46] }, { treeId: 2, height: 18.97 }),
    ],
    BUILDINGS: [
      f(
        {
          type: 'Polygon',
          coordinates: [
            [
              [x0 + 100, y0 - 300],
              [x0 + 100, y0 - 280],
              [x0 + 130, y0 - 280],
              [x0 + 130, y0 - 300],
              [x0 + 100, y0 - 300],
            ],
            [
              [x0 + 110, y0 - 295],
              [x0 + 120, y0 - 295],
              [x0 + 120, y0 - 285],
              [x0 + 110, y0 - 285],
              [x0 + 110, y0 - 295],
            ],
          ],
        },
        { buildingId: 1, eaveHeight: 6.5, roofHeightAboveGround: 9.25, flatRoof: false },
      ),
    ],
  };
}

/** Every vertex of a feature list, in order. */
function vertices(features: Array<{ geometry: { type: string; coordinates: unknown } }>): number[][] {
  const out: number[][] = [];
  for (const x of features) {
    const c = x.geometry.coordinates as never;
    if (x.geometry.type === 'Point') out.push(c);
    else if (x.geometry.type === 'LineString') out.push(...(c as number[][]));
    else for (const ring of c as number[][][]) out.push(...ring);
  }
  return out;
}

/**
 * Largest horizontal gap between matched vertices, and whether Z are equal
 * (to the millimetre). Vertices match by index, or, `unordered`, each to its
 * nearest (polygon rings may be turned round or start elsewhere).
 */
function compare(expected: number[][], actual: number[][], unordered = false): { maxGap: number; zSame: boolean } {
  expect(actual).toHaveLength(expected.length);
  let maxGap = 0;
  let zSame = true;
  const gap = (a: number[], e: number[]) => Math.hypot(a[0]! - e[0]!, a[1]! - e[1]!);
  expected.forEach((e, i) => {
    const a = unordered ? actual.reduce((best, c) => (gap(c, e) < gap(best, e) ? c : best)) : actual[i]!;
    maxGap = Math.max(maxGap, gap(a, e));
    if (e.length > 2 && Math.abs((a[2] ?? Number.NaN) - e[2]!) > 5e-4) zSame = false;
  });
  return { maxGap, zSame };
}

let scratch = 0;

/** Features GDAL reads from a file, reprojected by PROJ when `toEpsg` is given; DXF texts left out. */
function gdalRead(source: string, toEpsg?: number) {
  const out = path.join(os.tmpdir(), `nuage-export-read-${process.pid}-${scratch++}.geojson`);
  const args = ['-f', 'GeoJSON', '-lco', 'RFC7946=NO', '-lco', 'COORDINATE_PRECISION=6'];
  if (toEpsg) args.push('-t_srs', `EPSG:${toEpsg}`);
  try {
    gdal('ogr2ogr', [...args, out, source]);
    const collection = JSON.parse(readFileSync(out, 'utf8'));
    return (
      collection.features as Array<{
        properties: Record<string, unknown>;
        geometry: { type: string; coordinates: unknown };
      }>
    ).filter((x) => !String(x.properties.SubClasses ?? '').includes('AcDbText'));
  } finally {
    rmSync(out, { force: true });
  }
}

describe('featuresFromWgs84', () => {
  it('inverts featuresToWgs84 within a millimetre and leaves Z alone', () => {
    for (const [epsg, x0, y0] of [
      [32754, 277750, 6122500],
      [2154, 652_000, 6_862_000],
      [2255, 2_000_000, 500_000], // US survey feet
    ] as const) {
      const crs = crsFromEpsg(epsg);
      const original = Object.values(layers(x0, y0)).flat();
      const back = [...featuresFromWgs84(featuresToWgs84(original, crs), crs)];
      const { maxGap, zSame } = compare(vertices(original), vertices(back));
      expect(maxGap).toBeLessThan(1e-3);
      expect(zSame).toBe(true);
    }
  });
});

describe('rightHandRule and parseGeoJsonFeatures', () => {
  it('orients outer rings counter-clockwise and holes clockwise', () => {
    const [building] = layers(0, 0).BUILDINGS!;
    expect(ringArea(building!.geometry.coordinates[0] as number[][])).toBeLessThan(0);
    const [fixed] = [...rightHandRule([building!])];
    const rings = fixed!.geometry.coordinates as number[][][];
    expect(ringArea(rings[0]!)).toBeGreaterThan(0);
    expect(ringArea(rings[1]!)).toBeLessThan(0);
  });

  it('splits multi-geometries, skips null geometries and refuses other CRSs', () => {
    const features = parseGeoJsonFeatures(
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: {
              type: 'MultiPoint',
              coordinates: [
                [1, 2],
                [3, 4],
              ],
            },
            properties: { a: 1 },
          },
          { type: 'Feature', geometry: null, properties: {} },
          {
            type: 'Feature',
            geometry: {
              type: 'LineString',
              coordinates: [
                [1, 2],
                [3, 4],
              ],
            },
            properties: null,
          },
        ],
      }),
    );
    expect(features.map((x) => [x.geometry.type, x.properties])).toEqual([
      ['Point', { a: 1 }],
      ['Point', { a: 1 }],
      ['LineString', {}],
    ]);
    expect(() =>
      parseGeoJsonFeatures(
        '{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::2154"}},"features":[]}',
      ),
    ).toThrow(/EPSG::2154/);
    expect(() => parseGeoJsonFeatures('{"type":"Topology"}')).toThrow(/unsupported geometry type Topology/);
    expect(() => parseGeoJsonFeatures('not json')).toThrow(/not JSON/);
  });

  it('asks for the project CRS for DXF and Shapefile', async () => {
    await expect(exportFeatures([], 'dxf', null, path.join(os.tmpdir(), 'never.dxf'))).rejects.toMatchObject({
      code: 'CRS_REQUIRED',
    });
  });
});

describe.runIf(hasGdal())('exportFeatures round trip through GDAL', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-export-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const cases: Array<[number, number, number]> = [
    [32754, 277750, 6122500],
    [2154, 652_000, 6_862_000],
  ];
  for (const [epsg, x0, y0] of cases) {
    for (const [assetType, original] of Object.entries(layers(x0, y0))) {
      it(`${assetType} in EPSG:${epsg}: project CRS → EPSG:4326 GeoJSON → geojson, dxf, shp → GDAL, within 1 cm`, async () => {
        const crs: CrsInfo = crsFromEpsg(epsg);
        const productFile = path.join(dir, `${epsg}-${assetType}.geojson`);
        await writeWgs84GeoJson(productFile, original, crs);
        const features4326 = await readGeoJsonFeatures(productFile);
        const expected = vertices(original);

        for (const format of ['geojson', 'dxf', 'shp'] as ExportFormat[]) {
          const out = path.join(
            dir,
            `${epsg}-${assetType}.${format === 'shp' ? 'zip' : format === 'dxf' ? 'dxf' : 'out.geojson'}`,
          );
          const result = await exportFeatures(features4326, format, crs, out, { assetType, prjSidecar: true });
          expect(result.features).toBe(original.length);
          let read: ReturnType<typeof gdalRead>;
          if (format === 'geojson') {
            expect(result.epsg).toBe(4326);
            // EPSG:4979 is how GDAL names EPSG:4326 with heights.
            expect(gdal('ogrinfo', ['-ro', '-so', '-al', out])).toMatch(/\n {4}ID\["EPSG",(4326|4979)\]\]/);
            read = gdalRead(out, epsg); // PROJ does the inverse here, not proj4js
          } else if (format === 'shp') {
            const layer = result.layerName!;
            expect(gdal('ogrinfo', ['-ro', '-so', `/vsizip/${out}`, layer])).toMatch(
              new RegExp(`\\n {4}ID\\["EPSG",${epsg}\\]\\]`),
            );
            expect(gdal('gdalsrsinfo', ['-o', 'epsg', `/vsizip/${out}/${layer}.prj`]).trim()).toBe(`EPSG:${epsg}`);
            read = gdalRead(`/vsizip/${out}`);
          } else {
            // DXF has no CRS of its own: the sidecar names it, the coordinates are the project's.
            expect(result.sidecars).toEqual([out.replace(/\.dxf$/, '.prj')]);
            expect(gdal('gdalsrsinfo', ['-o', 'epsg', result.sidecars![0]!]).trim()).toBe(`EPSG:${epsg}`);
            read = gdalRead(out);
          }
          const { maxGap, zSame } = compare(expected, vertices(read), assetType === 'BUILDINGS');
          expect(maxGap, `${format} horizontal gap (m)`).toBeLessThan(0.01);
          expect(zSame, `${format} keeps Z`).toBe(true);
          if (format === 'shp') {
            const props = read[0]!.properties;
            for (const name of Object.keys(props)) expect(name.length).toBeLessThanOrEqual(10);
            expect(Object.values(props)).toEqual(
              Object.values(original[0]!.properties).map((v) => (typeof v === 'boolean' ? (v ? 'T' : 'F') : v)),
            );
          }
        }
      });
    }
  }

  it('labels tree tops in DXF with their height', async () => {
    const crs = crsFromEpsg(32754);
    const out = path.join(dir, 'tops-labels.dxf');
    const tops = [...featuresToWgs84(layers(277750, 6122500).TREE_TOPS!, crs)];
    await exportFeatures(tops, 'dxf', crs, out, { assetType: 'TREE_TOPS' });
    const collection = JSON.parse(gdal('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', out]));
    const texts = collection.features.filter((x: { properties: { Text?: string } }) => x.properties.Text);
    expect(
      texts.map((x: { properties: { Text: string; Layer: string } }) => [x.properties.Layer, x.properties.Text]),
    ).toEqual([
      ['tree_tops', '19.72'],
      ['tree_tops', '18.97'],
    ]);
    // The layer is named after the product and coloured as in the viewer (ACI 94, dark green).
    expect(readFileSync(out, 'latin1')).toMatch(/\n {2}0\nLAYER\n(?:.*\n)*? {2}2\ntree_tops\n 70\n0\n 62\n94\n/);
  });
});

describe.runIf(hasGdal() && hasRealData())('exports of real products (fusa.laz, EPSG:32754)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-export-real-'));
    await runProducts({
      input: { path: realFile('fusa.laz') },
      options: processingOptionsSchema.parse({ products: ['grid', 'contours'] }),
      outDir: dir,
    });
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([
    ['grid/grid.geojson', 'GRID'],
    ['contours/contours.geojson', 'CONTOUR_LINE'],
  ])('%s: DXF and Shapefile agree with PROJ within 1 cm', async (rel, assetType) => {
    const crs = crsFromEpsg(32754);
    const product = path.join(dir, rel);
    const features = await readGeoJsonFeatures(product);
    expect(features.length).toBeGreaterThan(100);
    const reference = vertices(gdalRead(product, 32754)); // GDAL/PROJ's own reprojection of the product
    for (const format of ['shp', 'dxf'] as const) {
      const out = path.join(dir, `${assetType}.${format === 'shp' ? 'zip' : 'dxf'}`);
      const result = await exportFeatures(features, format, crs, out, { assetType });
      expect(result.features).toBe(features.length);
      const read = gdalRead(format === 'shp' ? `/vsizip/${out}` : out);
      expect(read).toHaveLength(features.length);
      const got = vertices(read).map((c, i) => (reference[i]!.length === 2 ? c.slice(0, 2) : c));
      const { maxGap, zSame } = compare(reference, got);
      expect(maxGap, `${format} vs PROJ (m)`).toBeLessThan(0.01);
      expect(zSame).toBe(true);
      if (format === 'dxf' && assetType === 'CONTOUR_LINE') {
        // Contours are drawn at their elevation.
        read.forEach((x, i) => {
          const z = (x.geometry.coordinates as number[][])[0]![2];
          expect(z).toBeCloseTo(features[i]!.properties.elevation as number, 3);
        });
      }
    }
  });
});
