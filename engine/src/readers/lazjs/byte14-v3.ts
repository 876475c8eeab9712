import { ArithmeticDecoder } from './arithmetic-decoder.js';

/** Per scanner channel extra-bytes state and models; models are created on first use and kept. */
class Context {
  unused = true;
  created = false;
  readonly last: Uint8Array;
  models: Int32Array;
  constructor(count: number) {
    this.last = new Uint8Array(count);
    this.models = new Int32Array(count);
  }
}

/**
 * BYTE14 version 3 (LASreadItemCompressed_BYTE14_v3): each extra byte in
 * its own layer, coded as its difference to the same byte of the previous
 * point of the same scanner channel.
 */
export class Byte14Decoder {
  private readonly dec: ArithmeticDecoder[];
  private readonly changed: Uint8Array;
  private readonly contexts: Context[];
  private current = 0;

  constructor(readonly count: number) {
    this.dec = Array.from({ length: count }, () => new ArithmeticDecoder(1024));
    this.changed = new Uint8Array(count);
    this.contexts = Array.from({ length: 4 }, () => new Context(count));
  }

  /** Layers this item has in a chunk (one per byte). */
  get layers(): number {
    return this.count;
  }

  /** Starts a chunk: `layers` are byte ranges in `bytes`, the first point's bytes are raw at `first[at..)`. */
  init(bytes: Uint8Array, layers: readonly [number, number][], first: Uint8Array, at: number, context: number): void {
    for (let i = 0; i < this.count; i++) {
      const [start, end] = layers[i]!;
      this.changed[i] = end > start ? 1 : 0;
      if (this.changed[i]) this.dec[i]!.init(bytes, start, end);
    }
    for (const c of this.contexts) c.unused = true;
    this.current = context;
    this.initContext(context, first.subarray(at, at + this.count));
  }

  get overrun(): number {
    let worst = 0;
    for (let i = 0; i < this.count; i++) if (this.changed[i]) worst = Math.max(worst, this.dec[i]!.overrun);
    return worst;
  }

  private initContext(index: number, item: Uint8Array): void {
    const c = this.contexts[index]!;
    if (!c.created) {
      c.created = true;
      c.models = Int32Array.from({ length: this.count }, (_, i) => this.dec[i]!.symbolModel(256));
    } else {
      for (let i = 0; i < this.count; i++) this.dec[i]!.initSymbolModel(c.models[i]!);
    }
    c.last.set(item);
    c.unused = false;
  }

  /** Decodes the next extra bytes of scanner channel `context` into `out[at..at+count)`. */
  read(out: Uint8Array, at: number, context: number): void {
    let c = this.contexts[this.current]!;
    if (context !== this.current) {
      this.current = context;
      if (this.contexts[context]!.unused) this.initContext(context, c.last);
      c = this.contexts[context]!;
    }
    const last = c.last;
    for (let i = 0; i < this.count; i++) {
      if (this.changed[i]) last[i] = (last[i]! + this.dec[i]!.decodeSymbol(c.models[i]!)) & 0xff;
      out[at + i] = last[i]!;
    }
  }
}
