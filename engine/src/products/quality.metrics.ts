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

/** True when a reference class takes part in the ground and building comparisons. */
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

/**
 * Agreement of a building labelling with a reference (vendor) labelling,
 * class 6 against class 6, over the same points as {@link groundAgreement}.
 */
export interface BuildingAgreement {
  /** Points compared. */
  compared: number;
  /** Reference building points (class 6). */
  referenceBuilding: number;
  /** Building in both. */
  buildingBoth: number;
  /** Reference building points labelled otherwise. */
  buildingMissed: number;
  /** Points labelled building that the reference does not. */
  falseBuilding: number;
  /** buildingBoth / referenceBuilding (0 without reference buildings). */
  recall: number;
  /** buildingBoth / points labelled building (0 when none is). */
  precision: number;
  /** Harmonic mean of recall and precision. */
  f1: number;
}

/**
 * Compares `classification` (6 = building) against reference classes (6 = building).
 *
 * @example
 * const { recall, precision } = buildingAgreement(result.classification, vendorClasses, count);
 */
export function buildingAgreement(classification: Uint8Array, reference: Uint8Array, count: number): BuildingAgreement {
  let compared = 0;
  let both = 0;
  let missed = 0;
  let falseBuilding = 0;
  for (let i = 0; i < count; i++) {
    const ref = reference[i]!;
    if (!comparableReferenceClass(ref)) continue;
    compared++;
    const refBuilding = ref === 6;
    const isBuilding = classification[i] === 6;
    if (refBuilding && isBuilding) both++;
    else if (refBuilding) missed++;
    else if (isBuilding) falseBuilding++;
  }
  const recall = both + missed > 0 ? both / (both + missed) : 0;
  const precision = both + falseBuilding > 0 ? both / (both + falseBuilding) : 0;
  return {
    compared,
    referenceBuilding: both + missed,
    buildingBoth: both,
    buildingMissed: missed,
    falseBuilding,
    recall,
    precision,
    f1: recall + precision > 0 ? (2 * recall * precision) / (recall + precision) : 0,
  };
}
