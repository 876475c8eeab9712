// Test support: raw point records of formats 0-3 that exercise every branch
// of the LASzip v2 items: return contexts (including odd return numbering),
// changed and unchanged fields, GPS time sequences that repeat, scale,
// reverse, jump and switch back, grey and coloured RGB, extra bytes.

import { mulberry32 } from '@nuage/fixtures/synthetic/random.js';

/** Deterministic 32-bit PRNG (mulberry32): the same seed gives the same records. */
export const prng = mulberry32;

/** `count` records of `pointFormat` (0-3), `recordLength` bytes each (extra bytes beyond the format's size). */
export function syntheticRecords(pointFormat: number, recordLength: number, count: number, seed: number): Uint8Array {
  const rand = prng(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const chance = (p: number) => rand() < p;
  const out = new Uint8Array(count * recordLength);
  const view = new DataView(out.buffer);
  const hasGps = pointFormat === 1 || pointFormat === 3;
  const hasRgb = pointFormat >= 2;
  const base = [20, 28, 26, 34][pointFormat]!;
  const rgbAt = hasGps ? 28 : 20;
  let x = int(2 ** 31);
  let y = int(2 ** 31) - 2 ** 30;
  let z = int(100000);
  let intensity = int(65536);
  let n = 1;
  let r = 1;
  let flags = 0;
  let classification = 2;
  let scanAngle = 0;
  let userData = 0;
  let pointSourceId = int(65536);
  const sequences = [BigInt(Math.floor(rand() * 2 ** 52)) << 8n, 0n, 0n, 0n];
  let sequence = 0;
  let step = BigInt(1 + int(1000));
  let rgb = [int(256), int(256), int(256)];
  const extra = new Uint8Array(Math.max(0, recordLength - base));
  for (let i = 0; i < count; i++) {
    const at = i * recordLength;
    // Coordinates: small steps, sometimes jumps (32-bit wrap included), sometimes none.
    const jump = chance(0.02);
    x = (x + (jump ? int(2 ** 32) : int(200) - 100)) | 0;
    y = (y + (jump ? int(2 ** 32) : int(200) - 100)) | 0;
    z = chance(0.1) ? z : (z + (jump ? int(2 ** 31) : int(60) - 30)) | 0;
    view.setInt32(at, x, true);
    view.setInt32(at + 4, y, true);
    view.setInt32(at + 8, z, true);
    if (chance(0.3)) intensity = chance(0.05) ? int(65536) : (intensity + int(40) - 20) & 0xffff;
    view.setUint16(at + 12, intensity, true);
    // Returns: mostly valid (1 <= r <= n <= 5), sometimes zero-based or swapped.
    if (chance(0.4)) {
      if (chance(0.1)) {
        n = int(8);
        r = int(8);
      } else {
        n = 1 + int(5);
        r = 1 + int(n);
      }
    }
    if (chance(0.05)) flags = int(4);
    out[at + 14] = r | (n << 3) | (flags << 6);
    if (chance(0.1)) classification = chance(0.8) ? [1, 2, 5, 6][int(4)]! : int(256);
    out[at + 15] = classification;
    if (chance(0.2)) scanAngle = (scanAngle + int(7) - 3) & 0xff;
    out[at + 16] = scanAngle;
    if (chance(0.03)) userData = int(256);
    out[at + 17] = userData;
    if (chance(0.01)) pointSourceId = chance(0.5) ? int(65536) : (pointSourceId + 1) & 0xffff;
    view.setUint16(at + 18, pointSourceId, true);
    if (hasGps) {
      const roll = rand();
      if (roll < 0.05) {
        // Same time (several returns of one pulse).
      } else if (roll < 0.08) {
        step = BigInt(int(2 ** 31)) * (chance(0.5) ? 1n : -1n);
        sequences[sequence] = sequences[sequence]! + step;
      } else if (roll < 0.1) {
        // A huge jump: a new sequence, or back to an old one.
        const other = int(4);
        if (sequences[other] !== 0n && other !== sequence && chance(0.5)) sequence = other;
        else {
          sequence = (sequence + 1) & 3;
          sequences[sequence] = BigInt(Math.floor(rand() * 2 ** 52)) << 8n;
        }
      } else if (roll < 0.15) {
        sequences[sequence] = sequences[sequence]! + step * BigInt(int(1200) - 600);
      } else {
        if (chance(0.05)) step = BigInt(1 + int(100000));
        sequences[sequence] = sequences[sequence]! + step;
      }
      view.setBigInt64(at + 20, BigInt.asIntN(64, sequences[sequence]!), true);
    }
    if (hasRgb) {
      const roll = rand();
      if (roll < 0.3) {
        // Unchanged colour.
      } else if (roll < 0.5) {
        const grey = chance(0.5) ? int(256) : int(65536);
        rgb = [grey, grey, grey];
      } else if (roll < 0.8) {
        rgb = rgb.map((c) => (c + int(21) - 10) & 0xffff);
      } else {
        const wide = chance(0.5);
        rgb = [0, 0, 0].map(() => (wide ? int(65536) : int(256)));
      }
      view.setUint16(at + rgbAt, rgb[0]!, true);
      view.setUint16(at + rgbAt + 2, rgb[1]!, true);
      view.setUint16(at + rgbAt + 4, rgb[2]!, true);
    }
    for (let e = 0; e < extra.length; e++) {
      if (chance(0.3)) extra[e] = chance(0.1) ? int(256) : (extra[e]! + int(5) - 2) & 0xff;
      out[at + base + e] = extra[e]!;
    }
  }
  return out;
}
