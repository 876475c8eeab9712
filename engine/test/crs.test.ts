import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import { CrsRequired, InvalidInput } from '../src/core/errors.js';
import { createTransformer, crsFromEpsg } from '../src/crs/index.js';
import { extractMetadata } from '../src/metadata/index.js';
import { openPointCloud } from '../src/readers/index.js';

describe('crsFromEpsg', () => {
  it('resolves codes offline with their unit', () => {
    const l93 = crsFromEpsg(2154);
    expect(l93.name).toBe('RGF93 v1 / Lambert-93');
    expect(l93.horizontalUnitToMetre).toBe(1);
    expect(crsFromEpsg(2255).horizontalUnitToMetre).toBeCloseTo(1200 / 3937, 12);
    expect(crsFromEpsg(2994).horizontalUnitToMetre).toBe(0.3048);
    expect(crsFromEpsg(4326).geographic).toBe(true);
  });
  it('rejects unknown codes with InvalidInput', () => {
    expect(() => crsFromEpsg(999999)).toThrow(InvalidInput);
    expect(() => crsFromEpsg(1)).toThrow(/unknown EPSG code 1/);
  });
});

describe('createTransformer', () => {
  it('projects Lambert-93 to WGS84 and ECEF', () => {
    const crs = crsFromEpsg(2154);
    const x = Float64Array.of(700000);
    const y = Float64Array.of(6600000);
    const z = Float64Array.of(0);
    createTransformer(crs, 'EPSG:4326').forward(x, y, z, 1);
    // The projection origin of Lambert-93 is 3°E 46.5°N.
    expect(x[0]).toBeCloseTo(3, 9);
    expect(y[0]).toBeCloseTo(46.5, 9);
    const ex = Float64Array.of(700000);
    const ey = Float64Array.of(6600000);
    const ez = Float64Array.of(100);
    createTransformer(crs, 'EPSG:4978').forward(ex, ey, ez, 1);
    const lat = (46.5 * Math.PI) / 180;
    const a = 6378137;
    const e2 = 0.00669437999014;
    const n = a / Math.sqrt(1 - e2 * Math.sin(lat) ** 2);
    const lon = (3 * Math.PI) / 180;
    expect(ex[0]).toBeCloseTo((n + 100) * Math.cos(lat) * Math.cos(lon), 2);
    expect(ez[0]).toBeCloseTo((n * (1 - e2) + 100) * Math.sin(lat), 2);
  });
  it('converts heights in feet to metres for ECEF', () => {
    const crs = crsFromEpsg(2994);
    const run = (h: number) => {
      const x = Float64Array.of(636500);
      const y = Float64Array.of(849000);
      const z = Float64Array.of(h);
      createTransformer(crs, 'EPSG:4978').forward(x, y, z, 1);
      return [x[0]!, y[0]!, z[0]!];
    };
    const low = run(0);
    const high = run(1000);
    expect(Math.hypot(high[0]! - low[0]!, high[1]! - low[1]!, high[2]! - low[2]!)).toBeCloseTo(304.8, 3);
  });
  it('asks for a CRS when there is none', () => {
    expect(() => createTransformer(null, 'EPSG:4326')).toThrow(CrsRequired);
  });
});

describe.skipIf(!hasRealData())('CRS quirks of the real files', () => {
  it('autzen: user-defined GeoTIFF keys + WKT in international feet = EPSG:2994', async () => {
    const r = await openPointCloud(realFile('autzen_trim.las'));
    expect(r.crs?.epsg).toBe(2994);
    expect(r.crs?.horizontalUnitToMetre).toBe(0.3048);
    expect(r.crs?.verticalUnitToMetre).toBe(0.3048);
    await r.close();
    const m = await extractMetadata(realFile('autzen_trim.las'));
    // Autzen Stadium, Eugene, Oregon.
    expect(m.bboxWgs84!.west).toBeCloseTo(-123.073, 2);
    expect(m.bboxWgs84!.north).toBeCloseTo(44.05, 2);
  });
  it('mvk-thin: unit keys (US feet) win over the metric EPSG code -> EPSG:2255', async () => {
    const r = await openPointCloud(realFile('mvk-thin.las'));
    expect(r.crs?.epsg).toBe(2255);
    expect(r.crs?.horizontalUnitToMetre).toBeCloseTo(1200 / 3937, 12);
    expect(r.crs?.verticalUnitToMetre).toBeCloseTo(1200 / 3937, 12);
    await r.close();
    const m = await extractMetadata(realFile('mvk-thin.las'));
    // Mississippi, ~91.1°W 33°N (with metres it would land ~600 km away).
    expect(m.bboxWgs84!.west).toBeCloseTo(-91.15, 1);
    expect(m.bboxWgs84!.south).toBeCloseTo(32.98, 1);
  });
  it('warsaw (empty WKT) and ahn3 (no record) need a CRS; an override supplies it', async () => {
    for (const name of ['warsaw_small.las', 'ahn3_cropped_1.laz']) {
      const m = await extractMetadata(realFile(name));
      expect(m.crs).toBeNull();
      expect(m.crsRequired).toBe(true);
      expect(m.bboxWgs84).toBeNull();
    }
    const m = await extractMetadata(realFile('ahn3_cropped_1.laz'), { epsg: 28992 });
    expect(m.crs?.epsg).toBe(28992);
    expect(m.crs?.source).toBe('override');
    // Delft.
    expect(m.bboxWgs84!.west).toBeCloseTo(4.36, 1);
    expect(m.bboxWgs84!.south).toBeCloseTo(52.0, 1);
  });
  it('file with both WKT and GeoTIFF keys: the WKT bit makes the WKT win', async () => {
    const r = await openPointCloud(realFile('file_with_both_wkt_and_geotiff_vlrs.las'));
    expect(r.crs?.source).toBe('wkt');
    expect(r.crs?.epsg).toBe(6880);
    expect(r.crs?.horizontalUnitToMetre).toBeCloseTo(1200 / 3937, 12);
    await r.close();
  });
  it('an override wins over the file CRS', async () => {
    const r = await openPointCloud(realFile('fusa.laz'), { epsg: 32755 });
    expect(r.crs?.epsg).toBe(32755);
    await r.close();
  });
});
