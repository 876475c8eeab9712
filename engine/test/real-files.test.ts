import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { REAL_FILES } from '@nuage/fixtures/real-files.js';
import { describe, expect, it } from 'vitest';
import { extractMetadata } from '../src/metadata/index.js';
import { openPointCloud } from '../src/readers/index.js';

const asNumbers = (r: Record<string | number, number>) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [String(k), v]));

describe.skipIf(!hasRealData())('every real file matches the README facts', () => {
  it.each(REAL_FILES.map((f) => [f.file, f] as const))('%s', async (_name, facts) => {
    const reader = await openPointCloud(realFile(facts.file));
    const { header } = reader;
    expect(header.lasVersion).toBe(facts.lasVersion);
    expect(header.pointFormat).toBe(facts.pointFormat);
    expect(header.recordLength).toBe(facts.recordLength);
    expect(header.pointCount).toBe(facts.pointCount);
    expect(header.compressed).toBe(facts.compressed);
    expect(header.scale).toEqual(facts.scale);
    // README rounds offsets to 2 decimals (and writes -0 as 0).
    for (let i = 0; i < 3; i++) expect(Math.abs(header.offset[i]! - facts.offset[i]!)).toBeLessThan(0.006);
    expect(header.generatingSoftware).toBe(facts.generatingSoftware);
    expect(header.systemId).toBe(facts.systemId);
    expect(header.globalEncoding).toBe(facts.globalEncoding);
    if (facts.creationYear !== null) {
      expect(header.creationYear).toBe(facts.creationYear);
      expect(header.creationDay).toBe(facts.creationDay);
    }
    expect(reader.crs?.epsg ?? null).toBe(facts.epsg);
    for (const name of facts.extraBytes) expect(header.extraBytes.map((f) => f.name)).toContain(name);
    await reader.close();

    // One streaming pass: counts, bbox and histograms from the points themselves.
    const m = await extractMetadata(realFile(facts.file));
    expect(m.pointCount).toBe(facts.pointCount);
    expect(m.classCounts).toEqual(asNumbers(facts.classCounts));
    if (facts.returnCounts) expect(m.returnCounts).toEqual(asNumbers(facts.returnCounts));
    // README bbox = header bbox (2 decimals); the bbox of the points lies inside it.
    const tolerance = 0.006;
    const b = facts.bbox;
    const hb = {
      minX: header.min[0],
      minY: header.min[1],
      minZ: header.min[2],
      maxX: header.max[0],
      maxY: header.max[1],
      maxZ: header.max[2],
    };
    for (const k of ['minX', 'minY', 'minZ', 'maxX', 'maxY', 'maxZ'] as const)
      expect(Math.abs(hb[k] - b[k])).toBeLessThan(tolerance);
    const slack = Math.max(...header.scale);
    expect(m.bbox.minX).toBeGreaterThanOrEqual(hb.minX - slack);
    expect(m.bbox.maxX).toBeLessThanOrEqual(hb.maxX + slack);
    expect(m.bbox.minY).toBeGreaterThanOrEqual(hb.minY - slack);
    expect(m.bbox.maxY).toBeLessThanOrEqual(hb.maxY + slack);
    expect(m.minElevation).toBeGreaterThanOrEqual(hb.minZ - slack);
    expect(m.maxElevation).toBeLessThanOrEqual(hb.maxZ + slack);
    expect(m.hasRgb).toBe(facts.hasRgb);
    expect(m.crsRequired).toBe(facts.epsg === null);
    expect(m.lasVersion).toBe(facts.lasVersion);
    // Covered area can never exceed the bbox area (in m², feet converted).
    const unit = m.crs?.horizontalUnitToMetre ?? 1;
    const bboxHa =
      ((m.bbox.maxX - m.bbox.minX + 2 / unit) * (m.bbox.maxY - m.bbox.minY + 2 / unit) * unit * unit) / 10_000;
    expect(m.areaHectares).toBeGreaterThan(0);
    expect(m.areaHectares).toBeLessThanOrEqual(bboxHa);
  });
});
