import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hasRealData, realFile } from '@nuage/fixtures/real-data.js';
import { describe, expect, it } from 'vitest';
import type { PointChunk } from '../src/core/chunk.js';
import { gatherCloud } from '../src/filters/cloud.js';
import { extractMetadata, metadataFromChunks } from '../src/metadata/index.js';
import { openPointCloud } from '../src/readers/index.js';
import { writeLas } from '../src/writers/las.writer.js';

async function* chunks(points: Array<[number, number, number]>): AsyncIterable<PointChunk> {
  yield {
    count: points.length,
    x: Float64Array.from(points.map((p) => p[0])),
    y: Float64Array.from(points.map((p) => p[1])),
    z: Float64Array.from(points.map((p) => p[2])),
  };
}

describe('covered area', () => {
  it('counts occupied 1 m cells, not the bbox (L-shaped survey)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'nuage-meta-'));
    try {
      // An L of two 100 m x 10 m strips: bbox 100 x 100 m = 1 ha, covered 0.19 ha.
      const points: Array<[number, number, number]> = [];
      for (let x = 0.5; x < 100; x += 1) for (let y = 0.5; y < 10; y += 1) points.push([1000 + x, 5000 + y, 1]);
      for (let x = 0.5; x < 10; x += 1) for (let y = 10.5; y < 100; y += 1) points.push([1000 + x, 5000 + y, 2]);
      const file = path.join(dir, 'l.las');
      await writeLas(file, chunks(points), { crs: null, scale: [0.01, 0.01, 0.01], offset: [0, 0, 0] });
      const m = await extractMetadata(file, { epsg: 2154 });
      expect(m.pointCount).toBe(1900);
      expect(m.areaHectares).toBeCloseTo(0.19, 6);
      expect(m.pointDensity).toBeCloseTo(1, 6);
      // The same survey in US feet covers (1200/3937)^2 of the area per cell of 1 ft.
      const ft = await extractMetadata(file, { epsg: 2255 });
      expect(ft.areaHectares).toBeLessThan(0.19 * 0.2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!hasRealData())('metadata of real files', () => {
  it('reports spec §3 fields for an IGN file', async () => {
    const m = await extractMetadata(realFile('test_semis_2021_0382_6565_LA93_IGN69_cropped.laz'));
    expect(m.lasVersion).toBe('1.4');
    expect(m.systemId).toBe('PDAL');
    expect(m.generatingSoftware).toBe('PDAL 2.8.0 (96cf05)');
    expect(m.creationYear).toBe(2025);
    expect(m.creationDay).toBe(62);
    expect(m.memoryGb).toBeCloseTo(1933986 / 1e9, 12);
    expect(m.hasRgb).toBe(true);
    expect(m.rgbNonZero).toBe(false);
    expect(m.crs?.epsg).toBe(2154);
    expect(m.intensityMax).toBeGreaterThan(m.intensityMin);
    // 750 m x 1000 m tile, decimated and cropped: covered area is below the 75 ha bbox.
    expect(m.areaHectares).toBeGreaterThan(1);
    expect(m.areaHectares).toBeLessThan(75);
  });
});

describe.runIf(hasRealData())('metadata of a cloud already in memory', () => {
  // The processing run reads the input once; the report's summary is computed from those points, not a second read.
  it.each(['fusa.laz', 'autzen_trim.las'])('equals a streamed read of the file (%s)', async (name) => {
    const reader = await openPointCloud(realFile(name));
    const cloud = await gatherCloud(reader.read({}), {}, { expected: reader.header.pointCount });
    await reader.close();
    const inMemory = await metadataFromChunks(reader, [cloud]);
    const streamed = await extractMetadata(realFile(name));
    expect(inMemory).toEqual(streamed);
    expect(inMemory.pointCount).toBe(reader.header.pointCount);
    expect(inMemory.areaHectares).toBeGreaterThan(0);
  });
});
