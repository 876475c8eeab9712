// biome-ignore-all lint/suspicious/noTemplateCurlyInString: 3D Tiles style expressions use ${name} for per-point variables.
import type { ElevationRange, IntensityRange, PointMode } from './scene.types.js';

/**
 * 3D Tiles styles of the four point modes, as plain JSON (what
 * `new Cesium3DTileStyle(json)` takes), built without Cesium so they can be
 * tested and shared with the 2D map.
 *
 * The tiler writes each point's `Classification` (uint8, ASPRS code) and
 * `Intensity` (uint16, as stored in the LAS file) as EXT_structural_metadata
 * property attributes and its colour as `COLOR_0` (engine/src/writers/3dtiles.writer.ts);
 * CesiumJS compiles these styles to the GPU, where `${Classification}`,
 * `${Intensity}`, `${COLOR}` and `${POSITION_ABSOLUTE}` (ECEF metres) are read per point.
 */

/** Code standing for every class the spec does not list (8, 12, 29+). */
export const OTHER_CLASSES = 1000;

/** One ASPRS class of spec §3 with its display colour. */
export interface PointClass {
  code: number;
  /** Key in the viewer namespace (`classes.<code>`). */
  labelKey: string;
  /** CSS hex colour. */
  color: string;
}

/**
 * The classes of spec §3 (LAS codes 0–28 without 8 and 12, plus "others"),
 * coloured after the usual ASPRS conventions (brown ground, greens for
 * vegetation by height, red buildings, blue water, yellow wires, magenta noise).
 */
export const POINT_CLASSES: readonly PointClass[] = [
  { code: 0, color: '#8c8c8c' },
  { code: 1, color: '#c9c9c9' },
  { code: 2, color: '#b5854b' },
  { code: 3, color: '#a8e36b' },
  { code: 4, color: '#4cb848' },
  { code: 5, color: '#1d7a34' },
  { code: 6, color: '#e4572e' },
  { code: 7, color: '#ff2bd6' },
  { code: 9, color: '#2f8fe0' },
  { code: 10, color: '#7d5a3c' },
  { code: 11, color: '#5e6068' },
  { code: 13, color: '#ffe14d' },
  { code: 14, color: '#fff200' },
  { code: 15, color: '#ff9a1f' },
  { code: 16, color: '#d9a91a' },
  { code: 17, color: '#9b87d4' },
  { code: 18, color: '#ff1f7a' },
  { code: 19, color: '#c772b8' },
  { code: 20, color: '#d9c3a0' },
  { code: 21, color: '#eef6ff' },
  { code: 22, color: '#6b6b6b' },
  { code: 23, color: '#c0392b' },
  { code: 24, color: '#19c6cf' },
  { code: 25, color: '#ffb08a' },
  { code: 26, color: '#9a5b2a' },
  { code: 27, color: '#5f7a2f' },
  { code: 28, color: '#2146a8' },
  { code: OTHER_CLASSES, color: '#f2f2f2' },
].map((c) => ({ ...c, labelKey: `viewer:classes.${c.code}` }));

/** Stops of the elevation ramp (low to high): deep blue, cyan, green, yellow, orange, red. */
export const ELEVATION_RAMP: readonly string[] = ['#2b3ea8', '#1f9bd1', '#2dbd6e', '#d9e021', '#f7931e', '#d7301f'];

/** Codes of the listed classes (everything else is shown as "others"). */
const LISTED_CODES = POINT_CLASSES.filter((c) => c.code !== OTHER_CLASSES).map((c) => c.code);

/** A point-cloud style as `Cesium3DTileStyle` reads it. */
export interface PointStyleJson {
  color: string | { conditions: Array<[string, string]> };
  pointSize: string;
  show?: string;
}

/** Where the cloud sits, to turn ECEF positions into heights on the GPU. */
export interface HeightFrame {
  /** ECEF (metres) of a point of the cloud's footprint at ellipsoidal height `originHeight`. */
  origin: [number, number, number];
  /** Unit normal of the ellipsoid at `origin`. */
  up: [number, number, number];
  /** Ellipsoidal height of `origin` (metres). */
  originHeight: number;
  /** Heights of the ramp's two ends (metres above the ellipsoid). */
  minHeight: number;
  maxHeight: number;
}

/** Settings a style depends on. */
export interface PointStyleOptions {
  mode: PointMode;
  pointSize: number;
  /** False when the tileset has no colour (RGB mode then shows intensity). */
  hasColor: boolean;
  heightFrame?: HeightFrame | undefined;
  intensity?: IntensityRange | undefined;
  hiddenClasses?: readonly number[] | undefined;
}

/** A float literal the style language (and GLSL) accepts: always with a decimal point. */
export function num(v: number): string {
  if (!Number.isFinite(v)) throw new RangeError(`not a finite number: ${v}`);
  const s = String(v);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

/**
 * Substitutes `${name}` of each define, defines within defines included
 * (Cesium replaces style defines one pass only, in key order).
 */
export function expandDefines(expression: string, defines: Record<string, string>): string {
  let out = expression;
  for (let pass = 0; pass < 8; pass++) {
    const next = out.replace(/\$\{(\w+)\}/g, (m, name: string) => (name in defines ? `(${defines[name]})` : m));
    if (next === out) return out;
    out = next;
  }
  throw new RangeError('style defines refer to each other in a loop');
}

function vec3(v: readonly [number, number, number]): string {
  return `vec3(${num(v[0])}, ${num(v[1])}, ${num(v[2])})`;
}

/** Mean Earth radius (metres): curvature correction of the local height. */
const EARTH_RADIUS = 6371000;

/**
 * The 8-bit intensity of a point: values above 255 are 16-bit and divided by
 * 257 (spec §9); an intensity range stretches the result to 0..255.
 */
function intensityDefines(range: IntensityRange | undefined): Record<string, string> {
  const i8 = '${Intensity} > 255.0 ? ${Intensity} / 257.0 : ${Intensity}';
  if (!range || !(range.max > range.min)) return { i8, grey: 'clamp(${i8}, 0.0, 255.0)' };
  const scale = 255 / (range.max - range.min);
  return { i8, grey: `clamp((\${i8} - ${num(range.min)}) * ${num(scale)}, 0.0, 255.0)` };
}

/** The colour of the elevation ramp at `${t}` (0..1) as style conditions. */
function rampConditions(): Array<[string, string]> {
  const n = ELEVATION_RAMP.length - 1;
  const out: Array<[string, string]> = [];
  for (let k = 0; k < n; k++) {
    const lo = k / n;
    const test = k === n - 1 ? 'true' : `\${t} < ${num((k + 1) / n)}`;
    out.push([
      test,
      `mix(color('${ELEVATION_RAMP[k]}'), color('${ELEVATION_RAMP[k + 1]}'), (\${t} - ${num(lo)}) * ${num(n)})`,
    ]);
  }
  return out;
}

/**
 * The style of a point mode.
 *
 * @example
 * tileset.style = new Cesium3DTileStyle(pointStyle({ mode: 'CLASS', pointSize: 2, hasColor: true }));
 */
export function pointStyle(options: PointStyleOptions): PointStyleJson {
  const pointSize = num(Math.max(1, Math.min(20, options.pointSize)));
  const hidden = options.hiddenClasses ?? [];
  const show = hidden.length > 0 ? showExpression(hidden) : undefined;
  const withShow = (s: PointStyleJson): PointStyleJson => (show ? { ...s, show } : s);
  switch (options.mode) {
    case 'RGB':
      if (options.hasColor) return withShow({ color: '${COLOR}', pointSize });
      return withShow(pointStyle({ ...options, mode: 'INTENSITY', hiddenClasses: [] }));
    case 'INTENSITY': {
      const defines = intensityDefines(options.intensity);
      return withShow({ color: expandDefines('rgb(${grey}, ${grey}, ${grey})', defines), pointSize });
    }
    case 'CLASS':
      return withShow({
        color: {
          conditions: [
            ...POINT_CLASSES.filter((c) => c.code !== OTHER_CLASSES).map((c): [string, string] => [
              `\${Classification} === ${num(c.code)}`,
              `color('${c.color}')`,
            ]),
            ['true', `color('${POINT_CLASSES.find((c) => c.code === OTHER_CLASSES)!.color}')`],
          ],
        },
        pointSize,
      });
    case 'ELEVATION': {
      const f = options.heightFrame;
      if (!f) throw new RangeError('the elevation mode needs the height frame of the cloud');
      const span = f.maxHeight - f.minHeight;
      const defines = {
        d: `(\${POSITION_ABSOLUTE} - ${vec3(f.origin)})`,
        u: `dot(\${d}, ${vec3(f.up)})`,
        // Height above the ellipsoid: the local up component plus the drop of the curved surface.
        h: `(${num(f.originHeight)} + \${u} + (dot(\${d}, \${d}) - \${u} * \${u}) / ${num(2 * EARTH_RADIUS)})`,
        t: `clamp((\${h} - ${num(f.minHeight)}) / ${num(span > 0 ? span : 1)}, 0.0, 1.0)`,
      };
      const conditions = rampConditions().map(([test, color]): [string, string] => [
        expandDefines(test, defines),
        expandDefines(color, defines),
      ]);
      return withShow({ color: { conditions }, pointSize });
    }
  }
}

/** Hides the given classes (1000: every class the spec does not list). */
function showExpression(hidden: readonly number[]): string {
  const parts = hidden.filter((c) => c !== OTHER_CLASSES).map((c) => `\${Classification} !== ${num(c)}`);
  if (hidden.includes(OTHER_CLASSES)) {
    parts.push(`(${LISTED_CODES.map((c) => `\${Classification} === ${num(c)}`).join(' || ')})`);
  }
  return parts.join(' && ');
}

/**
 * The colour of the ramp at `t` (0..1) as CSS, for the legend (same stops as
 * the style).
 */
export function rampColorAt(t: number): string {
  const n = ELEVATION_RAMP.length - 1;
  const x = Math.max(0, Math.min(1, t)) * n;
  const k = Math.min(n - 1, Math.floor(x));
  const a = hexToRgb(ELEVATION_RAMP[k]!);
  const b = hexToRgb(ELEVATION_RAMP[k + 1]!);
  const f = x - k;
  const c = a.map((v, i) => Math.round(v + (b[i]! - v) * f));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

function hexToRgb(hex: string): [number, number, number] {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** The class a LAS code is shown as (unlisted codes: "others"). */
export function classOf(code: number): PointClass {
  return POINT_CLASSES.find((c) => c.code === code) ?? POINT_CLASSES.find((c) => c.code === OTHER_CLASSES)!;
}

/**
 * The 8-bit intensity shown for a stored value (spec §9): values above 255
 * are divided by 257. Mirrors the style, for the legend and the 2D map.
 */
export function intensityTo8Bit(value: number): number {
  return value > 255 ? value / 257 : value;
}

/** Keeps elevation ranges ordered and non-empty. */
export function normaliseElevation(range: ElevationRange | undefined): ElevationRange | undefined {
  if (!range || !Number.isFinite(range.min) || !Number.isFinite(range.max)) return undefined;
  return range.min <= range.max ? range : { min: range.max, max: range.min };
}
