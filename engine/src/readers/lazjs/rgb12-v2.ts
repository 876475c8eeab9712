import type { ArithmeticDecoder } from './arithmetic-decoder.js';

/** Wraps a sum of a byte and a corrector back into a byte (LASzip's U8_FOLD). */
function fold(n: number): number {
  return n & 0xff;
}

/** LASzip's U8_CLAMP. */
function clamp(n: number): number {
  return n < 0 ? 0 : n > 255 ? 255 : n;
}

/**
 * RGB12 version 2 (LASreadItemCompressed_RGB12_v2): one symbol says which of
 * the six colour bytes changed and whether the colour is grey; green and blue
 * are predicted from red's change.
 */
export class Rgb12Decoder {
  private r = 0;
  private g = 0;
  private b = 0;
  private readonly mByteUsed: number;
  private readonly mDiff: Int32Array;

  constructor(private readonly dec: ArithmeticDecoder) {
    this.mByteUsed = dec.symbolModel(128);
    this.mDiff = Int32Array.from({ length: 6 }, () => dec.symbolModel(256));
  }

  /** Starts a chunk from its first point's raw colour at `item[at..at+6)`. */
  init(item: Uint8Array, at: number): void {
    this.dec.initSymbolModel(this.mByteUsed);
    for (const m of this.mDiff) this.dec.initSymbolModel(m);
    this.r = item[at]! | (item[at + 1]! << 8);
    this.g = item[at + 2]! | (item[at + 3]! << 8);
    this.b = item[at + 4]! | (item[at + 5]! << 8);
  }

  /** Decodes the next colour into `out[at..at+6)`. */
  read(out: Uint8Array, at: number): void {
    const dec = this.dec;
    const mDiff = this.mDiff;
    const lastR = this.r;
    const lastG = this.g;
    const lastB = this.b;
    const sym = dec.decodeSymbol(this.mByteUsed);
    let r = sym & 1 ? fold(dec.decodeSymbol(mDiff[0]!) + (lastR & 0xff)) : lastR & 0xff;
    r |= sym & 2 ? fold(dec.decodeSymbol(mDiff[1]!) + (lastR >>> 8)) << 8 : lastR & 0xff00;
    let g: number;
    let b: number;
    if (sym & 64) {
      let diff = (r & 0xff) - (lastR & 0xff);
      g = sym & 4 ? fold(dec.decodeSymbol(mDiff[2]!) + clamp(diff + (lastG & 0xff))) : lastG & 0xff;
      if (sym & 16) {
        const corr = dec.decodeSymbol(mDiff[4]!);
        // C division truncates toward zero.
        diff = ((diff + ((g & 0xff) - (lastG & 0xff))) / 2) | 0;
        b = fold(corr + clamp(diff + (lastB & 0xff)));
      } else {
        b = lastB & 0xff;
      }
      diff = (r >>> 8) - (lastR >>> 8);
      g |= sym & 8 ? fold(dec.decodeSymbol(mDiff[3]!) + clamp(diff + (lastG >>> 8))) << 8 : lastG & 0xff00;
      if (sym & 32) {
        const corr = dec.decodeSymbol(mDiff[5]!);
        diff = ((diff + ((g >>> 8) - (lastG >>> 8))) / 2) | 0;
        b |= fold(corr + clamp(diff + (lastB >>> 8))) << 8;
      } else {
        b |= lastB & 0xff00;
      }
    } else {
      g = r;
      b = r;
    }
    this.r = r;
    this.g = g;
    this.b = b;
    out[at] = r;
    out[at + 1] = r >>> 8;
    out[at + 2] = g;
    out[at + 3] = g >>> 8;
    out[at + 4] = b;
    out[at + 5] = b >>> 8;
  }
}
