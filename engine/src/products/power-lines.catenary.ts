/**
 * The shape of a conductor between two supports: a catenary
 * z(s) = c + a·(cosh((s − s0)/a) − 1) along the span (s horizontal distance,
 * a = H/w the catenary parameter, s0 the lowest point), or a straight line
 * when the returns show no sag. Lengths in metres.
 */

/** A fitted conductor profile. */
export interface CatenaryFit {
  /** `catenary` when the returns sag, else `line` (z = c + slope·s). */
  model: 'catenary' | 'line';
  /** Elevation at the lowest point s0 (catenary) or at s = 0 (line). */
  c: number;
  /** Catenary parameter (m); Infinity for a line. */
  a: number;
  /** Position of the lowest point (catenary; may lie outside the span). */
  s0: number;
  /** Slope of the line model (0 for a catenary). */
  slope: number;
  /** Root mean square vertical residual of the inliers. */
  rmse: number;
  /** Returns kept by the fit (outliers beyond 3 σ are left out). */
  inliers: number;
}

/** Elevation of a fitted profile at s. */
export function profileZ(fit: CatenaryFit, s: number): number {
  if (fit.model === 'line') return fit.c + fit.slope * s;
  return fit.c + fit.a * (Math.cosh((s - fit.s0) / fit.a) - 1);
}

/** Solves a symmetric 3×3 system (row-major `m`, right-hand `b`) by Cramer's rule; null when singular. */
function solve3(m: Float64Array | number[], b: Float64Array | number[]): [number, number, number] | null {
  const [a0, a1, a2, b0, b1, b2, c0, c1, c2] = m as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const det = a0 * (b1 * c2 - b2 * c1) - a1 * (b0 * c2 - b2 * c0) + a2 * (b0 * c1 - b1 * c0);
  if (!Number.isFinite(det) || Math.abs(det) < 1e-300) return null;
  const [r0, r1, r2] = b as [number, number, number];
  const x0 = (r0 * (b1 * c2 - b2 * c1) - a1 * (r1 * c2 - b2 * r2) + a2 * (r1 * c1 - b1 * r2)) / det;
  const x1 = (a0 * (r1 * c2 - b2 * r2) - r0 * (b0 * c2 - b2 * c0) + a2 * (b0 * r2 - r1 * c0)) / det;
  const x2 = (a0 * (b1 * r2 - r1 * c1) - a1 * (b0 * r2 - r1 * c0) + r0 * (b0 * c1 - b1 * c0)) / det;
  return [x0, x1, x2];
}

/**
 * Least-squares parabola z = q0 + q1·t + q2·t² with t = (s − centre) / scale;
 * null with fewer than 3 distinct positions.
 */
export function fitParabola(
  s: ArrayLike<number>,
  z: ArrayLike<number>,
  keep?: Uint8Array,
): { q: [number, number, number]; centre: number; scale: number } | null {
  let n = 0;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < s.length; i++) {
    if (keep && !keep[i]) continue;
    n++;
    lo = Math.min(lo, s[i]!);
    hi = Math.max(hi, s[i]!);
  }
  if (n < 3 || !(hi > lo)) return null;
  const centre = (lo + hi) / 2;
  const scale = (hi - lo) / 2;
  const m = new Float64Array(9);
  const b = new Float64Array(3);
  for (let i = 0; i < s.length; i++) {
    if (keep && !keep[i]) continue;
    const t = (s[i]! - centre) / scale;
    const t2 = t * t;
    m[0]! += 1;
    m[1]! += t;
    m[2]! += t2;
    m[5]! += t2 * t;
    m[8]! += t2 * t2;
    b[0]! += z[i]!;
    b[1]! += z[i]! * t;
    b[2]! += z[i]! * t2;
  }
  m[3] = m[1]!;
  m[4] = m[2]!;
  m[6] = m[2]!;
  m[7] = m[5]!;
  const q = solve3(m, b);
  return q ? { q, centre, scale } : null;
}

/** Least-squares line z = c + slope·s over the kept returns. */
export function fitLine(s: ArrayLike<number>, z: ArrayLike<number>, keep: Uint8Array): { c: number; slope: number } {
  let n = 0;
  let ms = 0;
  let mz = 0;
  for (let i = 0; i < s.length; i++) {
    if (!keep[i]) continue;
    n++;
    ms += s[i]!;
    mz += z[i]!;
  }
  ms /= n;
  mz /= n;
  let sss = 0;
  let ssz = 0;
  for (let i = 0; i < s.length; i++) {
    if (!keep[i]) continue;
    sss += (s[i]! - ms) ** 2;
    ssz += (s[i]! - ms) * (z[i]! - mz);
  }
  const slope = sss > 0 ? ssz / sss : 0;
  return { c: mz - slope * ms, slope };
}

function sumSquares(fit: CatenaryFit, s: ArrayLike<number>, z: ArrayLike<number>, keep: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < s.length; i++) if (keep[i]) sum += (z[i]! - profileZ(fit, s[i]!)) ** 2;
  return sum;
}

/**
 * Gauss–Newton (Levenberg–Marquardt damped) refinement of a catenary from a
 * starting guess, on the kept returns.
 */
function refineCatenary(
  start: { c: number; a: number; s0: number },
  s: ArrayLike<number>,
  z: ArrayLike<number>,
  keep: Uint8Array,
  iterations = 12,
): { c: number; a: number; s0: number } {
  let p = { ...start };
  const fitOf = (q: typeof p): CatenaryFit => ({ model: 'catenary', ...q, slope: 0, rmse: 0, inliers: 0 });
  let rss = sumSquares(fitOf(p), s, z, keep);
  let lambda = 1e-3;
  const jtj = new Float64Array(9);
  const jtr = new Float64Array(3);
  for (let it = 0; it < iterations; it++) {
    jtj.fill(0);
    jtr.fill(0);
    for (let i = 0; i < s.length; i++) {
      if (!keep[i]) continue;
      const u = (s[i]! - p.s0) / p.a;
      const ch = Math.cosh(u);
      const sh = Math.sinh(u);
      const r = z[i]! - (p.c + p.a * (ch - 1));
      const j0 = 1;
      const j1 = ch - 1 - u * sh;
      const j2 = -sh;
      jtj[0]! += j0 * j0;
      jtj[1]! += j0 * j1;
      jtj[2]! += j0 * j2;
      jtj[4]! += j1 * j1;
      jtj[5]! += j1 * j2;
      jtj[8]! += j2 * j2;
      jtr[0]! += j0 * r;
      jtr[1]! += j1 * r;
      jtr[2]! += j2 * r;
    }
    jtj[3] = jtj[1]!;
    jtj[6] = jtj[2]!;
    jtj[7] = jtj[5]!;
    let improved = false;
    for (let attempt = 0; attempt < 8 && !improved; attempt++) {
      const damped = Float64Array.from(jtj);
      damped[0]! *= 1 + lambda;
      damped[4]! *= 1 + lambda;
      damped[8]! *= 1 + lambda;
      const step = solve3(damped, jtr);
      if (!step) break;
      const next = { c: p.c + step[0], a: p.a + step[1], s0: p.s0 + step[2] };
      if (!(next.a > 0) || !Number.isFinite(next.c + next.s0)) {
        lambda *= 10;
        continue;
      }
      const nextRss = sumSquares(fitOf(next), s, z, keep);
      if (nextRss <= rss) {
        const change = rss - nextRss;
        p = next;
        rss = nextRss;
        lambda = Math.max(1e-9, lambda / 10);
        improved = true;
        if (change <= 1e-12 * (1 + rss)) return p;
      } else lambda *= 10;
    }
    if (!improved) break;
  }
  return p;
}

/** Options of {@link fitCatenary}; metres. */
export interface CatenaryOptions {
  /** Smallest residual treated as an outlier (bundled sub-conductors sit ±0.2 m apart). */
  minOutlier?: number;
  /** Rounds of outlier rejection. */
  rounds?: number;
}

/**
 * Fits a conductor profile to returns at horizontal positions `s` with
 * elevations `z` (metres): a least-squares parabola gives the starting
 * catenary (a = 1/(2·q2), s0 at its vertex), refined by damped Gauss–Newton;
 * returns beyond 3 σ (robust, from the median absolute residual) are left out
 * and the fit made again. A profile that does not sag (negative curvature, or
 * a sag no larger than the residual noise) is a straight line.
 *
 * @example
 * const fit = fitCatenary(s, z); // fit.a ≈ 1000 m for a 150 m span sagging 2.8 m
 */
export function fitCatenary(s: ArrayLike<number>, z: ArrayLike<number>, options: CatenaryOptions = {}): CatenaryFit {
  const n = s.length;
  let keep = new Uint8Array(n).fill(1);
  const minOutlier = options.minOutlier ?? 0.2;
  const rounds = options.rounds ?? 2;
  let fit = fitOnce(s, z, keep);
  for (let round = 0; round < rounds; round++) {
    const residuals: number[] = [];
    for (let i = 0; i < n; i++) if (keep[i]) residuals.push(Math.abs(z[i]! - profileZ(fit, s[i]!)));
    residuals.sort((a, b) => a - b);
    const sigma = 1.4826 * (residuals[Math.floor(residuals.length / 2)] ?? 0);
    const limit = Math.max(3 * sigma, minOutlier);
    const next = new Uint8Array(n);
    let kept = 0;
    let dropped = 0;
    for (let i = 0; i < n; i++) {
      if (!keep[i]) continue;
      if (Math.abs(z[i]! - profileZ(fit, s[i]!)) <= limit) {
        next[i] = 1;
        kept++;
      } else dropped++;
    }
    if (dropped === 0 || kept < 5) break;
    keep = next;
    fit = fitOnce(s, z, keep);
  }
  let inliers = 0;
  for (let i = 0; i < n; i++) inliers += keep[i]!;
  return { ...fit, rmse: Math.sqrt(sumSquares(fit, s, z, keep) / Math.max(1, inliers)), inliers };
}

function fitOnce(s: ArrayLike<number>, z: ArrayLike<number>, keep: Uint8Array): CatenaryFit {
  const line = fitLine(s, z, keep);
  const asLine: CatenaryFit = {
    model: 'line',
    c: line.c,
    a: Number.POSITIVE_INFINITY,
    s0: 0,
    slope: line.slope,
    rmse: 0,
    inliers: 0,
  };
  const parabola = fitParabola(s, z, keep);
  if (!parabola) return asLine;
  const { q, centre, scale } = parabola;
  // In t units q2 is the parabola's sag over the returns' extent: none (or upwards) is a line.
  if (!(q[2] > 0)) return asLine;
  const curvature = q[2] / (scale * scale);
  const a = 1 / (2 * curvature);
  const s0 = centre - (q[1] / (2 * q[2])) * scale;
  const c = q[0] - (q[1] * q[1]) / (4 * q[2]);
  const refined = refineCatenary({ c, a, s0 }, s, z, keep);
  const catenary: CatenaryFit = { model: 'catenary', ...refined, slope: 0, rmse: 0, inliers: 0 };
  let count = 0;
  for (let i = 0; i < keep.length; i++) count += keep[i]!;
  const rss = sumSquares(catenary, s, z, keep);
  const lineRss = sumSquares(asLine, s, z, keep);
  // Noise, not sag: a sag within the scatter that explains little more than the straight line.
  const sag = catenarySag(catenary, centre - scale, centre + scale);
  if (sag <= 2 * Math.sqrt(rss / Math.max(1, count)) && rss >= 0.8 * lineRss) return asLine;
  return catenary;
}

/**
 * Sag of a profile between two positions: the largest vertical distance
 * between the chord joining its ends and the curve (0 for a line). For a
 * catenary the chord's slope m is met where sinh((s − s0)/a) = m.
 */
export function catenarySag(fit: CatenaryFit, from: number, to: number): number {
  if (fit.model === 'line' || !(to > from)) return 0;
  const za = profileZ(fit, from);
  const zb = profileZ(fit, to);
  const m = (zb - za) / (to - from);
  const at = Math.min(to, Math.max(from, fit.s0 + fit.a * Math.asinh(m)));
  return Math.max(0, za + m * (at - from) - profileZ(fit, at));
}

/**
 * The best split of a profile into two parabolas, for conductors running over
 * a support the classification did not label: every break between returns
 * sorted by s is tried in O(1) with prefix sums. Returns the break position
 * and the sums of squares with one and with two parabolas.
 */
export function bestParabolaSplit(
  s: Float64Array,
  z: Float64Array,
  minSide: number,
  minPoints = 8,
): { at: number; index: number; single: number; split: number; slopeLeft: number; slopeRight: number } | null {
  const n = s.length;
  if (n < 2 * minPoints) return null;
  const lo = s[0]!;
  const hi = s[n - 1]!;
  const centre = (lo + hi) / 2;
  const scale = Math.max(1e-9, (hi - lo) / 2);
  let zMean = 0;
  for (let i = 0; i < n; i++) zMean += z[i]!;
  zMean /= n;
  // Prefix sums of t^0..t^4, z·t^0..2 and z².
  const P = Array.from({ length: 9 }, () => new Float64Array(n + 1));
  for (let i = 0; i < n; i++) {
    const t = (s[i]! - centre) / scale;
    const v = z[i]! - zMean;
    const t2 = t * t;
    const terms = [1, t, t2, t2 * t, t2 * t2, v, v * t, v * t2, v * v];
    for (let k = 0; k < 9; k++) P[k]![i + 1] = P[k]![i]! + terms[k]!;
  }
  const m = new Float64Array(9);
  const b = new Float64Array(3);
  const fitRange = (i0: number, i1: number): { rss: number; q: [number, number, number] } | null => {
    const g = (k: number) => P[k]![i1]! - P[k]![i0]!;
    m[0] = g(0);
    m[1] = m[3] = g(1);
    m[2] = m[4] = m[6] = g(2);
    m[5] = m[7] = g(3);
    m[8] = g(4);
    b[0] = g(5);
    b[1] = g(6);
    b[2] = g(7);
    const q = solve3(m, b);
    if (!q) return null;
    return { rss: Math.max(0, g(8) - (q[0] * b[0]! + q[1] * b[1]! + q[2] * b[2]!)), q };
  };
  const whole = fitRange(0, n);
  if (!whole) return null;
  let best: { at: number; index: number; single: number; split: number; slopeLeft: number; slopeRight: number } | null =
    null;
  for (let k = minPoints; k <= n - minPoints; k++) {
    const at = s[k - 1]!;
    if (at - lo < minSide || hi - s[k]! < minSide) continue;
    const left = fitRange(0, k);
    const right = fitRange(k, n);
    if (!left || !right) continue;
    const split = left.rss + right.rss;
    if (!best || split < best.split) {
      const tb = ((s[k - 1]! + s[k]!) / 2 - centre) / scale;
      best = {
        at: (s[k - 1]! + s[k]!) / 2,
        index: k,
        single: whole.rss,
        split,
        slopeLeft: (left.q[1] + 2 * left.q[2] * tb) / scale,
        slopeRight: (right.q[1] + 2 * right.q[2] * tb) / scale,
      };
    }
  }
  return best;
}
