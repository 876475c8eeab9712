import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { addDecoder, BaseDecoder, fromArrayBuffer } from 'geotiff';
import { EngineError, InvalidInput } from '../core/errors.js';
import { bufferByteSource } from './byte-source.js';
import { readCogRaster } from './cog.reader.js';
import type { Raster, RasterCrs } from './raster.js';
import { FLOAT_NODATA } from './raster.js';

/**
 * Deflate through node:zlib (the `geotiff` package's own decoder goes
 * through pako); the base decoder undoes predictors 2 and 3 afterwards.
 */
class NodeDeflateDecoder extends BaseDecoder {
  override decodeBlock(buffer: ArrayBufferLike): ArrayBufferLike {
    const out = inflateSync(new Uint8Array(buffer));
    return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
  }
}
addDecoder([8, 32946], async () => NodeDeflateDecoder as never);

/**
 * Reads band 1 of a north-up GeoTIFF (any sample type) into a float
 * {@link Raster}; the GDAL nodata value is kept, NaN cells become nodata.
 *
 * @example
 * const dtm = await readGeoTiff('dtm.tif');
 */
export async function readGeoTiff(path: string): Promise<Raster> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    throw new EngineError('NOT_FOUND', `cannot read ${path}: ${(cause as Error).message}`, { cause });
  }
  if (bytes.length < 8) throw new InvalidInput('tiff.header', `${path} is too short to be a TIFF`, 0);
  const magic = bytes.toString('latin1', 0, 2);
  if (magic !== 'II' && magic !== 'MM') throw new InvalidInput('tiff.header', `${path} is not a TIFF file`, 0);
  const fast = readSimpleTiff(bytes);
  if (fast) return fast;
  // Tiled files (the engine's Cloud-Optimized GeoTIFFs, GDAL's COG driver).
  const tiled = await readCogRaster(bufferByteSource(bytes)).catch(() => null);
  if (tiled) return tiled;
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  try {
    const tiff = await fromArrayBuffer(ab);
    const image = await tiff.getImage();
    const width = image.getWidth();
    const height = image.getHeight();
    const [resX, resY] = image.getResolution();
    const [originX, originY] = image.getOrigin();
    if (resX === undefined || resY === undefined || originX === undefined || originY === undefined) {
      throw new InvalidInput('tiff.georeference', `${path} has no georeferencing (ModelPixelScale/ModelTiepoint)`);
    }
    if (Math.abs(Math.abs(resX) - Math.abs(resY)) > 1e-6 * Math.abs(resX)) {
      throw new InvalidInput('tiff.resolution', `${path} has non-square cells (${resX} × ${resY})`);
    }
    if (resY > 0) throw new InvalidInput('tiff.resolution', `${path} is not north-up`);
    const rasters = (await image.readRasters({ samples: [0] })) as unknown as ArrayLike<number>[];
    const band = rasters[0]!;
    const gdalNodata = image.getGDALNoData();
    const nodata = gdalNodata ?? FLOAT_NODATA;
    const data = new Float32Array(width * height);
    for (let i = 0; i < data.length; i++) {
      const v = band[i]!;
      data[i] = Number.isNaN(v) ? nodata : v;
    }
    const keys = image.getGeoKeys() ?? {};
    const projected = keys.ProjectedCSTypeGeoKey as number | undefined;
    const geographicKey = keys.GeographicTypeGeoKey as number | undefined;
    let crs: RasterCrs | null = null;
    if (projected && projected !== 32767) crs = { epsg: projected, geographic: false };
    else if (geographicKey && geographicKey !== 32767 && keys.GTModelTypeGeoKey === 2)
      crs = { epsg: geographicKey, geographic: true };
    return { width, height, originX, originY, resolution: Math.abs(resX), data, nodata, crs };
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw new InvalidInput('tiff', `${path}: ${(error as Error).message}`);
  }
}

/**
 * Fast path for the layout the engine and GDAL write by default: little-endian
 * classic TIFF, one band, strips, uncompressed or deflate without predictor,
 * 8-bit unsigned or 32-bit float samples, ModelPixelScale + ModelTiepoint.
 * Returns null for anything else (the `geotiff` package reads it then).
 */
function readSimpleTiff(bytes: Buffer): Raster | null {
  if (bytes.toString('latin1', 0, 2) !== 'II' || bytes.readUInt16LE(2) !== 42) return null;
  const ifd = bytes.readUInt32LE(4);
  if (ifd + 2 > bytes.length) return null;
  const n = bytes.readUInt16LE(ifd);
  if (ifd + 2 + n * 12 > bytes.length) return null;
  const sizes: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 12: 8 };
  const tags = new Map<number, number[] | string>();
  for (let k = 0; k < n; k++) {
    const at = ifd + 2 + k * 12;
    const id = bytes.readUInt16LE(at);
    const type = bytes.readUInt16LE(at + 2);
    const count = bytes.readUInt32LE(at + 4);
    const size = sizes[type];
    if (!size) continue;
    const total = size * count;
    const base = total <= 4 ? at + 8 : bytes.readUInt32LE(at + 8);
    if (base + total > bytes.length) return null;
    if (type === 2) {
      tags.set(id, bytes.toString('latin1', base, base + count).replace(/\0+$/, ''));
      continue;
    }
    const values: number[] = [];
    for (let i = 0; i < count; i++) {
      const p = base + i * size;
      values.push(
        type === 3
          ? bytes.readUInt16LE(p)
          : type === 4
            ? bytes.readUInt32LE(p)
            : type === 12
              ? bytes.readDoubleLE(p)
              : bytes[p]!,
      );
    }
    tags.set(id, values);
  }
  const num = (id: number, fallback?: number) => {
    const v = tags.get(id);
    return Array.isArray(v) ? v[0]! : fallback;
  };
  const width = num(256);
  const height = num(257);
  const bits = num(258, 1);
  const compression = num(259, 1);
  const spp = num(277, 1);
  const format = num(339, 1);
  const predictor = num(317, 1);
  const offsets = tags.get(273);
  const counts = tags.get(279);
  const rowsPerStrip = num(278, height);
  const scale = tags.get(33550);
  const tie = tags.get(33922);
  if (!width || !height || !rowsPerStrip || spp !== 1 || predictor !== 1) return null;
  if (compression !== 1 && compression !== 8 && compression !== 32946) return null;
  const float = bits === 32 && format === 3;
  const byte = bits === 8 && format === 1;
  if (!float && !byte) return null;
  if (!Array.isArray(offsets) || !Array.isArray(counts) || !Array.isArray(scale) || !Array.isArray(tie)) return null;
  if (tie.length < 6 || scale.length < 2 || tie[0] !== 0 || tie[1] !== 0) return null;
  if (Math.abs(scale[0]! - scale[1]!) > 1e-9 * Math.abs(scale[0]!)) return null;
  const bps = float ? 4 : 1;
  const raw = new Uint8Array(width * height * bps);
  let at = 0;
  for (let s = 0; s < offsets.length; s++) {
    const strip = bytes.subarray(offsets[s]!, offsets[s]! + counts[s]!);
    const data = compression === 1 ? strip : inflateSync(strip);
    const want = Math.min(rowsPerStrip, height - s * rowsPerStrip) * width * bps;
    if (data.length < want) return null;
    raw.set(data.subarray(0, want), at);
    at += want;
  }
  if (at !== raw.length) return null;
  const nodataText = tags.get(42113);
  const parsedNodata = typeof nodataText === 'string' && nodataText.trim() !== '' ? Number(nodataText) : Number.NaN;
  const nodata = Number.isFinite(parsedNodata) ? parsedNodata : FLOAT_NODATA;
  let data: Float32Array;
  if (float) {
    data = new Float32Array(raw.buffer, 0, width * height);
    if (!Number.isFinite(parsedNodata) || Number.isNaN(parsedNodata)) {
      for (let i = 0; i < data.length; i++) if (Number.isNaN(data[i]!)) data[i] = nodata;
    }
  } else {
    data = Float32Array.from(raw);
  }
  const keys = tags.get(34735);
  let crs: RasterCrs | null = null;
  if (Array.isArray(keys) && keys.length >= 4) {
    let model = 0;
    for (let k = 0; k < keys[3]!; k++) {
      const [id, loc, , value] = keys.slice(4 + 4 * k, 8 + 4 * k) as [number, number, number, number];
      if (loc !== 0) continue;
      if (id === 1024) model = value;
      if (id === 3072 && value !== 32767) crs = { epsg: value, geographic: false };
      if (id === 2048 && value !== 32767 && model === 2 && !crs) crs = { epsg: value, geographic: true };
    }
  }
  return { width, height, originX: tie[3]!, originY: tie[4]!, resolution: scale[0]!, data, nodata, crs };
}
