import { ecefToEnu, ecefToGeodetic } from '../glb-points.js';
import type { SampledCloud } from './tileset-sampler.js';

/**
 * Where the 2D map draws a cloud's points: east-north offsets in metres
 * from the footprint's centre (deck.gl's METER_OFFSETS), laid on the map's
 * plane (z = 0, the origin at height 0), with each point's ellipsoidal
 * height kept aside for the colours (Elevation mode).
 *
 * Flat on purpose: deck.gl's map view puts its far plane 1 % of the camera
 * distance below the map (farZMultiplier 1.01, top-down), so points drawn at
 * their heights are cut away wherever those are below sea level by more
 * than that, as ellipsoidal heights often are (geoid undulation −25 m in
 * Arizona: WilliamsAZ showed only its tallest trees, one small mark), and a
 * cloud high in the mountains would be above a close camera.
 */
export interface MapPoints {
  /** Longitude, latitude (degrees) of the footprint's centre, height 0. */
  origin: [number, number, 0];
  /** East, north, 0 (metres from `origin`) per point. */
  positions: Float32Array;
  /** Ellipsoidal height (metres) per point. */
  heights: Float32Array;
  /** Lowest and highest height: the tiler's box, else the points'. */
  minHeight: number;
  maxHeight: number;
}

/**
 * Positions of a sampled cloud on the map.
 *
 * @example
 * const { origin, positions } = mapPoints(await sampleTileset(url));
 * new PointCloudLayer({ coordinateSystem: COORDINATE_SYSTEM.METER_OFFSETS, coordinateOrigin: origin, ... });
 */
export function mapPoints(sample: Pick<SampledCloud, 'count' | 'ecef' | 'extras'>): MapPoints {
  const box = sample.extras.bboxWgs84;
  // Without the tiler's box: around the first point.
  const [lon, lat, base] = box
    ? [(box.west + box.east) / 2, (box.south + box.north) / 2, box.minHeight]
    : sample.count > 0
      ? ecefToGeodetic(sample.ecef[0]!, sample.ecef[1]!, sample.ecef[2]!)
      : [0, 0, 0];
  const enu = ecefToEnu(sample.ecef, [lon, lat, base]);
  const heights = new Float32Array(sample.count);
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < sample.count; i++) {
    const h = base + enu[i * 3 + 2]!;
    heights[i] = h;
    if (h < low) low = h;
    if (h > high) high = h;
    enu[i * 3 + 2] = 0;
  }
  const minHeight = box?.minHeight ?? (sample.count > 0 ? low : 0);
  const maxHeight = box?.maxHeight ?? (sample.count > 0 ? high : minHeight + 1);
  return { origin: [lon, lat, 0], positions: enu, heights, minHeight, maxHeight };
}
