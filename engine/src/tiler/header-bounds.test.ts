/**
 * Files whose header bounds are a little smaller than their points (LAStools'
 * own zurich.laz sample is one; peers read it with a warning) are read and
 * tiled with the true bounds, and the metadata says the header was wrong. The
 * test file is the bundled warsaw_small.las with its header bounds shrunk by
 * 3 m on two sides (beyond the tiler's 2 % margin).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInput } from '../core/errors.js';
import { metadataFromReader } from '../metadata/index.js';
import { openPointCloud } from '../readers/index.js';
import { tilePointCloud } from './tile-point-cloud.js';

let dir: string;
let sloppy: string;
let original: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nuage-header-bounds-'));
  original = await readFile(realFile('warsaw_small.las'));
  const bytes = Buffer.from(original);
  bytes.writeDoubleLE(bytes.readDoubleLE(179) - 3, 179); // max X
  bytes.writeDoubleLE(bytes.readDoubleLE(203) + 3, 203); // min Y
  sloppy = path.join(dir, 'sloppy-bounds.las');
  await writeFile(sloppy, bytes);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('header bounds smaller than the points', () => {
  it('metadata keeps the true bounds and flags the header bounds', async () => {
    const reader = await openPointCloud(sloppy, { epsg: 2180 });
    const meta = await metadataFromReader(reader);
    await reader.close();
    const good = await openPointCloud(realFile('warsaw_small.las'), { epsg: 2180 });
    const truth = await metadataFromReader(good);
    await good.close();
    expect(meta.pointCount).toBe(3000);
    expect(meta.bbox).toEqual(truth.bbox);
    expect(truth.headerBoundsTooSmall).toBeNull();
    expect(meta.headerBoundsTooSmall).not.toBeNull();
    expect(meta.headerBoundsTooSmall!.maxX).toBeCloseTo(639946.75 - 3, 6);
    expect(meta.headerBoundsTooSmall!.minY).toBeCloseTo(485143.14 + 3, 6);
    expect(meta.bbox.maxX).toBeCloseTo(639946.75, 2);
  });

  it('tiles every point with the true bounds instead of refusing the file', async () => {
    const out = path.join(dir, 'tiles');
    const logged: string[] = [];
    const result = await tilePointCloud(sloppy, out, { epsg: 2180 }, { log: (m) => logged.push(m) });
    expect(result.pointCount).toBe(3000);
    expect(logged.some((m) => m.startsWith('header bounds smaller than the points'))).toBe(true);
    const tileset = JSON.parse(await readFile(path.join(out, 'tileset.json'), 'utf8'));
    expect(tileset.root).toBeDefined();
  });

  it('still refuses what is really broken: a negative scale, named', async () => {
    const bytes = Buffer.from(original);
    bytes.writeDoubleLE(-0.01, 147);
    const broken = path.join(dir, 'negative-z-scale.las');
    await writeFile(broken, bytes);
    const error = await openPointCloud(broken, { epsg: 2180 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidInput);
    expect((error as InvalidInput).field).toBe('header.scale.z');
  });
});
