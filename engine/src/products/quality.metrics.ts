/**
 * Agreement of a binary ground labelling with a reference (vendor) labelling.
 * Points whose reference class is noise (7, 18), overlap (12) or a
 * vendor-specific code (>= 64) are left out of the comparison.
 */
export interface GroundAgreement {
  /** Points compared. */
  compared: number;
  /** Ground in both. */
  groundBoth: number;
  /** Reference ground labelled non-ground (type I). */
  groundMissed: number;
  /** Reference non-ground labelled ground (type II). */
  falseGround: number;
  /** Non-ground in both. */
  otherBoth: number;
  /** Share of points labelled differently. */
  totalError: number;
  /** Share of reference ground points rejected. */
  typeIError: number;
  /** Share of reference non-ground points accepted as ground. */
  typeIIError: number;
  /** Cohen's kappa. */
  kappa: number;
}

/** True when a reference class takes part in the ground comparison. */
export function comparableReferenceClass(code: number): boolean {
  return code !== 7 && code !== 18 && code !== 12 && code < 64;
}

/**
 * Compares `ground` (1 = ground) against reference classes (2 = ground).
 *
 * @example
 * const { kappa } = groundAgreement(ground, vendorClasses, count);
 */
export function groundAgreement(ground: Uint8Array, reference: Uint8Array, count: number): GroundAgreement {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  for (let i = 0; i < count; i++) {
    const ref = reference[i]!;
    if (!comparableReferenceClass(ref)) continue;
    const refGround = ref === 2;
    const isGround = ground[i] === 1;
    if (refGround && isGround) a++;
    else if (refGround) b++;
    else if (isGround) c++;
    else d++;
  }
  const n = a + b + c + d;
  const po = n > 0 ? (a + d) / n : 0;
  const pe = n > 0 ? ((a + b) * (a + c) + (c + d) * (b + d)) / (n * n) : 0;
  return {
    compared: n,
    groundBoth: a,
    groundMissed: b,
    falseGround: c,
    otherBoth: d,
    totalError: n > 0 ? (b + c) / n : 0,
    typeIError: a + b > 0 ? b / (a + b) : 0,
    typeIIError: c + d > 0 ? c / (c + d) : 0,
    kappa: pe < 1 ? (po - pe) / (1 - pe) : 1,
  };
}
