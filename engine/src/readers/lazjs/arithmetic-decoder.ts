// LASzip's adaptive arithmetic decoder (Amir Said's fast coder, as in
// arithmeticdecoder.cpp and arithmeticmodel.cpp), laid out for V8 the way
// WASM lays it out: the coder state and every model live in one Int32Array
// (the "arena"), models are offsets into it, and the arithmetic is unsigned
// 32-bit (`>>> 0`, Math.imul) so TurboFan compiles it to machine integer
// instructions. Nothing in the hot methods allocates.

const BM_LENGTH_SHIFT = 13;
const BM_MAX_COUNT = 1 << BM_LENGTH_SHIFT;
const DM_LENGTH_SHIFT = 15;
const DM_MAX_COUNT = 1 << DM_LENGTH_SHIFT;
/** Decoder table cells beyond LASzip's (see tableSizeOf). */
const EXTRA_TABLE_BITS = 3;
/** At most 2^10 cells, so the table shift is at least 5. */
const MAX_TABLE_BITS = 10;
/**
 * Cells past the table end. value < length and length >= 2^24, so
 * dv = value / (length >> 15) can exceed 2^15 by up to 63, which with a shift
 * of 5 or more reaches at most cell tableSize + 1, and the search reads the next.
 */
const TABLE_OVERFLOW = 2;

// Arena slots of the coder state.
const VALUE = 0;
const LENGTH = 1;
const ARENA_HEADER = 8;

// A symbol model at offset o: header fields, then distribution[symbols],
// symbolCount[symbols] and decoderTable[tableSize + 2 + TABLE_OVERFLOW].
const M_SYMBOLS = 0;
const M_TABLE_SHIFT = 1;
const M_TABLE_SIZE = 2;
const M_TOTAL_COUNT = 3;
const M_UPDATE_CYCLE = 4;
const M_UNTIL_UPDATE = 5;
const M_HEADER = 8;

// A bit model at offset o.
const B_BIT0_COUNT = 0;
const B_BIT_COUNT = 1;
const B_BIT0_PROB = 2;
const B_UPDATE_CYCLE = 3;
const B_UNTIL_UPDATE = 4;
const B_SIZE = 5;

/** Zero bytes after the data: reads past the end see zeros, as with laz-perf's padding. */
const PADDING = 64;

function symbolModelSize(symbols: number): number {
  return M_HEADER + 2 * symbols + tableSizeOf(symbols) + 2 + TABLE_OVERFLOW;
}

/**
 * Decoder table size. The table maps the top bits of the scaled value to the
 * first candidate symbol; it only speeds up the search (the symbol is fixed
 * by the distribution), so its size is free. LASzip gives models above 16
 * symbols about symbols / 4 cells and smaller ones none (they bisect on
 * products); here every model gets 8 times LASzip's count, which leaves one
 * candidate per cell most of the time and no hard-to-predict branch.
 */
function tableSizeOf(symbols: number): number {
  let tableBits = 3;
  while (symbols > 1 << (tableBits + 2)) tableBits++;
  return 1 << Math.min(tableBits + EXTRA_TABLE_BITS, MAX_TABLE_BITS);
}

/**
 * Decodes bits, symbols and raw bits from a byte range. Reads past the end of
 * the range yield zero bytes (as laz-perf's zero padding does) and are counted
 * by `overrun`, so a truncated chunk can be told apart from a whole one.
 *
 * Models are created with `symbolModel`/`bitModel` (offsets into the arena)
 * and reset with `initSymbolModel`/`initBitModel`. `mark`/`release` drop the
 * models created after a mark (the lazily created ones of a chunk).
 */
export class ArithmeticDecoder {
  /** Coder state and models. Replaced (grown) when models are added; never cache it across a model creation. */
  m: Int32Array;
  private top = ARENA_HEADER;
  /** The chunk's bytes followed by PADDING zero bytes, so that 4 bytes can always be read at once. */
  private work = new Uint8Array(PADDING);
  private view = new DataView(this.work.buffer);
  /** Next byte to read in `work`. */
  private pos = 0;
  /** Bytes of real data in `work`. */
  private end = 0;

  constructor(capacity = 1 << 14) {
    this.m = new Int32Array(Math.max(capacity, ARENA_HEADER));
  }

  /** Creates a symbol model of `symbols` symbols (2..2^15) in its initial state. */
  symbolModel(symbols: number): number {
    const o = this.reserve(symbolModelSize(symbols));
    const m = this.m;
    m[o + M_SYMBOLS] = symbols;
    const size = tableSizeOf(symbols);
    m[o + M_TABLE_SIZE] = size;
    m[o + M_TABLE_SHIFT] = DM_LENGTH_SHIFT - Math.log2(size);
    this.initSymbolModel(o);
    return o;
  }

  /** Creates a bit model in its initial state. */
  bitModel(): number {
    const o = this.reserve(B_SIZE);
    this.initBitModel(o);
    return o;
  }

  /** The arena size now; models created after it can be dropped with `release`. */
  mark(): number {
    return this.top;
  }

  release(mark: number): void {
    this.top = mark;
  }

  private reserve(size: number): number {
    const o = this.top;
    if (o + size > this.m.length) {
      const grown = new Int32Array(Math.max(this.m.length * 2, o + size));
      grown.set(this.m);
      this.m = grown;
    }
    this.top = o + size;
    return o;
  }

  initBitModel(o: number): void {
    const m = this.m;
    m[o + B_BIT0_COUNT] = 1;
    m[o + B_BIT_COUNT] = 2;
    m[o + B_BIT0_PROB] = 1 << (BM_LENGTH_SHIFT - 1);
    m[o + B_UPDATE_CYCLE] = 4;
    m[o + B_UNTIL_UPDATE] = 4;
  }

  initSymbolModel(o: number): void {
    const m = this.m;
    const symbols = m[o + M_SYMBOLS]!;
    m.fill(1, o + M_HEADER + symbols, o + M_HEADER + 2 * symbols);
    m[o + M_TOTAL_COUNT] = 0;
    m[o + M_UPDATE_CYCLE] = symbols;
    this.updateSymbolModel(o);
    const cycle = (symbols + 6) >>> 1;
    m[o + M_UPDATE_CYCLE] = cycle;
    m[o + M_UNTIL_UPDATE] = cycle;
  }

  private updateBitModel(o: number): void {
    const m = this.m;
    let bitCount = m[o + B_BIT_COUNT]! + m[o + B_UPDATE_CYCLE]!;
    let bit0Count = m[o + B_BIT0_COUNT]!;
    if (bitCount > BM_MAX_COUNT) {
      bitCount = (bitCount + 1) >>> 1;
      bit0Count = (bit0Count + 1) >>> 1;
      if (bit0Count === bitCount) bitCount++;
    }
    const scale = (0x80000000 / bitCount) >>> 0;
    m[o + B_BIT_COUNT] = bitCount;
    m[o + B_BIT0_COUNT] = bit0Count;
    // bit0Count < bitCount, so the product stays below 2^31.
    m[o + B_BIT0_PROB] = Math.imul(bit0Count, scale) >>> (31 - BM_LENGTH_SHIFT);
    let cycle = (5 * m[o + B_UPDATE_CYCLE]!) >>> 2;
    if (cycle > 64) cycle = 64;
    m[o + B_UPDATE_CYCLE] = cycle;
    m[o + B_UNTIL_UPDATE] = cycle;
  }

  private updateSymbolModel(o: number): void {
    const m = this.m;
    const symbols = m[o + M_SYMBOLS]!;
    const dist = o + M_HEADER;
    const counts = dist + symbols;
    let total = m[o + M_TOTAL_COUNT]! + m[o + M_UPDATE_CYCLE]!;
    if (total > DM_MAX_COUNT) {
      total = 0;
      for (let n = counts; n < counts + symbols; n++) {
        const c = (m[n]! + 1) >>> 1;
        m[n] = c;
        total += c;
      }
    }
    m[o + M_TOTAL_COUNT] = total;
    const scale = (0x80000000 / total) >>> 0;
    let sum = 0;
    const shift = m[o + M_TABLE_SHIFT]!;
    const table = counts + symbols;
    const tableEnd = table + m[o + M_TABLE_SIZE]! + 1 + TABLE_OVERFLOW;
    let s = table;
    for (let k = 0; k < symbols; k++) {
      // scale * sum <= 2^31: the low 32 bits of the product are the product.
      const d = Math.imul(scale, sum) >>> (31 - DM_LENGTH_SHIFT);
      m[dist + k] = d;
      sum += m[counts + k]!;
      const w = table + (d >>> shift);
      while (s < w) m[++s] = k - 1;
    }
    m[table] = 0;
    while (s < tableEnd) m[++s] = symbols - 1;
    let cycle = (5 * m[o + M_UPDATE_CYCLE]!) >>> 2;
    const maxCycle = (symbols + 6) << 3;
    if (cycle > maxCycle) cycle = maxCycle;
    m[o + M_UPDATE_CYCLE] = cycle;
    m[o + M_UNTIL_UPDATE] = cycle;
  }

  /** Starts decoding `bytes[start..end)` (reads the 4 initial bytes). The bytes are copied. */
  init(bytes: Uint8Array, start: number, end: number): void {
    const data = bytes.subarray(Math.min(start, bytes.length), Math.min(end, bytes.length));
    if (this.work.length < data.length + PADDING) {
      this.work = new Uint8Array(data.length + PADDING + (data.length >>> 2));
      this.view = new DataView(this.work.buffer);
    }
    this.work.set(data);
    this.work.fill(0, data.length, data.length + PADDING);
    this.end = data.length;
    let v = this.view.getUint32(0);
    this.pos = 4;
    // A valid stream always starts below the full interval; clamping keeps the
    // invariant value < length (which bounds every table index) on garbage.
    if (v === 0xffffffff) v = 0xfffffffe;
    this.m[VALUE] = v;
    this.m[LENGTH] = 0xffffffff | 0;
  }

  /** Bytes read beyond the end of the data (zeros were used instead); saturates past the padding. */
  get overrun(): number {
    return this.pos > this.end ? this.pos - this.end : 0;
  }

  /**
   * Stores the new interval, renormalised without a branch: while the length
   * is below 2^24, LASzip shifts in one byte at a time; the number of bytes
   * is the length's leading zero bits / 8, and they are read as one word.
   * value < length, so value shifted like length cannot overflow.
   */
  private setInterval(value: number, length: number): void {
    const m = this.m;
    const shift = Math.clz32(length) & 0x18;
    const p = this.pos;
    // (w >>> 1) >>> (31 - shift) is w >>> (32 - shift), also for shift 0.
    const w = this.view.getUint32(p);
    m[VALUE] = (value << shift) | ((w >>> 1) >>> (31 - shift));
    m[LENGTH] = length << shift;
    // Past the data, stay inside the padding (all zeros) so a corrupt chunk cannot read out of bounds.
    this.pos = Math.min((p + (shift >>> 3)) | 0, (this.end + PADDING - 4) | 0);
  }

  // The hot methods below mark int32 index arithmetic with `| 0` (asm.js style) so
  // TurboFan drops the overflow checks it would otherwise emit.

  /** Decodes one bit with the bit model at offset `o`. */
  decodeBit(o: number): number {
    const m = this.m;
    let value = m[VALUE]! >>> 0;
    let length = m[LENGTH]! >>> 0;
    const x = Math.imul(m[(o + B_BIT0_PROB) | 0]!, length >>> BM_LENGTH_SHIFT) >>> 0;
    let sym = 0;
    if (value < x) {
      length = x;
      m[(o + B_BIT0_COUNT) | 0] = (m[(o + B_BIT0_COUNT) | 0]! + 1) | 0;
    } else {
      sym = 1;
      value = (value - x) >>> 0;
      length = (length - x) >>> 0;
    }
    this.setInterval(value, length);
    const until = (m[(o + B_UNTIL_UPDATE) | 0]! - 1) | 0;
    m[(o + B_UNTIL_UPDATE) | 0] = until;
    if (until === 0) this.updateBitModel(o);
    return sym;
  }

  /**
   * Decodes one symbol with the symbol model at offset `o`: the decoder table
   * gives the candidate symbols for the scaled value, a branch-free bisection
   * picks among them (usually there is one). Small enough for TurboFan to inline.
   */
  decodeSymbol(o: number): number {
    const m = this.m;
    const value = m[VALUE]! >>> 0;
    const fullLength = m[LENGTH]! >>> 0;
    const length = fullLength >>> DM_LENGTH_SHIFT;
    const symbols = m[(o + M_SYMBOLS) | 0]! | 0;
    const dist = (o + M_HEADER) | 0;
    const dv = (value / length) >>> 0;
    const t = (((dist + symbols) | 0) + symbols + (dv >>> m[(o + M_TABLE_SHIFT) | 0]!)) | 0;
    let sym = m[t]! | 0;
    let n = (m[(t + 1) | 0]! + 1) | 0;
    while (n > ((sym + 1) | 0)) {
      // gt is -1 when dist[k] > dv, else 0.
      const k = ((sym + n) | 0) >>> 1;
      const gt = (dv - m[(dist + k) | 0]!) >> 31;
      n = (n + ((k - n) & gt)) | 0;
      sym = (sym + ((k - sym) & ~gt)) | 0;
    }
    const x = Math.imul(m[(dist + sym) | 0]!, length) >>> 0;
    const y = sym !== ((symbols - 1) | 0) ? Math.imul(m[(dist + sym + 1) | 0]!, length) >>> 0 : fullLength;
    this.finishSymbol(o, sym, (value - x) >>> 0, (y - x) >>> 0);
    return sym;
  }

  /** Stores the new interval (renormalising it) and counts the symbol in its model. */
  private finishSymbol(o: number, sym: number, value: number, length: number): void {
    const m = this.m;
    this.setInterval(value, length);
    const count = (((o + M_HEADER) | 0) + ((m[(o + M_SYMBOLS) | 0]! + sym) | 0)) | 0;
    m[count] = (m[count]! + 1) | 0;
    const until = (m[(o + M_UNTIL_UPDATE) | 0]! - 1) | 0;
    m[(o + M_UNTIL_UPDATE) | 0] = until;
    if (until === 0) this.updateSymbolModel(o);
  }

  /** `bits` raw bits (1..32), as an unsigned integer. */
  readBits(bits: number): number {
    if (bits > 19) {
      const low = this.readShort();
      const high = this.readBits(bits - 16);
      return ((high << 16) | low) >>> 0;
    }
    const m = this.m;
    const value = m[VALUE]! >>> 0;
    const length = (m[LENGTH]! >>> 0) >>> bits;
    const sym = (value / length) >>> 0;
    const rest = (value - Math.imul(length, sym)) >>> 0;
    this.setInterval(rest, length);
    return sym;
  }

  /** 16 raw bits. */
  readShort(): number {
    const m = this.m;
    const value = m[VALUE]! >>> 0;
    const length = (m[LENGTH]! >>> 0) >>> 16;
    const sym = (value / length) >>> 0;
    this.setInterval((value - Math.imul(length, sym)) >>> 0, length);
    return sym;
  }

  /** 32 raw bits, low half first, as an unsigned integer. */
  readInt(): number {
    const low = this.readShort();
    const high = this.readShort();
    return ((high << 16) | low) >>> 0;
  }
}
