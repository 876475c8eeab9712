/**
 * What the measurement tools hand to a viewer and hear back from it, in plain
 * data (no Cesium, no deck.gl types): positions are WGS84 longitude and
 * latitude in degrees and heights in metres above the ellipsoid, as the
 * point tiles store them.
 */

/** A position on the globe: degrees and metres above the WGS84 ellipsoid. */
export interface GeodeticPosition {
  lon: number;
  lat: number;
  height: number;
}

/** Where a click landed, as a viewer found it. */
export interface PickedPosition {
  lon: number;
  lat: number;
  /** Metres above the ellipsoid; null when nothing under the click has a height (2D map off the cloud). */
  height: number | null;
  /** What was hit: a point of the cloud, the globe (3D fallback) or the map (2D, height from the nearest point). */
  source: 'cloud' | 'globe' | 'map';
}

/** A label drawn in the scene beside a position. */
export interface MeasureLabel {
  position: GeodeticPosition;
  text: string;
}

/** A drawn line: open (distance, profile) or closed (area). */
export interface MeasureLine {
  positions: GeodeticPosition[];
  closed: boolean;
  /** CSS colour. */
  color: string;
}

/** The measurement overlay of a scene: lines, vertices and labels; `active` turns clicks into picks. */
export interface MeasureScene {
  /** While true a click in the scene picks a position (a `measurePick` event) instead of a feature. */
  active: boolean;
  lines: MeasureLine[];
  vertices: GeodeticPosition[];
  labels: MeasureLabel[];
}

/** The colour of measurement lines and vertices (bright on points and imagery). */
export const MEASURE_COLOR = '#ffd400';
/** The colour of the profile line. */
export const PROFILE_COLOR = '#00e5ff';
