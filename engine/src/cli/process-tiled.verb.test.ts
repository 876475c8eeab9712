import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { realFile } from '@nuage/fixtures/real-data.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { openPointCloud } from '../readers/index.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** `nuage process fusa.laz TO` with more flags. */
const processFusa = (to: string, ...flags: string[]) => run(['process', realFile('fusa.laz'), to, ...flags]);

describe('nuage process --tile-points (fusa.laz, 277,573 points)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'nuage-cli-tiled-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('classifies in tiles with buffers and writes every point once, with the classes counted in the manifest', async () => {
    const tiled = ['--products', 'classify', '--tile-points', '80000', '--tile-buffer', '25'];
    const out = path.join(dir, 'run');
    const r = await processFusa(out, ...tiled);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const tiles = Number(/classified in (\d+) tiles/.exec(r.out)?.[1]);
    expect(tiles).toBeGreaterThanOrEqual(4);
    const manifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8'));
    const classify = manifest.products.find((p: { id: string }) => p.id === 'classify');
    expect(classify.status).toBe('READY');
    const counts = classify.figures.classCounts as Record<string, number>;
    expect(Object.values(counts).reduce((s, n) => s + n, 0)).toBe(277_573);
    // The classified LAS holds the input's points with those classes.
    const reader = await openPointCloud(path.join(out, 'classify', 'classified.las'));
    const seen: Record<number, number> = {};
    for await (const ch of reader.read({ workers: 0 })) {
      for (let i = 0; i < ch.count; i++) seen[ch.classification![i]!] = (seen[ch.classification![i]!] ?? 0) + 1;
    }
    await reader.close();
    expect(Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, v]))).toEqual(counts);
    // Ground found where the vendor has it (fusa: 180,868 vendor ground points).
    expect(counts['2']).toBeGreaterThan(160_000);
    // One tile at a time on the main thread gives the same classes as the default (two at once, in threads).
    const one = path.join(dir, 'one');
    const r1 = await processFusa(one, ...tiled, '--tile-threads', '1');
    expect(r1.code).toBe(0);
    const manifest1 = JSON.parse(await readFile(path.join(one, 'manifest.json'), 'utf8'));
    expect(manifest1.products.find((p: { id: string }) => p.id === 'classify').figures.classCounts).toEqual(counts);
    expect(await readFile(path.join(one, 'classify', 'classified.las'))).toEqual(
      await readFile(path.join(out, 'classify', 'classified.las')),
    );
  }, 240_000);

  it('refuses a tile size that is not a positive number', async () => {
    const r = await processFusa(path.join(dir, 'bad'), '--tile-points', 'many');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--tile-points must be a positive number/);
    const zero = await processFusa(path.join(dir, 'zero'), '--products', 'dtm', '--tile-points', '0');
    expect(zero.code).toBe(0);
    expect(zero.out).not.toMatch(/classified in \d+ tiles/);
    const t = await processFusa(path.join(dir, 'bad'), '--tile-points', '1000', '--tile-threads', '1.5');
    expect(t.code).toBe(2);
    expect(t.err).toMatch(/--tile-threads must be a whole number of threads/);
  }, 120_000);
});
