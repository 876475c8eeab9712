import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hasRealData } from '@nuage/fixtures/real-data.js';
import { REAL_FILES } from '@nuage/fixtures/real-files.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkRealFile } from './tileset-check.test-helper.js';

describe.skipIf(!hasRealData())('tilePointCloud on every real file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-tile-all-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  for (const { file } of REAL_FILES) {
    it(file, { timeout: 300_000 }, () => checkRealFile(file, dir));
  }
});
