import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import { fromFile } from 'geotiff';
import { describe, expect, it } from 'vitest';
import { hillshade } from '../products/hillshade.product.js';
import { gdal, hasGdal } from '../products/test-gdal.js';
import { bufferByteSource } from '../raster/byte-source.js';
import { openCog } from '../raster/cog.reader.js';
import { readGeoTiff } from '../raster/geotiff.reader.js';
import { createRaster, type Raster, rasterRange } from '../raster/raster.js';
import { encodeGeoTiff, encodeGeoTiffAsync, writeGeoTiff } from './geotiff.writer.js';

/** 1300 × 700 cells at 0.5 m in Lambert-93 with a nodata hole and a nodata border column. */
function dtm(): Raster {
  const r = createRaster(1300, 700, 650_000, 6_862_000, 0.5, { epsg: 2154, name: 'RGF93 v1 / Lambert-93' });
  r.data.set(analyticSurface(1300, 700, 0.5));
  for (let row = 300; row < 340; row++) for (let c = 500; c < 560; c++) r.data[row * 1300 + c] = r.nodata;
  for (let row = 0; row < 700; row++) r.data[row * 1300] = r.nodata;
  return r;
}

/** Cells whose values differ (bit for bit), or -1 when the sizes differ (faster than a deep equal on a million cells). */
function differences(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return -1;
  let n = 0;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) n++;
  return n;
}

/** Offsets of every IFD and the smallest offset of tile data, read from the file. */
function layoutOf(bytes: Buffer): { ifds: number[]; firstData: number; lastIfdEnd: number } {
  const ifds: number[] = [];
  let firstData = Number.POSITIVE_INFINITY;
  let lastIfdEnd = 0;
  for (let at = bytes.readUInt32LE(4); at !== 0; ) {
    ifds.push(at);
    const n = bytes.readUInt16LE(at);
    lastIfdEnd = Math.max(lastIfdEnd, at + 2 + n * 12 + 4);
    for (let k = 0; k < n; k++) {
      const e = at + 2 + k * 12;
      if (bytes.readUInt16LE(e) !== 324) continue;
      const count = bytes.readUInt32LE(e + 4);
      const list = count === 1 ? e + 8 : bytes.readUInt32LE(e + 8);
      for (let i = 0; i < count; i++) firstData = Math.min(firstData, bytes.readUInt32LE(list + 4 * i));
    }
    at = bytes.readUInt32LE(at + 2 + n * 12);
  }
  return { ifds, firstData, lastIfdEnd };
}

describe('Cloud-Optimized GeoTIFF writer', () => {
  it('deflates on the thread pool to the same bytes as the synchronous encoder', async () => {
    const raster = dtm();
    for (const options of [{ deflate: true }, { deflate: true, sampleType: 'uint8' as const }, { deflate: false }]) {
      const sync = encodeGeoTiff(raster, options);
      const pooled = await encodeGeoTiffAsync(raster, options);
      expect(pooled.length).toBe(sync.length);
      expect(pooled.equals(sync)).toBe(true);
    }
    // Deflated float tiles are smaller than raw ones: the pooled path did compress.
    expect((await encodeGeoTiffAsync(raster, { deflate: true })).length).toBeLessThan(
      encodeGeoTiff(raster, { deflate: false }).length,
    );
  });

  it('writes 256-cell tiles, power-of-2 overviews down to one tile, and every IFD before the data', async () => {
    const raster = dtm();
    const bytes = encodeGeoTiff(raster, { deflate: true });
    const { ifds, firstData, lastIfdEnd } = layoutOf(bytes);
    // 1300 → 650 → 325 → 163 (fits a 256 tile): full resolution and 3 overviews.
    expect(ifds).toHaveLength(4);
    expect(lastIfdEnd).toBeLessThan(firstData);
    expect(bytes.toString('latin1', 8, 8 + 30)).toBe('GDAL_STRUCTURAL_METADATA_SIZE=');
    const cog = await openCog(bufferByteSource(bytes));
    expect(cog.levels.map((l) => [l.width, l.height, l.blockWidth])).toEqual([
      [1300, 700, 256],
      [650, 350, 256],
      [325, 175, 256],
      [163, 88, 256],
    ]);
    // Smallest overview's data first, full resolution last; each tile between its size and its last 4 bytes.
    expect(cog.levels[3]!.offsets[0]).toBeLessThan(cog.levels[0]!.offsets[0]!);
    for (const level of cog.levels) {
      for (let i = 0; i < level.offsets.length; i++) {
        const at = level.offsets[i]!;
        const n = level.counts[i]!;
        expect(bytes.readUInt32LE(at - 4)).toBe(n);
        expect(bytes.subarray(at + n, at + n + 4)).toEqual(bytes.subarray(at + n - 4, at + n));
      }
    }
    const range = rasterRange(raster)!;
    expect(cog.statistics).toMatchObject({ min: range.min, max: range.max });
  });

  it('keeps every value and the nodata, read back by the engine and by the geotiff package in windows', async () => {
    const raster = dtm();
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-cog-'));
    const file = path.join(dir, 'dtm.tif');
    await writeGeoTiff(file, raster, { deflate: true });
    const back = await readGeoTiff(file);
    expect(back.nodata).toBe(-9999);
    expect(back.crs?.epsg).toBe(2154);
    expect([back.width, back.height, back.originX, back.originY, back.resolution]).toEqual([
      1300, 700, 650_000, 6_862_000, 0.5,
    ]);
    expect(differences(back.data, raster.data)).toBe(0);
    // The terrain server reads windows with the geotiff package.
    const tiff = await fromFile(file);
    expect(await tiff.getImageCount()).toBe(4);
    const image = await tiff.getImage(0);
    const [band] = (await image.readRasters({ window: [495, 298, 565, 302] })) as unknown as Float32Array[];
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 70; c++) expect(band![r * 70 + c]).toBe(raster.data[(298 + r) * 1300 + 495 + c]);
    }
  });

  it('writes hillshade bytes with nodata 0 unchanged', async () => {
    const shade = hillshade(dtm());
    const back = await openCog(bufferByteSource(encodeGeoTiff(shade, { sampleType: 'uint8', deflate: true })));
    const cells = await back.readWindow(0, 0, 0, 1300, 700);
    expect(back.nodata).toBe(0);
    let zero = 0;
    let differ = 0;
    for (let i = 0; i < cells.length; i++) {
      if (cells[i] !== Math.round(shade.data[i]!)) differ++;
      if (cells[i] === 0) zero++;
    }
    expect(differ).toBe(0);
    expect(zero).toBeGreaterThan(2400);
  });

  it.runIf(hasGdal())('is a COG for gdalinfo, with the same values as before for GDAL', async () => {
    const raster = dtm();
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-cog-'));
    const file = path.join(dir, 'dtm.tif');
    await writeGeoTiff(file, raster, { deflate: true, metadata: { NUAGE_RAMP: 'elevation' } });
    const info = JSON.parse(gdal('gdalinfo', ['-json', file])) as {
      metadata: Record<string, Record<string, string>>;
      bands: {
        block: number[];
        noDataValue: number;
        overviews: { size: number[] }[];
        metadata: Record<string, Record<string, string>>;
      }[];
      stac: { 'proj:epsg': number };
    };
    expect(info.metadata.IMAGE_STRUCTURE).toMatchObject({ LAYOUT: 'COG', COMPRESSION: 'DEFLATE', PREDICTOR: '3' });
    expect(info.metadata['']!.NUAGE_RAMP).toBe('elevation');
    expect(info.bands[0]!.block).toEqual([256, 256]);
    expect(info.bands[0]!.noDataValue).toBe(-9999);
    expect(info.bands[0]!.overviews.map((o) => o.size)).toEqual([
      [650, 350],
      [325, 175],
      [163, 88],
    ]);
    expect(info.stac['proj:epsg']).toBe(2154);
    // GDAL decodes the same float32 values: rewritten by GDAL as a plain strip file, read back cell by cell.
    const plain = path.join(dir, 'plain.tif');
    gdal('gdal_translate', ['-q', '-co', 'TILED=NO', '-co', 'COMPRESS=NONE', file, plain]);
    const viaGdal = await readGeoTiff(plain);
    expect(differences(viaGdal.data, raster.data)).toBe(0);
    // The strip file the writer made before this change holds the same bytes: same checksum.
    const sum = (f: string) => /Checksum=(\d+)/.exec(gdal('gdalinfo', ['-checksum', f]))![1];
    expect(sum(file)).toBe(sum(plain));
    expect(readFileSync(file).length).toBeLessThan(raster.data.byteLength);
  });
});
