import type { StepContext } from '../core/chunk.js';
import { CrsRequired } from '../core/errors.js';
import { createTransformer } from '../crs/index.js';
import { openPointCloud } from '../readers/index.js';
import { type TileResult, tileInput } from './tiler.js';
import { resolveTilerOptions, type TilerOptionsInput } from './tiler-options.js';

/** Point formats with RGB (LAS 1.4 table). */
const RGB_FORMATS = new Set([2, 3, 5, 7, 8, 10]);

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
  const reader = await openPointCloud(inputPath, resolved.epsg === undefined ? {} : { epsg: resolved.epsg });
  try {
    const { header, crs } = reader;
    if (!crs) throw new CrsRequired();
    const exact = createTransformer(crs, 'EPSG:4978');
    const bounds = {
      minX: header.min[0],
      minY: header.min[1],
      minZ: header.min[2],
      maxX: header.max[0],
      maxY: header.max[1],
      maxZ: header.max[2],
    };
    const result = await tileInput(
      {
        pointCount: header.pointCount,
        bounds,
        hasColor: RGB_FORMATS.has(header.pointFormat),
        toEcef: (x, y, z, n) => exact.forward(x, y, z, n),
        // The tiler copies what it keeps from each chunk: LAS columns can be reused.
        chunks: (signal) => reader.read({ chunkSize: 65536, reuse: true, ...(signal ? { signal } : {}) }),
      },
      outDir,
      resolved,
      ctx,
    );
    return { ...result, epsg: crs.epsg, crsName: crs.name };
  } finally {
    await reader.close();
  }
}
