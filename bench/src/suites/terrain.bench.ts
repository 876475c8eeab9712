/**
 * `npm run bench -- terrain`: quality and speed of the terrain products.
 *
 * Quality, on every real file carrying vendor ground (class 2), with ONE
 * parameter set (the defaults): ground vs vendor ground (Cohen's kappa, total,
 * type I/II errors) and DTM RMSE against the DTM built from the vendor ground
 * (all cells and open terrain). Diagnostics beside kappa, not targets:
 * `kappaOutsideVendorBand` (see vendorAmbiguity) and `kappaCeilingHeldOutBand`
 * (see terrain-ceiling.ts: the best kappa a height band around the vendor's
 * own surface reaches on held-out vendor points). Speed: noise + ground classification points/s
 * per file and over all files, DTM ground points/s on a 4 M-point synthetic
 * scene, and hillshade/slope/contours next to gdaldem/gdal_contour on the
 * same DTM in the same run (whole command: read GeoTIFF, compute, write).
 * Buildings, on every real file carrying vendor buildings (class 6): the
 * whole classification (`classifyCloud`, default options) against the
 * vendor's class 6 (recall, precision, F1) and its time.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { PointChunk } from '@nuage/engine/core/chunk.js';
import { classifyCloud } from '@nuage/engine/filters/classify.filter.js';
import { gatherCloud } from '@nuage/engine/filters/cloud.js';
import { groundFilter } from '@nuage/engine/filters/ground.filter.js';
import { noiseAndGroundTiled } from '@nuage/engine/filters/ground-tiled.js';
import { noiseFilter } from '@nuage/engine/filters/noise.filter.js';
import { buildContours } from '@nuage/engine/products/contours.product.js';
import { buildDtm } from '@nuage/engine/products/dtm.product.js';
import { hillshade } from '@nuage/engine/products/hillshade.product.js';
import { INLINE_DECODE, rasterCrsOf, terrainUnits } from '@nuage/engine/products/product-values.js';
import { buildingAgreement, groundAgreement } from '@nuage/engine/products/quality.metrics.js';
import { qualityReport } from '@nuage/engine/products/quality.product.js';
import { slope } from '@nuage/engine/products/slope.product.js';
import { readGeoTiff } from '@nuage/engine/raster/geotiff.reader.js';
import { sampleBilinear } from '@nuage/engine/raster/raster.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { writeGeoTiff } from '@nuage/engine/writers/geotiff.writer.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import { terrainScene } from '@nuage/fixtures/synthetic/terrain-scene.js';
import type { BenchSuite } from '../main.js';
import { heldOutBandCeiling } from './terrain-ceiling.js';

/** Every real file with vendor ground, and the EPSG code for those without a usable CRS. */
const FILES: [string, number?][] = [
  ['autzen_trim.las'],
  ['file_with_both_wkt_and_geotiff_vlrs.las'],
  ['mvk-thin.las'],
  ['warsaw_small.las', 2180],
  ['las_with_several_extra_byte_bloc.laz'],
  ['test_semis_2021_0382_6565_LA93_IGN69_cropped.laz'],
  ['ahn3_cropped_1.laz', 28992],
  ['fusa.laz'],
  ['MixedConifer.laz'],
  ['Megaplot.laz'],
  ['bcts_1.laz'],
  ['bcts_2.laz'],
  ['bcts_3.laz'],
  ['bcts_4.laz'],
  ['building_WilliamsAZ_Urban_normalized.laz'],
  ['wires.laz'],
];

const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;

function time<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const r = fn();
  return [r, (performance.now() - t) / 1000];
}

/** CPU seconds of the whole process (all threads): unlike wall time, barely affected by other load. */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Best of `runs` wall times of a command, in seconds. */
function timeCommand(cmd: string, args: string[], runs = 3): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    execFileSync(cmd, args, { stdio: 'ignore' });
    best = Math.min(best, (performance.now() - t) / 1000);
  }
  return best;
}

async function timeAsync(fn: () => Promise<unknown>, runs = 3): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    best = Math.min(best, (performance.now() - t) / 1000);
  }
  return best;
}

/**
 * How the vendor labelled points lying on its own ground surface: vendor
 * class 0/1 points within 5 and 10 cm (vertically) of a 1 m TIN of the
 * vendor's ground, as a share of the vendor's ground count. Near 0 %: the
 * vendor labels every ground return. Large: the vendor's ground is a thinned
 * lower envelope, and points no geometric filter can tell from it were left
 * unclassified — a ceiling on any filter's agreement with that vendor.
 * `kappaOutsideVendorBand` is a diagnostic, not the target: our kappa with
 * those vendor 0/1 points within 10 cm left out of the comparison, i.e. the
 * agreement on the points the vendor's surface does not make ambiguous.
 */
async function vendorAmbiguity(
  cloud: PointChunk,
  vendor: Uint8Array<ArrayBuffer>,
  ground: Uint8Array,
  units: { unitToMetre: number; verticalUnitToMetre: number },
): Promise<{
  vendorUnlabelledWithin5cmPctOfGround: number;
  vendorUnlabelledWithin10cmPctOfGround: number;
  kappaOutsideVendorBand: number;
}> {
  const dtm = await buildDtm(
    { chunks: [{ ...cloud, classification: vendor }], crs: null },
    { resolutionCm: 100, unitToMetre: units.unitToMetre, workers: 0 },
  );
  let vendorGround = 0;
  let within5 = 0;
  let within10 = 0;
  const outsideBand = vendor.slice();
  for (let i = 0; i < cloud.count; i++) {
    const c = vendor[i]!;
    if (c === 2) vendorGround++;
    if (c !== 0 && c !== 1) continue;
    const h = Math.abs((cloud.z[i]! - sampleBilinear(dtm, cloud.x[i]!, cloud.y[i]!)) * units.verticalUnitToMetre);
    if (!(h <= 0.1)) continue;
    within10++;
    outsideBand[i] = 12; // overlap: a class the comparison leaves out
    if (h <= 0.05) within5++;
  }
  return {
    vendorUnlabelledWithin5cmPctOfGround: round((100 * within5) / Math.max(1, vendorGround), 1),
    vendorUnlabelledWithin10cmPctOfGround: round((100 * within10) / Math.max(1, vendorGround), 1),
    kappaOutsideVendorBand: round(groundAgreement(ground, outsideBand, cloud.count).kappa),
  };
}

async function qualityPerFile() {
  const rows: Record<string, unknown>[] = [];
  let points = 0;
  let seconds = 0;
  let cpuTotal = 0;
  for (const [file, epsg] of FILES) {
    const reader = await openPointCloud(realFile(file), epsg ? { epsg } : {});
    const cloud = await gatherCloud(reader.read({ workers: INLINE_DECODE }));
    await reader.close();
    const units = terrainUnits(reader.crs);
    const vendor = cloud.classification!.slice();
    const cpu0 = cpuSeconds();
    const [{ noise, ground }, s] = time(() => {
      const noise = noiseFilter(cloud, units);
      const { ground } = groundFilter(cloud, noise, units);
      return { noise, ground };
    });
    const groundCpu = cpuSeconds() - cpu0;
    points += cloud.count;
    seconds += s;
    cpuTotal += groundCpu;
    const q = groundAgreement(ground, vendor, cloud.count);
    const classification = new Uint8Array(cloud.count);
    for (let i = 0; i < cloud.count; i++) classification[i] = noise[i] ? noise[i]! : ground[i] ? 2 : 1;
    const [dtm, dtmSeconds] = await (async () => {
      const t = performance.now();
      const d = await buildDtm(
        { chunks: [{ ...cloud, classification }], crs: rasterCrsOf(reader.crs) },
        { resolutionCm: 50, unitToMetre: units.unitToMetre },
      );
      return [d, (performance.now() - t) / 1000] as const;
    })();
    const report = await qualityReport({
      input: file,
      cloud,
      vendor,
      classification,
      dtm,
      dtmResolutionCm: 50,
      ...units,
      crs: null,
      timings: {},
    });
    let groundPoints = 0;
    for (let i = 0; i < cloud.count; i++) groundPoints += ground[i]!;
    const ambiguity = await vendorAmbiguity(cloud, vendor, ground, units);
    const ceiling = await heldOutBandCeiling(cloud, vendor, units);
    rows.push({
      file,
      points: cloud.count,
      kappa: round(q.kappa),
      totalErrorPct: round(q.totalError * 100, 2),
      typeIPct: round(q.typeIError * 100, 2),
      typeIIPct: round(q.typeIIError * 100, 2),
      dtmRmseM: report.dtm ? round(report.dtm.all.rmse) : null,
      dtmRmseOpenTerrainM: report.dtm ? round(report.dtm.openTerrain.rmse) : null,
      openTerrainCells: report.dtm?.openTerrain.cells ?? 0,
      groundSeconds: round(s),
      groundPointsPerSecond: Math.round(cloud.count / s),
      groundPointsPerCpuSecond: Math.round(cloud.count / groundCpu),
      dtmGroundPointsPerSecond: Math.round(groundPoints / dtmSeconds),
      ...ambiguity,
      kappaCeilingHeldOutBand: ceiling.kappa,
    });
    console.log(JSON.stringify(rows[rows.length - 1]));
  }
  const kappas = rows.map((r) => r.kappa as number);
  return {
    files: rows,
    meanKappa: round(kappas.reduce((a, b) => a + b, 0) / kappas.length),
    minKappa: Math.min(...kappas),
    filesWithKappaAtLeast090: kappas.filter((k) => k >= 0.9).length,
    filesWithHeldOutBandCeilingAtLeast090: rows.filter((r) => (r.kappaCeilingHeldOutBand as number) >= 0.9).length,
    filesWithTotalErrorAtMost3Pct: rows.filter((r) => (r.totalErrorPct as number) <= 3).length,
    filesWithOpenTerrainRmseAtMost015: rows.filter(
      (r) => r.dtmRmseOpenTerrainM !== null && (r.dtmRmseOpenTerrainM as number) <= 0.15,
    ).length,
    fileCount: rows.length,
    groundPointsPerSecondAllFiles: Math.round(points / seconds),
    groundPointsPerCpuSecondAllFiles: Math.round(points / cpuTotal),
  };
}

async function dtmSpeed() {
  const scene = terrainScene({ size: 700, density: 8, seed: 1, noise: false });
  const classification = Uint8Array.from(scene.truth);
  let ground = 0;
  for (const c of classification) ground += c === 2 ? 1 : 0;
  const chunk = { ...scene.chunk, classification };
  const figures: Record<string, number> = { points: scene.chunk.count, groundPoints: ground };
  for (const cm of [50, 100]) {
    const s = await timeAsync(() => buildDtm({ chunks: [chunk], crs: { epsg: 2154 } }, { resolutionCm: cm }));
    figures[`groundPointsPerSecondAt${cm}cm`] = Math.round(ground / s);
    // One thread, CPU time: the cost per point without other load.
    const c0 = cpuSeconds();
    await buildDtm({ chunks: [chunk], crs: { epsg: 2154 } }, { resolutionCm: cm, workers: 1 });
    figures[`groundPointsPerCpuSecondOneThreadAt${cm}cm`] = Math.round(ground / (cpuSeconds() - c0));
  }
  return figures;
}

async function versusGdal() {
  const dir = mkdtempSync(path.join(tmpdir(), 'nuage-bench-terrain-'));
  try {
    // The DTM of the largest real file at 50 cm (2000 × 1632 cells).
    const reader = await openPointCloud(realFile('wires.laz'));
    const cloud = await gatherCloud(reader.read({ workers: INLINE_DECODE }));
    await reader.close();
    const dtm = await buildDtm({ chunks: [cloud], crs: rasterCrsOf(reader.crs) }, { resolutionCm: 50 });
    const dtmPath = path.join(dir, 'dtm.tif');
    await writeGeoTiff(dtmPath, dtm);
    const gdalHillshade = timeCommand('gdaldem', ['hillshade', '-q', dtmPath, path.join(dir, 'hs-gdal.tif')]);
    const gdalSlope = timeCommand('gdaldem', ['slope', '-q', dtmPath, path.join(dir, 'slope-gdal.tif')]);
    const gdalContour = timeCommand(
      'gdal_contour',
      ['-q', '-a', 'elev', '-i', '1', '-f', 'GeoJSON', dtmPath, path.join(dir, 'c-gdal.geojson')],
      1,
    );
    const oursHillshade = await timeAsync(async () => {
      const d = await readGeoTiff(dtmPath);
      await writeGeoTiff(path.join(dir, 'hs.tif'), hillshade(d), { sampleType: 'uint8' });
    });
    const oursSlope = await timeAsync(async () => {
      const d = await readGeoTiff(dtmPath);
      await writeGeoTiff(path.join(dir, 'slope.tif'), slope(d));
    });
    const oursContour = await timeAsync(async () => {
      const d = await readGeoTiff(dtmPath);
      buildContours(d, { minorCm: 100, majorCm: 500 });
    }, 1);
    // Agreement with gdaldem (edge cells excluded).
    const hsGdal = await readGeoTiff(path.join(dir, 'hs-gdal.tif'));
    const slGdal = await readGeoTiff(path.join(dir, 'slope-gdal.tif'));
    const hs = hillshade(dtm);
    const sl = slope(dtm);
    let hsSum = 0;
    let slSum = 0;
    let cells = 0;
    for (let r = 1; r < dtm.height - 1; r++) {
      for (let c = 1; c < dtm.width - 1; c++) {
        const i = r * dtm.width + c;
        if (hsGdal.data[i] === 0 || hs.data[i] === 0) continue;
        hsSum += Math.abs(Math.round(hs.data[i]!) - hsGdal.data[i]!);
        slSum += Math.abs(sl.data[i]! - slGdal.data[i]!);
        cells++;
      }
    }
    return {
      dtmCells: dtm.width * dtm.height,
      hillshade: {
        gdaldemSeconds: round(gdalHillshade),
        nuageSeconds: round(oursHillshade),
        speedRatio: round(gdalHillshade / oursHillshade, 2),
        meanAbsGreyDifference: round(hsSum / cells, 4),
      },
      slope: {
        gdaldemSeconds: round(gdalSlope),
        nuageSeconds: round(oursSlope),
        speedRatio: round(gdalSlope / oursSlope, 2),
        meanAbsDegreeDifference: round(slSum / cells, 5),
      },
      contours: {
        gdalContourSeconds: round(gdalContour),
        nuageSeconds: round(oursContour),
        speedRatio: round(gdalContour / oursContour, 2),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Buildings of `classifyCloud` (default options, one parameter set) against
 * the vendor's class 6 on every file that has some; the classification's
 * wall and CPU time (noise, ground, HAG, buildings, vegetation bands).
 */
async function buildingQuality() {
  const rows: Record<string, unknown>[] = [];
  for (const [file, epsg] of FILES) {
    const reader = await openPointCloud(realFile(file), epsg ? { epsg } : {});
    const cloud = await gatherCloud(reader.read({ workers: INLINE_DECODE }));
    await reader.close();
    const vendor = cloud.classification!.slice();
    let vendorBuilding = 0;
    for (let i = 0; i < cloud.count; i++) if (vendor[i] === 6) vendorBuilding++;
    if (vendorBuilding === 0) continue;
    const units = terrainUnits(reader.crs);
    const cpu0 = cpuSeconds();
    const [{ classification }, s] = time(() => classifyCloud(cloud, units));
    const cpu = cpuSeconds() - cpu0;
    const q = buildingAgreement(classification, vendor, cloud.count);
    rows.push({
      file,
      points: cloud.count,
      buildings: {
        vendorBuildingPoints: q.referenceBuilding,
        labelledBuildingPoints: q.buildingBoth + q.falseBuilding,
        recall: round(q.recall),
        precision: round(q.precision),
        f1: round(q.f1),
        missed: q.buildingMissed,
        falseBuilding: q.falseBuilding,
        classifySeconds: round(s),
        classifyCpuSeconds: round(cpu),
      },
    });
    console.log(JSON.stringify(rows[rows.length - 1]));
  }
  const f1s = rows.map((r) => (r.buildings as { f1: number }).f1);
  const precisions = rows.map((r) => (r.buildings as { precision: number }).precision);
  return {
    files: rows,
    meanF1: round(f1s.reduce((a, b) => a + b, 0) / Math.max(1, f1s.length)),
    minPrecision: Math.min(...precisions),
    filesWithPrecisionAtLeast095: precisions.filter((p) => p >= 0.95).length,
    fileCount: rows.length,
  };
}

/** Noise + ground points/s on the bcts mosaic (2.83 M points): one thread, then worker threads over tiles. */
async function groundSpeed() {
  const chunks = [];
  for (const f of ['bcts_1.laz', 'bcts_2.laz', 'bcts_3.laz', 'bcts_4.laz']) {
    const reader = await openPointCloud(realFile(f));
    chunks.push(await gatherCloud(reader.read({ workers: INLINE_DECODE })));
    await reader.close();
  }
  const cloud = await gatherCloud(chunks);
  const c0 = cpuSeconds();
  const [, single] = time(() => {
    const noise = noiseFilter(cloud);
    groundFilter(cloud, noise);
  });
  const singleCpu = cpuSeconds() - c0;
  // First tiled run warms the pool (worker start-up and module compilation), the second is timed.
  await noiseAndGroundTiled(cloud, { workers: 2 });
  const t = performance.now();
  await noiseAndGroundTiled(cloud, { workers: 2 });
  const tiled = (performance.now() - t) / 1000;
  return {
    points: cloud.count,
    singleThreadSeconds: round(single),
    singleThreadPointsPerSecond: Math.round(cloud.count / single),
    singleThreadPointsPerCpuSecond: Math.round(cloud.count / singleCpu),
    workers: 2,
    tiledSeconds: round(tiled),
    tiledPointsPerSecond: Math.round(cloud.count / tiled),
  };
}

export default {
  description:
    'ground kappa and DTM RMSE vs vendor ground on every real file; buildings vs vendor class 6; ground, DTM, hillshade, slope speed vs gdaldem',
  async run(args) {
    const only = args[0];
    // The machine is shared: wall-time figures shrink with its load, CPU-time ones much less.
    const figures: Record<string, unknown> = {
      loadAverageAtStart: loadavg().map((v) => round(v, 2)),
      cores: cpus().length,
    };
    if (!only || only === 'gdal') figures.versusGdal = await versusGdal();
    if (!only || only === 'dtm') figures.dtmSpeed = await dtmSpeed();
    if (!only || only === 'ground') figures.groundSpeed = await groundSpeed();
    if (!only || only === 'quality') figures.quality = await qualityPerFile();
    if (!only || only === 'buildings') figures.buildings = await buildingQuality();
    figures.loadAverageAtEnd = loadavg().map((v) => round(v, 2));
    return figures;
  },
} satisfies BenchSuite;
