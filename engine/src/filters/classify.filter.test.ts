import { terrainScene } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { describe, expect, it } from 'vitest';
import { classifyCloud } from './classify.filter.js';

describe('classifyCloud', () => {
  const scene = terrainScene({ size: 120, density: 8, seed: 11 });

  it('labels the building 6, tree crowns 4/5, ground 2, noise 7/18', () => {
    const { classification, counts } = classifyCloud(scene.chunk);
    const n = scene.chunk.count;
    let roofOk = 0;
    let roof = 0;
    let falseBuilding = 0;
    let crownVeg = 0;
    let crown = 0;
    for (let i = 0; i < n; i++) {
      const t = scene.truth[i]!;
      const c = classification[i]!;
      if (t === 6) {
        roof++;
        if (c === 6) roofOk++;
      } else if (c === 6) falseBuilding++;
      if (t === 5 && scene.chunk.returnNumber![i] === 1) {
        crown++;
        if (c === 4 || c === 5) crownVeg++;
      }
    }
    expect(roofOk / roof).toBeGreaterThan(0.95);
    expect(falseBuilding).toBeLessThan(roof * 0.02);
    expect(crownVeg / crown).toBeGreaterThan(0.95);
    expect(counts[2]).toBeGreaterThan(n * 0.7);
    expect(counts[7]).toBeGreaterThan(0);
    expect(counts[18]).toBeGreaterThan(0);
  });

  it('keeps existing classes other than 0 and 1 when asked, vendor-only classes (water, bridge) always', () => {
    const classification = new Uint8Array(scene.chunk.count).fill(1);
    classification[0] = 9;
    classification[1] = 17;
    classification[2] = 5;
    const chunk = { ...scene.chunk, classification };
    const kept = classifyCloud(chunk, { existing: 'keep' });
    expect(kept.classification[0]).toBe(9);
    expect(kept.classification[1]).toBe(17);
    expect(kept.classification[2]).toBe(5);
    const replaced = classifyCloud(chunk, { existing: 'replace' });
    // Water and bridge deck are not ours to change; vendor vegetation is.
    expect(replaced.classification[0]).toBe(9);
    expect(replaced.classification[1]).toBe(17);
    expect(replaced.ground[0]).toBe(0);
    expect(replaced.classification[2]).toBe(classifyCloud(scene.chunk).classification[2]);
  });
});
