import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PointChunk } from '../core/chunk.js';
import { CrsRequired, InvalidInput } from '../core/errors.js';
import { defineProduct, type ProductContext } from '../core/product.js';
import type { CrsInfo } from '../crs/index.js';
import { classifyCloudTiled } from '../filters/classify.filter.js';
import { gatherCloud, gatherCloudSpilled, type SpilledColumns, type SpillOptions } from '../filters/cloud.js';
import { metadataFromChunks } from '../metadata/index.js';
import { type ColorizeResult, colorizeCloud } from '../raster/colorize.js';
import { openPointCloud } from '../readers/index.js';
import type { PointCloudReader } from '../readers/point-cloud-reader.js';
import { tilePointCloud } from '../tiler/tile-point-cloud.js';
import { writeLas } from '../writers/las.writer.js';
import { productEntry } from './catalog.js';
import { type ClassifiedCloud, INLINE_DECODE, terrainUnits } from './product-values.js';

/** Wire points (class 14) from which the input's own power-line classes are kept rather than found again. */
export const VENDOR_WIRES_KEPT = 100;

/**
 * Whether the input's own power-line classes (13–16) are kept instead of a wire
 * search: the vendor labelled at least {@link VENDOR_WIRES_KEPT} conductor points
 * and the option `vendorWireClasses` is not `FIND`.
 */
export function keepsVendorWires(vendorWirePoints: number, vendorWireClasses: 'KEEP' | 'FIND' = 'KEEP'): boolean {
  return vendorWireClasses === 'KEEP' && vendorWirePoints >= VENDOR_WIRES_KEPT;
}

async function* asAsync(chunks: Iterable<PointChunk>): AsyncIterable<PointChunk> {
  yield* chunks;
}

type ReadContext = { signal?: AbortSignal; progress?: (f: number) => void };

/** A cloud read whole, with its CRS and terrain units; `spilled` holds its columns left on disk, if any. */
interface ReadCloud {
  cloud: PointChunk;
  spilled?: SpilledColumns;
  crs: CrsInfo;
  units: ReturnType<typeof terrainUnits>;
  header: PointCloudReader['header'];
}

/**
 * Reads a whole point cloud into one chunk with its CRS and terrain units; with `spill`, the columns outside
 * `spill.keep` go to files instead (see gatherCloudSpilled), which the caller closes.
 */
function readCloud(file: string, epsg: number | undefined, context: ReadContext): Promise<ReadCloud>;
function readCloud(
  file: string,
  epsg: number | undefined,
  context: ReadContext,
  spill: SpillOptions,
): Promise<ReadCloud & { spilled: SpilledColumns }>;
async function readCloud(
  file: string,
  epsg: number | undefined,
  context: ReadContext,
  spill?: SpillOptions,
): Promise<ReadCloud> {
  const reader = await openPointCloud(file, epsg === undefined ? {} : { epsg });
  let gathered: Pick<ReadCloud, 'cloud' | 'spilled'>;
  try {
    const chunks = reader.read({ signal: context.signal, workers: INLINE_DECODE });
    const options = { expected: reader.header.pointCount };
    gathered = spill
      ? await gatherCloudSpilled(chunks, context, { ...options, spill })
      : { cloud: await gatherCloud(chunks, context, options) };
  } finally {
    await reader.close();
  }
  const crs = reader.crs;
  if (!crs) {
    gathered.spilled?.close();
    throw new CrsRequired('the point cloud has no CRS: give one with --epsg (or the asset epsgCode)');
  }
  return { ...gathered, crs, units: terrainUnits(crs), header: reader.header };
}

/**
 * CLASSIFIED_POINT_CLOUD: noise, ground, vegetation bands and buildings by the
 * engine's classifier (over spatial tiles on worker threads); a LAS 1.4 file
 * and a 3D Tiles tileset of its own, coloured from the orthophoto when the
 * input names one (`input.orthophoto`). Hands the classified cloud on.
 */
export const classifiedCloudProduct = defineProduct<ClassifiedCloud>({
  ...productEntry('classify'),
  async run(ctx) {
    // The whole input (every column) lives only inside classifyAndWrite; what follows holds the columns products read.
    const lasPath = path.join(ctx.workDir, 'classified.las');
    const { cloud, crs, units, vendor, inputMetadata, figures } = await classifyAndWrite(ctx, lasPath);
    ctx.progress(0.65);
    const tilesDir = path.join(ctx.workDir, 'tiles');
    const tiled = await tilePointCloud(
      lasPath,
      tilesDir,
      { ...ctx.tilerOptions, ...(crs.epsg ? { epsg: crs.epsg } : {}) },
      { signal: ctx.signal, progress: (f) => ctx.progress(0.65 + 0.35 * f), tmpDir: ctx.tmpDir },
    );
    return {
      files: [{ path: lasPath, format: 'LAS', extension: 'las', epsg: crs.epsg, count: cloud.count }],
      tiles: { dir: tilesDir, format: '3DTiles', epsg: 4978, count: tiled.tileCount },
      value: { cloud, crs, units, inputMetadata, ...(vendor ? { vendor } : {}) },
      figures: { classCounts: figures.classCounts, tiles: tiled.tileCount, ...figures.rest },
    };
  },
  restore: {
    format: 'LAS',
    async load(files, ctx) {
      const las = files.find((f) => f.extension === 'las');
      if (!las) throw new InvalidInput('classify', 'the classified LAS file of the earlier run is missing');
      const { cloud, crs, units } = await readCloud(las.path, ctx.epsg, { signal: ctx.signal });
      return { cloud: productColumns(cloud, cloud.classification ?? new Uint8Array(cloud.count)), crs, units };
    },
  },
});

/**
 * The columns later products read (coordinates, classes, returns), with the
 * classification of this run: the others (times, angles, intensities,
 * colours...) are in the classified LAS file and are let go.
 */
function productColumns(cloud: PointChunk, classification: Uint8Array<ArrayBuffer>): PointChunk {
  return {
    count: cloud.count,
    x: cloud.x,
    y: cloud.y,
    z: cloud.z,
    classification,
    ...(cloud.returnNumber ? { returnNumber: cloud.returnNumber } : {}),
    ...(cloud.numberOfReturns ? { numberOfReturns: cloud.numberOfReturns } : {}),
  };
}

/**
 * The classes a tiled run made (one byte per point, input order; see
 * engine/src/tiled), checked against the input's point count.
 */
async function precomputedClasses(
  file: string,
  count: number,
): Promise<{ classification: Uint8Array<ArrayBuffer>; counts: Record<number, number> }> {
  const bytes = await readFile(file);
  if (bytes.byteLength !== count) {
    throw new InvalidInput('classes', `the tiled classification holds ${bytes.byteLength} points, the cloud ${count}`);
  }
  const classification = new Uint8Array(count);
  classification.set(bytes);
  const counts: Record<number, number> = {};
  for (let i = 0; i < count; i++) counts[classification[i]!] = (counts[classification[i]!] ?? 0) + 1;
  return { classification, counts };
}

/**
 * Reads the whole input, classifies it and writes the classified LAS file;
 * returns only the columns products read, so the rest is freed when it returns.
 */
async function classifyAndWrite(ctx: ProductContext, lasPath: string) {
  // The columns the classification reads stay in memory; the others (times, angles, intensities, colours,
  // extra bytes...: about half the bytes of a point) wait on disk for the LAS writer (1 GB less at 38 M points).
  const read = await readCloud(
    ctx.input.path,
    ctx.input.epsg,
    { signal: ctx.signal, progress: (f) => ctx.progress(0.1 * f) },
    { dir: ctx.tmpDir, keep: ['classification', 'returnNumber', 'numberOfReturns'] },
  );
  try {
    return await classifyRead(ctx, lasPath, read);
  } finally {
    read.spilled.close();
  }
}

async function classifyRead(
  ctx: ProductContext,
  lasPath: string,
  { cloud, spilled, crs, units, header }: ReadCloud & { spilled: SpilledColumns },
) {
  if (cloud.count < 3) throw new InvalidInput('points', `the cloud has ${cloud.count} points: nothing to process`);
  // The input's metadata (the report's summary), from the points just read and before any column changes.
  const inputMetadata = await metadataFromChunks(
    { header, crs },
    spilled.chunks(cloud, 65536, new Set(['intensity', 'red', 'green', 'blue'])),
  );
  // Colours from the orthophoto (LAS PDRF 7, RGB in the tiles), first: an image off the cloud is refused at once.
  let colours: ColorizeResult | undefined;
  if (ctx.input.orthophoto) colours = await colorizeCloud(cloud, crs, ctx.input.orthophoto, { signal: ctx.signal });
  // The input's own classes: the classifier writes a new array and never changes this one.
  const vendor = cloud.classification;
  // A file whose vendor labelled the power lines keeps its wire, tower and structure classes (13–16).
  let vendorWires = 0;
  if (vendor) for (let i = 0; i < cloud.count; i++) vendorWires += vendor[i] === 14 ? 1 : 0;
  const keepVendorWires = keepsVendorWires(vendorWires, ctx.options.vendorWireClasses);
  const classified = ctx.input.classes
    ? await precomputedClasses(ctx.input.classes, cloud.count)
    : await classifyCloudTiled(
        cloud,
        { ...units, wires: !keepVendorWires },
        {
          signal: ctx.signal,
          progress: (f) => ctx.progress(0.1 + 0.45 * f),
        },
      );
  if (keepVendorWires && vendor) {
    for (let i = 0; i < cloud.count; i++) {
      const v = vendor[i]!;
      if (v >= 13 && v <= 16) classified.classification[i] = v;
    }
  }
  const classifiedCloud: PointChunk = { ...cloud, classification: classified.classification };
  await writeLas(lasPath, asAsync(spilled.chunks(classifiedCloud)), {
    crs,
    scale: header.scale,
    offset: header.offset,
    extraBytes: header.extraBytes,
    generatingSoftware: 'Nuage engine',
    signal: ctx.signal,
  });
  return {
    cloud: productColumns(cloud, classified.classification),
    crs,
    units,
    vendor,
    inputMetadata,
    figures: {
      classCounts: classified.counts,
      rest: {
        vendorWiresKept: keepVendorWires,
        ...(colours
          ? {
              colourised: {
                coloured: colours.coloured,
                outside: colours.outside,
                imageEpsg: colours.imageEpsg,
                bits: colours.bits,
              },
            }
          : {}),
      },
    },
  };
}
