/**
 * LAS point data record formats 0–10: fixed field layout per format, and the
 * minimum header size of each LAS minor version. Offsets are bytes inside one
 * point record (ASPRS LAS 1.4 R15, tables 7–16).
 */

/** Size in bytes of the standard fields of each point data record format. */
export const POINT_FORMAT_SIZES: readonly number[] = [20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67];

/** Public header size required by each LAS 1.x minor version. */
export const HEADER_SIZES: readonly number[] = [227, 227, 227, 235, 375];

/** Where the optional fields of a point format sit, -1 when absent. */
export interface PointFormatLayout {
  format: number;
  /** Size of the standard fields; extra bytes follow. */
  baseSize: number;
  /** True for formats 6–10 (LAS 1.4 extended layout). */
  extended: boolean;
  gpsTime: number;
  rgb: number;
  nir: number;
  /** Waveform packet fields (not decoded: they point at external data). */
  wavePacket: number;
}

/** Layout of a point data record format (0–10). */
export function pointFormatLayout(format: number): PointFormatLayout {
  const extended = format >= 6;
  const gpsTime = format === 0 || format === 2 ? -1 : extended ? 22 : 20;
  let rgb = -1;
  if (format === 2) rgb = 20;
  else if (format === 3 || format === 5) rgb = 28;
  else if (format === 7 || format === 8 || format === 10) rgb = 30;
  const nir = format === 8 || format === 10 ? 36 : -1;
  let wavePacket = -1;
  if (format === 4) wavePacket = 28;
  else if (format === 5) wavePacket = 34;
  else if (format === 9) wavePacket = 30;
  else if (format === 10) wavePacket = 38;
  return { format, baseSize: POINT_FORMAT_SIZES[format]!, extended, gpsTime, rgb, nir, wavePacket };
}
