/**
 * The 3D Tiles tiler: LAS/LAZ/COPC in, 3D Tiles 1.1 out (tileset.json plus
 * GLB point contents with `Classification` and `Intensity` property
 * attributes), out of core and on worker threads.
 *
 * @example
 * import { parseTilerOptions, tilePointCloud } from '@nuage/engine/tiler/index.js';
 * const options = parseTilerOptions(adminSettings.tilingParameters); // "--max-points 60000 --min-node-size 0.15"
 * const result = await tilePointCloud(lazPath, workDir, { ...options, epsg }, { progress, signal, tmpDir });
 * // then upload workDir with tiles-cache's uploadDirectory(store, workDir, assetKey(projectId, assetId, 'tiles/'))
 */
export type { TileJson, TilesetJson } from '../writers/3dtiles.writer.js';
export { CLASSIFICATION_PROPERTY, INTENSITY_PROPERTY, POINT_CLASS } from '../writers/3dtiles.writer.js';
export { type TilePointCloudResult, tilePointCloud } from './tile-point-cloud.js';
export { type BboxWgs84, type TileResult, type TilerInput, tileInput } from './tiler.js';
export {
  parseTilerOptions,
  resolveTilerOptions,
  type TilerOptions,
  type TilerOptionsInput,
  tilerOptionsSchema,
} from './tiler-options.js';
export { warmTilerPool } from './tiler-warm-up.js';
