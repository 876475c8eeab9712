import { describe, expect, it } from 'vitest';
import { VIEWER_CONSTANTS } from '../viewer-constants.js';
import { distanceForZoom, zoomForDistance } from './map-zoom.js';

describe('zoomForDistance (spec §9 2D zoom limits)', () => {
  it('turns camera distances into Web Mercator zooms', () => {
    // 4,378,137 m shows about a continent: zoom 3.
    expect(zoomForDistance(VIEWER_CONSTANTS.maximumZoomDistance2d)).toBeCloseTo(3.84, 1);
    // 20 m shows a few trees: zoom 21.6.
    expect(zoomForDistance(VIEWER_CONSTANTS.minimumZoomDistance)).toBeCloseTo(21.58, 1);
    // Halving the distance is one zoom level.
    expect(zoomForDistance(500) - zoomForDistance(1000)).toBeCloseTo(1, 9);
  });
});

describe('distanceForZoom (the camera kept when switching 3D and 2D)', () => {
  it('is the inverse of zoomForDistance at any latitude', () => {
    for (const [d, lat] of [
      [20, 0],
      [350, 35.25],
      [4_378_137, -60],
    ] as const) {
      expect(distanceForZoom(zoomForDistance(d, lat), lat)).toBeCloseTo(d, 6);
    }
    expect(distanceForZoom(17, 35.25)).toBeCloseTo(2 * distanceForZoom(18, 35.25), 9);
  });
});
