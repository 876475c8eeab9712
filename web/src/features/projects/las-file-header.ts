/**
 * Browser-side check of a LAS/LAZ header before any byte is uploaded (spec §5
 * "LAS must have a header", "the file is invalid"). The header is read by the
 * engine's parser, the one the server runs again on the stored bytes, so the
 * browser refuses exactly what the server would; this module only gives it
 * the chosen File as a byte source, translates its errors for the UI and
 * turns its header into the upload request's `lasHeaderData`.
 */

import { InvalidInput } from '@nuage/engine/core/errors.js';
import type { ByteSource } from '@nuage/engine/readers/byte-source.js';
import { type LasHeader, readLasHeader } from '@nuage/engine/readers/las-header.js';

/** Why a file was refused: its header is missing or truncated, or it is inconsistent. */
export type LasHeaderErrorCode = 'LAS_HEADER_MISSING' | 'FILE_INVALID';

/** Engine fields that mean "there is no (whole) LAS header": too short, or no "LASF" signature. */
const MISSING_HEADER_FIELDS = new Set(['header', 'header.signature']);

/**
 * How the UI names an engine refusal: no (whole) LAS header, or an invalid
 * file. The engine reports a file that ends before the header size it
 * announces as a bad `header.headerSize`; for the user that header is missing.
 */
async function refusalCode(error: InvalidInput, file: Blob): Promise<LasHeaderErrorCode> {
  if (MISSING_HEADER_FIELDS.has(error.field)) return 'LAS_HEADER_MISSING';
  if (error.field === 'header.headerSize' && error.offset !== undefined) {
    const bytes = await file.slice(error.offset, error.offset + 2).arrayBuffer();
    if (new DataView(bytes).getUint16(0, true) > file.size) return 'LAS_HEADER_MISSING';
  }
  return 'FILE_INVALID';
}

/**
 * A refused file: `code` is translated by the UI (projects namespace),
 * `field` names the header field and `offset` its byte offset, as the
 * engine's InvalidInput (the `cause`) reported them.
 */
export class LasHeaderError extends Error {
  readonly code: LasHeaderErrorCode;
  readonly field: string;
  readonly offset: number;

  constructor(code: LasHeaderErrorCode, error: InvalidInput) {
    super(error.message, { cause: error });
    this.name = 'LasHeaderError';
    this.code = code;
    this.field = error.field;
    this.offset = error.offset ?? 0;
  }
}

/** What the browser learnt from a header: sent as `lasHeaderData` and shown to the user. */
export interface LasHeaderData {
  /** "1.2", "1.4"... */
  version: string;
  /** Point data record format, 0 to 10. */
  pointFormat: number;
  pointRecordLength: number;
  /** True for LAZ (format byte high bit set by LASzip). */
  compressed: boolean;
  pointCount: number;
  headerSize: number;
  pointDataOffset: number;
  /** VLRs between the header and the points (EVLRs not counted). */
  vlrCount: number;
  systemIdentifier: string;
  generatingSoftware: string;
  /** Day of year (1–366) and year of creation, 0 when the file leaves them unset. */
  creationDay: number;
  creationYear: number;
  scale: [number, number, number];
  offset: [number, number, number];
  /** Bounds in the file's CRS and units. */
  min: [number, number, number];
  max: [number, number, number];
  /** EPSG code from the GeoTIFF keys (projected first, else geographic), null when absent. */
  epsgCode: number | null;
  /** True when a WKT CRS record (LASF_Projection 2112) is present. */
  hasWkt: boolean;
}

/**
 * A browser File or Blob as the engine's ByteSource: each read slices the
 * bytes it needs, nothing else of the file is loaded.
 */
export function blobByteSource(blob: Blob): ByteSource {
  const size = blob.size;
  return {
    size,
    async read(position, length, into) {
      if (position < 0 || length < 0 || position + length > size) {
        throw new InvalidInput(
          'file',
          `needs bytes ${position}..${position + length} but the file has ${size} bytes (truncated)`,
          position,
        );
      }
      const bytes = new Uint8Array(await blob.slice(position, position + length).arrayBuffer());
      if (bytes.byteLength !== length) throw new InvalidInput('file', 'unexpected end of file (truncated)', position);
      if (into && into.byteLength >= length) {
        into.set(bytes);
        return into.subarray(0, length);
      }
      return bytes;
    },
    async close() {},
  };
}

/**
 * Reads and checks the header of a LAS or LAZ file with the engine's parser.
 * Throws a {@link LasHeaderError}: `LAS_HEADER_MISSING` when there is no LAS
 * header at all (too short, no "LASF" signature), `FILE_INVALID` when a field
 * is inconsistent (version, header size, point format, counts, scales, bounds,
 * VLRs, offsets past the end of the file) or the file holds no points. Other
 * errors (the browser cannot read the file) are rethrown as they are.
 *
 * @example
 * const header = await readLasHeaderFromFile(input.files[0]);
 * header.pointCount; // 110000
 */
export async function readLasHeaderFromFile(file: Blob): Promise<LasHeaderData> {
  try {
    const header = await readLasHeader(blobByteSource(file));
    if (header.pointCount <= 0) {
      throw new InvalidInput('header.pointCount', 'the file holds no points', header.versionMinor >= 4 ? 247 : 107);
    }
    return lasHeaderData(header);
  } catch (err) {
    if (err instanceof InvalidInput) throw new LasHeaderError(await refusalCode(err, file), err);
    throw err;
  }
}

/** The engine's header as the upload request's `lasHeaderData`. */
export function lasHeaderData(header: LasHeader): LasHeaderData {
  return {
    version: header.lasVersion,
    pointFormat: header.pointFormat,
    pointRecordLength: header.recordLength,
    compressed: header.compressed,
    pointCount: header.pointCount,
    headerSize: header.headerSize,
    pointDataOffset: header.pointDataOffset,
    vlrCount: header.vlrs.filter((v) => !v.extended).length,
    systemIdentifier: header.systemId,
    generatingSoftware: header.generatingSoftware,
    creationDay: header.creationDay,
    creationYear: header.creationYear,
    scale: [...header.scale],
    offset: [...header.offset],
    min: [...header.min],
    max: [...header.max],
    epsgCode: geoKeyEpsg(header),
    hasWkt: header.vlrs.some((v) => v.userId === 'LASF_Projection' && v.recordId === 2112 && v.contentLength > 1),
  };
}

/** GeoTIFF keys holding an EPSG code: ProjectedCSTypeGeoKey and GeographicTypeGeoKey. */
const PROJECTED_KEY = 3072;
const GEOGRAPHIC_KEY = 2048;

/**
 * The EPSG code of the GeoKeyDirectory (LASF_Projection 34735, loaded by the
 * engine): the projected CRS, else the geographic one. A user-defined code
 * (32767) names no EPSG CRS: null.
 */
function geoKeyEpsg(header: LasHeader): number | null {
  const dir = header.vlrs.find((v) => v.userId === 'LASF_Projection' && v.recordId === 34735)?.data;
  if (!dir || dir.byteLength < 8) return null;
  const view = new DataView(dir.buffer, dir.byteOffset, dir.byteLength);
  const keyCount = view.getUint16(6, true);
  let projected: number | null | undefined;
  let geographic: number | null | undefined;
  for (let k = 0; k < keyCount && 8 + k * 8 + 8 <= dir.byteLength; k++) {
    const at = 8 + k * 8;
    const keyId = view.getUint16(at, true);
    const location = view.getUint16(at + 2, true);
    const value = view.getUint16(at + 6, true);
    if (location !== 0) continue;
    const code = value > 0 && value < 32767 ? value : null;
    if (keyId === PROJECTED_KEY) projected = code;
    if (keyId === GEOGRAPHIC_KEY) geographic = code;
  }
  // A projected CRS, even user-defined, wins: its geographic base alone would misplace the points.
  return projected !== undefined ? projected : (geographic ?? null);
}
