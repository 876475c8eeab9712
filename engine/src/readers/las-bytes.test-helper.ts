import { POINT_FORMAT_SIZES } from './las-format.js';

/** A LAS file in memory: the header written, the records zeroed, for tests to fill. */
export interface TestLas {
  bytes: Uint8Array;
  view: DataView;
  headerSize: number;
  recordLength: number;
}

/**
 * The smallest valid LAS file of `count` records of `format` (version 1.2,
 * 1.3 or 1.4 as the format needs), no VLRs, `extraBytes` per record. Min/max
 * are left wide open so that any record values pass validation.
 */
export function emptyLas(
  format: number,
  count: number,
  extraBytes: number,
  scale: readonly [number, number, number],
  offset: readonly [number, number, number],
  range = 1e12,
): TestLas {
  const minor = format >= 6 ? 4 : format >= 4 ? 3 : 2;
  const headerSize = [227, 227, 227, 235, 375][minor]!;
  const recordLength = POINT_FORMAT_SIZES[format]! + extraBytes;
  const bytes = new Uint8Array(headerSize + count * recordLength);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('LASF'), 0);
  bytes[24] = 1;
  bytes[25] = minor;
  view.setUint16(94, headerSize, true);
  view.setUint32(96, headerSize, true);
  bytes[104] = format;
  view.setUint16(105, recordLength, true);
  if (format < 6) view.setUint32(107, count, true);
  for (let a = 0; a < 3; a++) {
    view.setFloat64(131 + 8 * a, scale[a]!, true);
    view.setFloat64(155 + 8 * a, offset[a]!, true);
    view.setFloat64(179 + 16 * a, range, true);
    view.setFloat64(187 + 16 * a, -range, true);
  }
  if (minor >= 4) view.setBigUint64(247, BigInt(count), true);
  return { bytes, view, headerSize, recordLength };
}
