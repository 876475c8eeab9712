import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { geoidUndulation } from '../crs/geoid.js';
import { createTransformer, crsFromEpsg } from '../crs/index.js';
import { openPointCloud } from '../readers/index.js';
import { globeEcefTransform } from './geoid-ecef.js';
import { ecefToGeodetic, geodeticToEcef } from './local-frame.js';
import { openTilerInput } from './tile-point-cloud.js';

/**
 * Ground points of real files with a known vertical datum, and their
 * ellipsoidal height computed independently by PROJ 9.1.1 with the EGM96 grid
 * of Debian's proj-data (egm96_15.gtx):
 *   echo "X Y H" | cs2cs -f %.6f EPSG:<horizontal>+5773 EPSG:4979
 * The point is the first ground point (class 2) among every 997th of the file.
 */
const CASES = [
  {
    file: 'ahn3_cropped_1.laz',
    epsg: 28992, // RD New, NAP heights (AHN provenance; the file has no CRS)
    point: [84904.423, 447417.447, -0.034],
    projHeight: 43.430204,
  },
  {
    file: 'bcts_1.laz',
    epsg: undefined, // BC Albers + CGVD28 height (EPSG:5713) in the file's GeoTIFF keys
    point: [885205.49, 629269.2, 327.12],
    projHeight: 311.600479,
  },
] as const;

/**
 * EGM96 is the model: against the national geoids the datums are defined by
 * (NLGEO2018 for NAP, HT2 / CGG for CGVD28) it is within about a metre. Here
 * the check is our conversion against PROJ's, same model: a few centimetres.
 */
const TOLERANCE_M = 0.05;

async function firstGroundPoint(file: string, epsg?: number): Promise<[number, number, number]> {
  const reader = await openPointCloud(realFile(file), epsg === undefined ? {} : { epsg });
  try {
    for await (const c of reader.read({ workers: 0 })) {
      for (let i = 0; i < c.count; i += 997) {
        if (c.classification![i] === 2) return [c.x[i]!, c.y[i]!, c.z[i]!];
      }
    }
  } finally {
    await reader.close();
  }
  throw new Error(`no ground point in ${file}`);
}

describe.skipIf(!hasRealData())('the tiler’s heights on the globe (orthometric + EGM96 geoid)', () => {
  for (const c of CASES) {
    it(`${c.file}: a ground point lands at PROJ's ellipsoidal height within ${TOLERANCE_M * 100} cm`, async () => {
      const ground = await firstGroundPoint(c.file, c.epsg);
      for (let k = 0; k < 3; k++) expect(ground[k]).toBeCloseTo(c.point[k]!, 3);
      const opened = await openTilerInput(realFile(c.file), c.epsg);
      try {
        const x = Float64Array.of(ground[0]);
        const y = Float64Array.of(ground[1]);
        const z = Float64Array.of(ground[2]);
        opened.input.toEcef(x, y, z, 1);
        const g = ecefToGeodetic(x[0]!, y[0]!, z[0]!);
        expect(Math.abs(g.height - c.projHeight)).toBeLessThan(TOLERANCE_M);
        // Without the geoid the point would sit at its orthometric height, tens of metres off.
        expect(Math.abs(g.height - ground[2])).toBeGreaterThan(10);
      } finally {
        await opened.close();
      }
    });
  }
});

describe('globeEcefTransform', () => {
  it('puts an orthometric height at H + N on the WGS84 ellipsoid, the horizontal position unchanged', () => {
    // Lambert-93 (RGF93 ≡ WGS84 here), Paris; PROJ: cs2cs EPSG:2154+5773 EPSG:4979 gives 48.856248 N,
    // 2.345812 E, h 79.565739 for 652000 6862000 35.
    const crs = crsFromEpsg(2154);
    const plain = createTransformer(crs, 'EPSG:4978');
    const corrected = globeEcefTransform(crs, createTransformer);
    const run = (t: typeof plain) => {
      const x = Float64Array.of(652_000);
      const y = Float64Array.of(6_862_000);
      const z = Float64Array.of(35);
      t.forward(x, y, z, 1);
      return ecefToGeodetic(x[0]!, y[0]!, z[0]!);
    };
    const a = run(plain);
    const b = run(corrected);
    expect(b.lon).toBeCloseTo(a.lon, 9);
    expect(b.lat).toBeCloseTo(a.lat, 9);
    expect(b.lat).toBeCloseTo(48.856248, 6);
    expect(b.lon).toBeCloseTo(2.345812, 6);
    expect(Math.abs(b.height - 79.565739)).toBeLessThan(0.01);
  });

  it('converts feet heights to metres before adding N', () => {
    // NAD83(HARN) / Oregon GIC Lambert (ft): Autzen's 406.26 ft ground is 123.83 m orthometric.
    const crs = crsFromEpsg(2994);
    const t = globeEcefTransform(crs, createTransformer);
    const x = Float64Array.of(636_500);
    const y = Float64Array.of(849_200);
    const z = Float64Array.of(406.26);
    t.forward(x, y, z, 1);
    const g = ecefToGeodetic(x[0]!, y[0]!, z[0]!);
    expect(g.height).toBeCloseTo(406.26 * 0.3048 + geoidUndulation(g.lon, g.lat), 3);
  });

  it('keeps ellipsoidal heights as proj4 gives them', () => {
    const crs = crsFromEpsg(4979);
    const x = Float64Array.of(4.4);
    const y = Float64Array.of(52);
    const z = Float64Array.of(12.5);
    globeEcefTransform(crs, createTransformer).forward(x, y, z, 1);
    const e = geodeticToEcef(4.4, 52, 12.5);
    expect(Math.hypot(x[0]! - e[0], y[0]! - e[1], z[0]! - e[2])).toBeLessThan(1e-6);
  });
});
