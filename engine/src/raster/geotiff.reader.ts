import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { addDecoder, fromArrayBuffer } from 'geotiff';
import { EngineError, InvalidInput } from '../core/errors.js';
import type { Raster, RasterCrs } from './raster.js';
import { FLOAT_NODATA } from './raster.js';

/**
 * The `geotiff` package's own deflate decoder imports pako in a way Node's ESM
 * loader rejects; node:zlib decodes the same streams. Predictors 2 and 3 are
 * not undone here, so such files are refused with a clear error.
 */
class NodeDeflateDecoder {
  private readonly predictor: number;
  constructor(parameters: { predictor?: number }) {
    this.predictor = parameters.predictor ?? 1;
  }
  async decode(buffer: ArrayBuffer): Promise<ArrayBuffer> {
    if (this.predictor !== 1) {
      throw new InvalidInput('tiff.predictor', `deflate with predictor ${this.predictor} is not supported`);
    }
    const out = inflateSync(new Uint8Array(buffer));
    return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;
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
