import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gdal, hasGdal } from '../products/test-gdal.js';
import { DxfDocument, dxfLayerName, dxfString, real, writeDxf } from './dxf.writer.js';
import type { Feature } from './geojson.writer.js';

/** Group code / value pairs of a DXF text. */
function pairs(text: string): Array<[number, string]> {
  const lines = text.split('\n');
  const out: Array<[number, string]> = [];
  for (let i = 0; i + 1 < lines.length; i += 2) out.push([Number(lines[i]!.trim()), lines[i + 1]!]);
  return out;
}

/** The records of a section: each starts at a group 0. */
function section(all: Array<[number, string]>, name: string): Array<Array<[number, string]>> {
  const start = all.findIndex(([c, v], i) => c === 0 && v === 'SECTION' && all[i + 1]?.[1] === name);
  expect(start, `section ${name}`).toBeGreaterThanOrEqual(0);
  const records: Array<Array<[number, string]>> = [];
  for (let i = start + 2; all[i]![1] !== 'ENDSEC' || all[i]![0] !== 0; i++) {
    if (all[i]![0] === 0 || records.length === 0) records.push([]);
    records.at(-1)!.push(all[i]!);
  }
  return records;
}

const value = (record: Array<[number, string]>, code: number) => record.find(([c]) => c === code)?.[1];

function sample(): DxfDocument {
  const doc = new DxfDocument();
  doc.addLayer('contours', 32);
  doc.addLayer('power_lines', 2);
  doc.polyline3d('contours', [
    [500_000, 6_000_000, 42.5],
    [500_010, 6_000_005, 42.5],
    [500_020, 6_000_000, 42.5],
  ]);
  doc.polyline3d('power_lines', [
    [500_000, 6_000_010, 60.25],
    [500_050, 6_000_012, 58.5],
    [500_100, 6_000_014, 61.75],
  ]);
  doc.point('trees', 500_030, 6_000_020, 61.46);
  doc.text('trees', 500_030.25, 6_000_020.25, 61.46, 0.5, '18.97');
  return doc;
}

describe('real', () => {
  it('prints what String(round(v·1e6) / 1e6) prints, with a decimal point, at every magnitude', () => {
    const printed = (v: number) => {
      const s = String(Math.round(v * 1e6) / 1e6);
      return s.includes('.') ? s : `${s}.0`;
    };
    let seed = 3;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const values = [
      0,
      -0,
      1,
      -1,
      0.5,
      -0.5,
      1e-6,
      -1e-6,
      4e-7,
      -4e-7,
      0.1 + 0.2,
      123456.7890125,
      1e9 + 0.000001,
      5e8 - 1e-7,
    ];
    for (let e = -7; e <= 9; e++) {
      for (let i = 0; i < 300; i++) values.push((random() - 0.5) * 2 * 10 ** e);
    }
    for (const v of values) expect(real(v), String(v)).toBe(printed(v));
    // Past 15 digits, the double itself is printed.
    expect(real(123456789012.5)).toBe('123456789012.5');
    expect(real(-0)).toBe('0.0');
    expect(() => real(Number.NaN)).toThrow(/not a finite number/);
  });
});

describe('DxfDocument', () => {
  it('writes an AutoCAD 2000 header with units and extents', () => {
    const all = pairs(sample().toString());
    expect(all[0]).toEqual([0, 'SECTION']);
    expect(all.at(-1)).toEqual([0, 'EOF']);
    const header = section(all, 'HEADER').flat();
    const variable = (name: string) => header.slice(header.findIndex(([c, v]) => c === 9 && v === name) + 1);
    expect(variable('$ACADVER')[0]).toEqual([1, 'AC1015']);
    expect(variable('$INSUNITS')[0]).toEqual([70, '6']);
    expect(variable('$EXTMIN').slice(0, 3)).toEqual([
      [10, '500000.0'],
      [20, '6000000.0'],
      [30, '42.5'],
    ]);
    expect(variable('$EXTMAX').slice(0, 3)).toEqual([
      [10, '500100.0'],
      [20, '6000020.25'],
      [30, '61.75'],
    ]);
    const order = all.filter(([c], i) => c === 2 && all[i - 1]?.[1] === 'SECTION').map(([, v]) => v);
    expect(order).toEqual(['HEADER', 'CLASSES', 'TABLES', 'BLOCKS', 'ENTITIES', 'OBJECTS']);
  });

  it('gives every object a unique handle, below $HANDSEED, and owners that exist', () => {
    const all = pairs(sample().toString());
    const handles = all.filter(([c], i) => (c === 5 || c === 105) && all[i - 1]?.[1] !== '$HANDSEED').map(([, v]) => v);
    expect(new Set(handles).size).toBe(handles.length);
    const seed = Number.parseInt(all[all.findIndex(([, v]) => v === '$HANDSEED') + 1]![1], 16);
    for (const h of handles) expect(Number.parseInt(h, 16)).toBeLessThan(seed);
    const known = new Set([...handles, '0']);
    for (const [c, v] of all) if (c === 330) expect(known.has(v)).toBe(true);
  });

  it('lists each layer with its colour, CONTINUOUS line type and the Standard style', () => {
    const tables = section(pairs(sample().toString()), 'TABLES');
    const layers = tables.filter((r) => r[0]![1] === 'LAYER');
    expect(layers.map((r) => [value(r, 2), value(r, 62), value(r, 6)])).toEqual([
      ['0', '7', 'Continuous'],
      ['contours', '32', 'Continuous'],
      ['power_lines', '2', 'Continuous'],
      ['trees', '7', 'Continuous'],
    ]);
    expect(tables.some((r) => r[0]![1] === 'LTYPE' && value(r, 2) === 'Continuous')).toBe(true);
    expect(tables.some((r) => r[0]![1] === 'STYLE' && value(r, 2) === 'Standard')).toBe(true);
  });

  it('draws planar lines as LWPOLYLINE at their elevation and others as 3D POLYLINE', () => {
    const entities = section(pairs(sample().toString()), 'ENTITIES');
    expect(entities.map((r) => r[0]![1])).toEqual([
      'LWPOLYLINE',
      'POLYLINE',
      'VERTEX',
      'VERTEX',
      'VERTEX',
      'SEQEND',
      'POINT',
      'TEXT',
    ]);
    const lw = entities[0]!;
    expect(value(lw, 38)).toBe('42.5');
    expect(value(lw, 90)).toBe('3');
    expect(value(entities[1]!, 70)).toBe('8');
    expect(entities.slice(2, 5).map((v) => [value(v, 30), value(v, 70)])).toEqual([
      ['60.25', '32'],
      ['58.5', '32'],
      ['61.75', '32'],
    ]);
  });

  it('writes every coordinate as real() prints it, digit for digit, at every magnitude and sign', () => {
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const values: number[] = [0, -0, 1e-7, -1e-7, 5e-7, -4e-7, 0.1, -0.000001, 123.4560001, 999_999.9999996, 1e9, -1e9];
    for (let e = -7; e <= 15; e++) for (let i = 0; i < 40; i++) values.push((rnd() - 0.5) * 2 * 10 ** e);
    const doc = new DxfDocument();
    for (let i = 0; i + 3 <= values.length; i += 3) doc.point('p', values[i]!, values[i + 1]!, values[i + 2]!);
    const points = section(pairs(doc.toString()), 'ENTITIES');
    expect(points).toHaveLength(Math.floor(values.length / 3));
    points.forEach((record, k) => {
      expect([value(record, 10), value(record, 20), value(record, 30)]).toEqual(
        [values[3 * k]!, values[3 * k + 1]!, values[3 * k + 2]!].map(real),
      );
    });
  });

  it('closes polylines without repeating the first vertex', () => {
    const doc = new DxfDocument();
    doc.polyline3d(
      'b',
      [
        [0, 0, 5],
        [4, 0, 5],
        [4, 3, 5],
        [0, 0, 5],
      ],
      true,
    );
    const [lw] = section(pairs(doc.toString()), 'ENTITIES');
    expect(value(lw!, 70)).toBe('1');
    expect(value(lw!, 90)).toBe('3');
  });

  it('draws flat x, y pairs at one height (polylineAt) as polyline3d draws the same points', () => {
    const lines: Array<{ xy: number[]; z: number; closed: boolean }> = [
      { xy: [0, 0, 4, 0, 4, 3, 0, 0], z: 5, closed: true },
      { xy: [0, 0, 4, 0, 4, 3, 0, 0], z: 5, closed: false },
      { xy: [1.25, -2, 3.5, 7.125], z: 0, closed: false },
      { xy: [10, 10, 12, 10, 10, 10], z: -3.5, closed: true },
      { xy: [2, 2, 2, 2], z: 1, closed: true },
      { xy: [6, 6], z: 1, closed: false },
      { xy: [-1e6 + 0.1234567, 5e6, -1e6, 5e6 + 0.5, -1e6 - 2, 5e6 + 1], z: 812.345, closed: true },
    ];
    const a = new DxfDocument();
    const b = new DxfDocument();
    for (const { xy, z, closed } of lines) {
      const points: number[][] = [];
      for (let i = 0; i < xy.length; i += 2) points.push([xy[i]!, xy[i + 1]!, z]);
      a.polyline3d('c', points, closed);
      b.polylineAt('c', Float64Array.from(xy), z, closed);
    }
    expect(b.entityCount).toBe(a.entityCount);
    expect(b.entityCount).toBe(5);
    expect(b.toString()).toBe(a.toString());
    expect(() => b.polylineAt('c', Float64Array.of(0, 0, Number.NaN, 1), 0)).toThrow(/not finite/);
  });

  it('escapes text and cleans layer names', () => {
    expect(dxfString('Épicéa 12 m² €\n🌲')).toBe('Épicéa 12 m² \\U+20AC ?');
    expect(dxfLayerName('arbres/cimes: "hautes"')).toBe('arbres_cimes_ _hautes_');
    expect(dxfLayerName('łąka')).toBe('__ka');
  });
});

describe.runIf(hasGdal())('writeDxf read by GDAL', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-dxf-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('keeps layers, colours, coordinates, Z and labels', async () => {
    const f = (geometry: Feature['geometry'], properties: Feature['properties'] = {}): Feature => ({
      type: 'Feature',
      geometry,
      properties,
    });
    const file = path.join(dir, 'map.dxf');
    const written = await writeDxf(file, [
      {
        name: 'contours',
        color: 32,
        features: [
          f(
            {
              type: 'LineString',
              coordinates: [
                [500_000, 6_000_000],
                [500_010.125, 6_000_005.5],
              ],
            },
            { elevation: 42.5 },
          ),
        ],
        elevation: (p) => (typeof p.elevation === 'number' ? p.elevation : null),
      },
      {
        name: 'power_lines',
        color: 2,
        features: [
          f({
            type: 'LineString',
            coordinates: [
              [500_000, 6_000_010, 60.25],
              [500_050, 6_000_012, 58.5],
            ],
          }),
        ],
      },
      {
        name: 'tree_tops',
        color: 94,
        features: [f({ type: 'Point', coordinates: [500_030.123, 6_000_020.456, 61.46] }, { height: 18.974 })],
        label: (p) => Number(p.height).toFixed(2),
      },
      {
        name: 'buildings',
        color: 1,
        features: [
          f({
            type: 'Polygon',
            coordinates: [
              [
                [500_200, 6_000_200, 48],
                [500_210, 6_000_200, 48],
                [500_210, 6_000_208, 48],
                [500_200, 6_000_200, 48],
              ],
            ],
          }),
        ],
      },
    ]);
    expect(written.features).toBe(4);
    expect(written.entities).toBe(5);
    expect(readFileSync(file, 'latin1').startsWith('  0\nSECTION\n  2\nHEADER\n  9\n$ACADVER\n  1\nAC1015\n')).toBe(
      true,
    );

    const summary = gdal('ogrinfo', ['-ro', '-al', '-so', file]);
    expect(summary).toMatch(/Feature Count: 5/);
    const collection = JSON.parse(gdal('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', file]));
    const features = collection.features as Array<{
      properties: { Layer: string; SubClasses: string; Text?: string };
      geometry: { type: string; coordinates: number[] | number[][] };
    }>;
    const byLayer = (name: string) => features.filter((x) => x.properties.Layer === name);
    expect(byLayer('contours')[0]!.geometry.coordinates).toEqual([
      [500_000, 6_000_000, 42.5],
      [500_010.125, 6_000_005.5, 42.5],
    ]);
    expect(byLayer('power_lines')[0]!.geometry.coordinates).toEqual([
      [500_000, 6_000_010, 60.25],
      [500_050, 6_000_012, 58.5],
    ]);
    const [top, label] = byLayer('tree_tops');
    expect(top!.geometry.coordinates).toEqual([500_030.123, 6_000_020.456, 61.46]);
    expect(label!.properties.Text).toBe('18.97');
    const ring = byLayer('buildings')[0]!.geometry.coordinates as number[][];
    expect(ring).toHaveLength(4);
    expect(ring[0]).toEqual(ring[3]);

    // Layer colours reach GDAL's style strings (ACI 2 is yellow, 1 red).
    const styles = gdal('ogrinfo', ['-ro', '-al', '-q', file]);
    expect(styles).toMatch(/Layer \(String\) = power_lines\n(.*\n)*?\s+Style = PEN\(c:#ffff00/);
    expect(styles).toMatch(/Layer \(String\) = buildings\n(.*\n)*?\s+Style = PEN\(c:#ff0000/);
  });

  it('is read with Latin-1 letters intact (ANSI_1252 code page)', async () => {
    const doc = new DxfDocument();
    doc.addLayer('forêt', 3);
    doc.text('forêt', 0, 0, 0, 1, 'Épicéa 12 m²');
    const file = path.join(dir, 'latin1.dxf');
    await doc.write(file);
    const collection = JSON.parse(gdal('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', file]));
    expect(collection.features[0].properties).toMatchObject({ Layer: 'forêt', Text: 'Épicéa 12 m²' });
  });
});
