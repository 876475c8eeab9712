import { describe, expect, it } from 'vitest';
import { buildingAgreement, groundAgreement } from './quality.metrics.js';

describe('groundAgreement', () => {
  it('counts the four cases and leaves noise, overlap and vendor codes out', () => {
    const ours = Uint8Array.from([1, 1, 0, 0, 1, 1, 1]);
    const reference = Uint8Array.from([2, 1, 2, 5, 7, 12, 65]);
    const q = groundAgreement(ours, reference, 7);
    expect(q.compared).toBe(4);
    expect([q.groundBoth, q.falseGround, q.groundMissed, q.otherBoth]).toEqual([1, 1, 1, 1]);
    expect(q.totalError).toBe(0.5);
    expect(q.kappa).toBe(0);
  });
});

describe('buildingAgreement', () => {
  it('gives recall, precision and F1 of class 6 against the reference', () => {
    // Reference: 4 buildings; ours finds 3 of them and labels 1 tree a building.
    const ours = Uint8Array.from([6, 6, 6, 5, 6, 2, 5, 6, 6, 6]);
    const reference = Uint8Array.from([6, 6, 6, 6, 5, 2, 5, 7, 18, 64]);
    const q = buildingAgreement(ours, reference, 10);
    expect(q.compared).toBe(7);
    expect(q.referenceBuilding).toBe(4);
    expect(q.buildingBoth).toBe(3);
    expect(q.buildingMissed).toBe(1);
    expect(q.falseBuilding).toBe(1);
    expect(q.recall).toBe(0.75);
    expect(q.precision).toBe(0.75);
    expect(q.f1).toBeCloseTo(0.75, 12);
  });

  it('is 0, not NaN, without buildings on either side', () => {
    const q = buildingAgreement(Uint8Array.from([2, 5]), Uint8Array.from([2, 5]), 2);
    expect([q.recall, q.precision, q.f1]).toEqual([0, 0, 0]);
  });

  it('only reads the first count points', () => {
    const q = buildingAgreement(Uint8Array.from([6, 6]), Uint8Array.from([6, 5]), 1);
    expect([q.recall, q.precision, q.falseBuilding]).toEqual([1, 1, 0]);
  });
});
