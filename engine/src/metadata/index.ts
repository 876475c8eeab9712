/**
 * Point cloud metadata (spec §3 plus what the product shows and bills on),
 * computed in one streaming pass over the points.
 */
import type { PointChunk, StepContext } from '../core/chunk.js';
import { GEOID_MODEL, geoidUndulation, type VerticalReference, verticalReference } from '../crs/geoid.js';
import { type CrsInfo, createTransformer } from '../crs/index.js';
import { openPointCloud } from '../readers/index.js';
import type { PointCloudReader } from '../readers/point-cloud-reader.js';

/** Axis-aligned bounds in the file CRS (file units). */
export interface MetadataBounds {
  minX: number;
  minY: number;
  minZ: number;
  maxX: number;
  maxY: number;
  maxZ: number;
}

/** Metadata of one point cloud. Elevations and bbox are in file units; area is in hectares. */
export interface CloudMetadata {
  pointCount: number;
  /** Lowest and highest Z over all points, file vertical units. */
  minElevation: number;
  maxElevation: number;
  /** Metres per unit of Z (from the CRS; 1 when unknown). */
  elevationUnitToMetre: number;
  lasVersion: string;
  pointFormat: number;
  compressed: boolean;
  systemId: string;
  generatingSoftware: string;
  creationDay: number;
  creationYear: number;
  /** File size on disk in GB (10^9 bytes). */
  memoryGb: number;
  fileBytes: number;
  /** Bounds computed from the points (not trusted from the header). */
  bbox: MetadataBounds;
  /**
   * The header's own bounds when the points lie outside them (a sloppy writer,
   * like LAStools' zurich.laz sample): the file is read anyway, `bbox` holds the
   * true bounds and the project shows a warning. Null when the header is right.
   */
  headerBoundsTooSmall: MetadataBounds | null;
  /** Longitude/latitude bounds (EPSG:4326) of the bbox, null without a CRS. */
  bboxWgs84: { west: number; south: number; east: number; north: number } | null;
  crs: {
    epsg: number | null;
    name: string;
    proj4: string;
    wkt: string | null;
    horizontalUnitToMetre: number;
    verticalUnitToMetre: number;
    source: string;
  } | null;
  /**
   * What the heights are measured from and how they were put on the globe
   * (crs/geoid.ts): orthometric heights (a named vertical datum, or assumed)
   * get the geoid undulation `undulationMetres` (EGM96, at the footprint's
   * centre) to become ellipsoidal in the 3D tiles; null without a CRS.
   */
  verticalReference: (VerticalReference & { undulationMetres: number | null }) | null;
  /** True when the file has no CRS and none was given. */
  crsRequired: boolean;
  /** Points per ASPRS class code. */
  classCounts: Record<string, number>;
  /** Points per return number. */
  returnCounts: Record<string, number>;
  /** The point format carries RGB fields. */
  hasRgb: boolean;
  /** At least one point has a non-zero colour (some files carry RGB fields that are all zero). */
  rgbNonZero: boolean;
  intensityMin: number;
  intensityMax: number;
  /** Covered area in hectares: occupied cells of a square grid (see {@link COVERAGE_METHOD}). */
  areaHectares: number;
  /** Side of the coverage grid cells in metres (1 unless the extent is huge). */
  areaCellMetres: number;
  /** Points per square metre of covered area. */
  pointDensity: number;
  extraBytes: string[];
}

/**
 * How the billed area is measured. Points are binned in a square grid of 1 m
 * cells (in metres: feet CRSs are converted; geographic CRSs use the local
 * metres per degree); the area is the number of occupied cells times the cell
 * area, so empty corners of an L-shaped or sparse survey cost nothing. Memory
 * is one bit per cell of the file's bounding box, capped at 2^28 bits (32 MB):
 * a larger extent doubles the cell side until the grid fits (reported as
 * `areaCellMetres`). Without a CRS, coordinates are taken as metres.
 */
export const COVERAGE_METHOD = 'occupied cells of a 1 m grid, one bit per cell, cell doubled above 2^28 cells';

const MAX_GRID_BITS = 2 ** 28;

/** Options of {@link extractMetadata}. */
export interface MetadataOptions {
  epsg?: number;
  ctx?: StepContext;
}

/** Opens a file and computes its metadata in one pass. */
export async function extractMetadata(path: string, options: MetadataOptions = {}): Promise<CloudMetadata> {
  const reader = await openPointCloud(path, options.epsg === undefined ? {} : { epsg: options.epsg });
  try {
    return await metadataFromReader(reader, options.ctx);
  } finally {
    await reader.close();
  }
}

function cellSizes(crs: CrsInfo | null, midLatitude: number): { dx: number; dy: number } {
  if (crs?.geographic) {
    const lat = (midLatitude * Math.PI) / 180;
    return { dx: 1 / (111_320 * Math.max(0.01, Math.cos(lat))), dy: 1 / 110_540 };
  }
  const unit = crs && crs.horizontalUnitToMetre > 0 ? crs.horizontalUnitToMetre : 1;
  return { dx: 1 / unit, dy: 1 / unit };
}

/** Computes the metadata of an open reader (reads every point once). */
export async function metadataFromReader(reader: PointCloudReader, ctx: StepContext = {}): Promise<CloudMetadata> {
  return metadataFromChunks(reader, reader.read(ctx.signal ? { signal: ctx.signal } : {}), ctx);
}

/**
 * Computes the metadata of a cloud from its header, its CRS and every point
 * of it, as chunks (from a reader, or a cloud already in memory).
 */
export async function metadataFromChunks(
  { header, crs }: Pick<PointCloudReader, 'header' | 'crs'>,
  chunks: AsyncIterable<PointChunk> | Iterable<PointChunk>,
  ctx: StepContext = {},
): Promise<CloudMetadata> {
  const bbox: MetadataBounds = {
    minX: Infinity,
    minY: Infinity,
    minZ: Infinity,
    maxX: -Infinity,
    maxY: -Infinity,
    maxZ: -Infinity,
  };
  const classCounts = new Float64Array(256);
  const returnCounts = new Float64Array(16);
  let intensityMin = Infinity;
  let intensityMax = -Infinity;
  let rgbNonZero = false;
  let count = 0;

  // Coverage grid over the header's bounds (validated finite); points outside are clamped.
  const [hminX, hminY] = header.min;
  const [hmaxX, hmaxY] = header.max;
  let { dx, dy } = cellSizes(crs, (header.min[1] + header.max[1]) / 2);
  let cellMetres = 1;
  let cols = Math.max(1, Math.ceil((hmaxX - hminX) / dx) + 1);
  let rows = Math.max(1, Math.ceil((hmaxY - hminY) / dy) + 1);
  while (cols * rows > MAX_GRID_BITS) {
    dx *= 2;
    dy *= 2;
    cellMetres *= 2;
    cols = Math.max(1, Math.ceil((hmaxX - hminX) / dx) + 1);
    rows = Math.max(1, Math.ceil((hmaxY - hminY) / dy) + 1);
  }
  const grid = new Uint32Array(Math.ceil((cols * rows) / 32));
  let occupied = 0;

  for await (const chunk of chunks) {
    const { x, y, z, intensity, classification, returnNumber, red, green, blue } = chunk;
    const n = chunk.count;
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      const yi = y[i]!;
      const zi = z[i]!;
      if (xi < bbox.minX) bbox.minX = xi;
      if (xi > bbox.maxX) bbox.maxX = xi;
      if (yi < bbox.minY) bbox.minY = yi;
      if (yi > bbox.maxY) bbox.maxY = yi;
      if (zi < bbox.minZ) bbox.minZ = zi;
      if (zi > bbox.maxZ) bbox.maxZ = zi;
      let c = Math.floor((xi - hminX) / dx);
      let r = Math.floor((yi - hminY) / dy);
      c = c < 0 ? 0 : c >= cols ? cols - 1 : c;
      r = r < 0 ? 0 : r >= rows ? rows - 1 : r;
      const cell = r * cols + c;
      const word = cell >>> 5;
      const bit = 1 << (cell & 31);
      if ((grid[word]! & bit) === 0) {
        grid[word] = grid[word]! | bit;
        occupied++;
      }
    }
    if (intensity) {
      for (let i = 0; i < n; i++) {
        const v = intensity[i]!;
        if (v < intensityMin) intensityMin = v;
        if (v > intensityMax) intensityMax = v;
      }
    }
    if (classification) for (let i = 0; i < n; i++) classCounts[classification[i]!]!++;
    if (returnNumber) for (let i = 0; i < n; i++) returnCounts[returnNumber[i]!]!++;
    if (red && green && blue && !rgbNonZero) {
      for (let i = 0; i < n; i++) {
        if (red[i] !== 0 || green[i] !== 0 || blue[i] !== 0) {
          rgbNonZero = true;
          break;
        }
      }
    }
    count += n;
    ctx.progress?.(header.pointCount > 0 ? Math.min(1, count / header.pointCount) : 1, 'metadata');
  }

  if (count === 0) {
    for (const k of Object.keys(bbox) as Array<keyof MetadataBounds>) bbox[k] = 0;
    intensityMin = 0;
    intensityMax = 0;
  }
  const cellAreaM2 = (cellMetres * cellMetres) as number;
  const areaM2 = occupied * cellAreaM2;
  const toRecord = (counts: Float64Array) => {
    const out: Record<string, number> = {};
    counts.forEach((v, k) => {
      if (v > 0) out[k] = v;
    });
    return out;
  };
  const bboxWgs84 = crs && count > 0 ? wgs84Bounds(crs, bbox) : null;
  return {
    pointCount: count,
    minElevation: bbox.minZ,
    maxElevation: bbox.maxZ,
    elevationUnitToMetre: crs?.verticalUnitToMetre ?? 1,
    lasVersion: header.lasVersion,
    pointFormat: header.pointFormat,
    compressed: header.compressed,
    systemId: header.systemId,
    generatingSoftware: header.generatingSoftware,
    creationDay: header.creationDay,
    creationYear: header.creationYear,
    memoryGb: header.fileSize / 1e9,
    fileBytes: header.fileSize,
    bbox,
    bboxWgs84,
    crs: crs
      ? {
          epsg: crs.epsg,
          name: crs.name,
          proj4: crs.proj4,
          wkt: crs.wkt,
          horizontalUnitToMetre: crs.horizontalUnitToMetre,
          verticalUnitToMetre: crs.verticalUnitToMetre,
          source: crs.source,
        }
      : null,
    verticalReference: crs ? verticalReferenceOf(crs, bboxWgs84) : null,
    crsRequired: crs === null,
    classCounts: toRecord(classCounts),
    returnCounts: toRecord(returnCounts),
    hasRgb: header.layout.rgb >= 0,
    rgbNonZero,
    intensityMin,
    intensityMax,
    areaHectares: areaM2 / 10_000,
    areaCellMetres: cellMetres,
    pointDensity: areaM2 > 0 ? count / areaM2 : 0,
    extraBytes: header.extraBytes.map((f) => f.name),
    headerBoundsTooSmall: count > 0 ? headerBoundsTooSmall(header, bbox) : null,
  };
}

/** The header bounds when a point lies beyond them by more than half a scale step, else null. */
function headerBoundsTooSmall(
  header: { min: readonly number[]; max: readonly number[]; scale: readonly number[] },
  b: MetadataBounds,
): MetadataBounds | null {
  const lo = [b.minX, b.minY, b.minZ];
  const hi = [b.maxX, b.maxY, b.maxZ];
  for (let a = 0; a < 3; a++) {
    const tolerance = Math.abs(header.scale[a]!) / 2;
    if (lo[a]! < header.min[a]! - tolerance || hi[a]! > header.max[a]! + tolerance) {
      const [minX, minY, minZ] = header.min as [number, number, number];
      const [maxX, maxY, maxZ] = header.max as [number, number, number];
      return { minX, minY, minZ, maxX, maxY, maxZ };
    }
  }
  return null;
}

/** The CRS's vertical reference and, for orthometric heights, the geoid undulation at the footprint's centre. */
function verticalReferenceOf(crs: CrsInfo, box: CloudMetadata['bboxWgs84']): CloudMetadata['verticalReference'] {
  const reference = verticalReference(crs);
  const undulation =
    reference.geoidModel === GEOID_MODEL && box
      ? geoidUndulation((box.west + box.east) / 2, (box.south + box.north) / 2)
      : Number.NaN;
  return { ...reference, undulationMetres: Number.isFinite(undulation) ? Math.round(undulation * 1000) / 1000 : null };
}

/** Lon/lat bounds of a bbox: transforms a ring of 4 corners and 4 edge midpoints per side. */
function wgs84Bounds(crs: CrsInfo, b: MetadataBounds): CloudMetadata['bboxWgs84'] {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i <= 4; i++) {
    const t = i / 4;
    xs.push(b.minX + (b.maxX - b.minX) * t, b.minX + (b.maxX - b.minX) * t, b.minX, b.maxX);
    ys.push(b.minY, b.maxY, b.minY + (b.maxY - b.minY) * t, b.minY + (b.maxY - b.minY) * t);
  }
  const x = Float64Array.from(xs);
  const y = Float64Array.from(ys);
  const z = new Float64Array(xs.length);
  try {
    createTransformer(crs, 'EPSG:4326').forward(x, y, z, xs.length);
  } catch {
    return null;
  }
  let west = Infinity;
  let east = -Infinity;
  let south = Infinity;
  let north = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    if (!Number.isFinite(x[i]!) || !Number.isFinite(y[i]!)) return null;
    west = Math.min(west, x[i]!);
    east = Math.max(east, x[i]!);
    south = Math.min(south, y[i]!);
    north = Math.max(north, y[i]!);
  }
  return { west, south, east, north };
}
