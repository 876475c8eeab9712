import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tilePointCloud } from './tile-point-cloud.js';
import { checkRealFile } from './tileset-check.test-helper.js';

describe.skipIf(!hasRealData())('tilePointCloud on small real files (loaders.gl reads it back)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-tile-real-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  for (const name of ['warsaw_small.las', 'mvk-thin.las', 'MixedConifer.laz', 'autzen_trim.las']) {
    it(name, () => checkRealFile(name, dir, { maxPoints: 5_000 }));
  }

  it('refuses a file without CRS unless an EPSG code is given', async () => {
    await expect(tilePointCloud(realFile('ahn3_cropped_1.laz'), path.join(dir, 'no-crs'))).rejects.toMatchObject({
      code: 'CRS_REQUIRED',
    });
  });

  it('reports a missing file as a typed error', async () => {
    await expect(tilePointCloud(path.join(dir, 'missing.laz'), path.join(dir, 'missing'))).rejects.toHaveProperty(
      'code',
    );
  });
});
