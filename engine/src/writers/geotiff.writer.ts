import { writeFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { InvalidInput } from '../core/errors.js';
import type { Raster, RasterCrs } from '../raster/raster.js';

/** Options of {@link encodeGeoTiff}. */
export interface GeoTiffWriteOptions {
  /** Sample type of the band: 32-bit float (DTM, slope) or 8-bit unsigned (hillshade). */
  sampleType?: 'float32' | 'uint8';
  /** Deflate-compress strips (smaller files, slower); default false, like gdaldem. */
  deflate?: boolean;
}

/** What a writer reports about the file it produced. */
export interface RasterArtifact {
  path: string;
  type: 'geotiff';
  bytes: number;
  width: number;
  height: number;
  bounds: { minX: number; minY: number; maxX: number; maxY: number };
}

const TYPE_SHORT = 3;
const TYPE_LONG = 4;
const TYPE_ASCII = 2;
const TYPE_DOUBLE = 12;

interface Tag {
  id: number;
  type: number;
  values: number[] | string;
}

function isGeographic(crs: RasterCrs): boolean {
  if (crs.geographic !== undefined) return crs.geographic;
  const e = crs.epsg ?? 0;
  return (e >= 4000 && e < 5000) || e === 4326;
}

function geoKeyDirectory(crs: RasterCrs | null): { keys: number[]; citation: string | null } {
  // GeoKeyDirectory header: version 1, revision 1.0, number of keys.
  const entries: number[][] = [];
  let citation: string | null = null;
  if (crs?.epsg) {
    const geographic = isGeographic(crs);
    entries.push([1024, 0, 1, geographic ? 2 : 1]); // GTModelTypeGeoKey
    entries.push([1025, 0, 1, 1]); // GTRasterTypeGeoKey: PixelIsArea
    if (crs.name) {
      citation = `${crs.name}|`;
      entries.push([1026, 34737, citation.length, 0]); // GTCitationGeoKey
    }
    entries.push(geographic ? [2048, 0, 1, crs.epsg] : [3072, 0, 1, crs.epsg]);
  } else {
    entries.push([1025, 0, 1, 1]);
  }
  entries.sort((a, b) => a[0]! - b[0]!);
  const keys = [1, 1, 0, entries.length];
  for (const e of entries) keys.push(...e);
  return { keys, citation };
}

/**
 * Encodes a raster as a little-endian, strip-organised, single-band GeoTIFF:
 * ModelPixelScale, ModelTiepoint, GeoKeyDirectory (ProjectedCSTypeGeoKey or
 * GeographicTypeGeoKey for EPSG CRSs) and GDAL_NODATA (tag 42113), readable by
 * GDAL and the `geotiff` npm package.
 */
export function encodeGeoTiff(raster: Raster, options: GeoTiffWriteOptions = {}): Buffer {
  const { width, height } = raster;
  const sampleType = options.sampleType ?? 'float32';
  const bytesPerSample = sampleType === 'float32' ? 4 : 1;
  const rowBytes = width * bytesPerSample;
  const rowsPerStrip = Math.max(1, Math.min(height, Math.floor(65536 / rowBytes) || 1));
  const stripCount = Math.ceil(height / rowsPerStrip);

  // Pixel data as bytes in file order.
  let pixels: Uint8Array;
  if (sampleType === 'float32') {
    pixels = new Uint8Array(raster.data.buffer, raster.data.byteOffset, width * height * 4);
  } else {
    pixels = new Uint8Array(width * height);
    const d = raster.data;
    for (let i = 0; i < pixels.length; i++) {
      const v = d[i]!;
      pixels[i] = Number.isNaN(v) || v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  }
  const strips: Uint8Array[] = [];
  for (let s = 0; s < stripCount; s++) {
    const start = s * rowsPerStrip * rowBytes;
    const end = Math.min(height, (s + 1) * rowsPerStrip) * rowBytes;
    const raw = pixels.subarray(start, end);
    strips.push(options.deflate ? deflateSync(raw, { level: 6 }) : raw);
  }

  const { keys, citation } = geoKeyDirectory(raster.crs);
  const tags: Tag[] = [
    { id: 256, type: TYPE_LONG, values: [width] },
    { id: 257, type: TYPE_LONG, values: [height] },
    { id: 258, type: TYPE_SHORT, values: [bytesPerSample * 8] },
    { id: 259, type: TYPE_SHORT, values: [options.deflate ? 8 : 1] },
    { id: 262, type: TYPE_SHORT, values: [1] },
    { id: 273, type: TYPE_LONG, values: new Array(stripCount).fill(0) },
    { id: 277, type: TYPE_SHORT, values: [1] },
    { id: 278, type: TYPE_LONG, values: [rowsPerStrip] },
    { id: 279, type: TYPE_LONG, values: strips.map((s) => s.length) },
    { id: 284, type: TYPE_SHORT, values: [1] },
    { id: 339, type: TYPE_SHORT, values: [sampleType === 'float32' ? 3 : 1] },
    { id: 33550, type: TYPE_DOUBLE, values: [raster.resolution, raster.resolution, 0] },
    { id: 33922, type: TYPE_DOUBLE, values: [0, 0, 0, raster.originX, raster.originY, 0] },
    { id: 34735, type: TYPE_SHORT, values: keys },
  ];
  if (citation) tags.push({ id: 34737, type: TYPE_ASCII, values: citation });
  const nodata = sampleType === 'uint8' ? 0 : raster.nodata;
  tags.push({ id: 42113, type: TYPE_ASCII, values: `${nodata}` });
  tags.sort((a, b) => a.id - b.id);

  const typeSize = (t: number) => (t === TYPE_DOUBLE ? 8 : t === TYPE_LONG ? 4 : t === TYPE_SHORT ? 2 : 1);
  const count = (t: Tag) => (typeof t.values === 'string' ? t.values.length + 1 : t.values.length);
  const ifdSize = 2 + tags.length * 12 + 4;
  let extraSize = 0;
  for (const t of tags) {
    const size = count(t) * typeSize(t.type);
    if (size > 4) extraSize += size + (size & 1);
  }
  const headerSize = 8 + ifdSize + extraSize;
  let dataSize = 0;
  for (const s of strips) dataSize += s.length;
  const stripOffsets = tags.find((t) => t.id === 273)!.values as number[];
  let off = headerSize;
  for (let s = 0; s < stripCount; s++) {
    stripOffsets[s] = off;
    off += strips[s]!.length;
  }
  if (off > 0xffffffff) throw new InvalidInput('raster.size', 'GeoTIFF larger than 4 GB needs BigTIFF, not supported');

  const out = Buffer.allocUnsafe(headerSize + dataSize);
  out.fill(0, 0, headerSize);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(8, 4);
  let p = 8;
  out.writeUInt16LE(tags.length, p);
  p += 2;
  let extra = 8 + ifdSize;
  const writeValue = (type: number, v: number, at: number) => {
    if (type === TYPE_SHORT) out.writeUInt16LE(v, at);
    else if (type === TYPE_LONG) out.writeUInt32LE(v, at);
    else if (type === TYPE_DOUBLE) out.writeDoubleLE(v, at);
  };
  for (const t of tags) {
    const n = count(t);
    const size = n * typeSize(t.type);
    out.writeUInt16LE(t.id, p);
    out.writeUInt16LE(t.type, p + 2);
    out.writeUInt32LE(n, p + 4);
    let at: number;
    if (size > 4) {
      out.writeUInt32LE(extra, p + 8);
      at = extra;
      extra += size + (size & 1);
    } else {
      out.writeUInt32LE(0, p + 8);
      at = p + 8;
    }
    if (typeof t.values === 'string') {
      out.write(t.values, at, 'latin1');
      out[at + t.values.length] = 0;
    } else {
      const ts = typeSize(t.type);
      for (let i = 0; i < t.values.length; i++) writeValue(t.type, t.values[i]!, at + i * ts);
    }
    p += 12;
  }
  out.writeUInt32LE(0, p);
  let d = headerSize;
  for (const s of strips) {
    out.set(s, d);
    d += s.length;
  }
  return out;
}

/**
 * Writes a raster as a GeoTIFF file (see {@link encodeGeoTiff}).
 *
 * @example
 * await writeGeoTiff('dtm.tif', dtm, { deflate: true });
 */
export async function writeGeoTiff(
  path: string,
  raster: Raster,
  options: GeoTiffWriteOptions = {},
): Promise<RasterArtifact> {
  const bytes = encodeGeoTiff(raster, options);
  await writeFile(path, bytes);
  return {
    path,
    type: 'geotiff',
    bytes: bytes.length,
    width: raster.width,
    height: raster.height,
    bounds: {
      minX: raster.originX,
      maxX: raster.originX + raster.width * raster.resolution,
      minY: raster.originY - raster.height * raster.resolution,
      maxY: raster.originY,
    },
  };
}
