import path from 'node:path';
import { z } from 'zod';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled, CrsRequired, InvalidInput } from '../core/errors.js';
import { defineProduct } from '../core/product.js';
import { crsFromEpsg } from '../crs/index.js';
import { meanSpacing } from '../filters/point-grid.js';
import { Coverage, clearBeyondReach } from '../raster/coverage.js';
import { readGeoTiff } from '../raster/geotiff.reader.js';
import { type Raster, type RasterCrs, rasterForBounds, rasterRange } from '../raster/raster.js';
import { PointBuffer, thinToBins } from '../raster/tin.js';
import { rasterizeTinParallel } from '../raster/tin-parallel.js';
import { writeGeoTiff } from '../writers/geotiff.writer.js';
import { productEntry } from './catalog.js';
import { type ClassifiedCloud, type DtmValue, rasterCrsOf, terrainUnits } from './product-values.js';
import { dtmResolutionCm } from './terrain-options.js';

/** Options of {@link buildDtm}. */
export const dtmOptionsSchema = z.object({
  /** Cell size in centimetres (processing form: 20–3000 cm), converted to the CRS unit. */
  resolutionCm: dtmResolutionCm.default(50),
  /** Classes taken as ground. */
  groundClasses: z.array(z.number().int().min(0).max(255)).min(1).default([2]),
  /** Horizontal CRS unit in metres (0.3048 for feet). */
  unitToMetre: z.number().positive().default(1),
  /**
   * Ground points are thinned to one per square bin of this many cells (the
   * point nearest the bin centre) before triangulation: 1 keeps one point per
   * cell, 0.5 up to four.
   */
  thinning: z.number().min(0.1).max(4).default(1),
  /**
   * Interpolation reach: cells farther than this from every return (water
   * and noise aside) are nodata, metres; at least `reachSpacings` mean point
   * spacings, so sparse surveys still make a full DTM.
   */
  reachMetres: z.number().min(0).max(1000).default(5),
  /** Interpolation reach in mean point spacings (the larger of the two reaches applies). */
  reachSpacings: z.number().min(0).max(100).default(3),
  /** Worker threads triangulating bands of the raster (default: available cores; 0 or 1 inline). */
  workers: z.number().int().min(0).max(64).optional(),
});
export type DtmOptions = z.input<typeof dtmOptionsSchema>;

/**
 * Input of {@link buildDtm}. The raster covers every point (snapped outward to
 * the cell size, so every terrain product of a project lines up).
 */
export interface DtmInput {
  /** Ground points in the CRS (x, y, z); any other point only widens the extent. */
  chunks: AsyncIterable<PointChunk> | Iterable<PointChunk>;
  /** Per-chunk classification overriding the chunk's own (same order as `chunks`). */
  classify?: (chunk: PointChunk, index: number) => Uint8Array | undefined;
  crs: RasterCrs | null;
}

/**
 * Builds a DTM (`products.dtm`): ground points → Delaunay TIN → raster sampled
 * at cell centres. Holes under buildings and bridges are spanned by the TIN;
 * cells outside the hull of the ground points, or farther than the
 * reach (`reachMetres`, `reachSpacings`) from every return that is not water
 * or noise (a lake, a gap in the survey), are nodata (-9999). Dense
 * clouds are thinned to one point per cell first (the nearest to the cell
 * centre, see `thinning`) so cost stays proportional to the raster.
 *
 * @example
 * const dtm = await buildDtm({ chunks: reader.read(), crs }, { resolutionCm: 50 });
 */
export async function buildDtm(input: DtmInput, options: DtmOptions = {}, context: StepContext = {}): Promise<Raster> {
  const o = dtmOptionsSchema.parse(options);
  let resolution = o.resolutionCm / 100 / o.unitToMetre;
  const groundSet = new Uint8Array(256);
  for (const c of o.groundClasses) groundSet[c] = 1;
  const ground = new PointBuffer();
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  let index = 0;
  let points = 0;
  const coverage = new Coverage(Math.max(resolution, 1 / o.unitToMetre));
  for await (const chunk of input.chunks) {
    if (context.signal?.aborted) throw new Cancelled();
    const cls = input.classify?.(chunk, index) ?? chunk.classification;
    index++;
    const { x, y, z: zs, count } = chunk;
    points += count;
    for (let i = 0; i < count; i++) {
      const xi = x[i]!;
      const yi = y[i]!;
      if (xi < minX) minX = xi;
      if (xi > maxX) maxX = xi;
      if (yi < minY) minY = yi;
      if (yi > maxY) maxY = yi;
      if (cls && groundSet[cls[i]!]) ground.push(xi, yi, zs[i]!);
    }
    // Any return but water and noise shows measured ground nearby (under a roof, a tree, a bridge).
    coverage.addMany(x, y, count, cls, NOT_COVERING);
  }
  if (index === 0 || minX > maxX) throw new InvalidInput('points', 'the point cloud is empty');
  if (ground.count < 3) {
    throw new InvalidInput(
      'classification',
      `a DTM needs at least 3 ground points (classes ${o.groundClasses.join(', ')}), found ${ground.count}: classify the cloud first`,
    );
  }
  const bounds = { minX, minY, maxX, maxY };
  resolution = sparseResolution(bounds, points, resolution);
  if (resolution !== o.resolutionCm / 100 / o.unitToMetre) {
    context.log?.('dtm: resolution raised for a sparse cloud', {
      requestedM: o.resolutionCm / 100,
      resolutionM: resolution * o.unitToMetre,
      points,
    });
  }
  const raster = rasterForBounds(bounds, resolution, input.crs);
  context.progress?.(0.3, 'dtm');
  const thin = thinToBins(ground.x, ground.y, ground.z, ground.count, bounds, resolution * o.thinning);
  await rasterizeTinParallel(thin.x, thin.y, thin.z, thin.count, raster, { workers: o.workers });
  // No fan of triangles across a lake or a gap in the survey: cells beyond reach of any return stay nodata.
  const reach = Math.max(o.reachMetres / o.unitToMetre, o.reachSpacings * meanSpacing(bounds, points));
  clearBeyondReach(raster, coverage, reach);
  context.progress?.(1, 'dtm');
  return raster;
}

/** Classes whose returns do not show measured ground nearby: noise (7, 18) and water (9). */
const NOT_COVERING = new Uint8Array(256);
NOT_COVERING[7] = 1;
NOT_COVERING[9] = 1;
NOT_COVERING[18] = 1;

/** Cells a DTM may have per point of the cloud, and at least (see {@link sparseResolution}). */
export const DTM_CELLS_PER_POINT = 16;
export const DTM_MIN_CELL_BUDGET = 1_000_000;

/**
 * The DTM cell size for `points` returns over `bounds`: the requested one,
 * unless the raster would hold more than 16 cells per point (and more than a
 * million cells) — a few thousand returns over square kilometres — where it
 * grows by a whole factor until it fits, so that every terrain product's cost
 * follows the points and not the empty area between them.
 */
export function sparseResolution(
  bounds: { minX: number; minY: number; maxX: number; maxY: number },
  points: number,
  resolution: number,
): number {
  const budget = Math.max(DTM_MIN_CELL_BUDGET, DTM_CELLS_PER_POINT * points);
  const area = Math.max(bounds.maxX - bounds.minX, resolution) * Math.max(bounds.maxY - bounds.minY, resolution);
  if (area / (resolution * resolution) <= budget) return resolution;
  return resolution * Math.ceil(Math.sqrt(area / budget) / resolution);
}

/**
 * Root mean square difference between two aligned DTMs over the cells valid
 * in both (and in `mask` when given), with the number of cells compared.
 */
export function dtmRmse(a: Raster, b: Raster, mask?: Uint8Array): { rmse: number; cells: number; bias: number } {
  if (a.width !== b.width || a.height !== b.height) {
    throw new InvalidInput('dtm', `rasters differ in size (${a.width}×${a.height} vs ${b.width}×${b.height})`);
  }
  let sum = 0;
  let sumD = 0;
  let cells = 0;
  for (let i = 0; i < a.data.length; i++) {
    const va = a.data[i]!;
    const vb = b.data[i]!;
    if (va === a.nodata || vb === b.nodata || Number.isNaN(va) || Number.isNaN(vb)) continue;
    if (mask && !mask[i]) continue;
    const d = va - vb;
    sum += d * d;
    sumD += d;
    cells++;
  }
  return { rmse: cells > 0 ? Math.sqrt(sum / cells) : Number.NaN, cells, bias: cells > 0 ? sumD / cells : Number.NaN };
}

/** The DTM of a processing run and what later products read with it. */
export const dtmProduct = defineProduct<DtmValue>({
  ...productEntry('dtm'),
  async run(ctx) {
    const { cloud, crs, units } = ctx.need<ClassifiedCloud>('classify');
    const dtm = await buildDtm(
      { chunks: [cloud], crs: rasterCrsOf(crs) },
      { resolutionCm: ctx.options.dtmResolutionCm, unitToMetre: units.unitToMetre },
      { signal: ctx.signal, progress: (f) => ctx.progress(0.9 * f), log: ctx.log },
    );
    const file = path.join(ctx.workDir, 'dtm.tif');
    await writeGeoTiff(file, dtm, { deflate: true });
    const range = rasterRange(dtm);
    return {
      files: [{ path: file, format: 'GTiff', extension: 'tif', epsg: crs.epsg, count: dtm.width * dtm.height }],
      value: { dtm, crs, units },
      figures: {
        width: dtm.width,
        height: dtm.height,
        resolutionM: Math.round(dtm.resolution * units.unitToMetre * 1000) / 1000,
        requestedResolutionM: ctx.options.dtmResolutionCm / 100,
        min: range?.min ?? null,
        max: range?.max ?? null,
      },
    };
  },
  restore: {
    format: 'GTiff',
    async load(files, ctx) {
      const tif = files.find((f) => f.extension === 'tif');
      if (!tif) throw new InvalidInput('dtm', 'the DTM GeoTIFF of the earlier run is missing');
      const dtm = await readGeoTiff(tif.path);
      const epsg = ctx.epsg ?? dtm.crs?.epsg;
      if (!epsg) throw new CrsRequired('the DTM has no EPSG code: give one with --epsg');
      const crs = crsFromEpsg(epsg);
      dtm.crs = rasterCrsOf(crs);
      return { dtm, crs, units: terrainUnits(crs) };
    },
  },
});
