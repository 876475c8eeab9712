import { ArithmeticDecoder } from './arithmetic-decoder.js';

const fold = (n: number) => n & 0xff;
const clamp = (n: number) => (n < 0 ? 0 : n > 255 ? 255 : n);

/** Per scanner channel colour state and models; models are created on first use and kept. */
class Context {
  unused = true;
  created = false;
  r = 0;
  g = 0;
  b = 0;
  nir = 0;
  mRgbUsed = 0;
  mRgbDiff = new Int32Array(6);
  mNirUsed = 0;
  mNirDiff = new Int32Array(2);
}

/**
 * RGB14 and RGBNIR14 version 3 (LASreadItemCompressed_RGB14_v3 and
 * _RGBNIR14_v3): the RGB12 v2 coding in its own layer, per scanner channel,
 * plus for RGBNIR a layer for the near infrared. `read` follows the scanner
 * channel the POINT14 item switched to.
 */
export class Rgb14Decoder {
  private readonly rgb = new ArithmeticDecoder();
  private readonly nirDec = new ArithmeticDecoder();
  private changedRgb = false;
  private changedNir = false;
  private readonly contexts = Array.from({ length: 4 }, () => new Context());
  private current = 0;

  /** `withNir`: RGBNIR14 (8 bytes, two layers), else RGB14 (6 bytes, one layer). */
  constructor(readonly withNir: boolean) {}

  /** Layers this item has in a chunk. */
  get layers(): number {
    return this.withNir ? 2 : 1;
  }

  /** Starts a chunk: `layers` are byte ranges in `bytes`, the first colour is raw at `first[at..)`. */
  init(bytes: Uint8Array, layers: readonly [number, number][], first: Uint8Array, at: number, context: number): void {
    const [rgbStart, rgbEnd] = layers[0]!;
    this.changedRgb = rgbEnd > rgbStart;
    if (this.changedRgb) this.rgb.init(bytes, rgbStart, rgbEnd);
    if (this.withNir) {
      const [nirStart, nirEnd] = layers[1]!;
      this.changedNir = nirEnd > nirStart;
      if (this.changedNir) this.nirDec.init(bytes, nirStart, nirEnd);
    }
    for (const c of this.contexts) c.unused = true;
    this.current = context;
    this.initContext(
      context,
      first[at]! | (first[at + 1]! << 8),
      first[at + 2]! | (first[at + 3]! << 8),
      first[at + 4]! | (first[at + 5]! << 8),
      this.withNir ? first[at + 6]! | (first[at + 7]! << 8) : 0,
    );
  }

  get overrun(): number {
    return Math.max(this.changedRgb ? this.rgb.overrun : 0, this.changedNir ? this.nirDec.overrun : 0);
  }

  private initContext(index: number, r: number, g: number, b: number, nir: number): void {
    const c = this.contexts[index]!;
    if (!c.created) {
      c.created = true;
      c.mRgbUsed = this.rgb.symbolModel(128);
      c.mRgbDiff = Int32Array.from({ length: 6 }, () => this.rgb.symbolModel(256));
      if (this.withNir) {
        c.mNirUsed = this.nirDec.symbolModel(4);
        c.mNirDiff = Int32Array.from({ length: 2 }, () => this.nirDec.symbolModel(256));
      }
    } else {
      this.rgb.initSymbolModel(c.mRgbUsed);
      for (const m of c.mRgbDiff) this.rgb.initSymbolModel(m);
      if (this.withNir) {
        this.nirDec.initSymbolModel(c.mNirUsed);
        for (const m of c.mNirDiff) this.nirDec.initSymbolModel(m);
      }
    }
    c.r = r;
    c.g = g;
    c.b = b;
    c.nir = nir;
    c.unused = false;
  }

  /** Decodes the next colour of scanner channel `context` into `out[at..)`. */
  read(out: Uint8Array, at: number, context: number): void {
    let c = this.contexts[this.current]!;
    if (context !== this.current) {
      this.current = context;
      if (this.contexts[context]!.unused) this.initContext(context, c.r, c.g, c.b, c.nir);
      c = this.contexts[context]!;
    }
    if (this.changedRgb) {
      const dec = this.rgb;
      const mDiff = c.mRgbDiff;
      const lastR = c.r;
      const lastG = c.g;
      const lastB = c.b;
      const sym = dec.decodeSymbol(c.mRgbUsed);
      let r = sym & 1 ? fold(dec.decodeSymbol(mDiff[0]!) + (lastR & 0xff)) : lastR & 0xff;
      r |= sym & 2 ? fold(dec.decodeSymbol(mDiff[1]!) + (lastR >>> 8)) << 8 : lastR & 0xff00;
      let g: number;
      let b: number;
      if (sym & 64) {
        let diff = (r & 0xff) - (lastR & 0xff);
        g = sym & 4 ? fold(dec.decodeSymbol(mDiff[2]!) + clamp(diff + (lastG & 0xff))) : lastG & 0xff;
        if (sym & 16) {
          const corr = dec.decodeSymbol(mDiff[4]!);
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
      c.r = r;
      c.g = g;
      c.b = b;
    }
    if (this.changedNir) {
      const dec = this.nirDec;
      const last = c.nir;
      const sym = dec.decodeSymbol(c.mNirUsed);
      let nir = sym & 1 ? fold(dec.decodeSymbol(c.mNirDiff[0]!) + (last & 0xff)) : last & 0xff;
      nir |= sym & 2 ? fold(dec.decodeSymbol(c.mNirDiff[1]!) + (last >>> 8)) << 8 : last & 0xff00;
      c.nir = nir;
    }
    out[at] = c.r;
    out[at + 1] = c.r >>> 8;
    out[at + 2] = c.g;
    out[at + 3] = c.g >>> 8;
    out[at + 4] = c.b;
    out[at + 5] = c.b >>> 8;
    if (this.withNir) {
      out[at + 6] = c.nir;
      out[at + 7] = c.nir >>> 8;
    }
  }
}
