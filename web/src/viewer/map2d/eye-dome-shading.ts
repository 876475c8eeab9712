/**
 * Eye-dome lighting of the 2D map: the shaders and their plain reference.
 *
 * The map draws its points flat (map-points.ts), so the depth buffer says
 * nothing. Seen from straight above, a point's depth is the camera's height
 * minus the point's: the map lays out the points' heights in a height
 * texture (the highest point of each pixel wins) and shades each pixel with
 * the classic eye-dome formula (Boucheny's, as CloudCompare, Potree and
 * Cesium use it) on that depth:
 *
 *   depth(p)  = distance + (maxHeight − height(p))      (metres from the camera)
 *   response  = mean over the neighbours n at `radius` px that hold a point of
 *               max(0, log2 depth(p) − log2 depth(n))
 *   shade     = exp(−300 · strength · response)
 *
 * Eight neighbours around the pixel (Potree, CloudCompare); a fractional
 * radius mixes the depths at the radius' floor and ceiling (Cesium's way), so
 * 0.5 px shades half as much as 1 px; `distance` is the camera's distance to
 * the highest point, so the shading grows as one zooms in, like the 3D view's.
 * The colour of a shaded pixel is multiplied by `shade`.
 */

/** How many neighbours each pixel looks at, evenly around it. */
export const NEIGHBOUR_COUNT = 8;

/** Scale of the response in the formula (the value CloudCompare, Potree and Cesium use). */
export const RESPONSE_SCALE = 300;

/** Settings of one shading pass. */
export interface EyeDomeSettings {
  /** Darkening factor (0.1..5). */
  strength: number;
  /** Distance to the neighbours, in device pixels (> 0). */
  radius: number;
  /** Distance from the camera to the highest point (metres, > 0). */
  distance: number;
}

/**
 * A top-down height image: `heights[y * width + x]` is the height (metres) of
 * the highest point drawn in that pixel, NaN where no point is drawn.
 */
export interface HeightImage {
  width: number;
  height: number;
  heights: Float32Array;
  /** Highest height of the image's clouds (the depth's reference). */
  maxHeight: number;
}

/** Pixel offsets (device pixels) of the neighbours at `radius`: on a circle, rounded to the nearest pixel. */
export function neighbourOffsets(radius: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < NEIGHBOUR_COUNT; i++) {
    const a = (2 * Math.PI * i) / NEIGHBOUR_COUNT;
    // Math.round of −0.5 gives −0; GLSL's round is free there: floor(x + 0.5) in both.
    out.push([Math.floor(Math.cos(a) * radius + 0.5), Math.floor(Math.sin(a) * radius + 0.5)]);
  }
  return out;
}

/**
 * The shade (0..1, 1: unchanged) of pixel (x, y) of `image`, or null where it
 * holds no point (left as drawn). The same arithmetic as {@link SHADE_FS}.
 *
 * @example
 * // A 10 m roof beside flat ground, 3 km away: the ground pixel at its foot darkens.
 * shadeAt(image, 4, 5, { strength: 1, radius: 1, distance: 3000 }); // ≈ 0.58
 */
export function shadeAt(image: HeightImage, x: number, y: number, settings: EyeDomeSettings): number | null {
  const at = (px: number, py: number): number => {
    if (px < 0 || py < 0 || px >= image.width || py >= image.height) return Number.NaN;
    return image.heights[py * image.width + px]!;
  };
  const depthOf = (h: number) => settings.distance + (image.maxHeight - h);
  const own = at(x, y);
  if (Number.isNaN(own)) return null;
  const logDepth = Math.log2(depthOf(own));
  const low = Math.floor(settings.radius);
  const mix = settings.radius - low;
  const near = neighbourOffsets(low);
  const far = neighbourOffsets(low + 1);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < NEIGHBOUR_COUNT; i++) {
    const h0 = at(x + near[i]![0], y + near[i]![1]);
    const h1 = at(x + far[i]![0], y + far[i]![1]);
    if (Number.isNaN(h0) || Number.isNaN(h1)) continue;
    const depth = depthOf(h0) * (1 - mix) + depthOf(h1) * mix;
    sum += Math.max(0, logDepth - Math.log2(depth));
    count++;
  }
  const response = count > 0 ? sum / count : 0;
  return Math.exp(-response * RESPONSE_SCALE * settings.strength);
}

/**
 * The camera's distance (metres) to the highest point of a top-down map view:
 * deck.gl's map camera stands `altitude` screen heights above the map's
 * centre, `metresPerPixel` metres per CSS pixel there.
 *
 * @example
 * cameraDistance({ altitude: 1.5, height: 800, metresPerPixel: 0.25 }); // 300
 */
export function cameraDistance(view: { altitude: number; height: number; metresPerPixel: number }): number {
  return Math.max(1, view.altitude * view.height * view.metresPerPixel);
}

/**
 * Shader module of the clouds' height pass: each point's height (metres) in
 * `instanceHeights`; while `heightPass` is 1 the point writes its height,
 * normalised to `minHeight..maxHeight` and packed in 24 bits of RGB (alpha 1:
 * "a point here"), and lies at a depth that lets the highest point of a
 * pixel win; points of hidden classes (alpha 0) write nothing. While 0 the
 * layer draws its colours as usual.
 */
export const heightPassModule = {
  name: 'eyeDomeHeights',
  vs: /* glsl */ `\
layout(std140) uniform eyeDomeHeightsUniforms {
  float heightPass;
  float minHeight;
  float maxHeight;
} eyeDomeHeights;
`,
  fs: /* glsl */ `\
layout(std140) uniform eyeDomeHeightsUniforms {
  float heightPass;
  float minHeight;
  float maxHeight;
} eyeDomeHeights;

vec4 eyeDome_packHeight(float t) {
  float v = floor(clamp(t, 0.0, 1.0) * 16777215.0 + 0.5);
  float r = floor(v / 65536.0);
  float g = floor((v - r * 65536.0) / 256.0);
  float b = v - r * 65536.0 - g * 256.0;
  return vec4(r, g, b, 255.0) / 255.0;
}
`,
  uniformTypes: { heightPass: 'f32', minHeight: 'f32', maxHeight: 'f32' },
  defaultUniforms: { heightPass: 0, minHeight: 0, maxHeight: 1 },
  inject: {
    'vs:#decl': 'in float instanceHeights;\nout float vEyeDomeHeight;\n',
    'vs:#main-end': /* glsl */ `\
  vEyeDomeHeight = clamp(
    (instanceHeights - eyeDomeHeights.minHeight) / max(eyeDomeHeights.maxHeight - eyeDomeHeights.minHeight, 1e-6),
    0.0, 1.0);
  if (eyeDomeHeights.heightPass > 0.5) {
    // Highest nearest: the depth test keeps the top point of each pixel.
    gl_Position.z = (0.98 - 1.96 * vEyeDomeHeight) * gl_Position.w;
  }
`,
    'fs:#decl': 'in float vEyeDomeHeight;\n',
    'fs:DECKGL_FILTER_COLOR': /* glsl */ `\
  if (eyeDomeHeights.heightPass > 0.5) {
    // Points of hidden classes (alpha 0) cast no shade.
    if (color.a < 0.01) discard;
    color = eyeDome_packHeight(vEyeDomeHeight);
  }
`,
  },
} as const;

/** Uniforms of the shading pass (see the formula at the top of this file). */
export interface ShadeUniforms {
  strength: number;
  /** Device pixels. */
  radius: number;
  /** Metres. */
  distance: number;
  /** Range the heights were packed in (metres). */
  minHeight: number;
  maxHeight: number;
}

/** Shader module of the shading pass's uniforms. */
export const shadeModule = {
  name: 'eyeDomeShade',
  fs: /* glsl */ `\
layout(std140) uniform eyeDomeShadeUniforms {
  float strength;
  float radius;
  float distance;
  float minHeight;
  float maxHeight;
} eyeDomeShade;
`,
  uniformTypes: { strength: 'f32', radius: 'f32', distance: 'f32', minHeight: 'f32', maxHeight: 'f32' },
} as const;

/** One triangle covering the screen, from gl_VertexID (no attributes). */
export const SHADE_VS = /* glsl */ `\
#version 300 es
void main(void) {
  vec2 corner = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
  gl_Position = vec4(corner, 0.0, 1.0);
}
`;

/**
 * The shading pass: reads the height texture at the pixel and its
 * neighbours and draws black with alpha 1 − shade (blended over the drawn
 * colours: colour × shade); pixels without a point are left alone.
 */
export const SHADE_FS = /* glsl */ `\
#version 300 es
precision highp float;
precision highp int;
uniform sampler2D eyeDomeHeightTexture;
out vec4 fragColor;

const int NEIGHBOUR_COUNT = ${NEIGHBOUR_COUNT};

// Height (metres) of a pixel, or -1e30 where no point was drawn.
float heightAt(ivec2 p) {
  ivec2 size = textureSize(eyeDomeHeightTexture, 0);
  if (p.x < 0 || p.y < 0 || p.x >= size.x || p.y >= size.y) return -1e30;
  vec4 c = texelFetch(eyeDomeHeightTexture, p, 0);
  if (c.a < 0.5) return -1e30;
  vec3 b = floor(c.rgb * 255.0 + 0.5);
  float t = (b.r * 65536.0 + b.g * 256.0 + b.b) / 16777215.0;
  return mix(eyeDomeShade.minHeight, eyeDomeShade.maxHeight, t);
}

float depthOf(float h) {
  return eyeDomeShade.distance + (eyeDomeShade.maxHeight - h);
}

ivec2 offsetAt(int i, float radius) {
  float a = 6.283185307179586 * float(i) / float(NEIGHBOUR_COUNT);
  return ivec2(floor(vec2(cos(a), sin(a)) * radius + 0.5));
}

void main(void) {
  ivec2 p = ivec2(gl_FragCoord.xy);
  float own = heightAt(p);
  if (own < -1e29) discard;
  float logDepth = log2(depthOf(own));
  float low = floor(eyeDomeShade.radius);
  float m = eyeDomeShade.radius - low;
  float sum = 0.0;
  float count = 0.0;
  for (int i = 0; i < NEIGHBOUR_COUNT; i++) {
    float h0 = heightAt(p + offsetAt(i, low));
    float h1 = heightAt(p + offsetAt(i, low + 1.0));
    if (h0 < -1e29 || h1 < -1e29) continue;
    float depth = mix(depthOf(h0), depthOf(h1), m);
    sum += max(0.0, logDepth - log2(depth));
    count += 1.0;
  }
  float response = count > 0.0 ? sum / count : 0.0;
  float shade = exp(-response * ${RESPONSE_SCALE.toFixed(1)} * eyeDomeShade.strength);
  fragColor = vec4(0.0, 0.0, 0.0, 1.0 - shade);
}
`;
