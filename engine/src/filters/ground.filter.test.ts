import { terrainScene } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import { groundAgreement } from '../products/quality.metrics.js';
import { groundFilter } from './ground.filter.js';
import { heightAboveGround } from './hag.filter.js';
import { HIGH_NOISE, LOW_POINT, noiseFilter } from './noise.filter.js';

describe('noise, ground and HAG filters on a synthetic scene with known truth', () => {
  const scene = terrainScene({ size: 120, density: 6, seed: 7 });
  const { chunk, truth } = scene;
  const noise = noiseFilter(chunk);

  it('finds the isolated low and high points', () => {
    let lowFound = 0;
    let highFound = 0;
    let falseNoise = 0;
    for (let i = 0; i < chunk.count; i++) {
      if (truth[i] === LOW_POINT && noise[i] === LOW_POINT) lowFound++;
      else if (truth[i] === HIGH_NOISE && noise[i] === HIGH_NOISE) highFound++;
      else if (truth[i] !== LOW_POINT && truth[i] !== HIGH_NOISE && noise[i]) falseNoise++;
    }
    const lows = truth.filter((c) => c === LOW_POINT).length;
    const highs = truth.filter((c) => c === HIGH_NOISE).length;
    expect(lows).toBeGreaterThan(2);
    expect(lowFound).toBe(lows);
    expect(highFound).toBe(highs);
    expect(falseNoise).toBeLessThan(chunk.count * 0.001);
  });

  it('separates ground from the building and trees (kappa > 0.95), steep bank included', () => {
    const { ground } = groundFilter(chunk, noise);
    const reference = Uint8Array.from(truth, (c) => (c === 7 || c === 18 ? 1 : c));
    const q = groundAgreement(ground, reference, chunk.count);
    expect(q.kappa).toBeGreaterThan(0.95);
    expect(q.totalError).toBeLessThan(0.02);
    // Nothing on the roof is ground.
    const b = scene.building;
    for (let i = 0; i < chunk.count; i++) {
      const inside = chunk.x[i]! > b.minX && chunk.x[i]! < b.maxX && chunk.y[i]! > b.minY && chunk.y[i]! < b.maxY;
      if (inside && truth[i] === 6) expect(ground[i]).toBe(0);
    }
  });

  it('works the same on a sparse cloud (1 point per 4 m²)', () => {
    const sparse = terrainScene({ size: 300, density: 0.25, seed: 3 });
    const n = noiseFilter(sparse.chunk);
    const { ground } = groundFilter(sparse.chunk, n);
    const reference = Uint8Array.from(sparse.truth, (c) => (c === 7 || c === 18 ? 1 : c));
    expect(groundAgreement(ground, reference, sparse.chunk.count).kappa).toBeGreaterThan(0.85);
  });

  it('gives true ground points a height above ground within 10 cm (99th percentile)', () => {
    const { ground } = groundFilter(chunk, noise);
    const { hag } = heightAboveGround(chunk, ground, 0.5);
    const errors: number[] = [];
    let roof = 0;
    let roofPoints = 0;
    for (let i = 0; i < chunk.count; i++) {
      if (truth[i] === 2) errors.push(Math.abs(hag[i]!));
      if (truth[i] === 6) {
        roof += hag[i]!;
        roofPoints++;
      }
    }
    errors.sort((a, b) => a - b);
    expect(errors[Math.floor(errors.length * 0.99)]).toBeLessThan(0.1);
    // The building is 8 m tall on a 3 % slope: mean roof HAG close to 8 m.
    expect(Math.abs(roof / roofPoints - 8)).toBeLessThan(0.6);
  });

  it('rejects invalid options before touching the data', () => {
    expect(() => groundFilter(chunk, noise, { cell: -1 })).toThrow();
  });
});
