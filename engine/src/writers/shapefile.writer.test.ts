import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crsFromEpsg } from '../crs/index.js';
import { gdal, hasGdal } from '../products/test-gdal.js';
import type { Feature } from './geojson.writer.js';
import {
  checkShapefileSizes,
  DBF_NAME_LENGTH,
  dbfFieldNames,
  dbfFields,
  prjText,
  SHAPE_TYPES,
  SHAPEFILE_MAX_BYTES,
  shapefileSizes,
  shapeLayout,
  writeShapefile,
} from './shapefile.writer.js';
import { readZip } from './zip.reader.js';

const point = (coordinates: number[], properties: Feature['properties'] = {}): Feature => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates },
  properties,
});
const line = (coordinates: number[][], properties: Feature['properties'] = {}): Feature => ({
  type: 'Feature',
  geometry: { type: 'LineString', coordinates },
  properties,
});
const polygon = (coordinates: number[][][], properties: Feature['properties'] = {}): Feature => ({
  type: 'Feature',
  geometry: { type: 'Polygon', coordinates },
  properties,
});

/** `ogrinfo` of one layer of a zipped Shapefile. */
function ogrinfo(zip: string, layer: string, ...args: string[]): string {
  return gdal('ogrinfo', ['-ro', '-nomd', ...args, `/vsizip/${zip}`, layer]);
}

/** Features of a zipped Shapefile as GDAL reads them (GeoJSON, coordinates as stored). */
function gdalFeatures(zip: string, layer: string) {
  const json = gdal('ogr2ogr', [
    '-f',
    'GeoJSON',
    '-lco',
    'RFC7946=NO',
    '-lco',
    'COORDINATE_PRECISION=6',
    '/vsistdout/',
    `/vsizip/${zip}`,
    layer,
  ]);
  return JSON.parse(json).features as Array<{
    geometry: { type: string; coordinates: never };
    properties: Record<string, unknown>;
  }>;
}

describe('dbfFieldNames', () => {
  it('keeps names of 10 characters or fewer, cuts longer ones and numbers collisions', () => {
    const names = dbfFieldNames([
      'treeId',
      'height',
      'crownArea',
      'eaveHeight',
      'buildingId',
      'elevation',
      'clearanceHeight',
      'clearanceHorizontal',
      'clearanceHypothetical',
      'distanceToLine',
    ]);
    expect(Object.fromEntries(names)).toEqual({
      treeId: 'treeId',
      height: 'height',
      crownArea: 'crownArea',
      eaveHeight: 'eaveHeight',
      buildingId: 'buildingId',
      elevation: 'elevation',
      clearanceHeight: 'clearanceH',
      clearanceHorizontal: 'clearanc_1',
      clearanceHypothetical: 'clearanc_2',
      distanceToLine: 'distanceTo',
    });
  });

  it('is deterministic whatever the order, unique without regard to case, ASCII and ≤ 10 characters', () => {
    const keys = ['hauteur élagage', 'Height', 'height', 'a-b', 'a_b', 'x'.repeat(30), 'x'.repeat(31), '', 'ΔZ'];
    const a = dbfFieldNames(keys);
    const b = dbfFieldNames([...keys].reverse());
    expect(Object.fromEntries(a)).toEqual(Object.fromEntries(b));
    const values = [...a.values()];
    expect(new Set(values.map((v) => v.toUpperCase())).size).toBe(keys.length);
    for (const v of values) {
      expect(v.length).toBeLessThanOrEqual(DBF_NAME_LENGTH);
      expect(v).toMatch(/^[A-Za-z0-9_]+$/);
    }
    expect(a.get('hauteur élagage')).toBe('hauteur_el');
    expect(a.get('a_b')).toBe('a_b'); // a valid name is never renamed because of another one
    expect(a.get('a-b')).toBe('a_b_1');
    expect(a.get('Height')).toBe('Height');
    expect(a.get('height')).toBe('height_1');
  });
});

describe('dbfFields', () => {
  it('types numbers, booleans and strings, with widths and decimals from the values', () => {
    const fields = dbfFields([
      { ...point([0, 0]), properties: { id: 7, h: 19.72, name: 'Épicéa', ok: true, mixed: 1, none: null } },
      { ...point([0, 0]), properties: { id: 1234, h: -3.125, name: 'x', ok: null, mixed: 'a', none: null } },
    ]);
    expect(fields).toEqual([
      { property: 'id', name: 'id', type: 'N', length: 4, decimals: 0 },
      { property: 'h', name: 'h', type: 'N', length: 6, decimals: 3 },
      { property: 'name', name: 'name', type: 'C', length: 8, decimals: 0 },
      { property: 'ok', name: 'ok', type: 'L', length: 1, decimals: 0 },
      { property: 'mixed', name: 'mixed', type: 'C', length: 1, decimals: 0 },
      { property: 'none', name: 'none', type: 'C', length: 1, decimals: 0 },
    ]);
  });

  it('caps text at 254 bytes and numbers at 8 decimals', () => {
    const fields = dbfFields([point([0, 0], { s: 'é'.repeat(300), n: 1 / 3 })]);
    expect(fields[0]).toMatchObject({ type: 'C', length: 254 });
    expect(fields[1]).toMatchObject({ type: 'N', decimals: 8, length: 10 });
  });
});

describe('shapefile sizes', () => {
  it('match the files written', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-shp-size-'));
    try {
      const features = [
        line(
          [
            [0, 0, 1],
            [1, 1, 2],
            [2, 0, 3],
          ],
          { a: 'x', b: 1.5 },
        ),
        line(
          [
            [5, 5, 0],
            [6, 6, 0],
          ],
          { a: 'yyy', b: null },
        ),
      ];
      const zip = path.join(dir, 'l.zip');
      const written = await writeShapefile(zip, features, crsFromEpsg(2154));
      const members = readZip(zip);
      expect(members.get('l.shp')!.data.length).toBe(written.sizes.shp);
      expect(members.get('l.shx')!.data.length).toBe(written.sizes.shx);
      expect(members.get('l.dbf')!.data.length).toBe(written.sizes.dbf);
      expect(members.get('l.cpg')!.data.toString()).toBe('UTF-8');
      for (const m of members.values()) expect(m.crcOk).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a layer over 2 GB, from the estimate alone', () => {
    // 80 million 3D vertices: 24 bytes each in the .shp, about 1.9 GB, then 2.1 GB.
    const fits = {
      shapeType: SHAPE_TYPES.PolyLineZ,
      records: 1000,
      parts: 1000,
      points: 80e6,
      nullRecords: 0,
      bounds: null,
    };
    expect(shapefileSizes(fits, []).shp).toBe(100 + 1000 * (8 + 44 + 16) + 1000 * 4 + 80e6 * 24);
    expect(() => checkShapefileSizes(shapefileSizes(fits, []))).not.toThrow();
    const tooBig = { ...fits, points: 90e6 };
    expect(shapefileSizes(tooBig, []).shp).toBeGreaterThan(SHAPEFILE_MAX_BYTES);
    expect(() => checkShapefileSizes(shapefileSizes(tooBig, []))).toThrow(
      'shapefile: layer too large for a Shapefile (over 2 GB): export GeoJSON or DXF',
    );
    // Attributes alone: 10 million records of 216 bytes.
    const points = {
      shapeType: SHAPE_TYPES.Point,
      records: 10e6,
      parts: 10e6,
      points: 10e6,
      nullRecords: 0,
      bounds: null,
    };
    const wide = [{ property: 's', name: 's', type: 'C' as const, length: 215, decimals: 0 }];
    expect(shapefileSizes(points, wide).dbf).toBe(32 + 32 + 1 + 10e6 * 216 + 1);
    expect(() => checkShapefileSizes(shapefileSizes(points, wide))).toThrow(/over 2 GB/);
  });

  it('refuses before writing anything', async () => {
    // 255 text fields of 254 bytes: 64 771-byte records, 33 200 of them pass 2 GB.
    const properties = Object.fromEntries(Array.from({ length: 255 }, (_, i) => [`f${i}`, 'x'.repeat(254)]));
    const f = point([0, 0], properties);
    const features = new Array<Feature>(33_200).fill(f);
    const zip = path.join(os.tmpdir(), `nuage-shp-huge-${process.pid}.zip`);
    await expect(writeShapefile(zip, features, crsFromEpsg(2154))).rejects.toThrow(
      'layer too large for a Shapefile (over 2 GB): export GeoJSON or DXF',
    );
    expect(existsSync(zip)).toBe(false);
  });
});

describe('several geometry types', () => {
  it('writes one layer per geometry type in the zip (a power line: conductors and towers)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-shp-mixed-'));
    const zip = path.join(dir, 'power.zip');
    const written = await writeShapefile(
      zip,
      [
        { ...point([500000, 6000000, 30]), properties: { kind: 'tower' } },
        {
          ...line([
            [500000, 6000000, 27],
            [500100, 6000000, 27],
          ]),
          properties: { kind: 'conductor' },
        },
      ],
      crsFromEpsg(2154),
    );
    expect(written.layers.map((l) => [l.layerName, l.features])).toEqual([
      ['power_points', 1],
      ['power_lines', 1],
    ]);
    const names = [...readZip(zip).keys()].sort();
    expect(names).toEqual(
      ['power_lines', 'power_points'].flatMap((n) => ['cpg', 'dbf', 'prj', 'shp', 'shx'].map((e) => `${n}.${e}`)),
    );
    await rm(dir, { recursive: true, force: true });
  });
});

describe('shapeLayout', () => {
  it('picks Z types when any coordinate has a Z and refuses mixed geometries', () => {
    expect(shapeLayout([point([0, 0]), point([1, 1, 5])]).shapeType).toBe(SHAPE_TYPES.PointZ);
    expect(
      shapeLayout([
        line([
          [0, 0],
          [1, 1],
        ]),
      ]).shapeType,
    ).toBe(SHAPE_TYPES.PolyLine);
    expect(shapeLayout([], 'Polygon').shapeType).toBe(SHAPE_TYPES.Polygon);
    expect(() =>
      shapeLayout([
        point([0, 0]),
        line([
          [0, 0],
          [1, 1],
        ]),
      ]),
    ).toThrow(/one geometry type/);
  });
});

describe('prjText', () => {
  it('is the OGC WKT 1 of the EPSG code without TOWGS84 or EXTENSION', () => {
    const prj = prjText(crsFromEpsg(27700))!;
    expect(prj).toMatch(/^PROJCS\["OSGB36 \/ British National Grid"/);
    expect(prj).not.toMatch(/TOWGS84|EXTENSION/);
    expect(prjText(crsFromEpsg(2154))).not.toMatch(/TOWGS84/);
  });
});

describe.runIf(hasGdal())('writeShapefile read by GDAL', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-shp-gdal-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each([32754, 2154, 27700, 2255])('writes a .prj GDAL reads back as EPSG:%i', async (epsg) => {
    const zip = path.join(dir, `crs-${epsg}.zip`);
    await writeShapefile(zip, [point([1000, 2000])], crsFromEpsg(epsg), { layerName: 'p' });
    expect(gdal('gdalsrsinfo', ['-o', 'epsg', `/vsizip/${zip}/p.prj`]).trim()).toBe(`EPSG:${epsg}`);
    const info = ogrinfo(zip, 'p', '-so');
    expect(info).toMatch(new RegExp(`\\n {4}ID\\["EPSG",${epsg}\\]\\]`));
  });

  it('writes 3D points with attributes ogrinfo reads', async () => {
    const zip = path.join(dir, 'tree_tops.zip');
    const features = [
      point([277774.38, 6122499.61, 62.18], {
        treeId: 1,
        height: 19.72,
        species: 'Épicéa',
        dead: false,
        crownAreaSquareMetres: 2.9,
      }),
      point([277771.3, 6122493.84, 61.46], {
        treeId: 2,
        height: 18.97,
        species: null,
        dead: true,
        crownAreaSquareMetres: 12.25,
      }),
    ];
    const written = await writeShapefile(zip, features, crsFromEpsg(32754));
    expect(written.layerName).toBe('tree_tops');
    expect(written.fields.map((f) => f.name)).toEqual(['treeId', 'height', 'species', 'dead', 'crownAreaS']);
    const info = ogrinfo(zip, 'tree_tops');
    expect(info).toMatch(/Geometry: 3D Point/);
    expect(info).toMatch(/Feature Count: 2/);
    expect(info).toMatch(/treeId: Integer \(1\.0\)/);
    expect(info).toMatch(/height: Real \(5\.2\)/);
    expect(info).toMatch(/crownAreaS: Real \(5\.2\)/);
    expect(info).toMatch(/species \(String\) = Épicéa/);
    expect(info).toMatch(/species \(String\) = \(null\)/);
    expect(info).toMatch(/dead \([A-Za-z()]+\) = (F|0)/);
    expect(info).toMatch(/crownAreaS \(Real\) = 12\.25/);
    expect(info).toMatch(/POINT Z \(277774\.38 6122499\.61 62\.18\)/);
  });

  it('writes 3D lines as PolyLineZ and keeps every Z', async () => {
    const zip = path.join(dir, 'wires.zip');
    const coords = [
      [277700, 6122400, 40.5],
      [277710.125, 6122405.5, 41.25],
      [277720, 6122400, 42],
    ];
    const written = await writeShapefile(zip, [line(coords, { id: 1 })], crsFromEpsg(32754));
    expect(written.shapeType).toBe(SHAPE_TYPES.PolyLineZ);
    expect(ogrinfo(zip, 'wires', '-so')).toMatch(/Geometry: 3D Line String/);
    const [f] = gdalFeatures(zip, 'wires');
    expect(f!.geometry.coordinates).toEqual(coords);
  });

  it('writes polygons with outer rings clockwise and holes counter-clockwise', async () => {
    const zip = path.join(dir, 'crowns.zip');
    // Given the other way round (RFC 7946 order): outer counter-clockwise, hole clockwise.
    const outer = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ];
    const hole = [
      [2, 2],
      [2, 4],
      [4, 4],
      [4, 2],
      [2, 2],
    ];
    await writeShapefile(zip, [polygon([outer, hole], { crownArea: 96 })], crsFromEpsg(2154));
    const info = ogrinfo(zip, 'crowns');
    expect(info).toMatch(/Geometry: Polygon/);
    expect(info).toMatch(/POLYGON \(\(0 0,0 10,10 10,10 0,0 0\),\(2 2,4 2,4 4,2 4,2 2\)\)/);
  });
});
