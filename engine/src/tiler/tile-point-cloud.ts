import { rm } from 'node:fs/promises';
import type { StepContext } from '../core/chunk.js';
import { CrsRequired, InvalidInput } from '../core/errors.js';
import { type CrsInfo, createTransformer } from '../crs/index.js';
import { type ByteSource, openFileSource, openPointCloud } from '../readers/index.js';
import { readLazChunkTable } from '../readers/laz-chunk-table.js';
import { globeEcefTransform } from './geoid-ecef.js';
import { type LazTilerSource, type TileResult, type TilerInput, tileInput } from './tiler.js';
import { resolveTilerOptions, type TilerOptionsInput } from './tiler-options.js';

/** Point formats with RGB (LAS 1.4 table). */
const RGB_FORMATS = new Set([2, 3, 5, 7, 8, 10]);

/**
 * LAZ chunks up to this many points are decoded whole on the tiler's workers;
 * a file with bigger chunks is streamed by the reader instead, which decodes
 * them piece by piece (memory stays bounded).
 */
const MAX_WORKER_CHUNK_POINTS = 1_000_000;

/** Result of {@link tilePointCloud}: the tiling figures plus the CRS the input was read in. */
export interface TilePointCloudResult extends TileResult {
  /** EPSG code of the input CRS (null when only a WKT was known). */
  epsg: number | null;
  crsName: string;
}

/**
 * Tiles a LAS/LAZ/COPC file into a 3D Tiles 1.1 tileset in `outDir`:
 * `tileset.json` plus `content/<depth>-<x>-<y>-<z>.glb`. Reprojection from the
 * file CRS (or `options.epsg`) to ECEF is automatic; a file without a CRS and
 * no `epsg` is a `CrsRequired` error. Progress goes to `ctx.progress` (0..1,
 * step `tilesCreation`); `ctx.signal` cancels.
 *
 * @example
 * const r = await tilePointCloud('cloud.laz', 'out/tiles', { maxPoints: 60_000, minNodeSize: 0.15 }, { progress });
 * console.log(r.tilesetPath, r.pointCount, r.tileCount, r.bboxWgs84);
 */
export async function tilePointCloud(
  inputPath: string,
  outDir: string,
  options: TilerOptionsInput = {},
  ctx: StepContext = {},
): Promise<TilePointCloudResult> {
  const resolved = resolveTilerOptions(options);
  const opened = await openTilerInput(inputPath, resolved.epsg);
  try {
    let result: TileResult;
    try {
      result = await tileInput(opened.input, outDir, resolved, ctx);
    } catch (error) {
      // Header bounds smaller than the points (LAStools' zurich.laz): read the true bounds, tile again.
      if (!(error instanceof InvalidInput) || error.field !== 'header.bounds' || !/outside/.test(error.message)) {
        throw error;
      }
      const bounds = await pointBounds(opened.input, ctx.signal);
      ctx.log?.('header bounds smaller than the points: tiling with the bounds of the points', {
        header: opened.input.bounds,
        points: bounds,
      });
      await rm(outDir, { recursive: true, force: true });
      result = await tileInput(
        { ...opened.input, bounds: unionBounds(opened.input.bounds, bounds) },
        outDir,
        resolved,
        ctx,
      );
    }
    return { ...result, epsg: opened.crs.epsg, crsName: opened.crs.name };
  } finally {
    await opened.close();
  }
}

/** Bounds of the points themselves (one pass over the reader's chunks). */
async function pointBounds(input: TilerInput, signal?: AbortSignal): Promise<TilerInput['bounds']> {
  const b = { minX: Infinity, minY: Infinity, minZ: Infinity, maxX: -Infinity, maxY: -Infinity, maxZ: -Infinity };
  for await (const chunk of input.chunks(signal)) {
    for (let i = 0; i < chunk.count; i++) {
      const x = chunk.x[i]!;
      const y = chunk.y[i]!;
      const z = chunk.z[i]!;
      if (x < b.minX) b.minX = x;
      if (x > b.maxX) b.maxX = x;
      if (y < b.minY) b.minY = y;
      if (y > b.maxY) b.maxY = y;
      if (z < b.minZ) b.minZ = z;
      if (z > b.maxZ) b.maxZ = z;
    }
  }
  return b;
}

function unionBounds(a: TilerInput['bounds'], b: TilerInput['bounds']): TilerInput['bounds'] {
  return {
    minX: Math.min(a.minX, b.minX),
    minY: Math.min(a.minY, b.minY),
    minZ: Math.min(a.minZ, b.minZ),
    maxX: Math.max(a.maxX, b.maxX),
    maxY: Math.max(a.maxY, b.maxY),
    maxZ: Math.max(a.maxZ, b.maxZ),
  };
}

/** A point cloud file opened as a tiler input (see {@link openTilerInput}). */
export interface OpenedTilerInput {
  input: TilerInput;
  crs: CrsInfo;
  close(): Promise<void>;
}

/**
 * Opens a LAS/LAZ/COPC file as a {@link TilerInput}: header bounds, exact
 * transform to ECEF and the reader's chunks; a LAZ file also as its
 * compressed chunks, which the tiler's workers decode themselves (decode,
 * reproject and bucket on one thread) unless a chunk is too big to decode
 * whole. `CrsRequired` when the file has no CRS and `epsg` is not given.
 */
export async function openTilerInput(inputPath: string, epsg?: number): Promise<OpenedTilerInput> {
  const reader = await openPointCloud(inputPath, epsg === undefined ? {} : { epsg });
  let source: ByteSource | undefined;
  const close = async (): Promise<void> => {
    await source?.close();
    await reader.close();
  };
  try {
    const { header, crs } = reader;
    if (!crs) throw new CrsRequired();
    let laz: LazTilerSource | undefined;
    if (reader.kind === 'laz') {
      source = await openFileSource(inputPath);
      const chunks = await readLazChunkTable(source, header);
      if (chunks.every((c) => c.pointCount <= MAX_WORKER_CHUNK_POINTS)) {
        const from = source;
        laz = { crs, layout: header, chunks, read: (offset, length) => from.read(offset, length) };
      }
    }
    // Orthometric heights (NAP, NAVD88…) go to the globe as ellipsoidal: + the geoid undulation.
    const exact = globeEcefTransform(crs, createTransformer);
    const input: TilerInput = {
      pointCount: header.pointCount,
      bounds: {
        minX: header.min[0],
        minY: header.min[1],
        minZ: header.min[2],
        maxX: header.max[0],
        maxY: header.max[1],
        maxZ: header.max[2],
      },
      hasColor: RGB_FORMATS.has(header.pointFormat),
      toEcef: (x, y, z, n) => exact.forward(x, y, z, n),
      // The tiler copies what it keeps from each chunk: LAS columns can be reused.
      chunks: (signal) => reader.read({ chunkSize: 65536, reuse: true, ...(signal ? { signal } : {}) }),
      ...(laz ? { laz } : {}),
    };
    return { input, crs, close };
  } catch (error) {
    await close();
    throw error;
  }
}
