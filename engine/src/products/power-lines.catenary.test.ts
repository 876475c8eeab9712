import { mulberry32 } from '@nuage/fixtures/synthetic/random.js';
import { describe, expect, it } from 'vitest';
import { bestParabolaSplit, catenarySag, fitCatenary, profileZ } from './power-lines.catenary.js';

/** Returns along a catenary z = c + a (cosh((s − s0)/a) − 1), with uniform noise of ± `noise` / 2. */
function sampled(a: number, s0: number, c: number, length: number, n: number, noise: number, seed = 3) {
  const rnd = mulberry32(seed);
  const s = new Float64Array(n);
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    s[i] = rnd() * length;
    z[i] = c + a * (Math.cosh((s[i]! - s0) / a) - 1) + (rnd() - 0.5) * noise;
  }
  return { s, z };
}

describe('catenary fit', () => {
  it('recovers a sloping span’s catenary from noisy returns, ignoring outliers', () => {
    const { s, z } = sampled(1200, 260, 40, 400, 800, 0.04);
    // A few returns from a bird or a spacer, 1–2 m off the wire.
    for (let i = 0; i < 10; i++) z[i * 70]! += 1 + i / 10;
    const fit = fitCatenary(s, z);
    expect(fit.model).toBe('catenary');
    expect(fit.a).toBeGreaterThan(1180);
    expect(fit.a).toBeLessThan(1220);
    expect(fit.s0).toBeCloseTo(260, 0);
    expect(fit.rmse).toBeLessThan(0.015);
    expect(fit.inliers).toBe(790);
    const truth = { model: 'catenary', a: 1200, s0: 260, c: 40, slope: 0, rmse: 0, inliers: 0 } as const;
    expect(catenarySag(fit, 0, 400)).toBeCloseTo(catenarySag(truth, 0, 400), 1);
    for (const at of [0, 100, 200, 400]) expect(profileZ(fit, at)).toBeCloseTo(profileZ(truth, at), 1);
  });

  it('falls back to a straight line when the returns do not sag', () => {
    const rnd = mulberry32(9);
    const s = Float64Array.from({ length: 200 }, () => rnd() * 20);
    const flat = Float64Array.from(s, (v) => 30 + 0.05 * v + (rnd() - 0.5) * 0.1);
    expect(fitCatenary(s, flat).model).toBe('line');
    // Curving upwards (negative sag) is no conductor shape either.
    const hump = Float64Array.from(s, (v) => 30 - 0.01 * (v - 10) ** 2);
    const fit = fitCatenary(s, hump);
    expect(fit.model).toBe('line');
    expect(catenarySag(fit, 0, 20)).toBe(0);
  });

  it('finds where a profile running over a support should be cut', () => {
    // Two 200 m spans meeting at a support at s = 200.
    const left = sampled(1000, 100, 20, 200, 300, 0.02, 1);
    const right = sampled(1000, 300, 20, 200, 300, 0.02, 2);
    const pairs = [
      ...Array.from(left.s, (v, i) => [v, left.z[i]!] as const),
      ...Array.from(right.s, (v, i) => [v + 200, right.z[i]!] as const),
    ].sort((a, b) => a[0] - b[0]);
    const split = bestParabolaSplit(
      Float64Array.from(pairs, (p) => p[0]),
      Float64Array.from(pairs, (p) => p[1]),
      20,
    )!;
    expect(split.at).toBeCloseTo(200, -0.5);
    expect(split.split).toBeLessThan(0.05 * split.single);
    expect(split.slopeLeft).toBeGreaterThan(split.slopeRight);
  });
});
