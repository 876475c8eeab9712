import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import type { PointChunk } from '../core/chunk.js';
import { openFileSource } from '../readers/byte-source.js';
import { findVlr, openPointCloud, readLasHeader } from '../readers/index.js';
import { getLazPerf } from '../readers/laz-decode.mjs';
import { compileArea } from './area.js';
import { clipPointCloud } from './clip.js';
import { estimateClip } from './estimate.js';
import { areaFromGeoJson } from './geojson.js';

/** Every point of a file as plain rows (the reference side reads the whole file: small real files only). */
interface Row {
  x: number;
  y: number;
  z: number;
  c: number;
  i: number;
  r: number;
  n: number;
  t: number;
  red: number;
}
async function allRows(file: string): Promise<Row[]> {
  const reader = await openPointCloud(file);
  const rows: Row[] = [];
  try {
    for await (const ch of reader.read({ workers: 0 }) as AsyncIterable<PointChunk>) {
      for (let k = 0; k < ch.count; k++) {
        rows.push({
          x: ch.x[k]!,
          y: ch.y[k]!,
          z: ch.z[k]!,
          c: ch.classification?.[k] ?? 0,
          i: ch.intensity?.[k] ?? 0,
          r: ch.returnNumber?.[k] ?? 1,
          n: ch.numberOfReturns?.[k] ?? 1,
          t: ch.gpsTime?.[k] ?? 0,
          red: ch.red?.[k] ?? 0,
        });
      }
    }
  } finally {
    await reader.close();
  }
  return rows;
}

// The reference, written independently of area.ts: W. R. Franklin's pnpoly over
// every ring (even-odd: holes cut out), and the point-to-segment distance.
function pnpoly(ring: number[][], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi! > y !== yj! > y && x < ((xj! - xi!) * (y - yi!)) / (yj! - yi!) + xi!) c = !c;
  }
  return c;
}
const inPolygon = (rings: number[][][], x: number, y: number) =>
  rings.reduce((inside, ring) => (pnpoly(ring, x, y) ? !inside : inside), false);
function segmentDistance(px: number, py: number, a: number[], b: number[]): number {
  const [ax, ay] = a as [number, number];
  const [bx, by] = b as [number, number];
  const vx = bx - ax;
  const vy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * vx + (py - ay) * vy) / (vx * vx + vy * vy)));
  return Math.hypot(px - (ax + t * vx), py - (ay + t * vy));
}

/** Asserts the clipped file holds exactly `expected`, in order, point by point. */
async function expectSamePoints(file: string, expected: Row[]): Promise<void> {
  const got = await allRows(file);
  expect(got.length).toBe(expected.length);
  for (let k = 0; k < got.length; k++) {
    const a = got[k]!;
    const b = expected[k]!;
    if (
      Math.abs(a.x - b.x) > 1e-6 ||
      Math.abs(a.y - b.y) > 1e-6 ||
      Math.abs(a.z - b.z) > 1e-6 ||
      a.c !== b.c ||
      a.i !== b.i ||
      a.r !== b.r ||
      a.n !== b.n ||
      a.t !== b.t ||
      a.red !== b.red
    ) {
      expect({ index: k, got: a }).toEqual({ index: k, got: b });
    }
  }
}

const FUSA = 'fusa.laz';
// A polygon with a hole over fusa.laz (EPSG:32754); vertices off the 1 cm grid: no point on an edge.
const OUTER: Array<[number, number]> = [
  [277800.3037, 6122300.7011],
  [277950.1013, 6122280.2029],
  [277960.9041, 6122450.4053],
  [277820.6007, 6122470.1071],
  [277800.3037, 6122300.7011],
];
const HOLE: Array<[number, number]> = [
  [277850.2003, 6122350.3097],
  [277900.7051, 6122350.9031],
  [277880.4077, 6122400.2089],
  [277850.2003, 6122350.3097],
];
const LINE: Array<[number, number]> = [
  [277760.1234, 6122260.5678],
  [277870.4321, 6122390.8765],
  [277990.2468, 6122330.1357],
];

describe.skipIf(!hasRealData())('clip: exactly the points inside, compared with an independent reference', () => {
  let dir: string;
  let fusa: Row[];
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-clip-'));
    fusa = await allRows(realFile(FUSA));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('polygon with a hole, classes 2 and 6: the same points, attributes and order; CRS and scale kept', async () => {
    const out = path.join(dir, 'polygon.las');
    const { area } = areaFromGeoJson(
      { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [OUTER, HOLE] } },
      'polygon',
      { crs: null },
    );
    const result = await clipPointCloud(realFile(FUSA), out, { area: compileArea(area), classes: [6, 2] });
    const expected = fusa.filter((p) => (p.c === 2 || p.c === 6) && inPolygon([OUTER, HOLE], p.x, p.y));
    expect(expected.length).toBeGreaterThan(10_000);
    // The hole and the class filter both removed points.
    expect(fusa.filter((p) => inPolygon([OUTER], p.x, p.y)).length).toBeGreaterThan(expected.length + 5_000);
    expect(result.pointCount).toBe(expected.length);
    expect(result.inputPointCount).toBe(277_573);
    await expectSamePoints(out, expected);

    const input = await openPointCloud(realFile(FUSA));
    const clipped = await openPointCloud(out);
    try {
      expect(clipped.header.lasVersion).toBe('1.4');
      expect(clipped.header.pointFormat).toBe(6);
      expect(clipped.header.scale).toEqual(input.header.scale);
      expect(clipped.header.offset).toEqual(input.header.offset);
      expect(clipped.crs?.epsg).toBe(32754);
      expect(findVlr(clipped.header, 'LASF_Projection', 2112)).toBeDefined();
      expect(clipped.header.pointCount).toBe(expected.length);
    } finally {
      await input.close();
      await clipped.close();
    }
  });

  it('box and first returns', async () => {
    const out = path.join(dir, 'box.las');
    const box = { minX: 277810.005, minY: 6122310.005, maxX: 277905.005, maxY: 6122420.005 };
    const result = await clipPointCloud(realFile(FUSA), out, {
      area: compileArea({ kind: 'box', ...box }),
      returns: 'first',
    });
    const expected = fusa.filter(
      (p) => p.r === 1 && p.x >= box.minX && p.x <= box.maxX && p.y >= box.minY && p.y <= box.maxY,
    );
    expect(expected.length).toBeGreaterThan(1_000);
    expect(result.pointCount).toBe(expected.length);
    await expectSamePoints(out, expected);
  });

  it('corridor: points at most width/2 from the polyline; last returns of class 5', async () => {
    const out = path.join(dir, 'corridor.las');
    const { area } = areaFromGeoJson({ type: 'LineString', coordinates: LINE }, 'corridor', {
      crs: null,
      width: 30,
    });
    await clipPointCloud(realFile(FUSA), out, { area: compileArea(area), classes: [5], returns: 'last' });
    const near = (p: Row) =>
      segmentDistance(p.x, p.y, LINE[0]!, LINE[1]!) <= 15 || segmentDistance(p.x, p.y, LINE[1]!, LINE[2]!) <= 15;
    const expected = fusa.filter((p) => p.c === 5 && p.r === p.n && near(p));
    expect(expected.length).toBeGreaterThan(500);
    await expectSamePoints(out, expected);
    // Without filters: every class.
    const all = path.join(dir, 'corridor-all.las');
    const r = await clipPointCloud(realFile(FUSA), all, { area: compileArea(area) });
    expect(r.pointCount).toBe(fusa.filter(near).length);
  });

  it('a polygon in EPSG:4326 lands where proj4 puts its vertices in the cloud CRS', async () => {
    const toLonLat = proj4('+proj=utm +zone=54 +south +datum=WGS84 +units=m +no_defs', 'EPSG:4326');
    const lonLat = OUTER.map((p) => toLonLat.forward(p) as number[]);
    const back = lonLat.map((p) => toLonLat.inverse(p) as number[]);
    const reader = await openPointCloud(realFile(FUSA));
    const { crs } = reader;
    await reader.close();
    const { area, source } = areaFromGeoJson({ type: 'Polygon', coordinates: [lonLat] }, 'polygon', { crs });
    expect(source).toBe('EPSG:4326');
    const out = path.join(dir, 'wgs84.las');
    const result = await clipPointCloud(realFile(FUSA), out, { area: compileArea(area) });
    expect(result.pointCount).toBe(fusa.filter((p) => inPolygon([back], p.x, p.y)).length);
  });

  it('RGB LAS 1.2 in feet (autzen): format 7, colours and the WKT kept byte for byte', async () => {
    const file = realFile('autzen_trim.las');
    const rows = await allRows(file);
    const xs = rows.map((p) => p.x).sort((a, b) => a - b);
    const ys = rows.map((p) => p.y).sort((a, b) => a - b);
    const mid = (v: number[], f: number) => v[Math.floor(v.length * f)]! + 0.0037;
    const ring = [
      [mid(xs, 0.2), mid(ys, 0.2)],
      [mid(xs, 0.8), mid(ys, 0.3)],
      [mid(xs, 0.6), mid(ys, 0.9)],
      [mid(xs, 0.2), mid(ys, 0.2)],
    ];
    const out = path.join(dir, 'autzen.las');
    const { area } = areaFromGeoJson({ type: 'Polygon', coordinates: [ring] }, 'polygon', {
      crs: null,
      from: 'project',
    });
    const result = await clipPointCloud(file, out, { area: compileArea(area) });
    const expected = rows.filter((p) => inPolygon([ring], p.x, p.y));
    expect(expected.length).toBeGreaterThan(5_000);
    expect(result.pointFormat).toBe(7);
    await expectSamePoints(out, expected);
    const wkt = async (f: string) => {
      const src = await openFileSource(f);
      try {
        const v = findVlr(await readLasHeader(src), 'LASF_Projection', 2112);
        return v ? new TextDecoder().decode(v.data).replace(/\0+$/, '') : null;
      } finally {
        await src.close();
      }
    };
    const before = await wkt(file);
    expect(before).toMatch(/^PROJCS/);
    expect(await wkt(out)).toBe(before);
  });

  it('LAZ output (point format 1 kept): the same points through the engine reader and through laz-perf', async () => {
    const out = path.join(dir, 'polygon.laz');
    const area = compileArea({ kind: 'polygon', polygons: [[OUTER, HOLE]] });
    const result = await clipPointCloud(realFile(FUSA), out, { area, classes: [2, 6], format: 'laz' });
    const expected = fusa.filter((p) => (p.c === 2 || p.c === 6) && inPolygon([OUTER, HOLE], p.x, p.y));
    expect(result.pointCount).toBe(expected.length);
    expect(result.pointFormat).toBe(1);
    await expectSamePoints(out, expected);
    const reader = await openPointCloud(out);
    expect(reader.kind).toBe('laz');
    expect(reader.header.lasVersion).toBe('1.4');
    expect(reader.crs?.epsg).toBe(32754);
    const { scale, offset } = reader.header;
    await reader.close();
    // laz-perf, the reference decoder, reads the whole file (header, LASzip VLR, chunk table, chunks).
    // biome-ignore lint/suspicious/noExplicitAny: laz-perf's Emscripten module
    const lp = (await getLazPerf()) as any;
    const bytes = await readFile(out);
    const filePtr = lp._malloc(bytes.byteLength);
    const zip = new lp.LASZip();
    try {
      lp.HEAPU8.set(bytes, filePtr);
      zip.open(filePtr, bytes.byteLength);
      expect(zip.getCount()).toBe(expected.length);
      expect(zip.getPointFormat()).toBe(1);
      const len = zip.getPointLength();
      expect(len).toBe(28);
      const rec = lp._malloc(len);
      try {
        for (let k = 0; k < expected.length; k++) {
          zip.getPoint(rec);
          const v = new DataView(lp.HEAPU8.buffer, rec, len);
          const e = expected[k]!;
          const got = {
            x: v.getInt32(0, true) * scale[0] + offset[0],
            y: v.getInt32(4, true) * scale[1] + offset[1],
            z: v.getInt32(8, true) * scale[2] + offset[2],
            i: v.getUint16(12, true),
            r: v.getUint8(14) & 7,
            c: v.getUint8(15) & 31,
            t: v.getFloat64(20, true),
          };
          if (
            Math.abs(got.x - e.x) > 1e-6 ||
            Math.abs(got.y - e.y) > 1e-6 ||
            Math.abs(got.z - e.z) > 1e-6 ||
            got.i !== e.i ||
            got.r !== e.r ||
            got.c !== e.c ||
            got.t !== e.t
          ) {
            expect({ k, got }).toEqual({ k, got: e });
          }
        }
      } finally {
        lp._free(rec);
      }
    } finally {
      zip.delete();
      lp._free(filePtr);
    }
  });

  it('LAZ output of an RGB format 3 file (autzen) and refusal for format 8 with extra bytes', async () => {
    const rows = await allRows(realFile('autzen_trim.las'));
    const xs = rows.map((p) => p.x).sort((a, b) => a - b);
    const ys = rows.map((p) => p.y).sort((a, b) => a - b);
    const box = {
      minX: xs[20_000]! + 0.003,
      minY: ys[20_000]! + 0.003,
      maxX: xs[90_000]! + 0.003,
      maxY: ys[90_000]! + 0.003,
    };
    const out = path.join(dir, 'autzen.laz');
    const r = await clipPointCloud(realFile('autzen_trim.las'), out, {
      area: compileArea({ kind: 'box', ...box }),
      format: 'laz',
    });
    expect(r.pointFormat).toBe(3);
    await expectSamePoints(
      out,
      rows.filter((p) => p.x >= box.minX && p.x <= box.maxX && p.y >= box.minY && p.y <= box.maxY),
    );
    await expect(
      clipPointCloud(realFile('las_with_several_extra_byte_bloc.laz'), path.join(dir, 'x.laz'), {
        area: compileArea({ kind: 'box', minX: 0, minY: 0, maxX: 1e9, maxY: 1e9 }),
        format: 'laz',
      }),
    ).rejects.toThrow(
      /LAZ output needs a cloud of point format 0-3 without extra bytes \(this one is format 8 with extra bytes\)/,
    );
  });

  it('estimate: within a factor of 1.5 of the count on a uniform cloud', async () => {
    const src = await openFileSource(realFile(FUSA));
    const header = await readLasHeader(src);
    await src.close();
    const area = compileArea({ kind: 'polygon', polygons: [[OUTER, HOLE]] });
    const estimate = estimateClip(header, area);
    const count = fusa.filter((p) => inPolygon([OUTER, HOLE], p.x, p.y)).length;
    expect(estimate.points / count).toBeGreaterThan(1 / 1.5);
    expect(estimate.points / count).toBeLessThan(1.5);
    expect(estimate.overlap).toBe(1);
  });
});

describe('clip areas: bad input', () => {
  it('names what is wrong', () => {
    expect(() => compileArea({ kind: 'box', minX: 1, minY: 1, maxX: 1, maxY: 2 })).toThrow(/bbox: the box is empty/);
    expect(() =>
      compileArea({
        kind: 'polygon',
        polygons: [
          [
            [
              [0, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        ],
      }),
    ).toThrow(/at least 3 distinct vertices/);
    expect(() => areaFromGeoJson({ type: 'Point', coordinates: [0, 0] }, 'polygon', { crs: null })).toThrow(
      /Polygon or MultiPolygon/,
    );
    expect(() => areaFromGeoJson({ type: 'Nope' }, 'polygon', { crs: null })).toThrow(/not a GeoJSON type/);
    expect(() =>
      areaFromGeoJson(
        {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
        'corridor',
        { crs: null },
      ),
    ).toThrow(/positive width/);
  });
});

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe.skipIf(!hasRealData())('nuage clip', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-cli-clip-'));
    await writeFile(
      path.join(dir, 'poly.geojson'),
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [OUTER, HOLE] } }],
      }),
    );
    await writeFile(path.join(dir, 'line.geojson'), JSON.stringify({ type: 'LineString', coordinates: LINE }));
    await writeFile(path.join(dir, 'bad.geojson'), '{"type": "Polygon", "coordinates": ');
    await writeFile(
      path.join(dir, 'far.geojson'),
      JSON.stringify({
        type: 'Polygon',
        coordinates: [
          [
            [2, 48],
            [2.1, 48],
            [2.1, 48.1],
            [2, 48],
          ],
        ],
      }),
    );
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the polygon, box and corridor clips', async () => {
    const fusa = await allRows(realFile(FUSA));
    const p = await run([
      'clip',
      realFile(FUSA),
      path.join(dir, 'p.las'),
      '--polygon',
      path.join(dir, 'poly.geojson'),
      '--classes',
      '2,6',
    ]);
    expect(p.err).toBe('');
    expect(p.code).toBe(0);
    const n = fusa.filter((r) => (r.c === 2 || r.c === 6) && inPolygon([OUTER, HOLE], r.x, r.y)).length;
    expect(p.out).toMatch(
      new RegExp(
        `^wrote ${n} of 277573 points to .*p\\.las \\(polygon from the cloud CRS, LAS 1\\.4 point format 6, \\d+ bytes`,
      ),
    );
    const b = await run(['clip', realFile(FUSA), path.join(dir, 'b.las'), '--bbox', '277800,6122300,277900,6122400']);
    expect(b.code).toBe(0);
    const nb = fusa.filter((r) => r.x >= 277800 && r.x <= 277900 && r.y >= 6122300 && r.y <= 6122400).length;
    expect(b.out).toMatch(new RegExp(`^wrote ${nb} of`));
    const c = await run([
      'clip',
      realFile(FUSA),
      path.join(dir, 'c.las'),
      '--corridor',
      path.join(dir, 'line.geojson'),
      '--width',
      '30',
    ]);
    expect(c.code).toBe(0);
    expect((await readFile(path.join(dir, 'c.las'))).subarray(0, 4).toString()).toBe('LASF');
    const z = await run([
      'clip',
      realFile(FUSA),
      path.join(dir, 'p.laz'),
      '--polygon',
      path.join(dir, 'poly.geojson'),
      '--classes',
      '2,6',
    ]);
    expect(z.code).toBe(0);
    expect(z.out).toMatch(
      new RegExp(`^wrote ${n} of 277573 points to .*p\\.laz \\(polygon from the cloud CRS, LAZ 1\\.4 point format 1, `),
    );
  });

  it('exits with 2 and one error line on bad input', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--polygon', path.join(dir, 'bad.geojson')], /^error: --polygon: .*bad\.geojson is not JSON/],
      [['--polygon', path.join(dir, 'nope.geojson')], /^error: --polygon: no such file/],
      [['--bbox', '1,2,3'], /^error: --bbox: "1,2,3" is not minX,minY,maxX,maxY/],
      [['--bbox', '5,5,1,1'], /^error: bbox: the box is empty/],
      [['--bbox', '0,0,1,1'], /^error: area: no point of the cloud is inside the area/],
      [['--polygon', path.join(dir, 'far.geojson')], /^error: area: no point of the cloud is inside the area/],
      [['--corridor', path.join(dir, 'line.geojson')], /^error: --width: a corridor needs a positive width/],
      [['--bbox', '0,0,1,1', '--polygon', path.join(dir, 'poly.geojson')], /^error: area: give exactly one of/],
      [['--bbox', '277800,6122300,277900,6122400', '--classes', '2,x'], /^error: --classes: "2,x" is not a list/],
      [['--bbox', '277800,6122300,277900,6122400', '--returns', 'second'], /^error: --returns: "second" is not one of/],
    ];
    for (const [extra, message] of cases) {
      const r = await run(['clip', realFile(FUSA), path.join(dir, 'x.las'), ...extra]);
      expect({ extra, code: r.code }).toEqual({ extra, code: 2 });
      expect(r.err.split('\n')).toHaveLength(1);
      expect(r.err).toMatch(message);
    }
    const laz = await run([
      'clip',
      realFile('test_semis_2021_0382_6565_LA93_IGN69_cropped.laz'),
      path.join(dir, 'x.laz'),
      '--bbox',
      '0,0,1,1',
    ]);
    expect(laz.code).toBe(2);
    expect(laz.err).toMatch(/^error: format: LAZ output needs a cloud of point format 0-3 .*format 7\): write LAS$/);
    const txt = await run(['clip', realFile(FUSA), path.join(dir, 'x.txt'), '--bbox', '0,0,1,1']);
    expect(txt.err).toMatch(/^error: OUT: output must be a \.las or \.laz file/);
  });
});
