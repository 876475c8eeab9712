import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { InvalidInput } from '../core/errors.js';
import type { CrsInfo } from '../crs/index.js';
import { classifyCloudTiled, classifyOptionsSchema } from '../filters/classify.filter.js';
import { gatherCloud, splitCloud } from '../filters/cloud.js';
import type { RasterCrs } from '../raster/raster.js';
import { openPointCloud } from '../readers/index.js';
import { writeGeoJson } from '../writers/geojson.writer.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { writeLas } from '../writers/las.writer.js';
import { buildContours, contourFeatures } from './contours.product.js';
import { buildDtm } from './dtm.product.js';
import { buildGridPoints } from './grid.product.js';
import { hillshade } from './hillshade.product.js';
import { type QualityReport, qualityReport, writeQualityReport } from './quality.product.js';
import { writeRasterTiles } from './raster-tiles.product.js';
import { slope } from './slope.product.js';
import { contourIntervalCm, dtmResolutionCm, gridResolutionCm } from './terrain-options.js';

/** Options of a processing run: the processing form's terrain fields (spec §5) plus engine knobs. */
export const processOptionsSchema = z
  .object({
    /** EPSG code of the input when it has none (or to override it). */
    epsg: z.number().int().positive().optional(),
    dtmResolutionCm: dtmResolutionCm.default(50),
    contourMinorCm: contourIntervalCm.default(100),
    contourMajorCm: contourIntervalCm.default(500),
    gridResolutionCm: gridResolutionCm.default(1000),
    classify: classifyOptionsSchema.partial().default({}),
    /** Render XYZ PNG tiles of hillshade, slope and DTM. */
    tiles: z.boolean().default(true),
    /** Deflate-compress the GeoTIFFs. */
    deflate: z.boolean().default(true),
  })
  .refine((o) => o.contourMajorCm > o.contourMinorCm, {
    message: 'the major contour interval must be larger than the minor one',
    path: ['contourMajorCm'],
  });
export type ProcessOptions = z.input<typeof processOptionsSchema>;

/** One file (or tile folder) a run produced; `type` is the API's asset type. */
export interface ProcessArtifact {
  type: string;
  path: string;
  bytes: number;
}

/** Result of {@link processPointCloud}. */
export interface ProcessResult {
  artifacts: ProcessArtifact[];
  quality: QualityReport;
}

/**
 * LAZ decoding workers used when reading for terrain products: 0 decodes on the
 * calling thread. The reader's worker pool leaves the process waiting forever
 * when started from the repository root (its unref'd workers never answer),
 * so terrain reads decode inline until that is fixed in the readers.
 */
export const INLINE_DECODE = 0;

/** Raster CRS of a point-cloud CRS. */
export function rasterCrsOf(crs: CrsInfo | null): RasterCrs | null {
  if (!crs) return null;
  return {
    epsg: crs.epsg,
    geographic: crs.geographic ?? false,
    horizontalUnitToMetre: crs.horizontalUnitToMetre,
    verticalUnitToMetre: crs.verticalUnitToMetre,
    name: crs.name,
  };
}

/** Horizontal and vertical units of a CRS, refusing geographic CRSs (terrain needs metres or feet). */
export function terrainUnits(crs: CrsInfo | null): { unitToMetre: number; verticalUnitToMetre: number } {
  if (crs?.geographic || crs?.horizontalUnitToMetre === 0) {
    throw new InvalidInput('crs', `${crs.name} is geographic (degrees): terrain products need a projected CRS`);
  }
  const unitToMetre = crs?.horizontalUnitToMetre || 1;
  return { unitToMetre, verticalUnitToMetre: crs?.verticalUnitToMetre || unitToMetre };
}

async function* asAsync(chunks: Iterable<PointChunk>): AsyncIterable<PointChunk> {
  yield* chunks;
}

/**
 * Runs every terrain product on one point cloud, as a processing job does:
 * classification (LAS), DTM, hillshade, slope (GeoTIFF), contours and point
 * grid (GeoJSON in the project CRS), XYZ tiles of hillshade, slope and DTM,
 * and the quality report (JSON). Files are named after their role in `outDir`.
 *
 * @example
 * const { artifacts, quality } = await processPointCloud('in.laz', 'out', { dtmResolutionCm: 50 });
 */
export async function processPointCloud(
  input: string,
  outDir: string,
  options: ProcessOptions = {},
  context: StepContext = {},
): Promise<ProcessResult> {
  const o = processOptionsSchema.parse(options);
  await mkdir(outDir, { recursive: true });
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - t) / 1000;
    t = now;
  };
  const step = (fraction: number, name: string) => context.progress?.(fraction, name);
  const artifacts: ProcessArtifact[] = [];

  step(0, 'read');
  const reader = await openPointCloud(input, o.epsg === undefined ? {} : { epsg: o.epsg });
  let cloud: PointChunk;
  try {
    cloud = await gatherCloud(reader.read({ signal: context.signal, workers: INLINE_DECODE }), context);
  } finally {
    await reader.close();
  }
  const crs = reader.crs;
  const units = terrainUnits(crs);
  if (cloud.count < 3) throw new InvalidInput('points', `the cloud has ${cloud.count} points: nothing to process`);
  const vendor = cloud.classification ? cloud.classification.slice() : undefined;
  lap('read');

  step(0.1, 'classify');
  const classified = await classifyCloudTiled(cloud, { ...o.classify, ...units }, context);
  const classifiedCloud: PointChunk = { ...cloud, classification: classified.classification };
  lap('classify');
  const lasPath = path.join(outDir, 'classified.las');
  const las = await writeLas(lasPath, asAsync(splitCloud(classifiedCloud)), {
    crs,
    scale: reader.header.scale,
    offset: reader.header.offset,
    extraBytes: reader.header.extraBytes,
    generatingSoftware: 'Nuage engine',
    signal: context.signal,
  });
  artifacts.push({ type: 'CLASSIFIED_POINT_CLOUD', path: lasPath, bytes: las.bytes });
  lap('writeLas');

  step(0.4, 'dtm');
  const rcrs = rasterCrsOf(crs);
  const dtm = await buildDtm(
    { chunks: [classifiedCloud], crs: rcrs },
    { resolutionCm: o.dtmResolutionCm, unitToMetre: units.unitToMetre },
    context,
  );
  const dtmPath = path.join(outDir, 'dtm.tif');
  artifacts.push({
    type: 'DTM',
    path: dtmPath,
    bytes: (await writeGeoTiff(dtmPath, dtm, { deflate: o.deflate })).bytes,
  });
  lap('dtm');

  step(0.5, 'hillshade');
  const shade = hillshade(dtm, {}, context);
  const shadePath = path.join(outDir, 'hillshade.tif');
  artifacts.push({
    type: 'HILLSHADE_DTM',
    path: shadePath,
    bytes: (await writeGeoTiff(shadePath, shade, { sampleType: 'uint8', deflate: o.deflate })).bytes,
  });
  const slopeRaster = slope(dtm, {}, context);
  const slopePath = path.join(outDir, 'slope.tif');
  artifacts.push({
    type: 'SLOPE_MAP',
    path: slopePath,
    bytes: (await writeGeoTiff(slopePath, slopeRaster, { deflate: o.deflate })).bytes,
  });
  lap('hillshadeSlope');

  step(0.6, 'contours');
  const lines = buildContours(
    dtm,
    { minorCm: o.contourMinorCm, majorCm: o.contourMajorCm, verticalUnitToMetre: units.verticalUnitToMetre },
    context,
  );
  const epsg = crs?.epsg ?? null;
  for (const [type, file, kind] of [
    ['CONTOUR_LINE', 'contours.geojson', null],
    ['CONTOUR_LINE_MAJOR', 'contours-major.geojson', 'major'],
    ['CONTOUR_LINE_MINOR', 'contours-minor.geojson', 'minor'],
  ] as const) {
    const chosen = kind ? lines.filter((l) => l.kind === kind) : lines;
    const written = await writeGeoJson(path.join(outDir, file), contourFeatures(chosen), { epsg });
    artifacts.push({ type, path: written.path, bytes: written.bytes });
  }
  lap('contours');

  step(0.7, 'grid');
  const grid = await writeGeoJson(
    path.join(outDir, 'grid.geojson'),
    buildGridPoints(dtm, { resolutionCm: o.gridResolutionCm, unitToMetre: units.unitToMetre }),
    { epsg },
  );
  artifacts.push({ type: 'GRID', path: grid.path, bytes: grid.bytes });
  lap('grid');

  if (o.tiles && crs) {
    step(0.75, 'tiles');
    for (const [layer, raster] of [
      ['HILLSHADE_DTM', shade],
      ['SLOPE_MAP', slopeRaster],
      ['IMAGERY_DTM', dtm],
    ] as const) {
      const tiles = await writeRasterTiles(raster, crs, layer, outDir, {}, context);
      artifacts.push({ type: `${layer}_TILES`, path: tiles.path, bytes: tiles.bytes });
    }
    lap('tiles');
  }

  step(0.9, 'quality');
  const quality = await qualityReport({
    input: path.basename(input),
    cloud,
    vendor,
    classification: classified.classification,
    dtm,
    dtmResolutionCm: o.dtmResolutionCm,
    ...units,
    crs: crs ? { epsg: crs.epsg, name: crs.name } : null,
    timings,
  });
  lap('quality');
  const report = await writeQualityReport(path.join(outDir, 'quality.json'), quality);
  artifacts.push({ type: 'QUALITY_REPORT', path: report.path, bytes: report.bytes });
  step(1, 'done');
  return { artifacts, quality };
}
