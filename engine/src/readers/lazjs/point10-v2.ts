import type { ArithmeticDecoder } from './arithmetic-decoder.js';
import { IntegerDecompressor } from './integer-decompressor.js';

/**
 * Context of a (number of returns, return number) pair: the correctly filled
 * pairs get 0..14, the odd ones (zero-based numbering, swapped fields) the rest.
 * LASzip's number_return_map, flattened as [n * 8 + r].
 */
const NUMBER_RETURN_MAP = Uint8Array.from([
  15, 14, 13, 12, 11, 10, 9, 8, 14, 0, 1, 3, 6, 10, 10, 9, 13, 1, 2, 4, 7, 11, 11, 10, 12, 3, 4, 5, 8, 12, 12, 11, 11,
  6, 7, 8, 9, 13, 13, 12, 10, 10, 11, 12, 13, 14, 14, 13, 9, 10, 11, 12, 13, 14, 15, 14, 8, 9, 10, 11, 12, 13, 14, 15,
]);

/** Height context of a (number of returns, return number) pair: |n - r| (LASzip's number_return_level). */
const NUMBER_RETURN_LEVEL = Uint8Array.from({ length: 64 }, (_, i) => Math.abs((i >>> 3) - (i & 7)));

/**
 * LASzip's StreamingMedian5: an approximate median of the last five values,
 * kept sorted with one insertion per value, alternating which end is dropped.
 */
export class Median5 {
  v0 = 0;
  v1 = 0;
  v2 = 0;
  v3 = 0;
  v4 = 0;
  high = true;

  init(): void {
    this.v0 = this.v1 = this.v2 = this.v3 = this.v4 = 0;
    this.high = true;
  }

  add(v: number): void {
    if (this.high) {
      if (v < this.v2) {
        this.v4 = this.v3;
        this.v3 = this.v2;
        if (v < this.v0) {
          this.v2 = this.v1;
          this.v1 = this.v0;
          this.v0 = v;
        } else if (v < this.v1) {
          this.v2 = this.v1;
          this.v1 = v;
        } else {
          this.v2 = v;
        }
      } else {
        if (v < this.v3) {
          this.v4 = this.v3;
          this.v3 = v;
        } else {
          this.v4 = v;
        }
        this.high = false;
      }
    } else if (this.v2 < v) {
      this.v0 = this.v1;
      this.v1 = this.v2;
      if (this.v4 < v) {
        this.v2 = this.v3;
        this.v3 = this.v4;
        this.v4 = v;
      } else if (this.v3 < v) {
        this.v2 = this.v3;
        this.v3 = v;
      } else {
        this.v2 = v;
      }
    } else {
      if (this.v1 < v) {
        this.v0 = this.v1;
        this.v1 = v;
      } else {
        this.v0 = v;
      }
      this.high = true;
    }
  }
}

/**
 * POINT10 version 2 (LASreadItemCompressed_POINT10_v2): the 20 bytes common
 * to point formats 0-5. X and Y are predicted by the streaming median of the
 * last differences of the same return context, Z by the last Z of the same
 * return level; the other fields are coded only when a "changed" bit says so.
 */
export class Point10Decoder {
  // The last point, field by field.
  private x = 0;
  private y = 0;
  private z = 0;
  private intensity = 0;
  private bitByte = 0;
  private classification = 0;
  private scanAngle = 0;
  private userData = 0;
  private pointSourceId = 0;

  private readonly lastXDiff: Median5[] = Array.from({ length: 16 }, () => new Median5());
  private readonly lastYDiff: Median5[] = Array.from({ length: 16 }, () => new Median5());
  private readonly lastIntensity = new Uint16Array(16);
  private readonly lastHeight = new Int32Array(8);

  private readonly mChangedValues: number;
  private readonly mScanAngle: Int32Array;
  // Models by previous byte value (arena offsets, -1 until first use), created
  // lazily as LASzip does; the chunk decoder drops them at each chunk start, which
  // equals LASzip's reset since a new model starts in the reset state.
  private readonly mBitByte = new Int32Array(256).fill(-1);
  private readonly mClassification = new Int32Array(256).fill(-1);
  private readonly mUserData = new Int32Array(256).fill(-1);
  private readonly icIntensity: IntegerDecompressor;
  private readonly icPointSourceId: IntegerDecompressor;
  private readonly icDx: IntegerDecompressor;
  private readonly icDy: IntegerDecompressor;
  private readonly icZ: IntegerDecompressor;

  constructor(private readonly dec: ArithmeticDecoder) {
    this.mChangedValues = dec.symbolModel(64);
    this.mScanAngle = Int32Array.of(dec.symbolModel(256), dec.symbolModel(256));
    this.icIntensity = new IntegerDecompressor(dec, 16, 4);
    this.icPointSourceId = new IntegerDecompressor(dec, 16, 1);
    this.icDx = new IntegerDecompressor(dec, 32, 2);
    this.icDy = new IntegerDecompressor(dec, 32, 22);
    this.icZ = new IntegerDecompressor(dec, 32, 20);
  }

  /** Starts a chunk from its first point, stored raw at `item[at..at+20)`. The caller drops the lazy models from the arena. */
  init(item: Uint8Array, at: number): void {
    for (let i = 0; i < 16; i++) {
      this.lastXDiff[i]!.init();
      this.lastYDiff[i]!.init();
    }
    this.lastIntensity.fill(0);
    this.lastHeight.fill(0);
    const dec = this.dec;
    dec.initSymbolModel(this.mChangedValues);
    dec.initSymbolModel(this.mScanAngle[0]!);
    dec.initSymbolModel(this.mScanAngle[1]!);
    this.mBitByte.fill(-1);
    this.mClassification.fill(-1);
    this.mUserData.fill(-1);
    this.icIntensity.init();
    this.icPointSourceId.init();
    this.icDx.init();
    this.icDy.init();
    this.icZ.init();
    this.x = item[at]! | (item[at + 1]! << 8) | (item[at + 2]! << 16) | (item[at + 3]! << 24);
    this.y = item[at + 4]! | (item[at + 5]! << 8) | (item[at + 6]! << 16) | (item[at + 7]! << 24);
    this.z = item[at + 8]! | (item[at + 9]! << 8) | (item[at + 10]! << 16) | (item[at + 11]! << 24);
    // LASzip starts from intensity 0, not the first point's.
    this.intensity = 0;
    this.bitByte = item[at + 14]!;
    this.classification = item[at + 15]!;
    this.scanAngle = item[at + 16]!;
    this.userData = item[at + 17]!;
    this.pointSourceId = item[at + 18]! | (item[at + 19]! << 8);
  }

  /** Decodes the next point into `out[at..at+20)`. */
  read(out: Uint8Array, at: number): void {
    const dec = this.dec;
    const changed = dec.decodeSymbol(this.mChangedValues);
    let r: number;
    let n: number;
    let m: number;
    if (changed !== 0) {
      if (changed & 32) {
        const models = this.mBitByte;
        const prev = this.bitByte;
        let model = models[prev]!;
        if (model < 0) {
          model = dec.symbolModel(256);
          models[prev] = model;
        }
        this.bitByte = dec.decodeSymbol(model);
      }
      r = this.bitByte & 7;
      n = (this.bitByte >>> 3) & 7;
      m = NUMBER_RETURN_MAP[(n << 3) | r]!;
      if (changed & 16) {
        this.intensity = this.icIntensity.decompress(this.lastIntensity[m]!, m < 3 ? m : 3);
        this.lastIntensity[m] = this.intensity;
      } else {
        this.intensity = this.lastIntensity[m]!;
      }
      if (changed & 8) {
        const models = this.mClassification;
        const prev = this.classification;
        let model = models[prev]!;
        if (model < 0) {
          model = dec.symbolModel(256);
          models[prev] = model;
        }
        this.classification = dec.decodeSymbol(model);
      }
      if (changed & 4) {
        const v = dec.decodeSymbol(this.mScanAngle[(this.bitByte >>> 6) & 1]!);
        this.scanAngle = (v + this.scanAngle) & 0xff;
      }
      if (changed & 2) {
        const models = this.mUserData;
        const prev = this.userData;
        let model = models[prev]!;
        if (model < 0) {
          model = dec.symbolModel(256);
          models[prev] = model;
        }
        this.userData = dec.decodeSymbol(model);
      }
      if (changed & 1) {
        this.pointSourceId = this.icPointSourceId.decompress(this.pointSourceId, 0);
      }
    } else {
      r = this.bitByte & 7;
      n = (this.bitByte >>> 3) & 7;
      m = NUMBER_RETURN_MAP[(n << 3) | r]!;
    }
    const single = n === 1 ? 1 : 0;

    const mx = this.lastXDiff[m]!;
    const dx = this.icDx.decompress(mx.v2, single);
    this.x = (this.x + dx) | 0;
    mx.add(dx);

    const my = this.lastYDiff[m]!;
    let k = this.icDx.k;
    const dy = this.icDy.decompress(my.v2, single + (k < 20 ? k & ~1 : 20));
    this.y = (this.y + dy) | 0;
    my.add(dy);

    k = (this.icDx.k + this.icDy.k) >>> 1;
    const l = NUMBER_RETURN_LEVEL[(n << 3) | r]!;
    this.z = this.icZ.decompress(this.lastHeight[l]!, single + (k < 18 ? k & ~1 : 18));
    this.lastHeight[l] = this.z;

    const x = this.x;
    const y = this.y;
    const z = this.z;
    out[at] = x;
    out[at + 1] = x >> 8;
    out[at + 2] = x >> 16;
    out[at + 3] = x >> 24;
    out[at + 4] = y;
    out[at + 5] = y >> 8;
    out[at + 6] = y >> 16;
    out[at + 7] = y >> 24;
    out[at + 8] = z;
    out[at + 9] = z >> 8;
    out[at + 10] = z >> 16;
    out[at + 11] = z >> 24;
    out[at + 12] = this.intensity;
    out[at + 13] = this.intensity >> 8;
    out[at + 14] = this.bitByte;
    out[at + 15] = this.classification;
    out[at + 16] = this.scanAngle;
    out[at + 17] = this.userData;
    out[at + 18] = this.pointSourceId;
    out[at + 19] = this.pointSourceId >> 8;
  }
}
