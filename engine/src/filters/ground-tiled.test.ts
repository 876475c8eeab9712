import { terrainScene } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import { groundAgreement } from '../products/quality.metrics.js';
import { groundFilter } from './ground.filter.js';
import { noiseAndGroundTiled } from './ground-tiled.js';
import { noiseFilter } from './noise.filter.js';

describe('noiseAndGroundTiled', () => {
  it('gives the single-piece result within 1 % of points, over worker threads', async () => {
    const scene = terrainScene({ size: 200, density: 4, seed: 9 });
    const noise = noiseFilter(scene.chunk);
    const { ground } = groundFilter(scene.chunk, noise);
    const tiled = await noiseAndGroundTiled(scene.chunk, { workers: 2, minPointsPerTile: 20_000 });
    let differ = 0;
    for (let i = 0; i < scene.chunk.count; i++) if (tiled.ground[i] !== ground[i]) differ++;
    expect(differ).toBeLessThan(scene.chunk.count * 0.01);
    const reference = Uint8Array.from(scene.truth, (c) => (c === 7 || c === 18 ? 1 : c));
    expect(groundAgreement(tiled.ground, reference, scene.chunk.count).kappa).toBeGreaterThan(0.95);
    expect(tiled.noise.some((v) => v === 18)).toBe(true);
  });
});
