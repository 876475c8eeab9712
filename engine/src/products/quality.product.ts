import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PointChunk } from '../core/chunk.js';
import { CLASS_NAMES } from '../core/dimensions.js';
import { defineProduct } from '../core/product.js';
import type { Raster } from '../raster/raster.js';
import { productEntry } from './catalog.js';
import { buildDtm, dtmRmse } from './dtm.product.js';
import { type ClassifiedCloud, type DtmValue, inputClasses } from './product-values.js';
import { comparableReferenceClass, type GroundAgreement, groundAgreement } from './quality.metrics.js';

/** The quality report of one processing run (written as JSON). */
export interface QualityReport {
  input: string;
  points: number;
  crs: { epsg: number | null; name: string } | null;
  /** Points per class after classification, by ASPRS code. */
  classCounts: Record<string, { name: string; points: number }>;
  /** Points per class in the input. */
  inputClassCounts: Record<string, number>;
  /** Ground against the vendor's ground; null when the input has no class 2. */
  ground: GroundAgreement | null;
  /** DTM against the DTM built the same way from the vendor's ground; null without vendor ground. */
  dtm: {
    resolutionCm: number;
    /** Every cell valid in both. */
    all: { rmse: number; bias: number; cells: number };
    /** Open terrain: cells holding vendor ground and no vendor non-ground point 0.5 m above the reference DTM. */
    openTerrain: { rmse: number; bias: number; cells: number };
  } | null;
  /** Seconds per step, when the caller timed them. */
  timings?: Record<string, number>;
}

/**
 * Points per class code, the codes in ascending order (as an object with integer keys lists them): a
 * 256-entry histogram, then only the codes present (a property update per point was the slow part).
 */
function counts(classes: Uint8Array, n: number): Record<string, number> {
  const histogram = new Float64Array(256);
  for (let i = 0; i < n; i++) histogram[classes[i]!]!++;
  const out: Record<string, number> = {};
  for (let c = 0; c < 256; c++) if (histogram[c]! > 0) out[c] = histogram[c]!;
  return out;
}

/**
 * Compares a classification with the input's own (vendor) classes: ground
 * agreement (total, type I and II errors, Cohen's kappa; vendor noise 7/18,
 * overlap 12 and codes >= 64 left out), DTM RMSE against the DTM built from
 * the vendor's ground on the same grid, and points per class.
 *
 * @example
 * const report = await qualityReport({ input, cloud, vendor, classification, dtm, unitToMetre: 1 });
 */
export async function qualityReport(args: {
  input: string;
  cloud: PointChunk;
  /** The input's classes (copied before classification). */
  vendor: Uint8Array<ArrayBuffer> | undefined;
  classification: Uint8Array;
  dtm: Raster | null;
  dtmResolutionCm: number;
  unitToMetre: number;
  verticalUnitToMetre: number;
  crs: { epsg: number | null; name: string } | null;
  timings?: Record<string, number>;
}): Promise<QualityReport> {
  const { cloud, vendor, classification } = args;
  const n = cloud.count;
  const ours = counts(classification, n);
  const classCounts: QualityReport['classCounts'] = {};
  for (const [code, points] of Object.entries(ours)) {
    classCounts[code] = { name: CLASS_NAMES[Number(code)] ?? 'user defined', points };
  }
  const inputClassCounts = vendor ? counts(vendor, n) : {};
  let ground: GroundAgreement | null = null;
  let dtm: QualityReport['dtm'] = null;
  if (vendor && (inputClassCounts[2] ?? 0) >= 3) {
    const isGround = new Uint8Array(n);
    for (let i = 0; i < n; i++) isGround[i] = classification[i] === 2 ? 1 : 0;
    ground = groundAgreement(isGround, vendor, n);
    if (args.dtm) {
      const reference = await buildDtm(
        { chunks: [{ ...cloud, classification: vendor } as PointChunk], crs: args.dtm.crs },
        { resolutionCm: args.dtmResolutionCm, unitToMetre: args.unitToMetre },
      );
      const { width, height, originX, originY, resolution } = reference;
      // Open terrain: cells with vendor ground and no vendor object (a non-ground point 0.5 m above the reference).
      const hasGround = new Uint8Array(width * height);
      const hasObject = new Uint8Array(width * height);
      const objectHeight = 0.5 / args.verticalUnitToMetre;
      for (let i = 0; i < n; i++) {
        const c = Math.floor((cloud.x[i]! - originX) / resolution);
        const r = Math.floor((originY - cloud.y[i]!) / resolution);
        if (c < 0 || r < 0 || c >= width || r >= height) continue;
        const k = r * width + c;
        const v = vendor[i]!;
        if (v === 2) hasGround[k] = 1;
        else if (comparableReferenceClass(v) && cloud.z[i]! - reference.data[k]! > objectHeight) hasObject[k] = 1;
      }
      const open = new Uint8Array(width * height);
      for (let k = 0; k < open.length; k++) open[k] = hasGround[k]! && !hasObject[k] ? 1 : 0;
      const toMetre = args.verticalUnitToMetre;
      const all = dtmRmse(args.dtm, reference);
      const openTerrain = dtmRmse(args.dtm, reference, open);
      const scale = (r: { rmse: number; bias: number; cells: number }) => ({
        rmse: r.rmse * toMetre,
        bias: r.bias * toMetre,
        cells: r.cells,
      });
      dtm = { resolutionCm: args.dtmResolutionCm, all: scale(all), openTerrain: scale(openTerrain) };
    }
  }
  return {
    input: args.input,
    points: n,
    crs: args.crs,
    classCounts,
    inputClassCounts,
    ground,
    dtm,
    ...(args.timings ? { timings: args.timings } : {}),
  };
}

/** Writes a quality report as indented JSON. */
export async function writeQualityReport(
  path: string,
  report: QualityReport,
): Promise<{ path: string; bytes: number }> {
  const text = `${JSON.stringify(report, null, 2)}\n`;
  await writeFile(path, text);
  return { path, bytes: Buffer.byteLength(text) };
}

/**
 * QUALITY_REPORT: the classification compared with the input's own classes
 * (ground kappa, DTM RMSE against the vendor-ground DTM, points per class), as JSON.
 */
export const qualityProduct = defineProduct({
  ...productEntry('quality'),
  async run(ctx) {
    const classified = ctx.need<ClassifiedCloud>('classify');
    const { dtm } = ctx.need<DtmValue>('dtm');
    const vendor = await inputClasses(classified, ctx.input, ctx.signal);
    const { cloud, crs, units } = classified;
    const report = await qualityReport({
      input: ctx.input.name,
      cloud,
      vendor,
      classification: cloud.classification!,
      dtm,
      dtmResolutionCm: ctx.options.dtmResolutionCm,
      ...units,
      crs: { epsg: crs.epsg, name: crs.name },
    });
    const file = path.join(ctx.workDir, 'quality.json');
    await writeQualityReport(file, report);
    return {
      files: [{ path: file, format: 'JSON', extension: 'json', epsg: null, count: 1 }],
      value: report,
      figures: {
        kappa: report.ground?.kappa ?? null,
        openTerrainRmse: report.dtm?.openTerrain.rmse ?? null,
      },
    };
  },
});
