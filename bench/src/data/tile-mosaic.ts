/**
 * A large cloud made of real files laid side by side, streamed on the fly
 * (no 3 GB file on disk, unlike big-inputs.ts which writes a LAS file): the
 * four adjacent BCTS tiles (EPSG:3005, 2.83 M points together, forest)
 * repeated on a grid with X/Y offsets until the
 * wanted point count is reached. Every copy is really decoded from its LAZ
 * file, so reading costs are those of a real input.
 */
import type { PointChunk } from '@nuage/engine/core/chunk.js';
import { createTransformer } from '@nuage/engine/crs/index.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import type { TilerInput } from '@nuage/engine/tiler/tiler.js';
import { realFile } from '@nuage/fixtures/real-data.js';
import { MOSAIC_TILES as MOSAIC_FILES } from './big-inputs.js';

/** Describes the mosaic for a wanted size: copies, grid, exact point count. */
export interface MosaicPlan {
  copies: number;
  columns: number;
  /** Offset between copies (metres, EPSG:3005). */
  stepX: number;
  stepY: number;
  pointCount: number;
  bounds: { minX: number; minY: number; minZ: number; maxX: number; maxY: number; maxZ: number };
}

/** Plans a mosaic of at least `minPoints` points. */
export async function planMosaic(minPoints: number): Promise<MosaicPlan> {
  let perCopy = 0;
  const b = { minX: Infinity, minY: Infinity, minZ: Infinity, maxX: -Infinity, maxY: -Infinity, maxZ: -Infinity };
  for (const f of MOSAIC_FILES) {
    const r = await openPointCloud(realFile(f));
    perCopy += r.header.pointCount;
    b.minX = Math.min(b.minX, r.header.min[0]);
    b.minY = Math.min(b.minY, r.header.min[1]);
    b.minZ = Math.min(b.minZ, r.header.min[2]);
    b.maxX = Math.max(b.maxX, r.header.max[0]);
    b.maxY = Math.max(b.maxY, r.header.max[1]);
    b.maxZ = Math.max(b.maxZ, r.header.max[2]);
    await r.close();
  }
  const copies = Math.ceil(minPoints / perCopy);
  const stepX = Math.ceil(b.maxX - b.minX + 5);
  const stepY = Math.ceil(b.maxY - b.minY + 5);
  // Roughly square overall: the block is ~5 times taller than wide.
  const columns = Math.max(1, Math.round(Math.sqrt((copies * stepY) / stepX)));
  const rows = Math.ceil(copies / columns);
  return {
    copies,
    columns,
    stepX,
    stepY,
    pointCount: copies * perCopy,
    bounds: {
      ...b,
      maxX: b.minX + (columns - 1) * stepX + (b.maxX - b.minX),
      maxY: b.minY + (rows - 1) * stepY + (b.maxY - b.minY),
    },
  };
}

/** Streams the mosaic's points (EPSG:3005 coordinates, copies shifted). */
export async function* mosaicChunks(plan: MosaicPlan, signal?: AbortSignal): AsyncIterable<PointChunk> {
  for (let c = 0; c < plan.copies; c++) {
    const dx = (c % plan.columns) * plan.stepX;
    const dy = Math.floor(c / plan.columns) * plan.stepY;
    for (const f of MOSAIC_FILES) {
      const reader = await openPointCloud(realFile(f));
      try {
        for await (const chunk of reader.read({ chunkSize: 65536, ...(signal ? { signal } : {}) })) {
          for (let i = 0; i < chunk.count; i++) {
            chunk.x[i]! += dx;
            chunk.y[i]! += dy;
          }
          yield chunk;
        }
      } finally {
        await reader.close();
      }
    }
  }
}

/** The mosaic as a tiler input (CRS EPSG:3005, reprojected to ECEF like any file), decoded on the fly. */
export async function mosaicTilerInput(plan: MosaicPlan): Promise<TilerInput> {
  const first = await openPointCloud(realFile(MOSAIC_FILES[0]!));
  const crs = first.crs;
  await first.close();
  const exact = createTransformer(crs, 'EPSG:4978');
  return {
    pointCount: plan.pointCount,
    bounds: plan.bounds,
    hasColor: false,
    toEcef: (x, y, z, n) => exact.forward(x, y, z, n),
    chunks: (signal) => mosaicChunks(plan, signal),
  };
}
