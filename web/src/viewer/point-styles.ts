import type { IntensityRange, PointMode } from './scene.types.js';

/**
 * Colours of the four point modes (RGB, Class, Intensity, Elevation), once as
 * GLSL for Cesium and once as a plain function (the reference the tests check
 * and the 2D map uses).
 *
 * The tiler writes point contents as glTF (engine/src/writers/3dtiles.writer.ts):
 * colour in `COLOR_0` (sRGB bytes), `Classification` (uint8, ASPRS code) and
 * `Intensity` (uint16, as stored in the LAS file) as EXT_structural_metadata
 * property attributes. CesiumJS styles glTF points only through a custom
 * shader (its declarative styles run per point only for PNTS contents), so the
 * modes are fragment shaders reading `fsInput.metadata.*`,
 * `fsInput.attributes.color_0` and `positionWC`.
 */

/** Code standing for every class the spec does not list (8, 12, 29+). */
export const OTHER_CLASSES = 1000;

/** One ASPRS class of spec §3 with its display colour. */
export interface PointClass {
  code: number;
  /** Key in the viewer namespace (`classes.<code>`). */
  labelKey: string;
  /** CSS hex colour (sRGB). */
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

/** Mean Earth radius (metres): curvature correction of the local height. */
const EARTH_RADIUS = 6371000;

/** Where the cloud sits, to turn ECEF positions into heights. */
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

/** Settings the colours depend on. */
export interface PointStyleOptions {
  mode: PointMode;
  /** False when the tileset has no colour (RGB mode then shows intensity). */
  hasColor: boolean;
  heightFrame?: HeightFrame | undefined;
  intensity?: IntensityRange | undefined;
  hiddenClasses?: readonly number[] | undefined;
}

/** The attributes of one point the colour depends on. */
export interface PointSample {
  classification: number;
  intensity: number;
  /** sRGB bytes, when the cloud has colour. */
  rgb?: readonly [number, number, number];
  /** ECEF position (metres). */
  position?: readonly [number, number, number];
}

/** A float literal GLSL accepts: always with a decimal point. */
export function num(v: number): string {
  if (!Number.isFinite(v)) throw new RangeError(`not a finite number: ${v}`);
  const s = String(v);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

function hexToRgb(hex: string): [number, number, number] {
  const v = Number.parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

function glslColor(hex: string): string {
  const [r, g, b] = hexToRgb(hex);
  return `vec3(${num(r / 255)}, ${num(g / 255)}, ${num(b / 255)})`;
}

/**
 * The 8-bit intensity shown for a stored value (spec §9): values above 255
 * are divided by 257.
 */
export function intensityTo8Bit(value: number): number {
  return value > 255 ? value / 257 : value;
}

/** The grey level (0..255) of an intensity, stretched by the asset monitor's range when given. */
export function intensityGrey(value: number, range?: IntensityRange): number {
  const i8 = intensityTo8Bit(value);
  const g = range && range.max > range.min ? ((i8 - range.min) * 255) / (range.max - range.min) : i8;
  return Math.max(0, Math.min(255, g));
}

/** The class a LAS code is shown as (unlisted codes: "others"). */
export function classOf(code: number): PointClass {
  return POINT_CLASSES.find((c) => c.code === code) ?? POINT_CLASSES.find((c) => c.code === OTHER_CLASSES)!;
}

/** True when the class of `code` is hidden. */
export function isHidden(code: number, hidden: readonly number[]): boolean {
  return hidden.includes(LISTED_CODES.includes(code) ? code : OTHER_CLASSES);
}

/** The colour of the ramp at `t` (0..1) as sRGB bytes. */
export function rampAt(t: number): [number, number, number] {
  const n = ELEVATION_RAMP.length - 1;
  const x = Math.max(0, Math.min(1, t)) * n;
  const k = Math.min(n - 1, Math.floor(x));
  const a = hexToRgb(ELEVATION_RAMP[k]!);
  const b = hexToRgb(ELEVATION_RAMP[k + 1]!);
  const f = x - k;
  return [0, 1, 2].map((i) => Math.round(a[i]! + (b[i]! - a[i]!) * f)) as [number, number, number];
}

/** The ramp colour at `t` as CSS. */
export function rampColorAt(t: number): string {
  const [r, g, b] = rampAt(t);
  return `rgb(${r}, ${g}, ${b})`;
}

/** Height above the ellipsoid of an ECEF position: local up component plus the drop of the curved surface. */
export function heightOf(p: readonly [number, number, number], f: HeightFrame): number {
  const d = [p[0] - f.origin[0], p[1] - f.origin[1], p[2] - f.origin[2]];
  const u = d[0]! * f.up[0] + d[1]! * f.up[1] + d[2]! * f.up[2];
  const dd = d[0]! ** 2 + d[1]! ** 2 + d[2]! ** 2;
  return f.originHeight + u + (dd - u * u) / (2 * EARTH_RADIUS);
}

/**
 * The colour of one point (sRGB bytes), or null when its class is hidden:
 * the reference of the GLSL of {@link pointShaderSource}.
 */
export function pointColor(options: PointStyleOptions, p: PointSample): [number, number, number] | null {
  if (isHidden(p.classification, options.hiddenClasses ?? [])) return null;
  const grey = (): [number, number, number] => {
    const g = Math.round(intensityGrey(p.intensity, options.intensity));
    return [g, g, g];
  };
  switch (options.mode) {
    case 'RGB':
      return options.hasColor && p.rgb ? [p.rgb[0], p.rgb[1], p.rgb[2]] : grey();
    case 'INTENSITY':
      return grey();
    case 'CLASS':
      return hexToRgb(classOf(p.classification).color);
    case 'ELEVATION': {
      const f = options.heightFrame;
      if (!f || !p.position) return rampAt(0);
      const span = f.maxHeight - f.minHeight;
      return rampAt((heightOf(p.position, f) - f.minHeight) / (span > 0 ? span : 1));
    }
  }
}

/** Uniforms of the point shader and their values (Cesium `UniformType`: FLOAT, VEC2, VEC3). */
export interface PointShaderUniforms {
  /** Smallest point size (pixels): the size of points in fully refined tiles. */
  u_pointSize: number;
  /** Largest size a point grows to when its tile is coarse (pixels). */
  u_maxPointSize: number;
  u_origin: [number, number, number];
  u_up: [number, number, number];
  /** Origin height, ramp minimum height, ramp span (metres). */
  u_heights: [number, number, number];
  /** Intensity stretch: minimum and scale (255 / (max - min)), or 0 and 1. */
  u_intensity: [number, number];
}

/** GLSL of a point mode for a Cesium `CustomShader`, and its uniforms. */
export interface PointShaderSource {
  vertexShaderText: string;
  fragmentShaderText: string;
  uniforms: PointShaderUniforms;
}

/** Largest attenuated point size for a chosen size (pixels). */
export function maxPointSize(size: number): number {
  return Math.max(clampPointSize(size), Math.min(20, clampPointSize(size) * 4));
}

/** Point size clamped to what every GPU draws (pixels). */
export function clampPointSize(size: number): number {
  return Math.max(1, Math.min(20, Number.isFinite(size) ? size : 2));
}

/**
 * The custom shader of a point mode. Colours are written in linear space
 * (Cesium converts unlit colours back to sRGB), so palette and LAS colours
 * show exactly as given.
 *
 * @example
 * const src = pointShaderSource({ mode: 'CLASS', hasColor: true }, 2);
 * tileset.customShader = new CustomShader({ ...src, uniforms: toCesiumUniforms(src.uniforms), lightingModel: LightingModel.UNLIT });
 */
export function pointShaderSource(options: PointStyleOptions, pointSize: number): PointShaderSource {
  const f = options.heightFrame;
  const span = f ? f.maxHeight - f.minHeight : 1;
  const range = options.intensity;
  const stretch = range && range.max > range.min;
  const uniforms: PointShaderUniforms = {
    u_pointSize: clampPointSize(pointSize),
    u_maxPointSize: maxPointSize(pointSize),
    u_origin: f ? f.origin : [0, 0, 0],
    u_up: f ? f.up : [0, 0, 1],
    u_heights: f ? [f.originHeight, f.minHeight, span > 0 ? span : 1] : [0, 0, 1],
    u_intensity: stretch ? [range.min, 255 / (range.max - range.min)] : [0, 1],
  };
  const lines: string[] = [];
  lines.push('void fragmentMain(FragmentInput fsInput, inout czm_modelMaterial material) {');
  // Round points: the corners of the square sprite are dropped.
  lines.push('  if (length(gl_PointCoord - vec2(0.5)) > 0.5) discard;');
  lines.push('  float cls = float(fsInput.metadata.Classification);');
  const hidden = options.hiddenClasses ?? [];
  const hiddenTests = hidden.filter((c) => c !== OTHER_CLASSES).map((c) => `abs(cls - ${num(c)}) < 0.5`);
  if (hidden.includes(OTHER_CLASSES)) {
    hiddenTests.push(`!(${LISTED_CODES.map((c) => `abs(cls - ${num(c)}) < 0.5`).join(' || ')})`);
  }
  if (hiddenTests.length > 0) lines.push(`  if (${hiddenTests.join(' || ')}) discard;`);
  const greyLines = [
    '  float i = float(fsInput.metadata.Intensity);',
    '  i = i > 255.0 ? i / 257.0 : i;',
    '  float g = clamp((i - u_intensity.x) * u_intensity.y, 0.0, 255.0) / 255.0;',
    '  vec3 srgb = vec3(g);',
  ];
  const mode = options.mode === 'RGB' && !options.hasColor ? 'INTENSITY' : options.mode;
  switch (mode) {
    case 'RGB':
      lines.push('  vec3 srgb = fsInput.attributes.color_0.rgb;');
      break;
    case 'INTENSITY':
      lines.push(...greyLines);
      break;
    case 'CLASS': {
      lines.push(`  vec3 srgb = ${glslColor(classOf(OTHER_CLASSES).color)};`);
      for (const c of POINT_CLASSES) {
        if (c.code === OTHER_CLASSES) continue;
        lines.push(`  if (abs(cls - ${num(c.code)}) < 0.5) srgb = ${glslColor(c.color)};`);
      }
      break;
    }
    case 'ELEVATION': {
      lines.push(
        '  vec3 d = fsInput.attributes.positionWC - u_origin;',
        '  float u = dot(d, u_up);',
        `  float h = u_heights.x + u + (dot(d, d) - u * u) / ${num(2 * EARTH_RADIUS)};`,
        '  float t = clamp((h - u_heights.y) / u_heights.z, 0.0, 1.0);',
      );
      const n = ELEVATION_RAMP.length - 1;
      lines.push(`  float x = t * ${num(n)};`);
      lines.push(`  vec3 srgb = ${glslColor(ELEVATION_RAMP[n]!)};`);
      for (let k = n - 1; k >= 0; k--) {
        lines.push(
          `  if (x < ${num(k + 1)}) srgb = mix(${glslColor(ELEVATION_RAMP[k]!)}, ${glslColor(ELEVATION_RAMP[k + 1]!)}, x - ${num(k)});`,
        );
      }
      break;
    }
  }
  lines.push('  material.diffuse = czm_srgbToLinear(srgb);');
  lines.push('}');
  // Attenuation: a point covers the spacing of its tile on screen (between the chosen
  // size and the maximum), so coarse tiles read as surfaces rather than dots. Cesium
  // declares model_pointCloudParameters (x: max size, y: tile spacing, z: pixels per
  // metre at depth 1) when the tileset's point cloud attenuation is on.
  const vertexShaderText = [
    'void vertexMain(VertexInput vsInput, inout czm_modelVertexOutput vsOutput) {',
    '  float size = u_pointSize;',
    '#ifdef HAS_POINT_CLOUD_ATTENUATION',
    '  vec4 positionEC = czm_modelView * vec4(vsOutput.positionMC, 1.0);',
    '  float depth = max(-positionEC.z, 0.001);',
    '  size = clamp(model_pointCloudParameters.y / depth * model_pointCloudParameters.z, u_pointSize, u_maxPointSize);',
    '#endif',
    '  vsOutput.pointSize = size;',
    '}',
  ].join('\n');
  return { vertexShaderText, fragmentShaderText: lines.join('\n'), uniforms };
}

/** An elevation range with finite, ordered ends, or undefined. */
export function normaliseElevation(
  range: { min: number; max: number } | undefined,
): { min: number; max: number } | undefined {
  if (!range || !Number.isFinite(range.min) || !Number.isFinite(range.max)) return undefined;
  return range.min <= range.max ? range : { min: range.max, max: range.min };
}

/** Columns of many points, for {@link colorizePoints}. */
export interface PointColumns {
  count: number;
  classification: Uint8Array;
  intensity: Uint16Array;
  /** sRGB bytes, rgb per point. */
  rgb?: Uint8Array | undefined;
  /** Ellipsoidal heights (metres), for the Elevation mode. */
  heights?: Float32Array | Float64Array | undefined;
}

/**
 * RGBA bytes of many points at once (the 2D map's colours): the same colours
 * as {@link pointColor}, through lookup tables; hidden classes get alpha 0.
 */
export function colorizePoints(
  options: PointStyleOptions,
  p: PointColumns,
  out = new Uint8Array(p.count * 4),
): Uint8Array {
  const hidden = options.hiddenClasses ?? [];
  const classLut = new Uint8Array(256 * 4);
  for (let c = 0; c < 256; c++) {
    const [r, g, b] = hexToRgb(classOf(c).color);
    classLut.set([r, g, b, isHidden(c, hidden) ? 0 : 255], c * 4);
  }
  const mode = options.mode === 'RGB' && !(options.hasColor && p.rgb) ? 'INTENSITY' : options.mode;
  const f = options.heightFrame;
  const span = f && f.maxHeight > f.minHeight ? f.maxHeight - f.minHeight : 1;
  const rampLut = new Uint8Array(1024 * 3);
  if (mode === 'ELEVATION') for (let i = 0; i < 1024; i++) rampLut.set(rampAt(i / 1023), i * 3);
  for (let i = 0; i < p.count; i++) {
    const cls = p.classification[i]!;
    const o = i * 4;
    out[o + 3] = classLut[cls * 4 + 3]!;
    switch (mode) {
      case 'CLASS':
        out[o] = classLut[cls * 4]!;
        out[o + 1] = classLut[cls * 4 + 1]!;
        out[o + 2] = classLut[cls * 4 + 2]!;
        break;
      case 'RGB':
        out[o] = p.rgb![i * 3]!;
        out[o + 1] = p.rgb![i * 3 + 1]!;
        out[o + 2] = p.rgb![i * 3 + 2]!;
        break;
      case 'INTENSITY': {
        const g = Math.round(intensityGrey(p.intensity[i]!, options.intensity));
        out[o] = g;
        out[o + 1] = g;
        out[o + 2] = g;
        break;
      }
      case 'ELEVATION': {
        const h = p.heights?.[i] ?? (f ? f.minHeight : 0);
        const t = f ? Math.max(0, Math.min(1, (h - f.minHeight) / span)) : 0;
        const k = Math.round(t * 1023) * 3;
        out[o] = rampLut[k]!;
        out[o + 1] = rampLut[k + 1]!;
        out[o + 2] = rampLut[k + 2]!;
        break;
      }
    }
  }
  return out;
}
