/**
 * `npm run bench -- powerlines`: classification and power-line vectorisation
 * (conductors and towers, buffer zones, vegetation risk) on
 * ahn_corridor_12AN2_20.laz (625 k points, AHN4, vendor wires kept as the
 * classify product keeps them) and wires.laz (1.73 M points, wires found by
 * the classifier). Target: classify + vectorise ≤ 5 s for the AHN tile.
 * Reference, same run: reading the same file (raw bytes from disk, and every
 * point decoded by the engine reader), best of 3. Vectorisation: best of 3.
 */
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import type { PointChunk } from '@nuage/engine/core/chunk.js';
import { classifyCloudTiled } from '@nuage/engine/filters/classify.filter.js';
import { gatherCloud } from '@nuage/engine/filters/cloud.js';
import { VENDOR_WIRES_KEPT } from '@nuage/engine/products/classified-cloud.product.js';
import { buildDtm } from '@nuage/engine/products/dtm.product.js';
import { DEFAULT_PROCESSING_OPTIONS } from '@nuage/engine/products/options.js';
import { bufferZones, zoneRadii } from '@nuage/engine/products/power-line-buffers.product.js';
import { extractPowerLines } from '@nuage/engine/products/power-lines.conductors.js';
import { ConductorIndex, vegetationNearLines } from '@nuage/engine/products/power-lines.geometry.js';
import { powerLineFigures } from '@nuage/engine/products/power-lines.product.js';
import { INLINE_DECODE, rasterCrsOf, terrainUnits } from '@nuage/engine/products/product-values.js';
import { riskClusters } from '@nuage/engine/products/vegetation-risk.product.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import type { BenchSuite } from '../main.js';

const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;

async function readCloud(file: string, epsg?: number) {
  const reader = await openPointCloud(realFile(file), epsg ? { epsg } : {});
  const cloud = await gatherCloud(reader.read({ workers: INLINE_DECODE }));
  await reader.close();
  if (!reader.crs) throw new Error(`${file}: no CRS`);
  return { cloud, crs: reader.crs, units: terrainUnits(reader.crs) };
}

async function seconds(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

async function measure(file: string, epsg?: number) {
  let rawBytes = Number.POSITIVE_INFINITY;
  let readPoints = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 3; i++) {
    rawBytes = Math.min(rawBytes, await seconds(() => readFile(realFile(file))));
    readPoints = Math.min(readPoints, await seconds(() => readCloud(file, epsg)));
  }
  const { cloud, crs, units } = await readCloud(file, epsg);
  // Classification as the classify product runs it: vendor wires and towers kept when the file labels them.
  const vendor = cloud.classification?.slice();
  let vendorWires = 0;
  if (vendor) for (let i = 0; i < cloud.count; i++) vendorWires += vendor[i] === 14 ? 1 : 0;
  const keep = vendorWires >= VENDOR_WIRES_KEPT;
  let classes: Uint8Array<ArrayBuffer> | undefined;
  const classify = await seconds(async () => {
    classes = (await classifyCloudTiled(cloud, { ...units, wires: !keep })).classification;
    if (keep && vendor)
      for (let i = 0; i < cloud.count; i++) if (vendor[i]! >= 13 && vendor[i]! <= 16) classes[i] = vendor[i]!;
  });
  const classified: PointChunk = { ...cloud, classification: classes! };
  let dtm: Awaited<ReturnType<typeof buildDtm>> | undefined;
  const dtmSeconds = await seconds(async () => {
    dtm = await buildDtm(
      { chunks: [classified], crs: rasterCrsOf(crs) },
      { resolutionCm: DEFAULT_PROCESSING_OPTIONS.dtmResolutionCm, unitToMetre: units.unitToMetre },
    );
  });
  const radii = zoneRadii(DEFAULT_PROCESSING_OPTIONS.powerLineBuffersCm);
  const clearance = DEFAULT_PROCESSING_OPTIONS.clearanceHeightCm / 100;
  const rounds: Array<{ conductors: number; buffers: number; risk: number; total: number }> = [];
  let lines: ReturnType<typeof extractPowerLines> | undefined;
  let clusters = 0;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    lines = extractPowerLines(classified, dtm!, units);
    const t1 = performance.now();
    const index = new ConductorIndex(lines.conductors);
    const near = vegetationNearLines(classified, dtm!, lines.frame, index, Math.max(...radii), lines.towers);
    bufferZones(lines, near, classified, radii);
    const t2 = performance.now();
    clusters = riskClusters(classified, near, lines.frame, radii, clearance).length;
    const t3 = performance.now();
    rounds.push({ conductors: t1 - t0, buffers: t2 - t1, risk: t3 - t2, total: t3 - t0 });
  }
  const best = rounds.sort((a, b) => a.total - b.total)[0]!;
  const vectorise = best.total / 1000;
  const figures = powerLineFigures(lines!);
  return {
    points: cloud.count,
    vendorWiresKept: keep,
    rawReadSeconds: round(rawBytes),
    engineReadSeconds: round(readPoints),
    classifySeconds: round(classify),
    dtmSeconds: round(dtmSeconds),
    vectoriseSeconds: round(vectorise),
    vectoriseSplitSeconds: {
      conductorsAndTowers: round(best.conductors / 1000),
      vegetationNearLinesAndBuffers: round(best.buffers / 1000),
      riskClusters: round(best.risk / 1000),
    },
    classifyPlusVectoriseSeconds: round(classify + vectorise),
    ratioToEngineRead: round((classify + vectorise) / readPoints, 2),
    figures: { ...figures, riskClusters: clusters },
  };
}

const suite: BenchSuite = {
  description: 'classification + power-line vectorisation on the AHN corridor and wires.laz, against a read',
  async run() {
    const loadAverageAtStart = loadavg().map((v) => round(v, 2));
    const ahn = await measure('ahn_corridor_12AN2_20.laz', 28992);
    const wires = await measure('wires.laz');
    return {
      loadAverageAtStart,
      loadAverageAtEnd: loadavg().map((v) => round(v, 2)),
      target: 'classify + vectorise ≤ 5 s per AHN tile',
      ahnCorridor: { ...ahn, withinTarget: ahn.classifyPlusVectoriseSeconds <= 5 },
      wires,
    };
  },
};

export default suite;
