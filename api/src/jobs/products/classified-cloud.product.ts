import path from 'node:path';
import type { PointChunk } from '@nuage/engine/core/chunk.js';
import { CrsRequired, InvalidInput } from '@nuage/engine/core/errors.js';
import { classifyCloud } from '@nuage/engine/filters/classify.filter.js';
import { gatherCloud, splitCloud } from '@nuage/engine/filters/cloud.js';
import { INLINE_DECODE, terrainUnits } from '@nuage/engine/products/process.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { tilePointCloud } from '@nuage/engine/tiler/tile-point-cloud.js';
import { writeLas } from '@nuage/engine/writers/las.writer.js';
import type { ProcessingProduct } from './product.js';
import type { ClassifiedCloud } from './terrain-values.js';

async function* asAsync(chunks: Iterable<PointChunk>): AsyncIterable<PointChunk> {
  yield* chunks;
}

/**
 * CLASSIFIED_POINT_CLOUD: noise, ground (SMRF), vegetation bands and buildings
 * by the engine's classifier; a LAS 1.4 download and a 3D Tiles tileset of its
 * own. Hands the classified cloud to the terrain products.
 */
export const classifiedCloudProduct: ProcessingProduct = {
  id: 'classification',
  assetType: 'CLASSIFIED_POINT_CLOUD',
  name: 'Classified point cloud',
  needs: [],
  async run(ctx) {
    const reader = await openPointCloud(ctx.inputPath, ctx.epsg ? { epsg: ctx.epsg } : {});
    let cloud: PointChunk;
    try {
      cloud = await gatherCloud(reader.read({ signal: ctx.signal, workers: INLINE_DECODE }), {
        signal: ctx.signal,
        progress: (f) => ctx.progress(0.15 * f),
      });
    } finally {
      await reader.close();
    }
    const crs = reader.crs;
    if (!crs) throw new CrsRequired('the point cloud has no CRS: set the asset epsgCode');
    const units = terrainUnits(crs);
    if (cloud.count < 3) throw new InvalidInput('points', `the cloud has ${cloud.count} points: nothing to process`);
    const classified = classifyCloud(cloud, units, {
      signal: ctx.signal,
      progress: (f) => ctx.progress(0.15 + 0.4 * f),
    });
    const classifiedCloud: PointChunk = { ...cloud, classification: classified.classification };
    const lasPath = path.join(ctx.workDir, 'classified.las');
    await writeLas(lasPath, asAsync(splitCloud(classifiedCloud)), {
      crs,
      scale: reader.header.scale,
      offset: reader.header.offset,
      extraBytes: reader.header.extraBytes,
      generatingSoftware: 'Nuage engine',
      signal: ctx.signal,
    });
    ctx.progress(0.65);
    const tilesDir = path.join(ctx.workDir, 'tiles');
    const tiled = await tilePointCloud(
      lasPath,
      tilesDir,
      { ...ctx.tilerOptions, ...(crs.epsg ? { epsg: crs.epsg } : {}) },
      { signal: ctx.signal, progress: (f) => ctx.progress(0.65 + 0.35 * f), tmpDir: ctx.tmpDir },
    );
    const value: ClassifiedCloud = { cloud: classifiedCloud, crs, units };
    return {
      files: [{ path: lasPath, extension: 'las', fileName: `${ctx.sourceName}-classified.las` }],
      tilesDir,
      value,
      figures: { classCounts: classified.counts, tiles: tiled.tileCount },
    };
  },
};
