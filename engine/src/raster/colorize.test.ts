import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import type { PointChunk } from '../core/chunk.js';
import { InvalidInput } from '../core/errors.js';
import type { CrsInfo } from '../crs/index.js';
import { gatherCloud, splitCloud } from '../filters/cloud.js';
import { gdal, hasGdal } from '../products/test-gdal.js';
import { openPointCloud } from '../readers/index.js';
import { writeLas } from '../writers/las.writer.js';
import { colorizeCloud } from './colorize.js';
import { orthophoto } from './test-orthophoto.js';

/** Band values at points given in EPSG:32754, by GDAL/PROJ (independent of proj4js). */
function gdalColours(file: string, points: [number, number][]): number[][] {
  const text = execFileSync('gdallocationinfo', ['-valonly', '-l_srs', 'EPSG:32754', file], {
    input: points.map(([x, y]) => `${x} ${y}`).join('\n'),
    encoding: 'utf8',
  });
  const values = text.trim().split('\n').map(Number);
  return points.map((_, k) => values.slice(3 * k, 3 * k + 3));
}

describe.runIf(hasGdal() && hasRealData())('colorization from an orthophoto (fusa.laz, image in EPSG:4326)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nuage-colorize-'));
  let cloud: PointChunk;
  let crs: CrsInfo;
  // 740 × 560 pixels of 5e-6° (about 0.45 × 0.55 m) around the cloud.
  const west = 138.5639;
  const north = -35.0156;
  let covering: string;

  beforeAll(async () => {
    const reader = await openPointCloud(realFile('fusa.laz'));
    try {
      cloud = await gatherCloud(reader.read());
    } finally {
      await reader.close();
    }
    crs = reader.crs!;
    covering = orthophoto(dir, 'covering', west, north, 740, 560);
  });

  it('gives every point the colour GDAL reads at its reprojected position, and writes PDRF 7', async () => {
    const result = await colorizeCloud(cloud, crs, covering);
    expect(result).toMatchObject({ coloured: cloud.count, outside: 0, imageEpsg: 4326, bits: 8 });
    const picks = Array.from({ length: 300 }, (_, k) => Math.floor(((k + 0.5) * cloud.count) / 300));
    const expected = gdalColours(
      covering,
      picks.map((i) => [cloud.x[i]!, cloud.y[i]!]),
    );
    const got = picks.map((i) => [cloud.red![i]!, cloud.green![i]!, cloud.blue![i]!]);
    expect(got).toEqual(expected.map((rgb) => rgb.map((v) => v * 257)));
    // Not a constant image: the picks see many colours.
    expect(new Set(got.map((c) => c.join())).size).toBeGreaterThan(200);

    const las = path.join(dir, 'coloured.las');
    await writeLas(
      las,
      (async function* () {
        yield* splitCloud(cloud);
      })(),
      { crs },
    );
    const reader = await openPointCloud(las);
    try {
      expect(reader.header.pointFormat).toBe(7);
      const back = await gatherCloud(reader.read());
      expect(back.count).toBe(cloud.count);
      for (const i of picks) {
        expect([back.red![i], back.green![i], back.blue![i]]).toEqual([cloud.red![i], cloud.green![i], cloud.blue![i]]);
      }
    } finally {
      await reader.close();
    }
  });

  it('keeps 16-bit samples as they are', async () => {
    const sixteen = orthophoto(dir, 'sixteen', west, north, 740, 560, 16);
    const copy = { ...cloud };
    const result = await colorizeCloud(copy, crs, sixteen);
    expect(result.bits).toBe(16);
    const picks = [0, 1000, 77_777, 200_000, cloud.count - 1];
    const expected = gdalColours(
      sixteen,
      picks.map((i) => [cloud.x[i]!, cloud.y[i]!]),
    );
    expect(picks.map((i) => [copy.red![i], copy.green![i], copy.blue![i]])).toEqual(expected);
  });

  it('colours the points on a partial image, counts the others and leaves them black', async () => {
    // Covers the west 70 % of the cloud (≥ 50 %: accepted).
    const partial = orthophoto(dir, 'partial', west, north, 440, 560);
    const copy = { ...cloud };
    const result = await colorizeCloud(copy, crs, partial);
    expect(result.outside).toBeGreaterThan(0.2 * cloud.count);
    expect(result.coloured + result.outside).toBe(cloud.count);
    let black = 0;
    for (let i = 0; i < cloud.count; i++) {
      if (copy.red![i] === 0 && copy.green![i] === 0 && copy.blue![i] === 0) black++;
    }
    // Black points are the outside ones (plus the few pixels whose colour is 0, 0, 0: none here as G = row).
    expect(black).toBeGreaterThanOrEqual(result.outside);
    expect(black).toBeLessThan(result.outside + 0.01 * cloud.count);
  });

  it('refuses an image that does not overlap the cloud, or covers less than half of it, naming the field', async () => {
    const away = orthophoto(dir, 'away', west + 0.01, north, 200, 200);
    const err = await colorizeCloud({ ...cloud }, crs, away).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidInput);
    expect((err as InvalidInput).field).toBe('orthophoto');
    expect((err as InvalidInput).code).toBe('ORTHOPHOTO_NOT_COVERING');
    expect((err as Error).message).toMatch(/does not overlap/);

    // West 25 % of the cloud.
    const sliver = orthophoto(dir, 'sliver', west, north, 190, 560);
    const short = await colorizeCloud({ ...cloud }, crs, sliver).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(InvalidInput);
    expect((short as InvalidInput).field).toBe('orthophoto');
    expect((short as InvalidInput).code).toBe('ORTHOPHOTO_NOT_COVERING');
    expect((short as Error).message).toMatch(/covers \d+\.\d % of the points: at least 50 % is needed/);
    expect((short as InvalidInput).value).toBeGreaterThan(10);
    expect((short as InvalidInput).value).toBeLessThan(40);
  });

  it('refuses a file that is not an RGB GeoTIFF', async () => {
    const text = path.join(dir, 'not.tif');
    writeFileSync(text, 'hello');
    await expect(colorizeCloud({ ...cloud }, crs, text)).rejects.toThrow(
      /orthophoto: the orthophoto is not a readable GeoTIFF/,
    );
    const grey = path.join(dir, 'grey.tif');
    gdal('gdal_translate', ['-q', '-b', '1', path.join(dir, 'covering.tif'), grey]);
    await expect(colorizeCloud({ ...cloud }, crs, grey)).rejects.toThrow(/1 band\(s\): an RGB image/);
  });

  it('nuage classify --orthophoto writes a coloured PDRF 7 LAS and coloured tiles; refuses an image off the cloud', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    const outDir = path.join(dir, 'run');
    const code = await runCli(['classify', realFile('fusa.laz'), outDir, '--orthophoto', covering], io);
    expect(err.join('\n')).toBe('');
    expect(code).toBe(0);
    const las = path.join(outDir, 'classify', 'classified.las');
    const reader = await openPointCloud(las);
    let back: PointChunk;
    try {
      expect(reader.header.pointFormat).toBe(7);
      back = await gatherCloud(reader.read());
    } finally {
      await reader.close();
    }
    // Same order as the input: the colours are those GDAL reads at the points.
    const picks = [5, 50_000, 150_000, 277_000];
    const expected = gdalColours(
      covering,
      picks.map((i) => [back.x[i]!, back.y[i]!]),
    );
    expect(picks.map((i) => [back.red![i]! / 257, back.green![i]! / 257, back.blue![i]! / 257])).toEqual(expected);
    const manifest = JSON.parse(readFileSync(path.join(outDir, 'manifest.json'), 'utf8')) as unknown;
    expect(JSON.stringify(manifest)).toMatch(
      /"colourised":\{"coloured":277573,"outside":0,"imageEpsg":4326,"bits":8\}/,
    );
    // The 3D tiles carry per-point colours (glTF COLOR_0).
    const tile = readdirSync(path.join(outDir, 'classify', 'tiles', 'content'))[0]!;
    expect(readFileSync(path.join(outDir, 'classify', 'tiles', 'content', tile)).includes('COLOR_0')).toBe(true);

    const away = orthophoto(dir, 'away-cli', west + 0.01, north, 100, 100);
    err.length = 0;
    const refused = await runCli(['classify', realFile('fusa.laz'), path.join(dir, 'run2'), '--orthophoto', away], io);
    expect(refused).toBe(2);
    expect(err.join('\n')).toMatch(
      /classify: orthophoto: the orthophoto \(EPSG:4326\) does not overlap the point cloud/,
    );
  });
});
