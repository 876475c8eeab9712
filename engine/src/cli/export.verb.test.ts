import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { crsFromEpsg } from '../crs/index.js';
import { writeWgs84GeoJson } from '../products/product-values.js';
import { gdal, hasGdal } from '../products/test-gdal.js';
import type { Feature } from '../writers/geojson.writer.js';
import { readZip } from '../writers/zip.reader.js';
import { projectEpsgOf } from './export.verb.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const tops: Feature[] = [
  {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [277774.38, 6122499.61, 62.18] },
    properties: { treeId: 1, height: 19.72 },
  },
  {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [277771.3, 6122493.84, 61.46] },
    properties: { treeId: 2, height: 18.97 },
  },
];

describe('nuage export', () => {
  let dir: string;
  let input: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-cli-export-'));
    // A run folder as `nuage process` leaves it: the product file and manifest.json above it.
    await mkdir(path.join(dir, 'tree-tops'));
    input = path.join(dir, 'tree-tops', 'tree-tops.geojson');
    await writeWgs84GeoJson(input, tops, crsFromEpsg(32754));
    const manifest = {
      version: 1,
      input: 'fusa.laz',
      options: {},
      products: [],
      artifacts: [
        { type: 'CLASSIFIED_POINT_CLOUD', path: 'classify/tiles', format: '3DTiles', epsg: 4978, count: 1, bytes: 1 },
        { type: 'DTM', path: 'dtm/dtm.tif', format: 'GTiff', epsg: 32754, count: 1, bytes: 1 },
        { type: 'TREE_TOPS', path: 'tree-tops/tree-tops.geojson', format: 'GeoJSON', epsg: 4326, count: 2, bytes: 1 },
      ],
    };
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds the project EPSG code in a manifest', () => {
    expect(
      projectEpsgOf({
        artifacts: [
          { type: 'X', path: 'a', format: 'GeoJSON', epsg: 4326, count: 1, bytes: 1 },
          { type: 'Y', path: 'b', format: 'LAS', epsg: 2154, count: 1, bytes: 1 },
        ],
      }),
    ).toBe(2154);
    expect(projectEpsgOf({ artifacts: [] })).toBeNull();
  });

  it('writes a Shapefile in the project CRS read from manifest.json, and lists its fields', async () => {
    const out = path.join(dir, 'tops.zip');
    const r = await run(['export', input, '--format', 'shp', out]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^wrote 2 features to .*tops\.zip \(shp, EPSG:32754, \d+ bytes, \d+ ms\)\nfields: treeId, height$/,
    );
    expect([...readZip(out).keys()]).toEqual(['tops.shp', 'tops.shx', 'tops.dbf', 'tops.prj', 'tops.cpg']);
    if (hasGdal()) expect(gdal('ogrinfo', ['-ro', '-so', `/vsizip/${out}`, 'tops'])).toMatch(/ID\["EPSG",32754\]\]\n/);
  });

  it('writes a DXF with its .prj and the tree heights as labels; --epsg wins over the manifest', async () => {
    const out = path.join(dir, 'tops.dxf');
    const r = await run(['export', input, '--format', 'dxf', out, '--layer', 'arbres']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/wrote 2 features .*EPSG:32754/);
    expect(existsSync(path.join(dir, 'tops.prj'))).toBe(true);
    const dxf = await readFile(out, 'latin1');
    expect(dxf).toMatch(/\n {2}2\narbres\n/);
    expect(dxf).toMatch(/\n {2}1\n19\.72\n/);
    const other = path.join(dir, 'tops-55.dxf');
    const r55 = await run(['export', input, '--format', 'dxf', other, '--epsg', '32755']);
    expect(r55.out).toMatch(/EPSG:32755/);
  });

  it('re-writes GeoJSON in EPSG:4326 without a CRS', async () => {
    const out = path.join(dir, 'copy.geojson');
    const r = await run(['export', input, '--format', 'geojson', out]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(await readFile(out, 'utf8'));
    expect(doc.crs).toBeUndefined();
    expect(doc.features[0].geometry.coordinates[0]).toBeCloseTo(138.5644808, 7);
  });

  it('exits 2 with one line for bad input', async () => {
    const bad = await run(['export', input, '--format', 'kml', path.join(dir, 'x.kml')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^error: --format: "kml" is not one of geojson, dxf, shp$/);
    const ext = await run(['export', input, '--format', 'shp', path.join(dir, 'x.shp')]);
    expect(ext.err).toMatch(/^error: OUT: a shp export is written to a \.zip file/);
    // A GeoJSON with no manifest.json in its folder nor the one above.
    const loneDir = await mkdtemp(path.join(os.tmpdir(), 'nuage-cli-lone-'));
    const lone = path.join(loneDir, 'a', 'tops.geojson');
    await mkdir(path.dirname(lone));
    await writeWgs84GeoJson(lone, tops, crsFromEpsg(32754));
    try {
      const noCrs = await run(['export', lone, '--format', 'dxf', path.join(dir, 'y.dxf')]);
      expect(noCrs.code).toBe(2);
      expect(noCrs.err).toMatch(/^error: --epsg: a dxf export needs the project CRS/);
    } finally {
      await rm(loneDir, { recursive: true, force: true });
    }
    const missing = await run([
      'export',
      path.join(dir, 'none.geojson'),
      '--format',
      'geojson',
      path.join(dir, 'z.geojson'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.err.split('\n')).toHaveLength(1);
  });
});
