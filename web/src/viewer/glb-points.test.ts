import { encodePointCloudGlb } from '@nuage/engine/writers/3dtiles.writer.js';
import { describe, expect, it } from 'vitest';
import { ecefToEnu, ecefToGeodetic, GlbError, geodeticToEcef, parseGlbPoints } from './glb-points.js';

/** Three points near Autzen, as the tiler writes them: y-up offsets from a y-up ECEF translation. */
function content(quantize: boolean) {
  const centre = geodeticToEcef(-123.07, 44.05, 140);
  const pts = [geodeticToEcef(-123.0701, 44.0501, 130), geodeticToEcef(-123.0699, 44.05, 150), centre];
  const positions = new Float32Array(9);
  pts.forEach((p, i) => {
    const d = [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
    positions.set([d[0]!, d[2]!, -d[1]!], i * 3);
  });
  const glb = encodePointCloudGlb({
    count: 3,
    positions,
    translation: [centre[0], centre[2], -centre[1]],
    quantize,
    rgba: new Uint8Array([255, 0, 0, 255, 0, 128, 0, 255, 10, 20, 30, 255]),
    intensity: new Uint16Array([0, 300, 65535]),
    classification: new Uint8Array([2, 6, 14]),
  });
  return { glb, pts };
}

describe('parseGlbPoints', () => {
  it.each([false, true])('reads the tiler GLB back (quantised positions: %s)', (quantize) => {
    const { glb, pts } = content(quantize);
    const points = parseGlbPoints(glb);
    expect(points.count).toBe(3);
    const tolerance = quantize ? 0.01 : 0.001;
    for (let i = 0; i < 3; i++) {
      for (let k = 0; k < 3; k++) expect(Math.abs(points.ecef[i * 3 + k]! - pts[i]![k]!)).toBeLessThan(tolerance);
    }
    expect([...points.classification]).toEqual([2, 6, 14]);
    expect([...points.intensity]).toEqual([0, 300, 65535]);
    expect([...points.rgb!]).toEqual([255, 0, 0, 0, 128, 0, 10, 20, 30]);
  });

  it('refuses what is not a point GLB', () => {
    expect(() => parseGlbPoints(new Uint8Array(10))).toThrow(GlbError);
    expect(() => parseGlbPoints(new Uint8Array(40))).toThrow('not a GLB');
  });
});

describe('geodesy', () => {
  it('goes from geodetic to ECEF and back', () => {
    const [lon, lat, h] = ecefToGeodetic(...geodeticToEcef(2.35, 48.85, 35));
    expect(lon).toBeCloseTo(2.35, 9);
    expect(lat).toBeCloseTo(48.85, 9);
    expect(h).toBeCloseTo(35, 4);
  });

  it('turns ECEF into east-north-up metres around an origin', () => {
    const origin: [number, number, number] = [-123.07, 44.05, 100];
    const east = geodeticToEcef(-123.07 + 0.001, 44.05, 100);
    const up = geodeticToEcef(-123.07, 44.05, 150);
    const enu = ecefToEnu(new Float64Array([...east, ...up]), origin);
    // 0.001° of longitude at 44° N is about 80 m.
    expect(enu[0]).toBeCloseTo(80.1, 0);
    expect(Math.abs(enu[1]!)).toBeLessThan(0.01);
    expect(enu[5]).toBeCloseTo(50, 3);
  });
});
