/** Viewer constants of spec §9. */
export const VIEWER_CONSTANTS = {
  /** Frames per second the 3D viewer aims at. */
  targetFrameRate: 20,
  /** Point size when the server gives none (pixels). */
  defaultPointSize: 2,
  /** Screen-space error of the point-cloud tilesets (pixels). */
  maximumScreenSpaceError: 120,
  /** Tile cache and its overflow (bytes): 100 MB + 100 MB. */
  tileCacheBytes: 100 * 1024 * 1024,
  tileCacheOverflowBytes: 100 * 1024 * 1024,
  /** Closest and farthest camera distances (metres). */
  minimumZoomDistance: 20,
  maximumZoomDistance3d: 99_999_999,
  maximumZoomDistance2d: 4_378_137,
} as const;
