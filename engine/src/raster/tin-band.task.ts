import { createRaster } from './raster.js';
import { rasterizeTin } from './tin.js';

/** One horizontal band of a TIN rasterization, sent to a worker. */
export interface TinBandTask {
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  originX: number;
  /** North edge of the band. */
  originY: number;
  resolution: number;
  width: number;
  height: number;
  nodata: number;
}

/** Triangulates the band's points and samples the TIN at the band's cell centres. */
export function rasterizeTinBand(task: TinBandTask): Float32Array {
  const band = createRaster(task.width, task.height, task.originX, task.originY, task.resolution, null, task.nodata);
  rasterizeTin(task.x, task.y, task.z, task.x.length, band);
  return band.data;
}
