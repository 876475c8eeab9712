import type { ArithmeticDecoder } from './arithmetic-decoder.js';
import { IntegerDecompressor } from './integer-decompressor.js';

const MULTI = 500;
const MULTI_MINUS = -10;
const MULTI_UNCHANGED = MULTI - MULTI_MINUS + 1;
const MULTI_CODE_FULL = MULTI - MULTI_MINUS + 2;
const MULTI_TOTAL = MULTI - MULTI_MINUS + 6;

/**
 * GPSTIME11 version 2 (LASreadItemCompressed_GPSTIME11_v2). GPS time is
 * coded on its 64-bit pattern as an integer: up to four interleaved
 * sequences, each predicted as a multiple of its last difference. The 64-bit
 * values are kept as two int32 halves.
 */
export class GpsTime11Decoder {
  private last = 0;
  private next = 0;
  private readonly high = new Int32Array(4);
  private readonly low = new Int32Array(4);
  private readonly lastDiff = new Int32Array(4);
  private readonly multiExtremeCounter = new Int32Array(4);
  private readonly mMulti: number;
  private readonly m0Diff: number;
  private readonly ic: IntegerDecompressor;

  constructor(private readonly dec: ArithmeticDecoder) {
    this.mMulti = dec.symbolModel(MULTI_TOTAL);
    this.m0Diff = dec.symbolModel(6);
    this.ic = new IntegerDecompressor(dec, 32, 9);
  }

  /** Starts a chunk from its first point's raw GPS time at `item[at..at+8)`. */
  init(item: Uint8Array, at: number): void {
    this.last = 0;
    this.next = 0;
    this.lastDiff.fill(0);
    this.multiExtremeCounter.fill(0);
    this.dec.initSymbolModel(this.mMulti);
    this.dec.initSymbolModel(this.m0Diff);
    this.ic.init();
    this.high.fill(0);
    this.low.fill(0);
    this.low[0] = item[at]! | (item[at + 1]! << 8) | (item[at + 2]! << 16) | (item[at + 3]! << 24);
    this.high[0] = item[at + 4]! | (item[at + 5]! << 8) | (item[at + 6]! << 16) | (item[at + 7]! << 24);
  }

  /** Adds a signed 32-bit difference to sequence `i` (64-bit two's complement). */
  private add(i: number, diff: number): void {
    const low = this.low[i]! >>> 0;
    const sum = low + diff;
    // sum is in (-2^31, 2^33): the carry into the high half is floor(sum / 2^32).
    const carry = Math.floor(sum / 0x100000000);
    this.low[i] = sum | 0;
    this.high[i] = (this.high[i]! + carry) | 0;
  }

  /** A new sequence: high half coded against the current one's, low half raw. */
  private readFull(): void {
    const next = (this.next + 1) & 3;
    this.next = next;
    this.high[next] = this.ic.decompress(this.high[this.last]!, 8);
    this.low[next] = this.dec.readInt() | 0;
    this.last = next;
    this.lastDiff[next] = 0;
    this.multiExtremeCounter[next] = 0;
  }

  private decode(): void {
    const dec = this.dec;
    const ic = this.ic;
    // A switch to another sequence codes that sequence's point next; LASzip recurses, this loops.
    // A valid stream never switches twice in a row, so garbage cannot spin here.
    for (let switches = 0; ; switches++) {
      if (switches > 4) throw new Error('corrupt GPS time stream: endless sequence switches');
      const last = this.last;
      if (this.lastDiff[last] === 0) {
        const multi = dec.decodeSymbol(this.m0Diff);
        if (multi === 1) {
          const diff = ic.decompress(0, 0);
          this.lastDiff[last] = diff;
          this.add(last, diff);
          this.multiExtremeCounter[last] = 0;
        } else if (multi === 2) {
          this.readFull();
        } else if (multi > 2) {
          this.last = (last + multi - 2) & 3;
          continue;
        }
        return;
      }
      const multi = dec.decodeSymbol(this.mMulti);
      const lastDiff = this.lastDiff[last]!;
      if (multi === 1) {
        this.add(last, ic.decompress(lastDiff, 1));
        this.multiExtremeCounter[last] = 0;
      } else if (multi < MULTI_UNCHANGED) {
        let diff: number;
        if (multi === 0) {
          diff = ic.decompress(0, 7);
          this.countExtreme(last, diff);
        } else if (multi < MULTI) {
          diff = ic.decompress(Math.imul(multi, lastDiff), multi < 10 ? 2 : 3);
        } else if (multi === MULTI) {
          diff = ic.decompress(Math.imul(MULTI, lastDiff), 4);
          this.countExtreme(last, diff);
        } else {
          const minus = MULTI - multi;
          if (minus > MULTI_MINUS) {
            diff = ic.decompress(Math.imul(minus, lastDiff), 5);
          } else {
            diff = ic.decompress(Math.imul(MULTI_MINUS, lastDiff), 6);
            this.countExtreme(last, diff);
          }
        }
        this.add(last, diff);
      } else if (multi === MULTI_CODE_FULL) {
        this.readFull();
      } else if (multi > MULTI_CODE_FULL) {
        this.last = (last + multi - MULTI_CODE_FULL) & 3;
        continue;
      }
      // multi === MULTI_UNCHANGED: the time repeats.
      return;
    }
  }

  /** After more than three extreme multiples in a row, the last difference becomes the new step. */
  private countExtreme(last: number, diff: number): void {
    const count = this.multiExtremeCounter[last]! + 1;
    if (count > 3) {
      this.lastDiff[last] = diff;
      this.multiExtremeCounter[last] = 0;
    } else {
      this.multiExtremeCounter[last] = count;
    }
  }

  /** Decodes the next GPS time into `out[at..at+8)`. */
  read(out: Uint8Array, at: number): void {
    this.decode();
    const low = this.low[this.last]!;
    const high = this.high[this.last]!;
    out[at] = low;
    out[at + 1] = low >> 8;
    out[at + 2] = low >> 16;
    out[at + 3] = low >> 24;
    out[at + 4] = high;
    out[at + 5] = high >> 8;
    out[at + 6] = high >> 16;
    out[at + 7] = high >> 24;
  }
}
