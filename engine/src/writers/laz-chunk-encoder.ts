// LASzip's point-wise chunk encoder for point formats 0-3 (arithmeticencoder.cpp,
// integercompressor.cpp, laswriteitemcompressed_v2.cpp), written plainly with
// object models: the LAZ writer of clips (laz.writer.ts) and the decoder tests
// use it; laz-perf (the reference decoder) checks what it makes. About 4 µs a
// point: fine for clips, not for whole-cloud outputs.

import { ArithmeticEncoder, IntegerCompressor, SymbolModel } from './laz-encoder.js';

const NUMBER_RETURN_MAP = [
  [15, 14, 13, 12, 11, 10, 9, 8],
  [14, 0, 1, 3, 6, 10, 10, 9],
  [13, 1, 2, 4, 7, 11, 11, 10],
  [12, 3, 4, 5, 8, 12, 12, 11],
  [11, 6, 7, 8, 9, 13, 13, 12],
  [10, 10, 11, 12, 13, 14, 14, 13],
  [9, 10, 11, 12, 13, 14, 15, 14],
  [8, 9, 10, 11, 12, 13, 14, 15],
];

class Median5 {
  values = [0, 0, 0, 0, 0];
  high = true;
  add(v: number): void {
    const a = this.values;
    if (this.high) {
      if (v < a[2]!) {
        a[4] = a[3]!;
        a[3] = a[2]!;
        if (v < a[0]!) {
          a[2] = a[1]!;
          a[1] = a[0]!;
          a[0] = v;
        } else if (v < a[1]!) {
          a[2] = a[1]!;
          a[1] = v;
        } else a[2] = v;
      } else {
        if (v < a[3]!) {
          a[4] = a[3]!;
          a[3] = v;
        } else a[4] = v;
        this.high = false;
      }
    } else if (a[2]! < v) {
      a[0] = a[1]!;
      a[1] = a[2]!;
      if (a[4]! < v) {
        a[2] = a[3]!;
        a[3] = a[4]!;
        a[4] = v;
      } else if (a[3]! < v) {
        a[2] = a[3]!;
        a[3] = v;
      } else a[2] = v;
    } else {
      if (a[1]! < v) {
        a[0] = a[1]!;
        a[1] = v;
      } else a[0] = v;
      this.high = true;
    }
  }
}

class Point10Writer {
  private last: DataView;
  private readonly lastXDiff = Array.from({ length: 16 }, () => new Median5());
  private readonly lastYDiff = Array.from({ length: 16 }, () => new Median5());
  private readonly lastIntensity = new Array(16).fill(0);
  private readonly lastHeight = new Array(8).fill(0);
  private readonly mChanged = new SymbolModel(64);
  private readonly icIntensity: IntegerCompressor;
  private readonly mScanAngle = [new SymbolModel(256), new SymbolModel(256)];
  private readonly icPointSourceId: IntegerCompressor;
  private readonly mBitByte = new Map<number, SymbolModel>();
  private readonly mClassification = new Map<number, SymbolModel>();
  private readonly mUserData = new Map<number, SymbolModel>();
  private readonly icDx: IntegerCompressor;
  private readonly icDy: IntegerCompressor;
  private readonly icZ: IntegerCompressor;

  constructor(
    private readonly enc: ArithmeticEncoder,
    first: Uint8Array,
  ) {
    this.icIntensity = new IntegerCompressor(enc, 16, 4);
    this.icPointSourceId = new IntegerCompressor(enc, 16, 1);
    this.icDx = new IntegerCompressor(enc, 32, 2);
    this.icDy = new IntegerCompressor(enc, 32, 22);
    this.icZ = new IntegerCompressor(enc, 32, 20);
    const copy = first.slice(0, 20);
    copy[12] = 0;
    copy[13] = 0;
    this.last = new DataView(copy.buffer);
  }

  private model(map: Map<number, SymbolModel>, key: number): SymbolModel {
    let m = map.get(key);
    if (!m) {
      m = new SymbolModel(256);
      map.set(key, m);
    }
    return m;
  }

  write(item: Uint8Array): void {
    const enc = this.enc;
    const p = new DataView(item.buffer, item.byteOffset, 20);
    const last = this.last;
    const r = item[14]! & 7;
    const n = (item[14]! >> 3) & 7;
    const m = NUMBER_RETURN_MAP[n]![r]!;
    const l = Math.abs(n - r);
    const intensity = p.getUint16(12, true);
    const changed =
      (Number(last.getUint8(14) !== item[14]) << 5) |
      (Number(this.lastIntensity[m] !== intensity) << 4) |
      (Number(last.getUint8(15) !== item[15]) << 3) |
      (Number(last.getUint8(16) !== item[16]) << 2) |
      (Number(last.getUint8(17) !== item[17]) << 1) |
      Number(last.getUint16(18, true) !== p.getUint16(18, true));
    enc.encodeSymbol(this.mChanged, changed);
    if (changed & 32) enc.encodeSymbol(this.model(this.mBitByte, last.getUint8(14)), item[14]!);
    if (changed & 16) {
      this.icIntensity.compress(this.lastIntensity[m], intensity, m < 3 ? m : 3);
      this.lastIntensity[m] = intensity;
    }
    if (changed & 8) enc.encodeSymbol(this.model(this.mClassification, last.getUint8(15)), item[15]!);
    if (changed & 4) enc.encodeSymbol(this.mScanAngle[(item[14]! >> 6) & 1]!, (item[16]! - last.getUint8(16)) & 0xff);
    if (changed & 2) enc.encodeSymbol(this.model(this.mUserData, last.getUint8(17)), item[17]!);
    if (changed & 1) this.icPointSourceId.compress(last.getUint16(18, true), p.getUint16(18, true), 0);
    const single = n === 1 ? 1 : 0;
    const mx = this.lastXDiff[m]!;
    const dx = (p.getInt32(0, true) - last.getInt32(0, true)) | 0;
    this.icDx.compress(mx.values[2]!, dx, single);
    mx.add(dx);
    let k = this.icDx.k;
    const my = this.lastYDiff[m]!;
    const dy = (p.getInt32(4, true) - last.getInt32(4, true)) | 0;
    this.icDy.compress(my.values[2]!, dy, single + (k < 20 ? k & ~1 : 20));
    my.add(dy);
    k = (this.icDx.k + this.icDy.k) >>> 1;
    const z = p.getInt32(8, true);
    this.icZ.compress(this.lastHeight[l], z, single + (k < 18 ? k & ~1 : 18));
    this.lastHeight[l] = z;
    this.last = new DataView(item.slice(0, 20).buffer);
  }
}

const MULTI = 500;
const MULTI_MINUS = -10;
const MULTI_UNCHANGED = MULTI - MULTI_MINUS + 1;
const MULTI_CODE_FULL = MULTI - MULTI_MINUS + 2;
const MULTI_TOTAL = MULTI - MULTI_MINUS + 6;

class GpsTime11Writer {
  private last = 0;
  private next = 0;
  private readonly lastGps: bigint[];
  private readonly lastDiff = [0, 0, 0, 0];
  private readonly extreme = [0, 0, 0, 0];
  private readonly mMulti = new SymbolModel(MULTI_TOTAL);
  private readonly m0Diff = new SymbolModel(6);
  private readonly ic: IntegerCompressor;

  constructor(
    private readonly enc: ArithmeticEncoder,
    first: Uint8Array,
  ) {
    this.ic = new IntegerCompressor(enc, 32, 9);
    this.lastGps = [new DataView(first.buffer, first.byteOffset, 8).getBigInt64(0, true), 0n, 0n, 0n];
  }

  private countExtreme(diff: number): void {
    this.extreme[this.last]!++;
    if (this.extreme[this.last]! > 3) {
      this.lastDiff[this.last] = diff;
      this.extreme[this.last] = 0;
    }
  }

  private fits32(v: bigint): boolean {
    return v >= -0x80000000n && v <= 0x7fffffffn;
  }

  private full(t: bigint, model: SymbolModel, code: number): void {
    this.enc.encodeSymbol(model, code);
    const high = (x: bigint) => Number(BigInt.asIntN(32, x >> 32n));
    this.ic.compress(high(this.lastGps[this.last]!), high(t), 8);
    this.enc.writeInt(Number(BigInt.asUintN(32, t)));
    this.next = (this.next + 1) & 3;
    this.last = this.next;
    this.lastDiff[this.last] = 0;
    this.extreme[this.last] = 0;
  }

  write(item: Uint8Array): void {
    const enc = this.enc;
    const t = new DataView(item.buffer, item.byteOffset, 8).getBigInt64(0, true);
    const last = this.last;
    const diff64 = t - this.lastGps[last]!;
    if (this.lastDiff[last] === 0) {
      if (diff64 === 0n) {
        enc.encodeSymbol(this.m0Diff, 0);
        return;
      }
      if (this.fits32(diff64)) {
        const diff = Number(diff64);
        enc.encodeSymbol(this.m0Diff, 1);
        this.ic.compress(0, diff, 0);
        this.lastDiff[last] = diff;
        this.extreme[last] = 0;
      } else {
        for (let i = 1; i < 4; i++) {
          if (this.fits32(t - this.lastGps[(last + i) & 3]!)) {
            enc.encodeSymbol(this.m0Diff, i + 2);
            this.last = (last + i) & 3;
            this.write(item);
            return;
          }
        }
        this.full(t, this.m0Diff, 2);
      }
      this.lastGps[this.last] = t;
      return;
    }
    if (diff64 === 0n) {
      enc.encodeSymbol(this.mMulti, MULTI_UNCHANGED);
      return;
    }
    if (!this.fits32(diff64)) {
      for (let i = 1; i < 4; i++) {
        if (this.fits32(t - this.lastGps[(last + i) & 3]!)) {
          enc.encodeSymbol(this.mMulti, MULTI_CODE_FULL + i);
          this.last = (last + i) & 3;
          this.write(item);
          return;
        }
      }
      this.full(t, this.mMulti, MULTI_CODE_FULL);
      this.lastGps[this.last] = t;
      return;
    }
    const diff = Number(diff64);
    const lastDiff = this.lastDiff[last]!;
    const f = Math.fround(Math.fround(diff) / Math.fround(lastDiff));
    const multi = f >= 0 ? Math.trunc(Math.fround(f + 0.5)) : Math.trunc(Math.fround(f - 0.5));
    if (multi === 1) {
      enc.encodeSymbol(this.mMulti, 1);
      this.ic.compress(lastDiff, diff, 1);
      this.extreme[last] = 0;
    } else if (multi > 0) {
      if (multi < MULTI) {
        enc.encodeSymbol(this.mMulti, multi);
        this.ic.compress(Math.imul(multi, lastDiff), diff, multi < 10 ? 2 : 3);
      } else {
        enc.encodeSymbol(this.mMulti, MULTI);
        this.ic.compress(Math.imul(MULTI, lastDiff), diff, 4);
        this.countExtreme(diff);
      }
    } else if (multi < 0) {
      if (multi > MULTI_MINUS) {
        enc.encodeSymbol(this.mMulti, MULTI - multi);
        this.ic.compress(Math.imul(multi, lastDiff), diff, 5);
      } else {
        enc.encodeSymbol(this.mMulti, MULTI - MULTI_MINUS);
        this.ic.compress(Math.imul(MULTI_MINUS, lastDiff), diff, 6);
        this.countExtreme(diff);
      }
    } else {
      enc.encodeSymbol(this.mMulti, 0);
      this.ic.compress(0, diff, 7);
      this.countExtreme(diff);
    }
    this.lastGps[last] = t;
  }
}

const fold = (n: number) => n & 0xff;
const clamp = (n: number) => (n < 0 ? 0 : n > 255 ? 255 : n);

class Rgb12Writer {
  private last: number[];
  private readonly mByteUsed = new SymbolModel(128);
  private readonly mDiff = Array.from({ length: 6 }, () => new SymbolModel(256));

  constructor(
    private readonly enc: ArithmeticEncoder,
    first: Uint8Array,
  ) {
    this.last = [0, 1, 2].map((i) => first[2 * i]! | (first[2 * i + 1]! << 8));
  }

  write(item: Uint8Array): void {
    const enc = this.enc;
    const c = [0, 1, 2].map((i) => item[2 * i]! | (item[2 * i + 1]! << 8));
    const [r, g, b] = c as [number, number, number];
    const [lr, lg, lb] = this.last as [number, number, number];
    let sym = 0;
    sym |= Number((lr & 0xff) !== (r & 0xff));
    sym |= Number((lr & 0xff00) !== (r & 0xff00)) << 1;
    sym |= Number((lg & 0xff) !== (g & 0xff)) << 2;
    sym |= Number((lg & 0xff00) !== (g & 0xff00)) << 3;
    sym |= Number((lb & 0xff) !== (b & 0xff)) << 4;
    sym |= Number((lb & 0xff00) !== (b & 0xff00)) << 5;
    sym |= Number(r !== g || r !== b) << 6;
    enc.encodeSymbol(this.mByteUsed, sym);
    let diffL = 0;
    let diffH = 0;
    if (sym & 1) {
      diffL = (r & 0xff) - (lr & 0xff);
      enc.encodeSymbol(this.mDiff[0]!, fold(diffL));
    }
    if (sym & 2) {
      diffH = (r >> 8) - (lr >> 8);
      enc.encodeSymbol(this.mDiff[1]!, fold(diffH));
    }
    if (sym & 64) {
      if (sym & 4) enc.encodeSymbol(this.mDiff[2]!, fold((g & 0xff) - clamp(diffL + (lg & 0xff))));
      if (sym & 16) {
        diffL = Math.trunc((diffL + (g & 0xff) - (lg & 0xff)) / 2);
        enc.encodeSymbol(this.mDiff[4]!, fold((b & 0xff) - clamp(diffL + (lb & 0xff))));
      }
      if (sym & 8) enc.encodeSymbol(this.mDiff[3]!, fold((g >> 8) - clamp(diffH + (lg >> 8))));
      if (sym & 32) {
        diffH = Math.trunc((diffH + (g >> 8) - (lg >> 8)) / 2);
        enc.encodeSymbol(this.mDiff[5]!, fold((b >> 8) - clamp(diffH + (lb >> 8))));
      }
    }
    this.last = c;
  }
}

class ByteWriter {
  private last: Uint8Array;
  private readonly models: SymbolModel[];

  constructor(
    private readonly enc: ArithmeticEncoder,
    first: Uint8Array,
  ) {
    this.last = first.slice();
    this.models = Array.from({ length: first.length }, () => new SymbolModel(256));
  }

  write(item: Uint8Array): void {
    for (let i = 0; i < this.last.length; i++) this.enc.encodeSymbol(this.models[i]!, fold(item[i]! - this.last[i]!));
    this.last = item.slice();
  }
}

/**
 * Compresses `pointCount` raw records of point format 0-3 into one LASzip
 * point-wise chunk (compressor 2, items version 2): the first record raw, then
 * the arithmetic-coded rest.
 */
export function encodeChunk(
  records: Uint8Array,
  pointFormat: number,
  recordLength: number,
  pointCount: number,
): Uint8Array {
  const base = [20, 28, 26, 34][pointFormat];
  if (base === undefined || recordLength < base) throw new Error(`cannot encode point format ${pointFormat}`);
  const hasGps = pointFormat === 1 || pointFormat === 3;
  const hasRgb = pointFormat >= 2;
  const rgbAt = hasGps ? 28 : 20;
  const record = (i: number) => records.subarray(i * recordLength, (i + 1) * recordLength);
  const enc = new ArithmeticEncoder();
  const first = record(0);
  const point10 = new Point10Writer(enc, first);
  const gps = hasGps ? new GpsTime11Writer(enc, first.subarray(20, 28)) : null;
  const rgb = hasRgb ? new Rgb12Writer(enc, first.subarray(rgbAt, rgbAt + 6)) : null;
  const extra = recordLength > base ? new ByteWriter(enc, first.subarray(base, recordLength)) : null;
  for (let i = 1; i < pointCount; i++) {
    const item = record(i);
    point10.write(item);
    gps?.write(item.subarray(20, 28));
    rgb?.write(item.subarray(rgbAt, rgbAt + 6));
    extra?.write(item.subarray(base, recordLength));
  }
  enc.done();
  const out = new Uint8Array(recordLength + enc.out.length);
  out.set(first);
  out.set(enc.out, recordLength);
  return out;
}
