import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe.skipIf(!hasRealData())('nuage tile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-cli-tile-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('tiles a file given its EPSG code and the admin options text', async () => {
    const out = path.join(dir, 'warsaw');
    const r = await run([
      'tile',
      realFile('warsaw_small.las'),
      out,
      '--epsg',
      '2180',
      '--options=--max-points 1000 --min-node-size 0.5',
      '--json',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.out);
    expect(result.pointCount).toBe(3000);
    expect(result.tileCount).toBeGreaterThan(1);
    expect(result.epsg).toBe(2180);
    const tileset = JSON.parse(await readFile(path.join(out, 'tileset.json'), 'utf8'));
    expect(tileset.asset.version).toBe('1.1');
    expect(tileset.root.refine).toBe('ADD');
  });

  it('exits 2 with one line for bad input', async () => {
    const noCrs = await run(['tile', realFile('ahn3_cropped_1.laz'), path.join(dir, 'x')]);
    expect(noCrs.code).toBe(2);
    expect(noCrs.err).toMatch(/^error: .*--epsg/);
    const badOption = await run(['tile', realFile('warsaw_small.las'), path.join(dir, 'y'), '--max-points', 'many']);
    expect(badOption.code).toBe(2);
    expect(badOption.err).toMatch(/^error: .*--max-points needs a number/);
    const missing = await run(['tile', realFile('warsaw_small.las')]);
    expect(missing.code).toBe(2);
    expect(missing.err.split('\n')).toHaveLength(1);
  });
});
