// LASzip's arithmetic encoder and integer compressor (arithmeticencoder.cpp,
// integercompressor.cpp), over the same adaptive models as the decoders. All
// arithmetic is on unsigned 32-bit values held in doubles (exact below 2^53).
// Used to write LAZ chunk tables (laz-splice.ts) and, in tests, whole chunks.
// Decoding is lazjs's (readers/lazjs), which keeps its models in one arena.

const AC_MIN_LENGTH = 0x01000000;
const BM_LENGTH_SHIFT = 13;
const BM_MAX_COUNT = 1 << BM_LENGTH_SHIFT;
const DM_LENGTH_SHIFT = 15;
const DM_MAX_COUNT = 1 << DM_LENGTH_SHIFT;

/** LASzip's adaptive bit model (arithmeticmodel.cpp). */
export class BitModel {
  bit0Count = 1;
  bitCount = 2;
  bit0Prob = 1 << (BM_LENGTH_SHIFT - 1);
  updateCycle = 4;
  bitsUntilUpdate = 4;
  update(): void {
    this.bitCount += this.updateCycle;
    if (this.bitCount > BM_MAX_COUNT) {
      this.bitCount = (this.bitCount + 1) >>> 1;
      this.bit0Count = (this.bit0Count + 1) >>> 1;
      if (this.bit0Count === this.bitCount) this.bitCount++;
    }
    const scale = Math.floor(0x80000000 / this.bitCount);
    this.bit0Prob = Math.floor((this.bit0Count * scale) / 2 ** (31 - BM_LENGTH_SHIFT));
    this.updateCycle = Math.min((5 * this.updateCycle) >>> 2, 64);
    this.bitsUntilUpdate = this.updateCycle;
  }
}

/** LASzip's adaptive symbol model (arithmeticmodel.cpp), encoder side (no decoder table). */
export class SymbolModel {
  readonly symbols: number;
  readonly distribution: Uint32Array;
  readonly symbolCount: Uint32Array;
  totalCount = 0;
  updateCycle: number;
  symbolsUntilUpdate = 0;
  readonly lastSymbol: number;
  constructor(symbols: number) {
    this.symbols = symbols;
    this.lastSymbol = symbols - 1;
    this.distribution = new Uint32Array(symbols);
    this.symbolCount = new Uint32Array(symbols).fill(1);
    this.updateCycle = symbols;
    this.update();
    this.updateCycle = (symbols + 6) >>> 1;
    this.symbolsUntilUpdate = this.updateCycle;
  }
  update(): void {
    this.totalCount += this.updateCycle;
    if (this.totalCount > DM_MAX_COUNT) {
      this.totalCount = 0;
      for (let n = 0; n < this.symbols; n++) {
        this.symbolCount[n] = (this.symbolCount[n]! + 1) >>> 1;
        this.totalCount += this.symbolCount[n]!;
      }
    }
    let sum = 0;
    const scale = Math.floor(0x80000000 / this.totalCount);
    for (let k = 0; k < this.symbols; k++) {
      this.distribution[k] = Math.floor((scale * sum) / 2 ** (31 - DM_LENGTH_SHIFT));
      sum += this.symbolCount[k]!;
    }
    this.updateCycle = Math.min((5 * this.updateCycle) >>> 2, (this.symbols + 6) << 3);
    this.symbolsUntilUpdate = this.updateCycle;
  }
}

/** The encoder; `out` holds the bytes written so far (`done()` flushes the last ones). */
export class ArithmeticEncoder {
  private base = 0;
  private length = 0xffffffff;
  readonly out: number[] = [];

  private addToBase(x: number): void {
    const sum = this.base + x;
    if (sum >= 0x100000000) {
      this.base = sum - 0x100000000;
      let p = this.out.length - 1;
      while (this.out[p] === 0xff) this.out[p--] = 0;
      this.out[p]!++;
    } else {
      this.base = sum;
    }
  }

  private renorm(): void {
    do {
      this.out.push(Math.floor(this.base / 0x1000000));
      this.base = (this.base % 0x1000000) * 256;
      this.length *= 256;
    } while (this.length < AC_MIN_LENGTH);
  }

  encodeBit(m: BitModel, sym: number): void {
    const x = m.bit0Prob * (this.length >>> BM_LENGTH_SHIFT);
    if (sym === 0) {
      this.length = x;
      m.bit0Count++;
    } else {
      this.addToBase(x);
      this.length -= x;
    }
    if (this.length < AC_MIN_LENGTH) this.renorm();
    if (--m.bitsUntilUpdate === 0) m.update();
  }

  encodeSymbol(m: SymbolModel, sym: number): void {
    if (sym < 0 || sym >= m.symbols || !Number.isInteger(sym)) throw new Error(`symbol ${sym} out of range`);
    let x: number;
    if (sym === m.symbols - 1) {
      x = m.distribution[sym]! * (this.length >>> DM_LENGTH_SHIFT);
      this.addToBase(x);
      this.length -= x;
    } else {
      this.length = this.length >>> DM_LENGTH_SHIFT;
      x = m.distribution[sym]! * this.length;
      this.addToBase(x);
      this.length = m.distribution[sym + 1]! * this.length - x;
    }
    if (this.length < AC_MIN_LENGTH) this.renorm();
    m.symbolCount[sym]!++;
    if (--m.symbolsUntilUpdate === 0) m.update();
  }

  writeBits(bits: number, sym: number): void {
    if (bits > 19) {
      this.writeShort(sym % 65536);
      sym = Math.floor(sym / 65536);
      bits -= 16;
    }
    this.length = this.length >>> bits;
    this.addToBase(sym * this.length);
    if (this.length < AC_MIN_LENGTH) this.renorm();
  }

  writeShort(sym: number): void {
    this.length = this.length >>> 16;
    this.addToBase(sym * this.length);
    if (this.length < AC_MIN_LENGTH) this.renorm();
  }

  writeInt(sym: number): void {
    this.writeShort(sym % 65536);
    this.writeShort(Math.floor(sym / 65536));
  }

  done(): void {
    if (this.length > 2 * AC_MIN_LENGTH) {
      this.addToBase(AC_MIN_LENGTH);
      this.length = AC_MIN_LENGTH >>> 1;
    } else {
      this.addToBase(AC_MIN_LENGTH >>> 1);
      this.length = AC_MIN_LENGTH >>> 9;
    }
    this.renorm();
    this.out.push(0, 0, 0);
  }
}

/** IntegerCompressor(enc, bits, contexts) with LASzip's bitsHigh of 8, compression only. */
export class IntegerCompressor {
  k = 0;
  private readonly corrBits: number;
  private readonly corrRange: number;
  private readonly corrMin: number;
  private readonly corrMax: number;
  private readonly mBits: SymbolModel[];
  private readonly mCorrector0 = new BitModel();
  private readonly mCorrector: SymbolModel[] = [];

  constructor(
    private readonly enc: ArithmeticEncoder,
    bits = 16,
    contexts = 1,
  ) {
    if (bits < 32) {
      this.corrBits = bits;
      this.corrRange = 2 ** bits;
      this.corrMin = -(this.corrRange / 2);
      this.corrMax = this.corrMin + this.corrRange - 1;
    } else {
      this.corrBits = 32;
      this.corrRange = 0;
      this.corrMin = -0x80000000;
      this.corrMax = 0x7fffffff;
    }
    this.mBits = Array.from({ length: contexts }, () => new SymbolModel(this.corrBits + 1));
    for (let i = 1; i <= this.corrBits; i++) this.mCorrector[i] = new SymbolModel(1 << Math.min(i, 8));
  }

  compress(pred: number, real: number, context: number): void {
    let corr = this.corrRange === 0 ? (real - pred) | 0 : real - pred;
    if (corr < this.corrMin) corr += this.corrRange;
    else if (corr > this.corrMax) corr -= this.corrRange;
    let c1 = corr <= 0 ? -corr : corr - 1;
    let k = 0;
    while (c1 > 0) {
      c1 = Math.floor(c1 / 2);
      k++;
    }
    this.k = k;
    this.enc.encodeSymbol(this.mBits[context]!, k);
    if (k === 0) {
      this.enc.encodeBit(this.mCorrector0, corr);
      return;
    }
    if (k === 32) return;
    const c = corr < 0 ? corr + (2 ** k - 1) : corr - 1;
    if (k <= 8) {
      this.enc.encodeSymbol(this.mCorrector[k]!, c);
    } else {
      const k1 = k - 8;
      this.enc.encodeSymbol(this.mCorrector[k]!, Math.floor(c / 2 ** k1));
      this.enc.writeBits(k1, c % 2 ** k1);
    }
  }
}
