/**
 * Rounded numbers written digit by digit as ASCII bytes: the text of
 * `String(Math.round(v · 10^d) / 10^d)` (what JSON.stringify, pdfkit and the
 * GeoJSON writer print for a coordinate rounded to d decimals) without making
 * a string. Printing doubles and joining strings was most of the time of
 * writing contour lines to GeoJSON and PDF maps.
 */

/**
 * The text of a coordinate at `decimals` decimals: the shortest form of
 * `Math.round(v · 10^decimals) / 10^decimals`, `0` for -0, `null` when not finite.
 */
export function roundedText(v: number, decimals: number): string {
  const factor = 10 ** decimals;
  const r = Math.round(v * factor) / factor;
  return Number.isFinite(r) ? String(r === 0 ? 0 : r) : 'null';
}

/** Decimal digits of a whole number below 2^53 (1 for 0): up to eight by comparisons (no loop). */
export function digitCount(n: number): number {
  if (n < 1e4) return n < 100 ? (n < 10 ? 1 : 2) : n < 1000 ? 3 : 4;
  if (n < 1e8) return n < 1e6 ? (n < 1e5 ? 5 : 6) : n < 1e7 ? 7 : 8;
  let digits = 9;
  for (let p = 1e9; p <= n; p *= 10) digits++;
  return digits;
}

/**
 * Writes `n` (a whole number below 2^53) as exactly `digits` decimal digits
 * (leading zeros) at `at`; returns the end. Small integer arithmetic: blocks
 * of eight digits are split off while `n` is above 2^31 (exactly: the block's
 * quotient is corrected when the division rounded up), the rest digit by digit.
 */
export function writeDigits(buf: Uint8Array, at: number, n: number, digits: number): number {
  let i = at + digits - 1;
  let v = n;
  while (v >= 2147483648) {
    let q = Math.floor(v / 1e8);
    let block = v - q * 1e8;
    if (block < 0) {
      q--;
      block += 1e8;
    }
    let w = block | 0;
    for (let k = 0; k < 8; k++) {
      const t = (w / 10) | 0;
      buf[i--] = 48 + w - t * 10;
      w = t;
    }
    v = q;
  }
  let w = v | 0;
  while (i >= at) {
    const t = (w / 10) | 0;
    buf[i--] = 48 + w - t * 10;
    w = t;
  }
  return at + digits;
}

/**
 * Writes the decimals of `fraction / 10^decimals` (`fraction` a whole number,
 * 0 < fraction < 10^decimals): `decimals` digits with leading zeros, less the
 * trailing zeros; returns the end. Integer arithmetic below 2^31 (a double's
 * `% 10` was the slowest step of printing a coordinate).
 */
export function writeFraction(buf: Uint8Array, at: number, fraction: number, decimals: number): number {
  let digits = decimals;
  if (fraction < 2147483648) {
    let f = fraction | 0;
    while (f % 10 === 0) {
      f = (f / 10) | 0;
      digits--;
    }
    return writeDigits(buf, at, f, digits);
  }
  let f = fraction;
  while (f % 10 === 0) {
    f /= 10;
    digits--;
  }
  return writeDigits(buf, at, f, digits);
}

/** Bytes {@link writeRounded} may write (sign, 15 digits, point). */
export const ROUNDED_MAX_BYTES = 24;

/**
 * Writes {@link roundedText}`(v, decimals)` at `at` (`factor` is 10^decimals)
 * and returns the end, or -1 without writing when the number is not one it
 * writes (not finite, 15 digits or more, or below 1e-6, which prints with an
 * exponent): print {@link roundedText} then. Up to 15 digits, k / 10^d prints
 * as the decimal k·10^-d itself (no shorter decimal is as close to it).
 * Needs {@link ROUNDED_MAX_BYTES} bytes of room.
 */
export function writeRounded(buf: Uint8Array, at: number, v: number, decimals: number, factor: number): number {
  const k = Math.round(v * factor);
  const a = Math.abs(k);
  if (!(a < 1e15) || (a !== 0 && a * 1e6 < factor)) return -1;
  if (a === 0) {
    buf[at] = 48; // 0
    return at + 1;
  }
  let end = at;
  if (k < 0) buf[end++] = 45; // -
  const whole = Math.floor(a / factor);
  end = writeDigits(buf, end, whole, digitCount(whole));
  const fraction = a - whole * factor;
  if (fraction === 0) return end;
  buf[end++] = 46; // .
  return writeFraction(buf, end, fraction, decimals);
}
