import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { openPointCloud } from '../readers/index.js';
import { ellipsoidalHeight, GEOID_MODEL, geoidUndulation, loadEgm96, verticalReference } from './geoid.js';
import { crsFromEpsg } from './index.js';

/**
 * EGM96 undulations computed independently by PROJ 9.1.1 with the NGA grid of
 * Debian's proj-data (/usr/share/proj/egm96_15.gtx), at ground points of real
 * files: `cs2cs -f %.6f EPSG:<horizontal>+5773 EPSG:4979` (5773 = EGM96 height)
 * gives latitude, longitude and the ellipsoidal height h of the orthometric
 * height H; N = h − H.
 */
const PROJ_EGM96 = [
  // ahn3_cropped_1.laz (Delft, RD New + NAP): 84904.423 447417.447 -0.034 → h 43.430204
  { place: 'Delft (NL)', lat: 52.010689, lon: 4.366206, n: 43.464204 },
  // bcts_1.laz (BC Albers + CGVD28): 885205.49 629269.20 327.12 → h 311.600479
  { place: 'Vancouver Island (CA)', lat: 50.666513, lon: -127.625021, n: -15.519521 },
  // test_semis_2021_0382_6565_LA93_IGN69_cropped.laz (Lambert-93 + IGN69): 382816.77 6564038.05 8.64 → h 56.576756
  { place: 'Vendée (FR)', lat: 46.101864, lon: -1.107801, n: 47.936756 },
  // ahn_corridor_12AN2_20.laz (RD New + NAP): 229971.649 569990.812 3.685 → h 44.703667
  { place: 'Groningen (NL)', lat: 53.111464, lon: 6.50684, n: 41.018667 },
];

describe('loadEgm96', () => {
  it('reads the grid from the package file and gives exactly the package’s values everywhere', () => {
    const fast = loadEgm96();
    const pkg = loadEgm96({ package: true });
    // The grid was read from the bytes (the package module has its other functions too).
    expect('egm96ToEllipsoid' in fast).toBe(false);
    expect('egm96ToEllipsoid' in pkg).toBe(true);
    const positions: Array<[number, number]> = [
      [90, 0],
      [-90, 0],
      [0, 180],
      [0, -180],
      [89.9, 359.9],
      [-89.99, -179.99],
      [52.0107, 4.3662],
    ];
    for (let lat = -90; lat <= 90; lat += 0.37) {
      for (let lon = -180; lon <= 180; lon += 1.13) positions.push([lat, lon]);
    }
    for (const [lat, lon] of positions)
      expect(fast.meanSeaLevel(lat, lon), `${lat}, ${lon}`).toBe(pkg.meanSeaLevel(lat, lon));
  });
});

describe('geoidUndulation (EGM96, offline)', () => {
  for (const p of PROJ_EGM96) {
    it(`equals PROJ's egm96_15 grid within 1 cm at ${p.place}`, () => {
      expect(Math.abs(geoidUndulation(p.lon, p.lat) - p.n)).toBeLessThan(0.01);
    });
  }

  it('wraps longitudes and refuses non-finite positions', () => {
    expect(geoidUndulation(4.366206 + 360, 52.010689)).toBeCloseTo(geoidUndulation(4.366206, 52.010689), 9);
    expect(geoidUndulation(-127.625021 - 360, 50.666513)).toBeCloseTo(-15.5195, 2);
    expect(geoidUndulation(Number.NaN, 10)).toBeNaN();
  });

  it('spans the model’s known extremes (Indian Ocean low, New Guinea high)', () => {
    // EGM96 ranges from about −106 m (south of India) to about +85 m (New Guinea).
    expect(geoidUndulation(78.5, 4.5)).toBeLessThan(-100);
    expect(geoidUndulation(147.25, -8.25)).toBeGreaterThan(70);
  });
});

describe('verticalReference', () => {
  it('reads the vertical part of a compound EPSG code', () => {
    expect(verticalReference(crsFromEpsg(7415))).toEqual({
      heights: 'orthometric',
      name: 'NAP height',
      epsg: 5709,
      source: 'crs',
      geoidModel: GEOID_MODEL,
    });
    expect(verticalReference(crsFromEpsg(5698))).toMatchObject({ name: 'NGF-IGN69 height', epsg: 5720 });
  });

  it('assumes orthometric heights when the CRS says nothing about them', () => {
    expect(verticalReference(crsFromEpsg(28992))).toEqual({
      heights: 'orthometric',
      name: null,
      epsg: null,
      source: 'assumed',
      geoidModel: 'EGM96',
    });
  });

  it('keeps ellipsoidal heights: 3D geographic, geocentric, GeoTIFF ellipsoid codes, ellipsoidal WKT datums', () => {
    expect(verticalReference(crsFromEpsg(4979))).toMatchObject({ heights: 'ellipsoidal', geoidModel: null });
    expect(verticalReference({ epsg: 32631, wkt: null, verticalEpsg: 5030 })).toMatchObject({
      heights: 'ellipsoidal',
    });
    const wkt =
      'COMPD_CS["UTM 31N + ellipsoid",PROJCS["WGS 84 / UTM zone 31N",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["central_meridian",3],PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],UNIT["metre",1]],VERT_CS["ellipsoidal height",VERT_DATUM["WGS 84",2002],UNIT["metre",1]]]';
    expect(verticalReference({ epsg: 32631, wkt, verticalEpsg: null })).toMatchObject({
      heights: 'ellipsoidal',
      name: 'ellipsoidal height',
    });
    expect(ellipsoidalHeight(verticalReference(crsFromEpsg(4979)), 4.4, 52, 12.5)).toBe(12.5);
  });

  it.skipIf(!hasRealData())('finds CGVD28 in bcts_1.laz (GeoTIFF vertical key 5713)', async () => {
    const reader = await openPointCloud(realFile('bcts_1.laz'));
    try {
      expect(verticalReference(reader.crs)).toEqual({
        heights: 'orthometric',
        name: 'CGVD28 height',
        epsg: 5713,
        source: 'crs',
        geoidModel: 'EGM96',
      });
    } finally {
      await reader.close();
    }
  });

  it.skipIf(!hasRealData())('finds nothing vertical in the IGN file’s Lambert-93 WKT: IGN69 is assumed', async () => {
    const reader = await openPointCloud(realFile('test_semis_2021_0382_6565_LA93_IGN69_cropped.laz'));
    try {
      expect(verticalReference(reader.crs)).toMatchObject({ heights: 'orthometric', source: 'assumed' });
    } finally {
      await reader.close();
    }
  });
});
