import { Cartesian3, Cartesian4, type Cesium3DTileFeature, Cesium3DTileStyle, Color, Ellipsoid } from 'cesium';
import { describe, expect, it } from 'vitest';
import {
  ELEVATION_RAMP,
  type HeightFrame,
  intensityTo8Bit,
  num,
  OTHER_CLASSES,
  POINT_CLASSES,
  type PointStyleOptions,
  pointStyle,
  rampColorAt,
} from './point-styles.js';

/** A point as Cesium's expression evaluator sees it. */
function feature(props: Record<string, unknown>): Cesium3DTileFeature {
  return { getPropertyInherited: (name: string) => props[name] } as unknown as Cesium3DTileFeature;
}

/** The GPU side of a style: private in Cesium's types, what the point-cloud pipeline calls. */
interface ShaderStyle {
  getColorShaderFunction(name: string, variables: Record<string, string>, state: { translucent: boolean }): string;
  getShowShaderFunction(name: string, variables: Record<string, string>, state: { translucent: boolean }): string;
  getPointSizeShaderFunction(name: string, variables: Record<string, string>, state: { translucent: boolean }): string;
}

/** The colour the style gives a point, as 0..255 bytes (CPU evaluation by Cesium's own expression engine). */
function colorOf(options: PointStyleOptions, props: Record<string, unknown>): [number, number, number] {
  const style = new Cesium3DTileStyle(pointStyle(options));
  const c = style.color!.evaluateColor(feature(props), new Color());
  return [Math.round(c.red * 255), Math.round(c.green * 255), Math.round(c.blue * 255)];
}

function hex(color: string): [number, number, number] {
  const v = Number.parseInt(color.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/** What the GPU path substitutes for each variable (PointCloudStylingPipelineStage). */
const SHADER_VARIABLES = {
  POSITION: 'attributes.positionMC',
  POSITION_ABSOLUTE: 'v_positionWC',
  COLOR: 'attributes.color_0',
  NORMAL: 'attributes.normalMC',
  Classification: 'metadata.Classification',
  Intensity: 'metadata.Intensity',
};

/** The height frame of a cloud around Autzen stadium (Oregon), heights 120..160 m. */
function autzenFrame(): HeightFrame {
  const origin = Cartesian3.fromDegrees(-123.07, 44.06, 120);
  const up = Ellipsoid.WGS84.geodeticSurfaceNormal(origin, new Cartesian3());
  return {
    origin: [origin.x, origin.y, origin.z],
    up: [up.x, up.y, up.z],
    originHeight: 120,
    minHeight: 120,
    maxHeight: 160,
  };
}

const base = { pointSize: 2, hasColor: true } as const;

describe('pointStyle', () => {
  it('Class mode paints each listed ASPRS class its colour and unlisted codes as "others"', () => {
    for (const code of [0, 2, 5, 6, 9, 14, 28]) {
      const cls = POINT_CLASSES.find((c) => c.code === code)!;
      expect(colorOf({ ...base, mode: 'CLASS' }, { Classification: code })).toEqual(hex(cls.color));
    }
    const others = hex(POINT_CLASSES.find((c) => c.code === OTHER_CLASSES)!.color);
    for (const code of [8, 12, 29, 65, 255]) {
      expect(colorOf({ ...base, mode: 'CLASS' }, { Classification: code })).toEqual(others);
    }
    expect(POINT_CLASSES).toHaveLength(28);
    expect(new Set(POINT_CLASSES.map((c) => c.color)).size).toBe(28);
  });

  it('Intensity mode shows 8-bit values as grey and divides values above 255 by 257', () => {
    const grey = (i: number) => colorOf({ ...base, mode: 'INTENSITY' }, { Intensity: i })[0];
    expect(grey(0)).toBe(0);
    expect(grey(128)).toBe(128);
    expect(grey(255)).toBe(255);
    expect(grey(65535)).toBe(255);
    expect(grey(25700)).toBe(100);
    expect(intensityTo8Bit(514)).toBe(2);
  });

  it('Intensity mode stretches the asset monitor range', () => {
    const options = { ...base, mode: 'INTENSITY', intensity: { min: 10, max: 60 } } as const;
    expect(colorOf(options, { Intensity: 10 })[0]).toBe(0);
    expect(colorOf(options, { Intensity: 30 })[0]).toBe(102);
    expect(colorOf(options, { Intensity: 60 * 257 })[0]).toBe(255);
  });

  it('RGB mode shows the point colour, and intensity when the cloud has none', () => {
    const rgb = colorOf({ ...base, mode: 'RGB' }, { COLOR: new Cartesian4(1, 0.5, 0, 1) });
    expect(rgb).toEqual([255, 128, 0]);
    expect(colorOf({ ...base, hasColor: false, mode: 'RGB' }, { Intensity: 200 })).toEqual([200, 200, 200]);
  });

  it('Elevation mode ramps from the lowest to the highest height, also far from the origin', () => {
    const frame = autzenFrame();
    const at = (lon: number, lat: number, h: number) => {
      const p = Cartesian3.fromDegrees(lon, lat, h);
      return colorOf({ ...base, mode: 'ELEVATION', heightFrame: frame }, { POSITION_ABSOLUTE: p });
    };
    expect(at(-123.07, 44.06, 120)).toEqual(hex(ELEVATION_RAMP[0]!));
    expect(at(-123.07, 44.06, 100)).toEqual(hex(ELEVATION_RAMP[0]!));
    expect(at(-123.07, 44.06, 160)).toEqual(hex(ELEVATION_RAMP.at(-1)!));
    // 3 km away the ellipsoid has dropped by 0.7 m: the curvature term keeps the height right.
    const far = at(-123.032, 44.06, 140);
    const expected = rampColorAt(0.5).match(/\d+/g)!.map(Number);
    for (const [i, v] of far.entries()) expect(Math.abs(v - expected[i]!)).toBeLessThanOrEqual(3);
  });

  it('hides the chosen classes in every mode', () => {
    const style = new Cesium3DTileStyle(pointStyle({ ...base, mode: 'RGB', hiddenClasses: [2, OTHER_CLASSES] }));
    const shown = (code: number) => style.show!.evaluate(feature({ Classification: code }));
    expect(shown(2)).toBe(false);
    expect(shown(1)).toBe(true);
    expect(shown(6)).toBe(true);
    expect(shown(12)).toBe(false);
    expect(shown(65)).toBe(false);
  });

  it.each(['RGB', 'CLASS', 'INTENSITY', 'ELEVATION'] as const)('%s compiles to a GLSL function', (mode) => {
    const style = new Cesium3DTileStyle(
      pointStyle({ ...base, mode, heightFrame: autzenFrame(), hiddenClasses: [7], pointSize: 3 }),
    ) as unknown as ShaderStyle;
    const state = { translucent: false };
    const color = style.getColorShaderFunction('getColorFromStyle()', SHADER_VARIABLES, state);
    expect(color).toContain('vec4 getColorFromStyle()');
    expect(color).not.toContain('${');
    if (mode === 'ELEVATION') expect(color).toContain('v_positionWC');
    if (mode === 'CLASS') expect(color).toContain('metadata.Classification');
    if (mode === 'RGB') expect(color).toContain('attributes.color_0');
    expect(style.getShowShaderFunction('getShowFromStyle()', SHADER_VARIABLES, state)).toContain('!=');
    expect(style.getPointSizeShaderFunction('getPointSizeFromStyle()', SHADER_VARIABLES, state)).toContain('3.0');
    expect(state.translucent).toBe(false);
  });

  it('writes float literals GLSL accepts', () => {
    expect(num(2)).toBe('2.0');
    expect(num(0.25)).toBe('0.25');
    expect(num(6.4e-7)).toBe('6.4e-7');
    expect(() => num(Number.NaN)).toThrow(RangeError);
  });
});
