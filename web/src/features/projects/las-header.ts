/**
 * Browser-side check of a LAS/LAZ header before any byte is uploaded (spec §5
 * "LAS must have a header", "the file is invalid"). The server reads the header
 * again from the stored bytes and trusts nothing from here: this check only
 * spares the user a long upload of a file that cannot work, and gives the
 * upload request its `lasHeaderData`.
 *
 * Offsets follow the ASPRS LAS 1.0–1.4 specification (little-endian).
 */

/** Smallest header of each LAS 1.x minor version (bytes). */
const HEADER_SIZES: Record<number, number> = { 0: 227, 1: 227, 2: 227, 3: 235, 4: 375 };
/** Smallest record of each point data record format (bytes). */
const RECORD_SIZES = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67] as const;
/** Bytes read at most to find the CRS in the VLRs (they sit between header and points). */
const MAX_VLR_BYTES = 1024 * 1024;

/** Why a file was refused: its header is missing or truncated, or it is inconsistent. */
export type LasHeaderErrorCode = 'LAS_HEADER_MISSING' | 'FILE_INVALID';

/**
 * A refused file: `code` is translated by the UI (projects namespace),
 * `field` names the header field and `offset` its byte offset.
 */
export class LasHeaderError extends Error {
  readonly code: LasHeaderErrorCode;
  readonly field: string;
  readonly offset: number;

  constructor(code: LasHeaderErrorCode, field: string, message: string, offset: number) {
    super(`${field} (byte ${offset}): ${message}`);
    this.name = 'LasHeaderError';
    this.code = code;
    this.field = field;
    this.offset = offset;
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

function cString(bytes: Uint8Array, start: number, length: number): string {
  const slice = bytes.subarray(start, start + length);
  const end = slice.indexOf(0);
  return new TextDecoder('latin1').decode(end >= 0 ? slice.subarray(0, end) : slice).trim();
}

function invalid(field: string, message: string, offset: number): LasHeaderError {
  return new LasHeaderError('FILE_INVALID', field, message, offset);
}

/** The bytes of `[start, end)` of a browser File or Blob. */
async function readRange(file: Blob, start: number, end: number): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(start, end).arrayBuffer());
}

/**
 * Reads and checks the header of a LAS or LAZ file (and its CRS VLRs).
 * Throws a {@link LasHeaderError}: `LAS_HEADER_MISSING` when there is no LAS
 * header at all (too short, no "LASF" signature), `FILE_INVALID` when a field
 * is inconsistent (version, header size, point format, counts, scales, bounds,
 * offsets past the end of the file).
 *
 * @example
 * const header = await readLasHeaderFromFile(input.files[0]);
 * header.pointCount; // 110000
 */
export async function readLasHeaderFromFile(file: Blob): Promise<LasHeaderData> {
  const size = file.size;
  if (size < 227) {
    throw new LasHeaderError('LAS_HEADER_MISSING', 'header', `${size} bytes, less than a 227-byte LAS header`, 0);
  }
  const head = await readRange(file, 0, Math.min(375, size));
  return parseLasHeader(head, size, async (start, end) => readRange(file, start, end));
}

/**
 * Checks a header held in memory: `head` holds the first bytes (at least 227,
 * 375 for LAS 1.4), `fileSize` the whole file's size, and `read` fetches more
 * bytes for the VLRs.
 */
export async function parseLasHeader(
  head: Uint8Array,
  fileSize: number,
  read: (start: number, end: number) => Promise<Uint8Array>,
): Promise<LasHeaderData> {
  if (head.byteLength < 227 || fileSize < 227) {
    throw new LasHeaderError('LAS_HEADER_MISSING', 'header', 'shorter than a 227-byte LAS header', 0);
  }
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const signature = String.fromCharCode(head[0]!, head[1]!, head[2]!, head[3]!);
  if (signature !== 'LASF') {
    throw new LasHeaderError('LAS_HEADER_MISSING', 'header.signature', `expected "LASF", found "${signature}"`, 0);
  }
  const major = head[24]!;
  const minor = head[25]!;
  if (major !== 1 || minor > 4) throw invalid('header.version', `unsupported LAS version ${major}.${minor}`, 24);
  const headerSize = view.getUint16(94, true);
  const required = HEADER_SIZES[minor]!;
  if (headerSize < required) {
    throw invalid('header.headerSize', `${headerSize} bytes is too small for LAS 1.${minor} (needs ${required})`, 94);
  }
  if (headerSize > fileSize || head.byteLength < required) {
    throw new LasHeaderError('LAS_HEADER_MISSING', 'header', `the LAS 1.${minor} header is truncated`, 0);
  }
  const pointDataOffset = view.getUint32(96, true);
  const vlrCount = view.getUint32(100, true);
  const rawFormat = head[104]!;
  const compressed = (rawFormat & 0x80) !== 0;
  const pointFormat = rawFormat & 0x3f;
  if (pointFormat > 10) throw invalid('header.pointFormat', `unknown point format ${pointFormat} (0 to 10)`, 104);
  if (pointFormat >= 6 && minor < 4) {
    throw invalid('header.pointFormat', `point format ${pointFormat} needs LAS 1.4, file is 1.${minor}`, 104);
  }
  const pointRecordLength = view.getUint16(105, true);
  if (pointRecordLength < RECORD_SIZES[pointFormat]!) {
    throw invalid(
      'header.pointRecordLength',
      `${pointRecordLength} bytes is shorter than point format ${pointFormat} (${RECORD_SIZES[pointFormat]})`,
      105,
    );
  }
  const legacyCount = view.getUint32(107, true);
  let pointCount = legacyCount;
  if (minor >= 4) {
    const big = view.getBigUint64(247, true);
    if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid('header.pointCount', `${big} points`, 247);
    pointCount = Number(big);
    if (legacyCount !== 0 && legacyCount !== pointCount) {
      throw invalid('header.legacyPointCount', `legacy count ${legacyCount} contradicts ${pointCount}`, 107);
    }
  }
  if (pointCount <= 0) throw invalid('header.pointCount', 'the file holds no points', minor >= 4 ? 247 : 107);

  const triple = (at: number): [number, number, number] => [
    view.getFloat64(at, true),
    view.getFloat64(at + 8, true),
    view.getFloat64(at + 16, true),
  ];
  const scale = triple(131);
  const offset = triple(155);
  const axes = ['x', 'y', 'z'] as const;
  for (let i = 0; i < 3; i++) {
    if (!Number.isFinite(scale[i]) || scale[i] === 0) {
      throw invalid(`header.scale.${axes[i]}`, `scale must be finite and non-zero, found ${scale[i]}`, 131 + 8 * i);
    }
    if (!Number.isFinite(offset[i])) throw invalid(`header.offset.${axes[i]}`, 'offset must be finite', 155 + 8 * i);
  }
  const max: [number, number, number] = [
    view.getFloat64(179, true),
    view.getFloat64(195, true),
    view.getFloat64(211, true),
  ];
  const min: [number, number, number] = [
    view.getFloat64(187, true),
    view.getFloat64(203, true),
    view.getFloat64(219, true),
  ];
  for (let i = 0; i < 3; i++) {
    if (!Number.isFinite(min[i]) || !Number.isFinite(max[i]) || min[i]! > max[i]!) {
      throw invalid(`header.min${axes[i]!.toUpperCase()}`, `bounds ${min[i]}..${max[i]} are not valid`, 179 + 16 * i);
    }
  }
  if (pointDataOffset < headerSize) {
    throw invalid('header.pointDataOffset', `byte ${pointDataOffset} lies inside the ${headerSize}-byte header`, 96);
  }
  if (pointDataOffset > fileSize) {
    throw invalid('header.pointDataOffset', `byte ${pointDataOffset} lies past the end of the file (${fileSize})`, 96);
  }
  if (vlrCount * 54 > pointDataOffset - headerSize) {
    throw invalid('header.vlrCount', `${vlrCount} VLRs cannot fit before the point data`, 100);
  }
  // An uncompressed file must hold every record it announces (a truncated copy is the common failure).
  if (!compressed && pointDataOffset + pointCount * pointRecordLength > fileSize) {
    throw invalid(
      'header.pointCount',
      `${pointCount} points of ${pointRecordLength} bytes do not fit in ${fileSize} bytes (truncated file)`,
      minor >= 4 ? 247 : 107,
    );
  }

  const crs = await readCrsVlrs(read, headerSize, pointDataOffset, vlrCount);
  return {
    version: `${major}.${minor}`,
    pointFormat,
    pointRecordLength,
    compressed,
    pointCount,
    headerSize,
    pointDataOffset,
    vlrCount,
    systemIdentifier: cString(head, 26, 32),
    generatingSoftware: cString(head, 58, 32),
    creationDay: view.getUint16(90, true),
    creationYear: view.getUint16(92, true),
    scale,
    offset,
    min,
    max,
    ...crs,
  };
}

/** GeoTIFF keys holding an EPSG code: ProjectedCSTypeGeoKey and GeographicTypeGeoKey. */
const PROJECTED_KEY = 3072;
const GEOGRAPHIC_KEY = 2048;

/**
 * Finds the CRS in the VLRs: the EPSG code of the GeoKeyDirectory
 * (LASF_Projection 34735) and whether a WKT record (2112) exists. A malformed
 * VLR area is left to the server (which reads it again): no CRS is reported.
 */
async function readCrsVlrs(
  read: (start: number, end: number) => Promise<Uint8Array>,
  headerSize: number,
  pointDataOffset: number,
  vlrCount: number,
): Promise<{ epsgCode: number | null; hasWkt: boolean }> {
  const none = { epsgCode: null, hasWkt: false };
  if (vlrCount === 0) return none;
  const end = Math.min(pointDataOffset, headerSize + MAX_VLR_BYTES);
  const bytes = await read(headerSize, end);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let projected: number | null | undefined;
  let geographic: number | null | undefined;
  let hasWkt = false;
  let at = 0;
  for (let i = 0; i < vlrCount && at + 54 <= bytes.byteLength; i++) {
    const userId = cString(bytes, at + 2, 16);
    const recordId = view.getUint16(at + 18, true);
    const length = view.getUint16(at + 20, true);
    const content = at + 54;
    if (content + length > bytes.byteLength) break;
    if (userId === 'LASF_Projection' && recordId === 2112 && length > 1) hasWkt = true;
    if (userId === 'LASF_Projection' && recordId === 34735 && length >= 8) {
      const keyCount = view.getUint16(content + 6, true);
      for (let k = 0; k < keyCount && 8 + k * 8 + 8 <= length; k++) {
        const e = content + 8 + k * 8;
        const keyId = view.getUint16(e, true);
        const location = view.getUint16(e + 2, true);
        const value = view.getUint16(e + 6, true);
        if (location !== 0) continue;
        // 32767 means user-defined: there is a CRS, but no EPSG code names it.
        const code = value > 0 && value < 32767 ? value : null;
        if (keyId === PROJECTED_KEY) projected = code;
        if (keyId === GEOGRAPHIC_KEY) geographic = code;
      }
    }
    at = content + length;
  }
  // A projected CRS, even user-defined, wins: its geographic base alone would misplace the points.
  const epsgCode = projected !== undefined ? projected : (geographic ?? null);
  return { epsgCode, hasWkt };
}
