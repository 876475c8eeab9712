/**
 * Colorization from imagery: the RGB of an orthophoto (a GeoTIFF in any CRS
 * with an EPSG code, 8- or 16-bit) sampled at every point of a cloud, as
 * PDAL's `filters.colorization` does (nearest pixel, no interpolation), and
 * stored as LAS 16-bit colours (8-bit values × 257).
 */
import { fromFile, type GeoTIFFImage } from 'geotiff';
import proj4 from 'proj4';
import type { PointChunk } from '../core/chunk.js';
import { InvalidInput } from '../core/errors.js';
import { type CrsInfo, crsFromEpsg } from '../crs/index.js';

/** The processing field the orthophoto comes from, named in the errors. */
export const ORTHOPHOTO_FIELD = 'orthophoto';

/**
 * A refused orthophoto: InvalidInput on the `orthophoto` field with a code of
 * its own (translated in the web's errors.json): ORTHOPHOTO_NOT_COVERING (off
 * the cloud, or under half of its points), ORTHOPHOTO_INVALID (not an RGB
 * GeoTIFF with an EPSG CRS).
 */
export class OrthophotoRefused extends InvalidInput {
  override readonly code: 'ORTHOPHOTO_NOT_COVERING' | 'ORTHOPHOTO_INVALID';
  constructor(code: OrthophotoRefused['code'], message: string, value?: number) {
    super(ORTHOPHOTO_FIELD, message, undefined, value);
    this.code = code;
  }
}

const invalid = (message: string) => new OrthophotoRefused('ORTHOPHOTO_INVALID', message);

/** Share of the points that must fall on the image (spec: an image that does not cover the cloud is refused). */
export const MIN_COVERAGE = 0.5;

/** Samples read at once: the image window is read in strips of rows within this budget. */
const STRIP_SAMPLES = 16 * 1024 * 1024;

export interface ColorizeResult {
  /** Points given the colour of a pixel. */
  coloured: number;
  /** Points outside the image (or on its nodata): left black (0, 0, 0). */
  outside: number;
  /** EPSG code of the image's CRS. */
  imageEpsg: number;
  /** Bits per sample of the image (8 or 16). */
  bits: 8 | 16;
  /** Pixel size in image CRS units (x, y). */
  pixelSize: [number, number];
}

interface Georeference {
  originX: number;
  originY: number;
  resX: number;
  resY: number;
  epsg: number;
}

function georeference(image: GeoTIFFImage): Georeference {
  const keys = image.getGeoKeys() ?? {};
  const code = Number(keys.ProjectedCSTypeGeoKey ?? keys.GeographicTypeGeoKey ?? Number.NaN);
  if (!Number.isInteger(code) || code <= 0 || code === 32767) {
    throw invalid(
      'the orthophoto has no EPSG coordinate reference system in its GeoTIFF keys (write it with gdal_translate -a_srs EPSG:N)',
    );
  }
  let origin: number[];
  let resolution: number[];
  try {
    origin = image.getOrigin();
    resolution = image.getResolution();
  } catch {
    throw invalid('the orthophoto has no georeferencing (ModelPixelScale/ModelTiepoint)');
  }
  const [originX, originY] = origin as [number, number];
  const [resX, resY] = resolution as [number, number];
  if (![originX, originY, resX, resY].every(Number.isFinite) || resX === 0 || resY === 0) {
    throw invalid('the orthophoto has no usable georeferencing');
  }
  // PixelIsPoint (GTRasterTypeGeoKey 2): the tie point is a pixel centre, as GDAL reads it.
  const pointTie = Number(keys.GTRasterTypeGeoKey) === 2;
  return {
    originX: pointTie ? originX - resX / 2 : originX,
    originY: pointTie ? originY - resY / 2 : originY,
    resX,
    resY,
    epsg: code,
  };
}

/**
 * Colours a cloud from an orthophoto: sets `red`, `green` and `blue` (LAS
 * 16-bit scale) of every point; points off the image stay (0, 0, 0) and are
 * counted. Point XY are reprojected from the cloud CRS to the image CRS
 * (proj4, EPSG code of the image's GeoKeys).
 *
 * @throws InvalidInput (field `orthophoto`) when the file is not an RGB
 *   GeoTIFF, has no EPSG CRS, or fewer than half of the points fall on it.
 * @example
 * const { coloured, outside } = await colorizeCloud(cloud, crs, 'ortho.tif');
 */
export async function colorizeCloud(
  cloud: PointChunk,
  crs: CrsInfo,
  imagePath: string,
  options: { signal?: AbortSignal; minCoverage?: number } = {},
): Promise<ColorizeResult> {
  let image: GeoTIFFImage;
  try {
    const tiff = await fromFile(imagePath);
    image = await tiff.getImage(0);
  } catch (cause) {
    throw invalid(`the orthophoto is not a readable GeoTIFF: ${(cause as Error).message}`);
  }
  const width = image.getWidth();
  const height = image.getHeight();
  const bands = image.getSamplesPerPixel();
  if (bands < 3) {
    throw invalid(`the orthophoto has ${bands} band(s): an RGB image (3 or 4 bands) is needed`);
  }
  const bits = image.getBitsPerSample(0);
  const format = (image.fileDirectory as unknown as { SampleFormat?: number[] }).SampleFormat?.[0] ?? 1;
  if ((bits !== 8 && bits !== 16) || format !== 1) {
    throw invalid(
      `the orthophoto has ${bits}-bit ${format === 3 ? 'float' : format === 2 ? 'signed' : ''} samples: 8- or 16-bit unsigned RGB is needed`,
    );
  }
  const geo = georeference(image);
  const imageCrs = crsFromEpsg(geo.epsg);
  const nodata = image.getGDALNoData();
  const scale = bits === 8 ? 257 : 1;

  // Pixel column and row of every point in the image CRS.
  const n = cloud.count;
  const col = new Int32Array(n);
  const row = new Int32Array(n);
  const converter = crs.proj4 === imageCrs.proj4 ? null : proj4(crs.proj4, imageCrs.proj4);
  const p = [0, 0];
  let inside = 0;
  let minRow = height;
  let maxRow = -1;
  let minCol = width;
  let maxCol = -1;
  for (let i = 0; i < n; i++) {
    let x = cloud.x[i]!;
    let y = cloud.y[i]!;
    if (converter) {
      p[0] = x;
      p[1] = y;
      const out = converter.forward(p) as number[];
      x = out[0]!;
      y = out[1]!;
    }
    const c = Math.floor((x - geo.originX) / geo.resX);
    const r = Math.floor((y - geo.originY) / geo.resY);
    if (c >= 0 && c < width && r >= 0 && r < height) {
      col[i] = c;
      row[i] = r;
      inside++;
      if (r < minRow) minRow = r;
      if (r > maxRow) maxRow = r;
      if (c < minCol) minCol = c;
      if (c > maxCol) maxCol = c;
    } else {
      col[i] = -1;
      row[i] = -1;
    }
  }
  const needed = options.minCoverage ?? MIN_COVERAGE;
  if (inside === 0 || inside < needed * n) {
    const share = n === 0 ? 0 : (100 * inside) / n;
    throw new OrthophotoRefused(
      'ORTHOPHOTO_NOT_COVERING',
      inside === 0
        ? `the orthophoto (EPSG:${geo.epsg}) does not overlap the point cloud`
        : `the orthophoto (EPSG:${geo.epsg}) covers ${share.toFixed(1)} % of the points: at least ${Math.round(needed * 100)} % is needed`,
      Number(share.toFixed(1)),
    );
  }

  const red = new Uint16Array(n);
  const green = new Uint16Array(n);
  const blue = new Uint16Array(n);
  // Points by strip of rows, then each strip's window read once.
  const windowWidth = maxCol - minCol + 1;
  const stripRows = Math.max(1, Math.floor(STRIP_SAMPLES / (3 * windowWidth)));
  const strips = Math.ceil((maxRow - minRow + 1) / stripRows);
  const stripCount = new Int32Array(strips + 1);
  for (let i = 0; i < n; i++) if (row[i]! >= 0) stripCount[Math.floor((row[i]! - minRow) / stripRows) + 1]!++;
  for (let s = 0; s < strips; s++) stripCount[s + 1]! += stripCount[s]!;
  const order = new Int32Array(inside);
  const fill = stripCount.slice(0, strips);
  for (let i = 0; i < n; i++) if (row[i]! >= 0) order[fill[Math.floor((row[i]! - minRow) / stripRows)]!++] = i;

  let outside = n - inside;
  for (let s = 0; s < strips; s++) {
    if (stripCount[s] === stripCount[s + 1]) continue;
    options.signal?.throwIfAborted();
    const top = minRow + s * stripRows;
    const bottom = Math.min(maxRow + 1, top + stripRows);
    let rasters: ArrayLike<number>[];
    try {
      rasters = (await image.readRasters({
        window: [minCol, top, maxCol + 1, bottom],
        samples: [0, 1, 2],
        interleave: false,
        ...(options.signal ? { signal: options.signal } : {}),
      })) as unknown as ArrayLike<number>[];
    } catch (cause) {
      options.signal?.throwIfAborted();
      throw invalid(`cannot read the orthophoto's pixels: ${(cause as Error).message}`);
    }
    const [rb, gb, bb] = rasters as [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>];
    for (let k = stripCount[s]!; k < stripCount[s + 1]!; k++) {
      const i = order[k]!;
      const at = (row[i]! - top) * windowWidth + (col[i]! - minCol);
      const r = rb[at]!;
      const g = gb[at]!;
      const b = bb[at]!;
      if (nodata !== null && r === nodata && g === nodata && b === nodata) {
        outside++;
        continue;
      }
      red[i] = r * scale;
      green[i] = g * scale;
      blue[i] = b * scale;
    }
  }
  cloud.red = red;
  cloud.green = green;
  cloud.blue = blue;
  return {
    coloured: n - outside,
    outside,
    imageEpsg: geo.epsg,
    bits,
    pixelSize: [Math.abs(geo.resX), Math.abs(geo.resY)],
  };
}
