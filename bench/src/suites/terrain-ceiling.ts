/**
 * How far a height band can agree with a vendor's ground, given the vendor's
 * own surface: a diagnostic of the terrain bench, not a target.
 *
 * The vendor's ground points are split in two halves by point order. A TIN of
 * one half (rasterised at 25 cm) stands for the best surface any ground filter
 * could hope to rebuild: it is the vendor's own. Every point is then labelled
 * ground when it lies within a band around that surface, and the labels are
 * compared with the vendor's on the other half and on every vendor non-ground
 * point (the surface's own half is left out). The best kappa over a grid of
 * bands is the ceiling of "surface + height band" filters on that file: where
 * it stays below 0.9, the vendor left unlabelled points that no height above
 * its own ground tells from the points it labelled.
 */
import type { PointChunk } from '@nuage/engine/core/chunk.js';
import { buildDtm } from '@nuage/engine/products/dtm.product.js';
import { groundAgreement } from '@nuage/engine/products/quality.metrics.js';
import { sampleBilinear } from '@nuage/engine/raster/raster.js';

/** Below the surface, metres. */
const BELOW = [0.02, 0.05, 0.1, 0.2, 0.5];
/** Above the surface, metres. */
const ABOVE = [0.005, 0.01, 0.02, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2, 0.3];
/** A class the ground comparison leaves out (overlap). */
const LEFT_OUT = 12;

export interface BandCeiling {
  kappa: number;
  belowM: number;
  aboveM: number;
}

export async function heldOutBandCeiling(
  cloud: PointChunk,
  vendor: Uint8Array,
  units: { unitToMetre: number; verticalUnitToMetre: number },
): Promise<BandCeiling> {
  const { count } = cloud;
  // Surface half: even-indexed vendor ground; judged half: the odd ones and every non-ground point.
  const surfaceHalf = vendor.slice();
  const judged = vendor.slice();
  for (let i = 0; i < count; i++) {
    if (vendor[i] !== 2) continue;
    if (i & 1) surfaceHalf[i] = 1;
    else judged[i] = LEFT_OUT;
  }
  const dtm = await buildDtm(
    { chunks: [{ ...cloud, classification: surfaceHalf }], crs: null },
    { resolutionCm: 25, unitToMetre: units.unitToMetre, workers: 0 },
  );
  const h = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    h[i] = (cloud.z[i]! - sampleBilinear(dtm, cloud.x[i]!, cloud.y[i]!)) * units.verticalUnitToMetre;
  }
  const ground = new Uint8Array(count);
  let best: BandCeiling = { kappa: -1, belowM: 0, aboveM: 0 };
  for (const below of BELOW) {
    for (const above of ABOVE) {
      for (let i = 0; i < count; i++) ground[i] = h[i]! >= -below && h[i]! <= above ? 1 : 0;
      const kappa = groundAgreement(ground, judged, count).kappa;
      if (kappa > best.kappa) best = { kappa, belowM: below, aboveM: above };
    }
  }
  return { kappa: Math.round(best.kappa * 1000) / 1000, belowM: best.belowM, aboveM: best.aboveM };
}
