/**
 * Colour ramps of raster map tiles: grey shading (hillshade), the slope ramp
 * in degrees, or a hypsometric ramp over the raster's own range (DTM, DSM, CHM).
 */
export type TileRamp = 'shade' | 'slope' | 'elevation';

/** The ramps, for validating a stored ramp name. */
export const TILE_RAMPS: readonly TileRamp[] = ['shade', 'slope', 'elevation'];

/** An RGBA colour being filled in. */
export type Rgba = [number, number, number, number];

/** Linear colour ramp through stops `[value, r, g, b]`. */
function ramp(stops: number[][], v: number, out: Rgba): void {
  if (v <= stops[0]![0]!) {
    const s = stops[0]!;
    out[0] = s[1]!;
    out[1] = s[2]!;
    out[2] = s[3]!;
  } else if (v >= stops[stops.length - 1]![0]!) {
    const s = stops[stops.length - 1]!;
    out[0] = s[1]!;
    out[1] = s[2]!;
    out[2] = s[3]!;
  } else {
    let k = 1;
    while (stops[k]![0]! < v) k++;
    const a = stops[k - 1]!;
    const b = stops[k]!;
    const t = (v - a[0]!) / (b[0]! - a[0]!);
    out[0] = a[1]! + (b[1]! - a[1]!) * t;
    out[1] = a[2]! + (b[2]! - a[2]!) * t;
    out[2] = a[3]! + (b[3]! - a[3]!) * t;
  }
  out[3] = 255;
}

/** Slope ramp in degrees: flat green, yellow at 15°, orange at 30°, red from 45°. */
export const SLOPE_STOPS = [
  [0, 26, 150, 65],
  [15, 255, 255, 140],
  [30, 253, 174, 97],
  [45, 215, 25, 28],
  [90, 120, 0, 0],
];

/** Hypsometric ramp over the raster's own range (0 = lowest, 1 = highest). */
export const DTM_STOPS = [
  [0, 0, 97, 71],
  [0.25, 16, 122, 47],
  [0.5, 232, 215, 125],
  [0.75, 161, 67, 0],
  [1, 245, 245, 245],
];

/**
 * The colour function of a ramp (fills `out`, opaque); `range` is the value
 * range the elevation ramp spans (the raster's min and max).
 *
 * @example
 * const colour = colourer('elevation', { min: 310, max: 410 }); colour(350, px);
 */
export function colourer(layer: TileRamp, range: { min: number; max: number } | null): (v: number, out: Rgba) => void {
  if (layer === 'shade') {
    return (v, out) => {
      const g = Math.max(0, Math.min(255, Math.round(v)));
      out[0] = g;
      out[1] = g;
      out[2] = g;
      out[3] = 255;
    };
  }
  if (layer === 'slope') return (v, out) => ramp(SLOPE_STOPS, v, out);
  const r = range ?? { min: 0, max: 1 };
  const span = Math.max(1e-9, r.max - r.min);
  return (v, out) => ramp(DTM_STOPS, (v - r.min) / span, out);
}
