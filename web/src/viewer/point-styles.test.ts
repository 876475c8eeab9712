import { Cartesian3, Ellipsoid } from 'cesium';
import { describe, expect, it } from 'vitest';
import {
  classOf,
  colorizePoints,
  ELEVATION_RAMP,
  type HeightFrame,
  heightOf,
  intensityTo8Bit,
  num,
  OTHER_CLASSES,
  POINT_CLASSES,
  type PointStyleOptions,
  pointColor,
  pointShaderSource,
  rampAt,
} from './point-styles.js';

function hex(color: string): [number, number, number] {
  const v = Number.parseInt(color.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

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

function ecef(lon: number, lat: number, h: number): [number, number, number] {
  const p = Cartesian3.fromDegrees(lon, lat, h);
  return [p.x, p.y, p.z];
}

const base: PointStyleOptions = { mode: 'RGB', hasColor: true };
const point = { classification: 1, intensity: 0 };

describe('pointColor (the reference of the shaders)', () => {
  it('Class mode paints each listed ASPRS class its colour and unlisted codes as "others"', () => {
    for (const code of [0, 2, 5, 6, 9, 14, 28]) {
      const cls = POINT_CLASSES.find((c) => c.code === code)!;
      expect(pointColor({ ...base, mode: 'CLASS' }, { ...point, classification: code })).toEqual(hex(cls.color));
    }
    const others = hex(classOf(OTHER_CLASSES).color);
    for (const code of [8, 12, 29, 65, 255]) {
      expect(pointColor({ ...base, mode: 'CLASS' }, { ...point, classification: code })).toEqual(others);
    }
    expect(POINT_CLASSES).toHaveLength(28);
    expect(new Set(POINT_CLASSES.map((c) => c.color)).size).toBe(28);
  });

  it('Intensity mode shows 8-bit values as grey and divides values above 255 by 257', () => {
    const grey = (i: number) => pointColor({ ...base, mode: 'INTENSITY' }, { ...point, intensity: i })![0];
    expect(grey(0)).toBe(0);
    expect(grey(128)).toBe(128);
    expect(grey(255)).toBe(255);
    expect(grey(65535)).toBe(255);
    expect(grey(25700)).toBe(100);
    expect(intensityTo8Bit(514)).toBe(2);
  });

  it('Intensity mode stretches the asset monitor range', () => {
    const options: PointStyleOptions = { ...base, mode: 'INTENSITY', intensity: { min: 10, max: 60 } };
    expect(pointColor(options, { ...point, intensity: 10 })![0]).toBe(0);
    expect(pointColor(options, { ...point, intensity: 30 })![0]).toBe(102);
    expect(pointColor(options, { ...point, intensity: 60 * 257 })![0]).toBe(255);
  });

  it('RGB mode shows the point colour, and intensity when the cloud has none', () => {
    expect(pointColor({ ...base, mode: 'RGB' }, { ...point, rgb: [255, 128, 0] })).toEqual([255, 128, 0]);
    expect(pointColor({ ...base, hasColor: false }, { ...point, intensity: 200 })).toEqual([200, 200, 200]);
  });

  it('Elevation mode ramps from the lowest to the highest height, also far from the origin', () => {
    const options: PointStyleOptions = { ...base, mode: 'ELEVATION', heightFrame: autzenFrame() };
    const at = (lon: number, lat: number, h: number) => pointColor(options, { ...point, position: ecef(lon, lat, h) });
    expect(at(-123.07, 44.06, 120)).toEqual(hex(ELEVATION_RAMP[0]!));
    expect(at(-123.07, 44.06, 100)).toEqual(hex(ELEVATION_RAMP[0]!));
    expect(at(-123.07, 44.06, 160)).toEqual(hex(ELEVATION_RAMP.at(-1)!));
    // 3 km east the ellipsoid has dropped by 0.7 m: the curvature term keeps the height right.
    expect(heightOf(ecef(-123.032, 44.06, 140), autzenFrame())).toBeCloseTo(140, 1);
    const mid = at(-123.032, 44.06, 140)!;
    for (const [i, v] of rampAt(0.5).entries()) expect(Math.abs(mid[i]! - v)).toBeLessThanOrEqual(2);
  });

  it('hides the chosen classes in every mode', () => {
    const options: PointStyleOptions = { ...base, hiddenClasses: [2, OTHER_CLASSES] };
    const shown = (code: number) => pointColor(options, { ...point, classification: code, rgb: [1, 2, 3] }) !== null;
    expect([shown(2), shown(1), shown(6), shown(12), shown(65)]).toEqual([false, true, true, false, false]);
  });
});

describe('pointShaderSource', () => {
  it.each(['RGB', 'CLASS', 'INTENSITY', 'ELEVATION'] as const)(
    '%s reads what it needs and writes a linear colour',
    (mode) => {
      const src = pointShaderSource({ ...base, mode, heightFrame: autzenFrame(), hiddenClasses: [7] }, 3);
      const f = src.fragmentShaderText;
      expect(f).toMatch(/^void fragmentMain\(FragmentInput fsInput, inout czm_modelMaterial material\) \{/);
      expect(f).toContain('material.diffuse = czm_srgbToLinear(srgb);');
      expect(f).toContain('if (abs(cls - 7.0) < 0.5) discard;');
      expect(f.includes('fsInput.attributes.color_0')).toBe(mode === 'RGB');
      expect(f.includes('fsInput.attributes.positionWC')).toBe(mode === 'ELEVATION');
      expect(f.includes('fsInput.metadata.Intensity')).toBe(mode === 'INTENSITY');
      expect(f.split('{').length).toBe(f.split('}').length);
      expect(src.vertexShaderText).toContain('vsOutput.pointSize = size;');
      expect(src.vertexShaderText).toContain('clamp(model_pointCloudParameters.y / depth');
      expect(src.uniforms.u_pointSize).toBe(3);
    },
  );

  it('puts every class colour in the Class shader and the frame in the uniforms', () => {
    const src = pointShaderSource({ ...base, mode: 'CLASS' }, 50);
    expect(src.fragmentShaderText.match(/srgb = vec3/g)).toHaveLength(28);
    expect(src.uniforms.u_pointSize).toBe(20);
    expect(src.uniforms.u_maxPointSize).toBe(20);
    expect(pointShaderSource({ ...base, mode: 'CLASS' }, 2).uniforms.u_maxPointSize).toBe(8);
    const frame = autzenFrame();
    const elev = pointShaderSource({ ...base, mode: 'ELEVATION', heightFrame: frame }, 2);
    expect(elev.uniforms.u_heights).toEqual([120, 120, 40]);
    expect(elev.uniforms.u_origin).toEqual(frame.origin);
  });

  it('shows intensity in RGB mode when the cloud has no colour', () => {
    const src = pointShaderSource({ mode: 'RGB', hasColor: false }, 2);
    expect(src.fragmentShaderText).not.toContain('color_0');
    expect(src.fragmentShaderText).toContain('fsInput.metadata.Intensity');
  });

  it('writes float literals GLSL accepts', () => {
    expect(num(2)).toBe('2.0');
    expect(num(0.25)).toBe('0.25');
    expect(num(6.4e-7)).toBe('6.4e-7');
    expect(() => num(Number.NaN)).toThrow(RangeError);
  });
});

describe('colorizePoints (the 2D map)', () => {
  it('gives the colours of pointColor to every point, alpha 0 when hidden', () => {
    const frame = autzenFrame();
    const columns = {
      count: 4,
      classification: new Uint8Array([2, 6, 12, 7]),
      intensity: new Uint16Array([0, 128, 25700, 65535]),
      rgb: new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]),
      heights: new Float32Array([120, 130, 140, 160]),
    };
    for (const mode of ['RGB', 'CLASS', 'INTENSITY', 'ELEVATION'] as const) {
      const options: PointStyleOptions = { mode, hasColor: true, heightFrame: frame, hiddenClasses: [7] };
      const rgba = colorizePoints(options, columns);
      for (let i = 0; i < 3; i++) {
        const h = columns.heights[i]!;
        const expected = pointColor(options, {
          classification: columns.classification[i]!,
          intensity: columns.intensity[i]!,
          rgb: [columns.rgb[i * 3]!, columns.rgb[i * 3 + 1]!, columns.rgb[i * 3 + 2]!],
          position: ecef(-123.07, 44.06, h),
        })!;
        for (let k = 0; k < 3; k++)
          expect(Math.abs(rgba[i * 4 + k]! - expected[k]!), `${mode} ${i}`).toBeLessThanOrEqual(1);
        expect(rgba[i * 4 + 3]).toBe(255);
      }
      expect(rgba[15]).toBe(0);
    }
  });
});
