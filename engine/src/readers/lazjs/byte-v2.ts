import type { ArithmeticDecoder } from './arithmetic-decoder.js';

/**
 * BYTE version 2 (LASreadItemCompressed_BYTE_v2): extra bytes, each coded as
 * its difference to the same byte of the previous point, one model per byte.
 */
export class ByteDecoder {
  private readonly last: Uint8Array;
  private readonly models: Int32Array;

  constructor(
    private readonly dec: ArithmeticDecoder,
    readonly count: number,
  ) {
    this.last = new Uint8Array(count);
    this.models = Int32Array.from({ length: count }, () => dec.symbolModel(256));
  }

  /** Starts a chunk from its first point's raw bytes at `item[at..at+count)`. */
  init(item: Uint8Array, at: number): void {
    for (const m of this.models) this.dec.initSymbolModel(m);
    this.last.set(item.subarray(at, at + this.count));
  }

  /** Decodes the next extra bytes into `out[at..at+count)`. */
  read(out: Uint8Array, at: number): void {
    const dec = this.dec;
    const last = this.last;
    const models = this.models;
    for (let i = 0; i < this.count; i++) {
      const v = (last[i]! + dec.decodeSymbol(models[i]!)) & 0xff;
      last[i] = v;
      out[at + i] = v;
    }
  }
}
