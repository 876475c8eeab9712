import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, REPO_ROOT, realFile } from '@nuage/fixtures/real-data.js';
import { realFileFacts } from '@nuage/fixtures/real-files.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

function nuage(...args: string[]) {
  const result = spawnSync('npx', ['--no-install', 'nuage', ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  const stderr = result.stderr
    .split('\n')
    .filter((l) => l && !l.startsWith('npm warn'))
    .join('\n');
  return { status: result.status, stdout: result.stdout, stderr };
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'nuage-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('nuage CLI', () => {
  it('lists the verbs with --help', () => {
    const r = nuage('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('nuage info FILE');
    expect(r.stdout).toContain('nuage convert IN OUT.las');
  });

  it.skipIf(!hasRealData())('prints metadata as JSON', () => {
    const r = nuage('info', realFile('fusa.laz'), '--json');
    expect(r.status).toBe(0);
    const m = JSON.parse(r.stdout);
    const facts = realFileFacts('fusa.laz');
    for (const key of [
      'pointCount',
      'minElevation',
      'maxElevation',
      'lasVersion',
      'pointFormat',
      'systemId',
      'generatingSoftware',
    ]) {
      expect(m).toHaveProperty(key);
    }
    for (const key of [
      'creationDay',
      'creationYear',
      'memoryGb',
      'bbox',
      'bboxWgs84',
      'crs',
      'classCounts',
      'hasRgb',
      'intensityMin',
      'intensityMax',
      'areaHectares',
    ]) {
      expect(m).toHaveProperty(key);
    }
    expect(m.pointCount).toBe(facts.pointCount);
    expect(m.lasVersion).toBe('1.1');
    expect(m.crs.epsg).toBe(32754);
    expect(m.classCounts).toEqual(
      Object.fromEntries(Object.entries(facts.classCounts).map(([k, v]) => [String(k), v])),
    );
    expect(m.minElevation).toBeCloseTo(facts.bbox.minZ, 2);
  });

  it.skipIf(!hasRealData())('accepts --epsg for a file without CRS', () => {
    const r = nuage('info', realFile('warsaw_small.las'), '--json', '--epsg', '2180');
    expect(r.status).toBe(0);
    const m = JSON.parse(r.stdout);
    expect(m.crs.epsg).toBe(2180);
    expect(m.crsRequired).toBe(false);
    expect(m.bboxWgs84.west).toBeCloseTo(21.0, 0); // Warsaw
  });

  it.skipIf(!hasRealData())('converts LAZ to LAS 1.4', () => {
    const out = path.join(dir, 'fusa.las');
    const r = nuage('convert', realFile('fusa.laz'), out);
    expect(r.status).toBe(0);
    const info = JSON.parse(nuage('info', out, '--json').stdout);
    expect(info.pointCount).toBe(277573);
    expect(info.lasVersion).toBe('1.4');
    expect(info.pointFormat).toBe(6);
    expect(info.crs.epsg).toBe(32754);
  });

  it('fails with exit code 2 and one error line on malformed files', async () => {
    const cases: Array<[string, Uint8Array, RegExp]> = [];
    cases.push([
      'not-las.las',
      new TextEncoder().encode('hello world, this is not a point cloud'.repeat(10)),
      /signature/,
    ]);
    if (hasRealData()) {
      const las = readFileSync(realFile('mvk-thin.las'));
      cases.push(['truncated.las', las.subarray(0, 100_000), /pointCount/]);
      const zeroScale = Buffer.from(las);
      zeroScale.writeDoubleLE(0, 131);
      cases.push(['zero-scale.las', zeroScale, /scale/]);
      const laz = readFileSync(realFile('fusa.laz'));
      cases.push(['truncated.laz', laz.subarray(0, 500_000), /chunk/]);
    }
    for (const [name, bytes, pattern] of cases) {
      const file = path.join(dir, name);
      await writeFile(file, bytes);
      const r = nuage('info', file, '--json');
      expect(r.status, name).toBe(2);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trim().split('\n');
      expect(lines, name).toHaveLength(1);
      expect(lines[0]).toMatch(/^error: /);
      expect(lines[0]).toMatch(pattern);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const missing = nuage('info', path.join(dir, 'nope.las'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^error: path: no such file/);
    const badEpsg = nuage('info', path.join(dir, 'nope.las'), '--epsg', 'abc');
    expect(badEpsg.status).toBe(2);
    const unknownVerb = nuage('frobnicate');
    expect(unknownVerb.status).toBe(2);
  });
});
