import { describe, expect, it } from 'vitest';
import { VIEWER_CONSTANTS } from '../viewer-constants.js';
import { zoomForDistance } from './map-zoom.js';

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
