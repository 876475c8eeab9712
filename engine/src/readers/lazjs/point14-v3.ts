import { ArithmeticDecoder } from './arithmetic-decoder.js';
import { IntegerDecompressor } from './integer-decompressor.js';
import { Median5 } from './point10-v2.js';

/** Return-map context (0-5) of a (number of returns, return number) pair: LASzip's number_return_map_6ctx as [n * 16 + r]. */
const NUMBER_RETURN_MAP_6CTX = Uint8Array.from([
  0, 1, 2, 3, 4, 5, 3, 4, 4, 5, 5, 5, 5, 5, 5, 5, 1, 0, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 1, 2, 4, 4, 4, 4,
  4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4,
  4, 4, 5, 3, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4, 4, 4,
  4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 5, 3, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4,
  4, 4, 4, 4, 5, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 4, 4, 4, 5, 3, 3,
  4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4, 4, 5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4, 5, 3, 3, 4, 4, 4, 4, 4, 4, 4,
  4, 4, 4, 5, 5, 5, 5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5,
]);

/** Penetration level of a (number of returns, return number) pair, capped at 7: LASzip's number_return_level_8ctx. */
const NUMBER_RETURN_LEVEL_8CTX = Uint8Array.from({ length: 256 }, (_, i) =>
  Math.min(Math.abs((i >>> 4) - (i & 15)), 7),
);

const MULTI = 500;
const MULTI_MINUS = -10;
const MULTI_CODE_FULL = MULTI - MULTI_MINUS + 1;
const MULTI_TOTAL = MULTI - MULTI_MINUS + 5;

/** The layers of a POINT14 item, in their order in the chunk. */
const Layer = {
  ChannelReturnsXY: 0,
  Z: 1,
  Classification: 2,
  Flags: 3,
  Intensity: 4,
  ScanAngle: 5,
  UserData: 6,
  PointSource: 7,
  GpsTime: 8,
} as const;
export const POINT14_LAYERS = 9;

/** The fields of a point (LASzip's LASpoint14, without the legacy copies the output does not need). */
class Point14 {
  x = 0;
  y = 0;
  z = 0;
  intensity = 0;
  returnNumber = 0;
  numberOfReturns = 0;
  classificationFlags = 0;
  scannerChannel = 0;
  scanDirection = 0;
  edgeOfFlightLine = 0;
  classification = 0;
  userData = 0;
  /** Signed 16-bit. */
  scanAngle = 0;
  pointSourceId = 0;
  gpsLow = 0;
  gpsHigh = 0;
  gpsTimeChange = false;

  copy(from: Point14): void {
    this.x = from.x;
    this.y = from.y;
    this.z = from.z;
    this.intensity = from.intensity;
    this.returnNumber = from.returnNumber;
    this.numberOfReturns = from.numberOfReturns;
    this.classificationFlags = from.classificationFlags;
    this.scannerChannel = from.scannerChannel;
    this.scanDirection = from.scanDirection;
    this.edgeOfFlightLine = from.edgeOfFlightLine;
    this.classification = from.classification;
    this.userData = from.userData;
    this.scanAngle = from.scanAngle;
    this.pointSourceId = from.pointSourceId;
    this.gpsLow = from.gpsLow;
    this.gpsHigh = from.gpsHigh;
    this.gpsTimeChange = from.gpsTimeChange;
  }

  /** From the 30 bytes of a point format 6-10 record. */
  parse(b: Uint8Array, at: number): void {
    this.x = b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
    this.y = b[at + 4]! | (b[at + 5]! << 8) | (b[at + 6]! << 16) | (b[at + 7]! << 24);
    this.z = b[at + 8]! | (b[at + 9]! << 8) | (b[at + 10]! << 16) | (b[at + 11]! << 24);
    this.intensity = b[at + 12]! | (b[at + 13]! << 8);
    this.returnNumber = b[at + 14]! & 15;
    this.numberOfReturns = b[at + 14]! >>> 4;
    this.classificationFlags = b[at + 15]! & 15;
    this.scannerChannel = (b[at + 15]! >>> 4) & 3;
    this.scanDirection = (b[at + 15]! >>> 6) & 1;
    this.edgeOfFlightLine = b[at + 15]! >>> 7;
    this.classification = b[at + 16]!;
    this.userData = b[at + 17]!;
    this.scanAngle = ((b[at + 18]! | (b[at + 19]! << 8)) << 16) >> 16;
    this.pointSourceId = b[at + 20]! | (b[at + 21]! << 8);
    this.gpsLow = b[at + 22]! | (b[at + 23]! << 8) | (b[at + 24]! << 16) | (b[at + 25]! << 24);
    this.gpsHigh = b[at + 26]! | (b[at + 27]! << 8) | (b[at + 28]! << 16) | (b[at + 29]! << 24);
  }

  write(out: Uint8Array, at: number): void {
    const { x, y, z } = this;
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
    out[at + 14] = this.returnNumber | (this.numberOfReturns << 4);
    out[at + 15] =
      this.classificationFlags | (this.scannerChannel << 4) | (this.scanDirection << 6) | (this.edgeOfFlightLine << 7);
    out[at + 16] = this.classification;
    out[at + 17] = this.userData;
    out[at + 18] = this.scanAngle;
    out[at + 19] = this.scanAngle >> 8;
    out[at + 20] = this.pointSourceId;
    out[at + 21] = this.pointSourceId >> 8;
    const low = this.gpsLow;
    const high = this.gpsHigh;
    out[at + 22] = low;
    out[at + 23] = low >> 8;
    out[at + 24] = low >> 16;
    out[at + 25] = low >> 24;
    out[at + 26] = high;
    out[at + 27] = high >> 8;
    out[at + 28] = high >> 16;
    out[at + 29] = high >> 24;
  }
}

/** Per scanner channel state and models (LASzip's LAScontextPOINT14); models are created on first use and kept. */
class Context {
  unused = true;
  created = false;
  readonly last = new Point14();
  readonly lastIntensity = new Uint16Array(8);
  readonly lastXDiff = Array.from({ length: 12 }, () => new Median5());
  readonly lastYDiff = Array.from({ length: 12 }, () => new Median5());
  readonly lastZ = new Int32Array(8);

  mChangedValues = new Int32Array(8);
  mScannerChannel = 0;
  readonly mNumberOfReturns = new Int32Array(16).fill(-1);
  readonly mReturnNumber = new Int32Array(16).fill(-1);
  mReturnNumberGpsSame = 0;
  icDx!: IntegerDecompressor;
  icDy!: IntegerDecompressor;
  icZ!: IntegerDecompressor;
  readonly mClassification = new Int32Array(64).fill(-1);
  readonly mFlags = new Int32Array(64).fill(-1);
  readonly mUserData = new Int32Array(64).fill(-1);
  icIntensity!: IntegerDecompressor;
  icScanAngle!: IntegerDecompressor;
  icPointSourceId!: IntegerDecompressor;

  // GPS time: up to four interleaved sequences, 64-bit values as int32 halves.
  gpsLast = 0;
  gpsNext = 0;
  readonly gpsHigh = new Int32Array(4);
  readonly gpsLow = new Int32Array(4);
  readonly gpsLastDiff = new Int32Array(4);
  readonly multiExtremeCounter = new Int32Array(4);
  mGpsMulti = 0;
  mGps0Diff = 0;
  icGpsTime!: IntegerDecompressor;
}

/**
 * POINT14 version 3 (LASreadItemCompressed_POINT14_v3): the 30 bytes of
 * point formats 6-10, each attribute group in its own layer (its own
 * arithmetic decoder over its own bytes), with state kept per scanner
 * channel. A layer of 0 bytes means the attribute does not change in the chunk.
 */
export class Point14Decoder {
  /** One decoder per layer, each with its models. */
  private readonly dec: ArithmeticDecoder[] = Array.from({ length: POINT14_LAYERS }, () => new ArithmeticDecoder());
  private readonly changed = new Uint8Array(POINT14_LAYERS);
  private readonly contexts = Array.from({ length: 4 }, () => new Context());
  /** The scanner channel of the last point: the context the other items follow. */
  currentContext = 0;

  /**
   * Starts a chunk: `layers[i]` is the byte range of layer i in `bytes`, the
   * first point is raw at `first[at..at+30)`.
   */
  init(bytes: Uint8Array, layers: readonly [number, number][], first: Uint8Array, at: number): void {
    for (let i = 0; i < POINT14_LAYERS; i++) {
      const [start, end] = layers[i]!;
      this.changed[i] = i === Layer.ChannelReturnsXY || end > start ? 1 : 0;
      if (this.changed[i]) this.dec[i]!.init(bytes, start, end);
    }
    for (const c of this.contexts) c.unused = true;
    const item = new Point14();
    item.parse(first, at);
    this.currentContext = item.scannerChannel;
    this.initContext(this.currentContext, item);
  }

  /** Bytes read past the end of the layers (zeros were used); large when the chunk is truncated. */
  get overrun(): number {
    let worst = 0;
    for (let i = 0; i < POINT14_LAYERS; i++) if (this.changed[i]) worst = Math.max(worst, this.dec[i]!.overrun);
    return worst;
  }

  /** LASzip's createAndInitModelsAndDecompressors: a context starts from `item`, the last point seen. */
  private initContext(index: number, item: Point14): void {
    const c = this.contexts[index]!;
    const [xy, z, classification, flags, intensity, scanAngle, userData, pointSource, gps] = this.dec as [
      ArithmeticDecoder,
      ArithmeticDecoder,
      ArithmeticDecoder,
      ArithmeticDecoder,
      ArithmeticDecoder,
      ArithmeticDecoder,
      ArithmeticDecoder,
      ArithmeticDecoder,
      ArithmeticDecoder,
    ];
    if (!c.created) {
      c.created = true;
      c.mChangedValues = Int32Array.from({ length: 8 }, () => xy.symbolModel(128));
      c.mScannerChannel = xy.symbolModel(3);
      c.mReturnNumberGpsSame = xy.symbolModel(13);
      c.icDx = new IntegerDecompressor(xy, 32, 2);
      c.icDy = new IntegerDecompressor(xy, 32, 22);
      c.icZ = new IntegerDecompressor(z, 32, 20);
      c.icIntensity = new IntegerDecompressor(intensity, 16, 4);
      c.icScanAngle = new IntegerDecompressor(scanAngle, 16, 2);
      c.icPointSourceId = new IntegerDecompressor(pointSource, 16, 1);
      c.mGpsMulti = gps.symbolModel(MULTI_TOTAL);
      c.mGps0Diff = gps.symbolModel(5);
      c.icGpsTime = new IntegerDecompressor(gps, 32, 9);
    } else {
      for (const m of c.mChangedValues) xy.initSymbolModel(m);
      xy.initSymbolModel(c.mScannerChannel);
      xy.initSymbolModel(c.mReturnNumberGpsSame);
      for (let i = 0; i < 16; i++) {
        if (c.mNumberOfReturns[i]! >= 0) xy.initSymbolModel(c.mNumberOfReturns[i]!);
        if (c.mReturnNumber[i]! >= 0) xy.initSymbolModel(c.mReturnNumber[i]!);
      }
      for (let i = 0; i < 64; i++) {
        if (c.mClassification[i]! >= 0) classification.initSymbolModel(c.mClassification[i]!);
        if (c.mFlags[i]! >= 0) flags.initSymbolModel(c.mFlags[i]!);
        if (c.mUserData[i]! >= 0) userData.initSymbolModel(c.mUserData[i]!);
      }
      c.icDx.init();
      c.icDy.init();
      c.icZ.init();
      c.icIntensity.init();
      c.icScanAngle.init();
      c.icPointSourceId.init();
      gps.initSymbolModel(c.mGpsMulti);
      gps.initSymbolModel(c.mGps0Diff);
      c.icGpsTime.init();
    }
    for (let i = 0; i < 12; i++) {
      c.lastXDiff[i]!.init();
      c.lastYDiff[i]!.init();
    }
    c.lastZ.fill(item.z);
    c.lastIntensity.fill(item.intensity);
    c.gpsLast = 0;
    c.gpsNext = 0;
    c.gpsLastDiff.fill(0);
    c.multiExtremeCounter.fill(0);
    c.gpsHigh.fill(0);
    c.gpsLow.fill(0);
    c.gpsLow[0] = item.gpsLow;
    c.gpsHigh[0] = item.gpsHigh;
    c.last.copy(item);
    c.last.gpsTimeChange = false;
    c.unused = false;
  }

  /** A lazily created model of `models[index]` in `dec`. */
  private static model(dec: ArithmeticDecoder, models: Int32Array, index: number, symbols: number): number {
    let m = models[index]!;
    if (m < 0) {
      m = dec.symbolModel(symbols);
      models[index] = m;
    }
    return m;
  }

  /** Decodes the next point into `out[at..at+30)`. */
  read(out: Uint8Array, at: number): void {
    const decXY = this.dec[Layer.ChannelReturnsXY]!;
    let c = this.contexts[this.currentContext]!;
    let last = c.last;

    // Context of the last point: single (3), first (1), last (2) or intermediate (0) return, and whether its GPS time changed.
    let lpr = last.returnNumber === 1 ? 1 : 0;
    lpr += last.returnNumber >= last.numberOfReturns ? 2 : 0;
    lpr += last.gpsTimeChange ? 4 : 0;
    const changedValues = decXY.decodeSymbol(c.mChangedValues[lpr]!);

    if (changedValues & (1 << 6)) {
      const diff = decXY.decodeSymbol(c.mScannerChannel);
      const channel = (this.currentContext + diff + 1) & 3;
      if (this.contexts[channel]!.unused) this.initContext(channel, last);
      this.currentContext = channel;
      c = this.contexts[channel]!;
      last = c.last;
      last.scannerChannel = channel;
    }

    const pointSourceChange = (changedValues & (1 << 5)) !== 0;
    const gpsTimeChange = (changedValues & (1 << 4)) !== 0;
    const scanAngleChange = (changedValues & (1 << 3)) !== 0;
    const gpsBit = gpsTimeChange ? 1 : 0;

    const lastN = last.numberOfReturns;
    const lastR = last.returnNumber;
    let n = lastN;
    if (changedValues & (1 << 2)) {
      n = decXY.decodeSymbol(Point14Decoder.model(decXY, c.mNumberOfReturns, lastN, 16));
      last.numberOfReturns = n;
    }
    let r = lastR;
    switch (changedValues & 3) {
      case 1:
        r = (lastR + 1) & 15;
        break;
      case 2:
        r = (lastR + 15) & 15;
        break;
      case 3:
        if (gpsTimeChange) {
          r = decXY.decodeSymbol(Point14Decoder.model(decXY, c.mReturnNumber, lastR, 16));
        } else {
          r = (lastR + decXY.decodeSymbol(c.mReturnNumberGpsSame) + 2) & 15;
        }
        break;
    }
    last.returnNumber = r;

    const m = NUMBER_RETURN_MAP_6CTX[(n << 4) | r]!;
    const l = NUMBER_RETURN_LEVEL_8CTX[(n << 4) | r]!;
    const cpr = (r === 1 ? 1 : 0) + (r >= n ? 2 : 0);
    const single = n === 1 ? 1 : 0;

    const mx = c.lastXDiff[(m << 1) | gpsBit]!;
    const dx = c.icDx.decompress(mx.v2, single);
    last.x = (last.x + dx) | 0;
    mx.add(dx);

    const my = c.lastYDiff[(m << 1) | gpsBit]!;
    let k = c.icDx.k;
    const dy = c.icDy.decompress(my.v2, single + (k < 20 ? k & ~1 : 20));
    last.y = (last.y + dy) | 0;
    my.add(dy);

    const changed = this.changed;
    if (changed[Layer.Z]) {
      k = (c.icDx.k + c.icDy.k) >>> 1;
      last.z = c.icZ.decompress(c.lastZ[l]!, single + (k < 18 ? k & ~1 : 18));
      c.lastZ[l] = last.z;
    }

    if (changed[Layer.Classification]) {
      const dec = this.dec[Layer.Classification]!;
      const ccc = ((last.classification & 0x1f) << 1) + (cpr === 3 ? 1 : 0);
      last.classification = dec.decodeSymbol(Point14Decoder.model(dec, c.mClassification, ccc, 256));
    }

    if (changed[Layer.Flags]) {
      const dec = this.dec[Layer.Flags]!;
      const lastFlags = (last.edgeOfFlightLine << 5) | (last.scanDirection << 4) | last.classificationFlags;
      const flags = dec.decodeSymbol(Point14Decoder.model(dec, c.mFlags, lastFlags, 64));
      last.edgeOfFlightLine = (flags >>> 5) & 1;
      last.scanDirection = (flags >>> 4) & 1;
      last.classificationFlags = flags & 15;
    }

    if (changed[Layer.Intensity]) {
      const slot = (cpr << 1) | gpsBit;
      const intensity = c.icIntensity.decompress(c.lastIntensity[slot]!, cpr) & 0xffff;
      c.lastIntensity[slot] = intensity;
      last.intensity = intensity;
    }

    if (changed[Layer.ScanAngle] && scanAngleChange) {
      last.scanAngle = (c.icScanAngle.decompress(last.scanAngle, gpsBit) << 16) >> 16;
    }

    if (changed[Layer.UserData]) {
      const dec = this.dec[Layer.UserData]!;
      last.userData = dec.decodeSymbol(Point14Decoder.model(dec, c.mUserData, last.userData >>> 2, 256));
    }

    if (changed[Layer.PointSource] && pointSourceChange) {
      last.pointSourceId = c.icPointSourceId.decompress(last.pointSourceId, 0) & 0xffff;
    }

    if (changed[Layer.GpsTime] && gpsTimeChange) {
      this.readGpsTime(c);
      last.gpsLow = c.gpsLow[c.gpsLast]!;
      last.gpsHigh = c.gpsHigh[c.gpsLast]!;
    }

    last.write(out, at);
    last.gpsTimeChange = gpsTimeChange;
  }

  /** Adds a signed 32-bit difference to GPS sequence `i` (64-bit two's complement). */
  private static addGps(c: Context, i: number, diff: number): void {
    const sum = (c.gpsLow[i]! >>> 0) + diff;
    c.gpsLow[i] = sum | 0;
    c.gpsHigh[i] = (c.gpsHigh[i]! + Math.floor(sum / 0x100000000)) | 0;
  }

  private readGpsFull(c: Context): void {
    const dec = this.dec[Layer.GpsTime]!;
    const next = (c.gpsNext + 1) & 3;
    c.gpsNext = next;
    c.gpsHigh[next] = c.icGpsTime.decompress(c.gpsHigh[c.gpsLast]!, 8);
    c.gpsLow[next] = dec.readInt() | 0;
    c.gpsLast = next;
    c.gpsLastDiff[next] = 0;
    c.multiExtremeCounter[next] = 0;
  }

  private static countExtreme(c: Context, diff: number): void {
    const last = c.gpsLast;
    const count = c.multiExtremeCounter[last]! + 1;
    if (count > 3) {
      c.gpsLastDiff[last] = diff;
      c.multiExtremeCounter[last] = 0;
    } else {
      c.multiExtremeCounter[last] = count;
    }
  }

  /** LASzip's read_gps_time (version 3 codes: no "unchanged" symbol, the changed bit says it). */
  private readGpsTime(c: Context): void {
    const dec = this.dec[Layer.GpsTime]!;
    const ic = c.icGpsTime;
    // A valid stream never switches sequence twice in a row (see GpsTime11Decoder).
    for (let switches = 0; ; switches++) {
      if (switches > 4) throw new Error('corrupt GPS time stream: endless sequence switches');
      const last = c.gpsLast;
      if (c.gpsLastDiff[last] === 0) {
        const multi = dec.decodeSymbol(c.mGps0Diff);
        if (multi === 0) {
          const diff = ic.decompress(0, 0);
          c.gpsLastDiff[last] = diff;
          Point14Decoder.addGps(c, last, diff);
          c.multiExtremeCounter[last] = 0;
        } else if (multi === 1) {
          this.readGpsFull(c);
        } else {
          c.gpsLast = (last + multi - 1) & 3;
          continue;
        }
        return;
      }
      const multi = dec.decodeSymbol(c.mGpsMulti);
      const lastDiff = c.gpsLastDiff[last]!;
      if (multi === 1) {
        Point14Decoder.addGps(c, last, ic.decompress(lastDiff, 1));
        c.multiExtremeCounter[last] = 0;
      } else if (multi < MULTI_CODE_FULL) {
        let diff: number;
        if (multi === 0) {
          diff = ic.decompress(0, 7);
          Point14Decoder.countExtreme(c, diff);
        } else if (multi < MULTI) {
          diff = ic.decompress(Math.imul(multi, lastDiff), multi < 10 ? 2 : 3);
        } else if (multi === MULTI) {
          diff = ic.decompress(Math.imul(MULTI, lastDiff), 4);
          Point14Decoder.countExtreme(c, diff);
        } else {
          const minus = MULTI - multi;
          if (minus > MULTI_MINUS) {
            diff = ic.decompress(Math.imul(minus, lastDiff), 5);
          } else {
            diff = ic.decompress(Math.imul(MULTI_MINUS, lastDiff), 6);
            Point14Decoder.countExtreme(c, diff);
          }
        }
        Point14Decoder.addGps(c, last, diff);
      } else if (multi === MULTI_CODE_FULL) {
        this.readGpsFull(c);
      } else {
        c.gpsLast = (last + multi - MULTI_CODE_FULL) & 3;
        continue;
      }
      return;
    }
  }
}
