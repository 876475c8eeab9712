/**
 * Web Mercator zoom whose view spans about `metres` vertically on an 800 px
 * map at `latitude` (spec §9 gives the 2D zoom limits as camera distances).
 */
export function zoomForDistance(metres: number, latitude = 0): number {
  const metresPerPixelAtZoom0 = (40_075_016.686 * Math.cos((latitude * Math.PI) / 180)) / 512;
  return Math.log2((metresPerPixelAtZoom0 * 800) / metres);
}

/** The camera distance of a Web Mercator zoom at `latitude`: the inverse of {@link zoomForDistance}. */
export function distanceForZoom(zoom: number, latitude = 0): number {
  const metresPerPixelAtZoom0 = (40_075_016.686 * Math.cos((latitude * Math.PI) / 180)) / 512;
  return (metresPerPixelAtZoom0 * 800) / 2 ** zoom;
}
