import { describe, expect, it } from 'vitest';
import { ecefToGeodetic, geodeticToEcef } from '../glb-points.js';
import { createProjectCrs, localMetricCrsDefinition, measureCrs, undulationAt } from './project-crs.js';

// Reference values from GDAL/PROJ: gdaltransform -s_srs '+proj=longlat +datum=WGS84' -t_srs '<the proj4 string>'
// (the same datum shift as the tiler's: towgs84=0 for NAD83 and RGF93).
const UTM12N = {
  epsg: 26912,
  name: 'NAD83 / UTM zone 12N',
  proj4: '+proj=utm +zone=12 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs +type=crs',
  horizontalUnitToMetre: 1,
  verticalUnitToMetre: 1,
};
const LAMBERT93 = {
  epsg: 2154,
  name: 'RGF93 v1 / Lambert-93',
  proj4:
    '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs +type=crs',
  horizontalUnitToMetre: 1,
  verticalUnitToMetre: 1,
};
const OREGON_GIC_FT = {
  epsg: 2994,
  name: 'NAD83(HARN) / Oregon GIC Lambert (ft)',
  proj4:
    '+proj=lcc +lat_0=41.75 +lon_0=-120.5 +lat_1=43 +lat_2=45.5 +x_0=399999.9999984 +y_0=0 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=ft +no_defs +type=crs',
  horizontalUnitToMetre: 0.3048,
  verticalUnitToMetre: 0.3048,
};

describe('createProjectCrs', () => {
  it('puts a WGS 84 position on UTM zone 12N as PROJ does', () => {
    const crs = createProjectCrs(UTM12N);
    const p = crs.toProject({ lon: -111, lat: 40, height: 1500 });
    expect(p.x).toBeCloseTo(500_000, 3);
    expect(p.y).toBeCloseTo(4_427_757.2186, 3);
    expect(p.z).toBe(1500);
  });

  it('puts the Lambert-93 origin at 700000, 6600000', () => {
    const p = createProjectCrs(LAMBERT93).toProject({ lon: 3, lat: 46.5, height: 0 });
    expect(p.x).toBeCloseTo(700_000, 3);
    expect(p.y).toBeCloseTo(6_600_000, 3);
  });

  it('gives feet, Z included, on a CRS in feet', () => {
    const crs = createProjectCrs(OREGON_GIC_FT);
    const p = crs.toProject({ lon: -123.075, lat: 44.05, height: 128.016 });
    expect(p.x).toBeCloseTo(635_577.5206, 3);
    expect(p.y).toBeCloseTo(848_984.6883, 3);
    expect(p.z).toBeCloseTo(420, 9);
    expect(crs.units).toEqual({ horizontal: 0.3048, vertical: 0.3048 });
  });

  it('goes to ECEF and back within a tenth of a millimetre', () => {
    const crs = createProjectCrs(UTM12N);
    const p = { x: 438_123.456, y: 3_900_321.987, z: 2_001.234 };
    const [x, y, z] = crs.toEcef(p);
    const back = crs.fromEcef(x, y, z);
    expect(Math.abs(back.x - p.x)).toBeLessThan(1e-4);
    expect(Math.abs(back.y - p.y)).toBeLessThan(1e-4);
    expect(Math.abs(back.z - p.z)).toBeLessThan(1e-4);
    // The same position as the geodetic round trip gives.
    const g = crs.toGeodetic(p);
    const e = geodeticToEcef(g.lon, g.lat, g.height);
    expect(ecefToGeodetic(e[0], e[1], e[2])[2]).toBeCloseTo(2_001.234, 6);
  });
});

describe('measureCrs', () => {
  it('uses the project CRS when it is projected', () => {
    const crs = measureCrs(UTM12N, { lon: -111, lat: 40 });
    expect(crs.isProjectCrs).toBe(true);
    expect(crs.definition.epsg).toBe(26912);
  });

  it('falls back to a local metric frame without a CRS or with a geographic one', () => {
    for (const def of [
      null,
      { ...UTM12N, epsg: 4326, proj4: '+proj=longlat +datum=WGS84', horizontalUnitToMetre: 0 },
    ]) {
      const crs = measureCrs(def, { lon: 5.1, lat: 52.1 });
      expect(crs.isProjectCrs).toBe(false);
      // The centre is the frame's origin; 0.001° of latitude there is about 111.26 m.
      const o = crs.toProject({ lon: 5.1, lat: 52.1, height: 0 });
      expect(Math.hypot(o.x, o.y)).toBeLessThan(1e-6);
      const n = crs.toProject({ lon: 5.1, lat: 52.101, height: 0 });
      expect(n.y).toBeCloseTo(111.26, 1);
    }
  });

  it('falls back when proj4 cannot read the definition', () => {
    const crs = measureCrs({ ...UTM12N, proj4: 'not a CRS' }, { lon: 0, lat: 0 });
    expect(crs.isProjectCrs).toBe(false);
    expect(localMetricCrsDefinition(1, 2).proj4).toContain('+lat_0=2 +lon_0=1');
  });
});

describe('geoid undulations', () => {
  const grid = { west: 0, south: 10, east: 2, north: 11, nx: 3, ny: 2, values: [10, 12, 14, 20, 22, 24] };

  it('interpolates N bilinearly and holds the edge value outside the grid', () => {
    expect(undulationAt(grid, 0, 10)).toBe(10);
    expect(undulationAt(grid, 2, 11)).toBe(24);
    expect(undulationAt(grid, 1.5, 10.5)).toBeCloseTo(18, 12);
    expect(undulationAt(grid, -5, 10)).toBe(10);
    expect(undulationAt(grid, 9, 20)).toBe(24);
  });

  it('takes N off orthometric heights and puts it back', () => {
    const crs = createProjectCrs({
      ...UTM12N,
      vertical: { heights: 'orthometric', geoidModel: 'EGM96', undulation: grid },
    });
    const p = crs.toProject({ lon: 1.5, lat: 10.5, height: 118 });
    expect(p.z).toBeCloseTo(100, 9);
    expect(crs.toGeodetic(p).height).toBeCloseTo(118, 6);
    const ellipsoidal = createProjectCrs({
      ...UTM12N,
      vertical: { heights: 'ellipsoidal', geoidModel: null, undulation: grid },
    });
    expect(ellipsoidal.toProject({ lon: 1.5, lat: 10.5, height: 118 }).z).toBe(118);
  });
});
