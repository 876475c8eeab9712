import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { analyticSurface } from '@nuage/fixtures/synthetic/terrain-scene.js';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { crsFromEpsg } from '../crs/index.js';
import { hillshade } from '../products/hillshade.product.js';
import { encodeGeoTiff } from '../writers/geotiff.writer.js';
import { type ByteSource, bufferByteSource, fileByteSource } from './byte-source.js';
import { colourer, type Rgba } from './colour-ramps.js';
import { createRaster, type Raster, rasterRange, sampleBilinear } from './raster.js';
import { EMPTY_TILE_PNG, openRasterTileSource, renderRasterTile, renderRasterTilePixels } from './tile-render.js';

const L93 = crsFromEpsg(2154);
const EARTH = 6378137;
const HALF = Math.PI * EARTH;

/** 1200 × 900 cells at 0.5 m near Paris (Lambert-93) with a 40 × 40 m nodata hole. */
function dtm(): Raster {
  const r = createRaster(1200, 900, 650_000, 6_862_000, 0.5, { epsg: 2154 });
  r.data.set(analyticSurface(1200, 900, 0.5));
  for (let row = 400; row < 480; row++) for (let c = 600; c < 680; c++) r.data[row * 1200 + c] = r.nodata;
  return r;
}

/** Counts what a byte source is asked for. */
function counting(source: ByteSource): ByteSource & { bytes: number; reads: number } {
  const out = {
    size: source.size,
    bytes: 0,
    reads: 0,
    read(offset: number, length: number) {
      out.bytes += length;
      out.reads++;
      return source.read(offset, length);
    },
  };
  return out;
}

/** The tile and pixel of zoom z holding a Lambert-93 point, and the pixel centre back in Lambert-93. */
function pixelOf(x: number, y: number, z: number) {
  const [mx, my] = proj4(L93.proj4, 'EPSG:3857').forward([x, y]) as [number, number];
  const size = (2 * HALF) / 2 ** z;
  const tx = Math.floor((mx + HALF) / size);
  const ty = Math.floor((HALF - my) / size);
  const px = Math.floor(((mx + HALF) / size - tx) * 256);
  const py = Math.floor(((HALF - my) / size - ty) * 256);
  const centre = proj4('EPSG:3857', L93.proj4).forward([
    -HALF + (tx + (px + 0.5) / 256) * size,
    HALF - (ty + (py + 0.5) / 256) * size,
  ]) as [number, number];
  return { tx, ty, at: (py * 256 + px) * 4, centre };
}

/** RGBA of a PNG the engine wrote (filter 0 rows). */
function decodePng(png: Buffer): Uint8Array {
  let p = 8;
  const idat: Buffer[] = [];
  while (p < png.length) {
    const len = png.readUInt32BE(p);
    if (png.toString('latin1', p + 4, p + 8) === 'IDAT') idat.push(png.subarray(p + 8, p + 8 + len));
    p += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const out = new Uint8Array(256 * 256 * 4);
  for (let r = 0; r < 256; r++) out.set(raw.subarray(r * 1025 + 1, r * 1025 + 1025), r * 1024);
  return out;
}

describe('raster tiles rendered on demand from a COG', () => {
  const raster = dtm();
  const cogBytes = encodeGeoTiff(raster, { deflate: true });

  it('colours each pixel by the elevation ramp over the raster range, nodata transparent', async () => {
    const source = counting(bufferByteSource(cogBytes));
    const opened = await openRasterTileSource(source);
    const range = rasterRange(raster)!;
    expect(opened.range).toEqual(range);
    const headerBytes = source.bytes;
    // A cell centre well inside the data: zoom 19 pixels (0.2 m) read the full resolution.
    const p = pixelOf(650_000 + 150.25, 6_862_000 - 100.25, 19);
    const { rgba, visible } = await renderRasterTilePixels(opened, 'elevation', 19, p.tx, p.ty);
    expect(visible).toBeGreaterThan(0);
    const expected: Rgba = [0, 0, 0, 0];
    colourer('elevation', range)(sampleBilinear(raster, p.centre[0], p.centre[1]), expected);
    for (let k = 0; k < 3; k++) expect(Math.abs(rgba[p.at + k]! - expected[k]!)).toBeLessThanOrEqual(1);
    expect(rgba[p.at + 3]).toBe(255);
    // Range reads: a deep tile fetches a few blocks, not the file.
    expect(source.bytes - headerBytes).toBeLessThan(cogBytes.length / 4);
    // The middle of the nodata hole is transparent.
    const hole = pixelOf(650_000 + 320, 6_862_000 - 220, 19);
    const inHole = await renderRasterTilePixels(opened, 'elevation', 19, hole.tx, hole.ty);
    expect(inHole.rgba[hole.at + 3]).toBe(0);
  });

  it('reads an overview, not the full resolution, for a zoomed-out tile', async () => {
    const source = counting(bufferByteSource(cogBytes));
    const opened = await openRasterTileSource(source);
    const before = source.bytes;
    const p = pixelOf(650_300, 6_861_800, 14);
    const { visible } = await renderRasterTilePixels(opened, 'elevation', 14, p.tx, p.ty);
    expect(visible).toBeGreaterThan(100);
    const smallest = opened.cog.levels.at(-1)!;
    expect(source.bytes - before).toBeLessThanOrEqual(smallest.counts.reduce((a, b) => a + b, 0) + 64 * 1024);
  });

  it('draws hillshade with the nearest cell in grey, from a file', async () => {
    const shade = hillshade(raster);
    const dir = mkdtempSync(path.join(tmpdir(), 'nuage-render-'));
    const file = path.join(dir, 'hillshade.tif');
    writeFileSync(file, encodeGeoTiff(shade, { sampleType: 'uint8', deflate: true }));
    const source = await fileByteSource(file);
    try {
      const p = pixelOf(650_000 + 80.25, 6_862_000 - 60.25, 20);
      const png = await renderRasterTile(source, 'shade', 20, p.tx, p.ty);
      const rgba = decodePng(png);
      const c = Math.floor((p.centre[0] - 650_000) / 0.5);
      const r = Math.floor((6_862_000 - p.centre[1]) / 0.5);
      const grey = Math.round(shade.data[r * 1200 + c]!);
      expect(grey).toBeGreaterThan(0);
      expect([...rgba.subarray(p.at, p.at + 4)]).toEqual([grey, grey, grey, 255]);
    } finally {
      await source.close?.();
    }
  });

  it('gives the empty tile outside the data without reading any block', async () => {
    const source = counting(bufferByteSource(cogBytes));
    const opened = await openRasterTileSource(source);
    const before = source.reads;
    const p = pixelOf(650_000 + 300, 6_862_000 + 5_000, 17);
    expect(opened.covers(17, p.tx, p.ty)).toBe(false);
    const png = await renderRasterTile(opened, 'elevation', 17, p.tx, p.ty);
    expect(png).toBe(EMPTY_TILE_PNG);
    expect(decodePng(png).every((v) => v === 0)).toBe(true);
    expect(source.reads).toBe(before);
  });

  it('refuses tile addresses outside the tile matrix', async () => {
    const opened = await openRasterTileSource(bufferByteSource(cogBytes));
    await expect(renderRasterTile(opened, 'elevation', 25, 0, 0)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(renderRasterTile(opened, 'elevation', 2, 4, 0)).rejects.toThrow(/outside zoom 2/);
  });
});
