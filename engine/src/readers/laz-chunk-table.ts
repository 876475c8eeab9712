import { InvalidInput } from '../core/errors.js';
import type { ByteSource } from './byte-source.js';
import type { LasHeader } from './las-header.js';

/** Largest decoded chunk accepted (512 MB): keeps memory bounded on corrupt chunk sizes. */
const MAX_CHUNK_BYTES = 512 * 1024 * 1024;

/** One independently decodable LAZ chunk. */
export interface LazChunk {
  /** Absolute byte offset of the compressed chunk. */
  offset: number;
  /** Compressed size in bytes. */
  byteLength: number;
  pointCount: number;
}

// A port of the parts of LASzip's arithmetic decoder (arithmeticdecoder.cpp,
// arithmeticmodel.cpp, integercompressor.cpp) needed to read the chunk table,
// which laz-perf does not expose. All arithmetic is on unsigned 32-bit values.
export const AC_MIN_LENGTH = 0x01000000;
export const BM_LENGTH_SHIFT = 13;
const BM_MAX_COUNT = 1 << BM_LENGTH_SHIFT;
export const DM_LENGTH_SHIFT = 15;
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

/** LASzip's adaptive symbol model (arithmeticmodel.cpp), with its decoder table. */
export class SymbolModel {
  readonly symbols: number;
  readonly distribution: Uint32Array;
  readonly symbolCount: Uint32Array;
  readonly decoderTable: Uint32Array | null;
  readonly tableSize: number;
  readonly tableShift: number;
  totalCount = 0;
  updateCycle: number;
  symbolsUntilUpdate = 0;
  readonly lastSymbol: number;
  constructor(symbols: number) {
    this.symbols = symbols;
    this.lastSymbol = symbols - 1;
    if (symbols > 16) {
      let tableBits = 3;
      while (symbols > 1 << (tableBits + 2)) tableBits++;
      this.tableSize = 1 << tableBits;
      this.tableShift = DM_LENGTH_SHIFT - tableBits;
      this.decoderTable = new Uint32Array(this.tableSize + 2);
    } else {
      this.tableSize = 0;
      this.tableShift = 0;
      this.decoderTable = null;
    }
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
    let s = 0;
    const scale = Math.floor(0x80000000 / this.totalCount);
    const table = this.decoderTable;
    for (let k = 0; k < this.symbols; k++) {
      this.distribution[k] = Math.floor((scale * sum) / 2 ** (31 - DM_LENGTH_SHIFT));
      sum += this.symbolCount[k]!;
      if (table) {
        const w = this.distribution[k]! >>> this.tableShift;
        while (s < w) table[++s] = k - 1;
      }
    }
    if (table) {
      table[0] = 0;
      while (s <= this.tableSize) table[++s] = this.symbols - 1;
    }
    this.updateCycle = Math.min((5 * this.updateCycle) >>> 2, (this.symbols + 6) << 3);
    this.symbolsUntilUpdate = this.updateCycle;
  }
}

class ArithmeticDecoder {
  private value = 0;
  private length = 0xffffffff;
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {
    for (let i = 0; i < 4; i++) this.value = this.value * 256 + this.byte();
  }
  private byte(): number {
    // Past the end LASzip would throw; the caller validates the decoded sizes.
    return this.at < this.bytes.length ? this.bytes[this.at++]! : 0;
  }
  private renorm(): void {
    do {
      this.value = ((this.value * 256) % 0x100000000) + this.byte();
      this.length = this.length * 256;
    } while (this.length < AC_MIN_LENGTH);
  }
  decodeBit(m: BitModel): number {
    const x = m.bit0Prob * (this.length >>> BM_LENGTH_SHIFT);
    let sym: number;
    if (this.value < x) {
      sym = 0;
      this.length = x;
      m.bit0Count++;
    } else {
      sym = 1;
      this.value -= x;
      this.length -= x;
    }
    if (this.length < AC_MIN_LENGTH) this.renorm();
    if (--m.bitsUntilUpdate === 0) m.update();
    return sym;
  }
  decodeSymbol(m: SymbolModel): number {
    let n: number;
    let sym: number;
    let x: number;
    let y = this.length;
    if (m.decoderTable) {
      this.length = this.length >>> DM_LENGTH_SHIFT;
      const dv = Math.floor(this.value / this.length);
      const t = dv >>> m.tableShift;
      sym = m.decoderTable[t]!;
      n = m.decoderTable[t + 1]! + 1;
      while (n > sym + 1) {
        const k = (sym + n) >>> 1;
        if (m.distribution[k]! > dv) n = k;
        else sym = k;
      }
      x = m.distribution[sym]! * this.length;
      if (sym !== m.lastSymbol) y = m.distribution[sym + 1]! * this.length;
    } else {
      x = 0;
      sym = 0;
      this.length = this.length >>> DM_LENGTH_SHIFT;
      n = m.symbols;
      let k = n >>> 1;
      do {
        const z = this.length * m.distribution[k]!;
        if (z > this.value) {
          n = k;
          y = z;
        } else {
          sym = k;
          x = z;
        }
        k = (sym + n) >>> 1;
      } while (k !== sym);
    }
    this.value -= x;
    this.length = y - x;
    if (this.length < AC_MIN_LENGTH) this.renorm();
    m.symbolCount[sym]!++;
    if (--m.symbolsUntilUpdate === 0) m.update();
    return sym;
  }
  readBits(bits: number): number {
    if (bits > 19) {
      const low = this.readShort();
      const high = this.readBits(bits - 16);
      return high * 65536 + low;
    }
    this.length = this.length >>> bits;
    const sym = Math.floor(this.value / this.length);
    this.value -= this.length * sym;
    if (this.length < AC_MIN_LENGTH) this.renorm();
    return sym;
  }
  private readShort(): number {
    this.length = this.length >>> 16;
    const sym = Math.floor(this.value / this.length);
    this.value -= this.length * sym;
    this.renorm();
    return sym;
  }
}

/** IntegerCompressor(dec, 32 bits, contexts, bitsHigh 8), decompression only. */
class IntegerDecompressor {
  private readonly bitsHigh = 8;
  private readonly mBits: SymbolModel[];
  private readonly mCorrector0 = new BitModel();
  private readonly mCorrector: SymbolModel[] = [];
  constructor(
    private readonly dec: ArithmeticDecoder,
    contexts: number,
  ) {
    const corrBits = 32;
    this.mBits = Array.from({ length: contexts }, () => new SymbolModel(corrBits + 1));
    for (let i = 1; i <= corrBits; i++)
      this.mCorrector[i] = new SymbolModel(i <= this.bitsHigh ? 1 << i : 1 << this.bitsHigh);
  }
  decompress(pred: number, context: number): number {
    return (pred + this.readCorrector(this.mBits[context]!)) | 0;
  }
  private readCorrector(mBits: SymbolModel): number {
    const k = this.dec.decodeSymbol(mBits);
    if (k === 0) return this.dec.decodeBit(this.mCorrector0);
    if (k >= 32) return -0x80000000;
    let c: number;
    if (k <= this.bitsHigh) {
      c = this.dec.decodeSymbol(this.mCorrector[k]!);
    } else {
      const k1 = k - this.bitsHigh;
      c = this.dec.decodeSymbol(this.mCorrector[k]!);
      c = c * 2 ** k1 + this.dec.readBits(k1);
    }
    if (c >= 2 ** (k - 1)) c += 1;
    else c -= 2 ** k - 1;
    return c;
  }
}

/**
 * Reads the LAZ chunk table: where each compressed chunk starts, its size
 * and its point count. Validates every number against the file before
 * allocating from it, so a corrupt table is an InvalidInput, not a huge array.
 */
export async function readLazChunkTable(source: ByteSource, header: LasHeader): Promise<LazChunk[]> {
  const laszip = header.laszip!;
  const start = header.pointDataOffset;
  const dataEnd =
    header.versionMinor >= 4 && header.evlrCount > 0 && header.evlrOffset > 0 ? header.evlrOffset : source.size;
  if (header.pointCount === 0) return [];
  if (start + 8 > dataEnd)
    throw new InvalidInput(
      'laz.chunkTableOffset',
      'point data too short for the chunk table offset (truncated)',
      start,
    );
  const raw = await source.read(start, 8);
  let tableOffset = Number(new DataView(raw.buffer, raw.byteOffset, 8).getBigInt64(0, true));
  if (tableOffset === -1) {
    // Written by a streaming encoder: the real offset is in the last 8 bytes.
    const tail = await source.read(source.size - 8, 8);
    tableOffset = Number(new DataView(tail.buffer, tail.byteOffset, 8).getBigInt64(0, true));
  }
  const chunksStart = start + 8;
  if (!(tableOffset >= chunksStart && tableOffset + 8 <= source.size)) {
    throw new InvalidInput(
      'laz.chunkTableOffset',
      `chunk table at byte ${tableOffset} is outside the file (${chunksStart}..${source.size - 8})`,
      start,
    );
  }
  const th = await source.read(tableOffset, 8);
  const tv = new DataView(th.buffer, th.byteOffset, 8);
  const version = tv.getUint32(0, true);
  const numberOfChunks = tv.getUint32(4, true);
  if (version !== 0)
    throw new InvalidInput('laz.chunkTable.version', `unknown chunk table version ${version}`, tableOffset);
  const variable = laszip.chunkSize === 0xffffffff;
  // Each chunk stores its first point raw, so it takes at least one record.
  const maxChunks = Math.floor((tableOffset - chunksStart) / Math.max(1, header.recordLength));
  if (numberOfChunks > maxChunks || numberOfChunks === 0) {
    throw new InvalidInput(
      'laz.chunkTable.numberOfChunks',
      `${numberOfChunks} chunks cannot fit in ${tableOffset - chunksStart} bytes of point data`,
      tableOffset + 4,
    );
  }
  if (!variable) {
    const needed = Math.ceil(header.pointCount / laszip.chunkSize);
    if (needed !== numberOfChunks) {
      throw new InvalidInput(
        'header.pointCount',
        `${header.pointCount} points make ${needed} chunks of ${laszip.chunkSize} but the file has ${numberOfChunks} (declared points cannot fit)`,
        header.versionMinor >= 4 ? 247 : 107,
      );
    }
  }
  const tableEnd = Math.min(source.size, tableOffset + 8 + numberOfChunks * 10 + 64);
  const tableBytes = await source.read(tableOffset + 8, tableEnd - tableOffset - 8);
  const dec = new ArithmeticDecoder(tableBytes);
  const ic = new IntegerDecompressor(dec, 2);
  const chunks: LazChunk[] = [];
  let offset = chunksStart;
  let prevBytes = 0;
  let prevCount = 0;
  let remaining = header.pointCount;
  for (let i = 0; i < numberOfChunks; i++) {
    let count: number;
    if (variable) {
      count = ic.decompress(prevCount, 0);
      prevCount = count;
    } else {
      count = Math.min(laszip.chunkSize, remaining);
    }
    const bytes = ic.decompress(prevBytes, 1);
    prevBytes = bytes;
    if (bytes <= 0 || offset + bytes > tableOffset) {
      throw new InvalidInput(
        `laz.chunkTable[${i}].byteLength`,
        `chunk of ${bytes} bytes at byte ${offset} runs past the chunk table (${tableOffset})`,
        tableOffset,
      );
    }
    if (count < 0 || count > remaining) {
      throw new InvalidInput(
        `laz.chunkTable[${i}].pointCount`,
        `chunk of ${count} points exceeds the ${remaining} points left of the header count`,
        tableOffset,
      );
    }
    // LASzip never stores a point in less than ~1/100 of a byte, and one decoded chunk must stay small.
    if (count > bytes * 100 || count * header.recordLength > MAX_CHUNK_BYTES) {
      throw new InvalidInput(
        `laz.chunkTable[${i}].pointCount`,
        `${count} points cannot fit in a ${bytes}-byte chunk (declared points could not fit)`,
        tableOffset,
      );
    }
    if (count > 0) chunks.push({ offset, byteLength: bytes, pointCount: count });
    remaining -= count;
    offset += bytes;
  }
  if (remaining !== 0) {
    throw new InvalidInput(
      'header.pointCount',
      `header declares ${header.pointCount} points but the chunks hold ${header.pointCount - remaining} (truncated or wrong count)`,
      header.versionMinor >= 4 ? 247 : 107,
    );
  }
  return chunks;
}
