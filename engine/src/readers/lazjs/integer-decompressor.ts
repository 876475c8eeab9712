import type { ArithmeticDecoder } from './arithmetic-decoder.js';

/** Corrector bits coded through a symbol model; the rest are raw bits (LASzip's default). */
const BITS_HIGH = 8;

/**
 * LASzip's IntegerCompressor, decompression side: a value is its prediction
 * plus a corrector coded as k (its bit length, in a per-context model), then
 * its k bits (the top 8 through a per-k model, the rest raw). `k` keeps the
 * bit length of the last corrector, which later contexts depend on.
 */
export class IntegerDecompressor {
  /** Bit length of the last decoded corrector. */
  k = 0;
  private readonly corrBits: number;
  /** 2^bits, or 0 for 32-bit values (which wrap instead). */
  private readonly corrRange: number;
  /** Arena offsets of the per-context k models. */
  private readonly mBits: Int32Array;
  private readonly mCorrector0: number;
  /** Arena offsets of the per-k corrector models, indexed by k (1..corrBits). */
  private readonly mCorrector: Int32Array;

  constructor(
    private readonly dec: ArithmeticDecoder,
    bits = 16,
    contexts = 1,
  ) {
    if (bits > 0 && bits < 32) {
      this.corrBits = bits;
      this.corrRange = 2 ** bits;
    } else {
      this.corrBits = 32;
      this.corrRange = 0;
    }
    this.mBits = new Int32Array(contexts);
    for (let i = 0; i < contexts; i++) this.mBits[i] = dec.symbolModel(this.corrBits + 1);
    this.mCorrector0 = dec.bitModel();
    this.mCorrector = new Int32Array(this.corrBits + 1);
    for (let i = 1; i <= this.corrBits; i++) this.mCorrector[i] = dec.symbolModel(1 << Math.min(i, BITS_HIGH));
  }

  /** Resets every model (start of a chunk). */
  init(): void {
    const dec = this.dec;
    this.k = 0;
    for (let i = 0; i < this.mBits.length; i++) dec.initSymbolModel(this.mBits[i]!);
    dec.initBitModel(this.mCorrector0);
    for (let i = 1; i <= this.corrBits; i++) dec.initSymbolModel(this.mCorrector[i]!);
  }

  /** The value predicted by `pred` in `context`: a signed 32-bit integer, or in [0, 2^bits) below 32 bits. */
  decompress(pred: number, context: number): number {
    const dec = this.dec;
    const k = dec.decodeSymbol(this.mBits[context]!);
    this.k = k;
    let c: number;
    if (k === 0) {
      c = dec.decodeBit(this.mCorrector0);
    } else if (k < 32) {
      if (k <= BITS_HIGH) {
        c = dec.decodeSymbol(this.mCorrector[k]!);
      } else {
        const k1 = k - BITS_HIGH;
        c = (dec.decodeSymbol(this.mCorrector[k]!) << k1) | dec.readBits(k1);
      }
      // Back from [0, 2^k) to [-(2^k - 1), -2^(k-1)] or [2^(k-1) + 1, 2^k].
      if (c >= 1 << (k - 1)) c = (c + 1) | 0;
      else c = (c - (0x7fffffff >>> (31 - k))) | 0;
    } else {
      c = -0x80000000;
    }
    const range = this.corrRange;
    if (range === 0) return (pred + c) | 0;
    const real = pred + c;
    if (real < 0) return real + range;
    if (real >= range) return real - range;
    return real;
  }
}
