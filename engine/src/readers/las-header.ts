import { InvalidInput } from '../core/errors.js';
import type { ByteSource } from './byte-source.js';
import { HEADER_SIZES, type PointFormatLayout, pointFormatLayout } from './las-format.js';

/** A variable-length record (VLR) or extended VLR (EVLR) of a LAS file. */
export interface LasVlr {
  userId: string;
  recordId: number;
  description: string;
  /** Absolute byte offset of the record's content. */
  contentOffset: number;
  contentLength: number;
  extended: boolean;
  /** Content, loaded for the records the engine understands (projection, extra bytes, LAZ, COPC). */
  data?: Uint8Array;
}

/**
 * One extra-bytes attribute (LASF_Spec/4), flattened: array types become one
 * field per element (`name[0]`, `name[1]`...), undocumented bytes one u8 field
 * per byte. Values are exposed scaled and offset.
 */
export interface ExtraBytesField {
  name: string;
  /** Byte offset inside the point record. */
  recordOffset: number;
  /** LAS extra-bytes base data type 1..10 (u8, i8, u16, i16, u32, i32, u64, i64, f32, f64). */
  dataType: number;
  size: number;
  scale: number;
  offset: number;
  description: string;
  noData?: number;
}

/** LASzip VLR (laszip encoded/22204) facts needed to decode. */
export interface LaszipInfo {
  compressor: number;
  /** Points per chunk; 0xFFFFFFFF means variable-size chunks listed in the chunk table. */
  chunkSize: number;
}

/** A parsed and validated LAS/LAZ public header with its VLRs and EVLRs. */
export interface LasHeader {
  fileSize: number;
  versionMajor: number;
  versionMinor: number;
  /** "1.0" .. "1.4". */
  lasVersion: string;
  fileSourceId: number;
  globalEncoding: number;
  projectId: string;
  systemId: string;
  generatingSoftware: string;
  creationDay: number;
  creationYear: number;
  headerSize: number;
  pointDataOffset: number;
  pointFormat: number;
  compressed: boolean;
  recordLength: number;
  pointCount: number;
  pointsByReturn: number[];
  scale: [number, number, number];
  offset: [number, number, number];
  min: [number, number, number];
  max: [number, number, number];
  evlrOffset: number;
  evlrCount: number;
  vlrs: LasVlr[];
  extraBytes: ExtraBytesField[];
  layout: PointFormatLayout;
  laszip: LaszipInfo | null;
}

const decoder = new TextDecoder('latin1');

/** Reads a NUL-terminated fixed-size string. */
export function readCString(bytes: Uint8Array, start: number, length: number): string {
  let end = start;
  const stop = Math.min(start + length, bytes.byteLength);
  while (end < stop && bytes[end] !== 0) end++;
  return decoder.decode(bytes.subarray(start, end)).trim();
}

function u64(view: DataView, at: number, field: string): number {
  const value = view.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new InvalidInput(field, `value ${value} is too large`, at);
  return Number(value);
}

const EXTRA_BYTES_SIZES = [0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8];
/** Records whose content the engine reads. */
const WANTED = new Set([
  'LASF_Projection/34735',
  'LASF_Projection/34736',
  'LASF_Projection/34737',
  'LASF_Projection/2112',
  'LASF_Spec/4',
  'laszip encoded/22204',
  'copc/1',
  'copc/1000',
]);
/** Largest record content loaded in memory (EVLRs can hold waveforms of many GB). */
const MAX_LOADED_RECORD = 16 * 1024 * 1024;

/**
 * Reads and validates the header, VLRs and EVLRs. Every inconsistency is an
 * InvalidInput naming the field and its byte offset; counts read from the file
 * are checked against the file size before anything is sized from them.
 */
export async function readLasHeader(source: ByteSource): Promise<LasHeader> {
  const fileSize = source.size;
  if (fileSize < 227)
    throw new InvalidInput('header', `file has ${fileSize} bytes, less than the 227-byte LAS header (truncated)`, 0);
  const head = await source.read(0, Math.min(375, fileSize));
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const signature = decoder.decode(head.subarray(0, 4));
  if (signature !== 'LASF')
    throw new InvalidInput('header.signature', `expected "LASF", found ${JSON.stringify(signature)}`, 0);
  const versionMajor = head[24]!;
  const versionMinor = head[25]!;
  if (versionMajor !== 1 || versionMinor > 4) {
    throw new InvalidInput(
      'header.version',
      `unsupported LAS version ${versionMajor}.${versionMinor} (1.0 to 1.4)`,
      24,
    );
  }
  const headerSize = view.getUint16(94, true);
  const required = HEADER_SIZES[versionMinor]!;
  if (headerSize < required) {
    throw new InvalidInput(
      'header.headerSize',
      `${headerSize} bytes is too small for LAS 1.${versionMinor} (needs ${required})`,
      94,
    );
  }
  if (headerSize > fileSize)
    throw new InvalidInput('header.headerSize', `${headerSize} bytes is larger than the file (${fileSize})`, 94);
  if (fileSize < required)
    throw new InvalidInput('header', `file is shorter than the LAS 1.${versionMinor} header (truncated)`, 0);

  const pointDataOffset = view.getUint32(96, true);
  const vlrCount = view.getUint32(100, true);
  const rawFormat = head[104]!;
  // LASzip marks compression with bit 7 (and bit 6 for LAS 1.4 formats); only then are the high bits not the format.
  const compressed = (rawFormat & 0x80) !== 0;
  const pointFormat = compressed ? rawFormat & 0x3f : rawFormat;
  if (pointFormat > 10) {
    throw new InvalidInput(
      'header.pointFormat',
      `unknown point data record format ${pointFormat} (0 to 10)`,
      104,
      pointFormat,
    );
  }
  if (pointFormat >= 6 && versionMinor < 4) {
    throw new InvalidInput(
      'header.pointFormat',
      `point format ${pointFormat} needs LAS 1.4, file is 1.${versionMinor}`,
      104,
    );
  }
  const layout = pointFormatLayout(pointFormat);
  const recordLength = view.getUint16(105, true);
  if (recordLength < layout.baseSize) {
    throw new InvalidInput(
      'header.pointRecordLength',
      `${recordLength} bytes is shorter than point format ${pointFormat} (${layout.baseSize})`,
      105,
      recordLength,
    );
  }
  const legacyCount = view.getUint32(107, true);
  const legacyByReturn: number[] = [];
  for (let i = 0; i < 5; i++) legacyByReturn.push(view.getUint32(111 + 4 * i, true));
  const scale: [number, number, number] = [
    view.getFloat64(131, true),
    view.getFloat64(139, true),
    view.getFloat64(147, true),
  ];
  const offset: [number, number, number] = [
    view.getFloat64(155, true),
    view.getFloat64(163, true),
    view.getFloat64(171, true),
  ];
  const axes = ['x', 'y', 'z'];
  for (let i = 0; i < 3; i++) {
    // A negative scale mirrors the cloud: no writer means it, and every product would come out wrong.
    if (!Number.isFinite(scale[i]!) || !(scale[i]! > 0)) {
      throw new InvalidInput(
        `header.scale.${axes[i]}`,
        `scale must be a positive finite number, found ${scale[i]}`,
        131 + 8 * i,
        scale[i],
      );
    }
    if (!Number.isFinite(offset[i]!)) {
      throw new InvalidInput(
        `header.offset.${axes[i]}`,
        `offset must be finite, found ${offset[i]}`,
        155 + 8 * i,
        String(offset[i]),
      );
    }
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

  let pointCount = legacyCount;
  let pointsByReturn = legacyByReturn;
  let evlrOffset = 0;
  let evlrCount = 0;
  if (versionMinor >= 4) {
    evlrOffset = u64(view, 235, 'header.evlrOffset');
    evlrCount = view.getUint32(243, true);
    pointCount = u64(view, 247, 'header.pointCount');
    if (legacyCount !== 0 && legacyCount !== pointCount) {
      throw new InvalidInput(
        'header.legacyPointCount',
        `legacy count ${legacyCount} contradicts the 64-bit count ${pointCount}`,
        107,
      );
    }
    if (pointFormat < 6 && pointCount > 0xffffffff) {
      throw new InvalidInput(
        'header.pointCount',
        `${pointCount} points exceed the 32-bit legacy count of point format ${pointFormat}`,
        247,
      );
    }
    pointsByReturn = [];
    for (let i = 0; i < 15; i++) pointsByReturn.push(u64(view, 255 + 8 * i, `header.pointsByReturn[${i}]`));
  }
  if (pointCount > 0) {
    for (let i = 0; i < 3; i++) {
      if (!Number.isFinite(min[i]!) || !Number.isFinite(max[i]!)) {
        throw new InvalidInput(
          `header.min${axes[i]!.toUpperCase()}`,
          `bounds must be finite, found ${min[i]}..${max[i]}`,
          179 + 16 * i,
        );
      }
      if (min[i]! > max[i]!) {
        throw new InvalidInput(
          `header.min${axes[i]!.toUpperCase()}`,
          `minimum ${min[i]} is greater than maximum ${max[i]}`,
          187 + 16 * i,
        );
      }
    }
  }

  // VLRs lie between the header and the point data.
  if (pointDataOffset < headerSize) {
    throw new InvalidInput(
      'header.pointDataOffset',
      `points to byte ${pointDataOffset}, inside the ${headerSize}-byte header`,
      96,
    );
  }
  if (pointDataOffset > fileSize) {
    throw new InvalidInput(
      'header.pointDataOffset',
      `points to byte ${pointDataOffset}, past the end of the file (${fileSize})`,
      96,
    );
  }
  const vlrRegion = pointDataOffset - headerSize;
  if (vlrCount * 54 > vlrRegion) {
    throw new InvalidInput(
      'header.vlrCount',
      `${vlrCount} VLRs cannot fit in the ${vlrRegion} bytes before the point data`,
      100,
    );
  }
  const vlrs: LasVlr[] = [];
  let at = headerSize;
  for (let i = 0; i < vlrCount; i++) {
    if (at + 54 > pointDataOffset) {
      throw new InvalidInput(`vlr[${i}]`, `VLR header runs past the offset to point data (${pointDataOffset})`, at);
    }
    const vh = await source.read(at, 54);
    const vv = new DataView(vh.buffer, vh.byteOffset, 54);
    const contentLength = vv.getUint16(20, true);
    const contentOffset = at + 54;
    if (contentOffset + contentLength > pointDataOffset) {
      throw new InvalidInput(
        `vlr[${i}].recordLength`,
        `${contentLength} bytes run past the offset to point data (${pointDataOffset})`,
        at + 20,
      );
    }
    vlrs.push({
      userId: readCString(vh, 2, 16),
      recordId: vv.getUint16(18, true),
      description: readCString(vh, 22, 32),
      contentOffset,
      contentLength,
      extended: false,
    });
    at = contentOffset + contentLength;
  }

  // Point data must fit the file (64-bit arithmetic: counts can reach 2^64).
  const pointBytes = BigInt(pointCount) * BigInt(recordLength);
  const pointDataEnd = versionMinor >= 4 && evlrCount > 0 && evlrOffset > 0 ? evlrOffset : fileSize;
  if (!compressed && BigInt(pointDataOffset) + pointBytes > BigInt(pointDataEnd)) {
    throw new InvalidInput(
      'header.pointCount',
      `${pointCount} points of ${recordLength} bytes need ${pointBytes} bytes after byte ${pointDataOffset}, but the point data ends at byte ${pointDataEnd} (truncated or wrong count)`,
      versionMinor >= 4 ? 247 : 107,
      pointCount,
    );
  }
  // LAZ: points are compressed, but never to nothing: the chunk table pointer (8 bytes) at least follows.
  if (compressed && pointCount > 0 && pointDataOffset + 8 > pointDataEnd) {
    throw new InvalidInput(
      'header.pointCount',
      `${pointCount} compressed points announced, but the file ends at byte ${pointDataEnd}, right after the point data offset ${pointDataOffset} (truncated or wrong count)`,
      versionMinor >= 4 ? 247 : 107,
      pointCount,
    );
  }

  if (versionMinor >= 4 && evlrCount > 0) {
    if (evlrOffset < pointDataOffset || evlrOffset > fileSize) {
      throw new InvalidInput(
        'header.evlrOffset',
        `EVLRs start at byte ${evlrOffset}, outside the point data end..file end`,
        235,
      );
    }
    if (evlrCount * 60 > fileSize - evlrOffset) {
      throw new InvalidInput(
        'header.evlrCount',
        `${evlrCount} EVLRs cannot fit in the ${fileSize - evlrOffset} bytes after byte ${evlrOffset}`,
        243,
      );
    }
    let e = evlrOffset;
    for (let i = 0; i < evlrCount; i++) {
      if (e + 60 > fileSize)
        throw new InvalidInput(`evlr[${i}]`, 'EVLR header runs past the end of the file (truncated)', e);
      const eh = await source.read(e, 60);
      const ev = new DataView(eh.buffer, eh.byteOffset, 60);
      const length = ev.getBigUint64(20, true);
      const contentOffset = e + 60;
      if (BigInt(contentOffset) + length > BigInt(fileSize)) {
        throw new InvalidInput(
          `evlr[${i}].recordLength`,
          `${length} bytes run past the end of the file (${fileSize})`,
          e + 20,
        );
      }
      vlrs.push({
        userId: readCString(eh, 2, 16),
        recordId: ev.getUint16(18, true),
        description: readCString(eh, 28, 32),
        contentOffset,
        contentLength: Number(length),
        extended: true,
      });
      e = contentOffset + Number(length);
    }
  }

  for (const vlr of vlrs) {
    if (WANTED.has(`${vlr.userId}/${vlr.recordId}`) && vlr.contentLength <= MAX_LOADED_RECORD) {
      vlr.data = await source.read(vlr.contentOffset, vlr.contentLength);
    }
  }

  const header: LasHeader = {
    fileSize,
    versionMajor,
    versionMinor,
    lasVersion: `${versionMajor}.${versionMinor}`,
    fileSourceId: view.getUint16(4, true),
    globalEncoding: view.getUint16(6, true),
    projectId: guid(head),
    systemId: readCString(head, 26, 32),
    generatingSoftware: readCString(head, 58, 32),
    creationDay: view.getUint16(90, true),
    creationYear: view.getUint16(92, true),
    headerSize,
    pointDataOffset,
    pointFormat,
    compressed,
    recordLength,
    pointCount,
    pointsByReturn,
    scale,
    offset,
    min,
    max,
    evlrOffset,
    evlrCount,
    vlrs,
    extraBytes: [],
    layout,
    laszip: null,
  };
  header.extraBytes = parseExtraBytes(header);
  header.laszip = parseLaszip(header);
  if (compressed && !header.laszip) {
    throw new InvalidInput('vlr[laszip encoded/22204]', 'compressed point format without a LASzip VLR', 104);
  }
  return header;
}

function guid(head: Uint8Array): string {
  const hex = Array.from(head.subarray(8, 24), (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Finds a loaded VLR or EVLR by user id and record id. */
export function findVlr(header: Pick<LasHeader, 'vlrs'>, userId: string, recordId: number): LasVlr | undefined {
  return header.vlrs.find((v) => v.userId === userId && v.recordId === recordId);
}

function parseExtraBytes(header: LasHeader): ExtraBytesField[] {
  const available = header.recordLength - header.layout.baseSize;
  const fields: ExtraBytesField[] = [];
  let used = 0;
  // Some writers split the descriptors over several LASF_Spec/4 records: read them in order.
  for (const vlr of header.vlrs) {
    if (vlr.userId !== 'LASF_Spec' || vlr.recordId !== 4 || !vlr.data) continue;
    const data = vlr.data;
    if (data.byteLength % 192 !== 0) {
      throw new InvalidInput(
        'vlr[LASF_Spec/4].recordLength',
        `${data.byteLength} bytes is not a multiple of 192`,
        vlr.contentOffset - 34,
      );
    }
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let d = 0; d < data.byteLength; d += 192) {
      const at = vlr.contentOffset + d;
      const type = data[d + 2]!;
      const options = data[d + 3]!;
      const name = readCString(data, d + 4, 32) || `extra_${used}`;
      const description = readCString(data, d + 160, 32);
      if (type > 30)
        throw new InvalidInput(
          'vlr[LASF_Spec/4].dataType',
          `unknown extra-bytes data type ${type} for "${name}"`,
          at + 2,
        );
      let base: number;
      let elements: number;
      if (type === 0) {
        base = 1;
        elements = options;
      } else {
        base = ((type - 1) % 10) + 1;
        elements = Math.floor((type - 1) / 10) + 1;
      }
      const size = EXTRA_BYTES_SIZES[base]!;
      if (used + size * elements > available) {
        throw new InvalidInput(
          'vlr[LASF_Spec/4]',
          `extra bytes "${name}" need ${used + size * elements} bytes but point records have ${available} beyond format ${header.pointFormat}`,
          at,
        );
      }
      for (let e = 0; e < elements; e++) {
        const hasScale = type !== 0 && (options & 8) !== 0;
        const hasOffset = type !== 0 && (options & 16) !== 0;
        const scale = hasScale ? dv.getFloat64(d + 112 + 8 * Math.min(e, 2), true) : 1;
        const offset = hasOffset ? dv.getFloat64(d + 136 + 8 * Math.min(e, 2), true) : 0;
        if (!Number.isFinite(scale) || scale === 0 || !Number.isFinite(offset)) {
          throw new InvalidInput(
            'vlr[LASF_Spec/4].scale',
            `extra bytes "${name}" have an invalid scale ${scale} or offset ${offset}`,
            at + 112,
          );
        }
        const field: ExtraBytesField = {
          name: elements > 1 || type === 0 ? `${name}[${e}]` : name,
          recordOffset: header.layout.baseSize + used,
          dataType: type === 0 ? 1 : base,
          size,
          scale,
          offset,
          description,
        };
        if (type !== 0 && (options & 1) !== 0 && base >= 9)
          field.noData = dv.getFloat64(d + 40 + 8 * Math.min(e, 2), true);
        fields.push(field);
        used += size;
      }
    }
  }
  for (let b = used; b < available; b++) {
    fields.push({
      name: `extra_byte_${b}`,
      recordOffset: header.layout.baseSize + b,
      dataType: 1,
      size: 1,
      scale: 1,
      offset: 0,
      description: 'undescribed extra byte',
    });
  }
  return fields;
}

function parseLaszip(header: LasHeader): LaszipInfo | null {
  const vlr = findVlr(header, 'laszip encoded', 22204);
  if (!vlr?.data) return null;
  if (vlr.data.byteLength < 34) {
    throw new InvalidInput(
      'vlr[laszip encoded/22204].recordLength',
      `${vlr.data.byteLength} bytes is too short for a LASzip VLR (34)`,
      vlr.contentOffset - 34,
    );
  }
  const dv = new DataView(vlr.data.buffer, vlr.data.byteOffset, vlr.data.byteLength);
  const compressor = dv.getUint16(0, true);
  const chunkSize = dv.getUint32(12, true);
  if (compressor !== 2 && compressor !== 3) {
    throw new InvalidInput(
      'vlr[laszip encoded/22204].compressor',
      `unsupported LASzip compressor ${compressor} (chunked 2 or layered 3)`,
      vlr.contentOffset,
    );
  }
  if (chunkSize === 0)
    throw new InvalidInput('vlr[laszip encoded/22204].chunkSize', 'chunk size is 0', vlr.contentOffset + 12);
  // The items must describe exactly one point record of the header's format.
  const itemCount = dv.getUint16(32, true);
  if (34 + itemCount * 6 > vlr.data.byteLength) {
    throw new InvalidInput(
      'vlr[laszip encoded/22204].numItems',
      `${itemCount} items do not fit the ${vlr.data.byteLength}-byte record`,
      vlr.contentOffset + 32,
    );
  }
  let itemBytes = 0;
  for (let i = 0; i < itemCount; i++) itemBytes += dv.getUint16(34 + i * 6 + 2, true);
  if (itemBytes !== header.recordLength) {
    throw new InvalidInput(
      'header.pointRecordLength',
      `${header.recordLength} bytes contradicts the LASzip items (${itemBytes}-byte points)`,
      105,
    );
  }
  const types = new Set<number>();
  for (let i = 0; i < itemCount; i++) types.add(dv.getUint16(34 + i * 6, true));
  types.delete(0);
  types.delete(14);
  const { extended, gpsTime, rgb, nir, wavePacket } = header.layout;
  const expected = extended ? [10] : [6];
  if (!extended && gpsTime >= 0) expected.push(7);
  if (!extended && rgb >= 0) expected.push(8);
  if (extended && rgb >= 0) expected.push(nir >= 0 ? 12 : 11);
  if (wavePacket >= 0) expected.push(extended ? 13 : 9);
  const firstType = itemCount > 0 ? dv.getUint16(34, true) : -1;
  if (types.size !== expected.length || expected.some((t) => !types.has(t))) {
    throw new InvalidInput(
      'header.pointFormat',
      `point format ${header.pointFormat} contradicts the LASzip items (${firstType === 10 ? 'LAS 1.4' : 'LAS 1.0-1.3'} layout)`,
      104,
    );
  }
  return { compressor, chunkSize };
}
