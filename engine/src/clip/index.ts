/**
 * Clip and download: the points of a cloud inside a polygon, a box or a
 * corridor, streamed to LAS 1.4.
 *
 * @example
 * const { area } = areaFromGeoJson(geojson, 'polygon', { crs: reader.crs });
 * await clipPointCloud('in.laz', 'out.las', { area: compileArea(area), classes: [2, 6] });
 */
export { type ClipArea, type CompiledArea, compileArea, type Ring } from './area.js';
export {
  type ClipFormat,
  type ClipOptions,
  type ClipResult,
  checkClasses,
  clipPointCloud,
  clipPredicate,
  clipReader,
  lazClipPossible,
  RETURNS_FILTERS,
  type ReturnsFilter,
} from './clip.js';
export { type ClipEstimate, estimateClip, outputRecordLength } from './estimate.js';
export { type AreaFromGeoJsonOptions, areaFromGeoJson, CLIP_KINDS, type ClipKind, type GeoJsonCrs } from './geojson.js';
