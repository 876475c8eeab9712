import { terrainScene } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../core/chunk.js';
import { groundAgreement } from '../products/quality.metrics.js';
import { acceptStepFaces } from './densify.js';
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

describe('step faces (acceptStepFaces)', () => {
  // A 2 m grid: a lower terrace (z 0, x <= 30), a 15 m quarry wall rising over 4 m (x 30–34) with
  // returns on its face, an upper terrace (z 15, x >= 34); on the lower terrace a building (roof
  // z 8 over x 8–18, y 10–20) with returns on its west wall.
  const xs: number[] = [];
  const ys: number[] = [];
  const zs: number[] = [];
  const kind: string[] = [];
  const add = (x: number, y: number, z: number, k: string) => {
    xs.push(x);
    ys.push(y);
    zs.push(z);
    kind.push(k);
  };
  for (let y = 0; y <= 40; y += 2) {
    for (let x = 0; x <= 60; x += 2) {
      if (x <= 30) {
        const roof = x >= 8 && x <= 18 && y >= 10 && y <= 20;
        add(x, y, roof ? 8 : 0, roof ? 'roof' : 'ground');
      } else if (x >= 34) add(x, y, 15, 'ground');
    }
    // The face, a little rough (inside the terraces' hull); one return just under the top edge, level with it.
    if (y < 40) {
      for (const x of [31, 32, 33])
        add(x, y + 1, x === 33 && y === 20 ? 14.9 : 3.75 * (x - 30) + ((y % 4) - 1) * 0.4, 'face');
    }
    if (y >= 10 && y <= 20) for (const z of [2, 4, 6]) add(7.2, y + 1, z, 'wall');
  }
  const cloud: PointChunk = {
    count: xs.length,
    x: Float64Array.from(xs),
    y: Float64Array.from(ys),
    z: Float64Array.from(zs),
  };

  it('takes the returns on a terrain step between its ground foot and top, not a wall or a roof', () => {
    const ground = Uint8Array.from(kind, (k) => (k === 'ground' ? 1 : 0));
    const added = acceptStepFaces(cloud, null, ground, { slope: 1, margin: 0.3, maxEdge: 8, cell: 2 });
    let faces = 0;
    for (let i = 0; i < cloud.count; i++) {
      if (kind[i] === 'roof' || kind[i] === 'wall') expect(ground[i]).toBe(0);
      if (kind[i] !== 'face') continue;
      // Level with the top edge (within the margin): left to the other tests.
      if (zs[i] === 14.9) expect(ground[i]).toBe(0);
      else {
        expect(ground[i]).toBe(1);
        faces++;
      }
    }
    expect(faces).toBe(3 * 20 - 1);
    expect(added).toBe(faces);
  });

  it('leaves a step alone when its facets are longer than maxEdge or gentler than slope', () => {
    for (const p of [
      { slope: 1, margin: 0.3, maxEdge: 3, cell: 2 },
      { slope: 5, margin: 0.3, maxEdge: 8, cell: 2 },
    ]) {
      const ground = Uint8Array.from(kind, (k) => (k === 'ground' ? 1 : 0));
      expect(acceptStepFaces(cloud, null, ground, p)).toBe(0);
    }
  });
});
