import { open } from 'node:fs/promises';
import { InvalidInput } from '../core/errors.js';
import { openFileSource } from '../readers/byte-source.js';
import { type LasHeader, readLasHeader } from '../readers/las-header.js';
import {
  AC_MIN_LENGTH,
  BitModel,
  BM_LENGTH_SHIFT,
  DM_LENGTH_SHIFT,
  type LazChunk,
  readLazChunkTable,
  SymbolModel,
} from '../readers/laz-chunk-table.js';

/**
 * LASzip's arithmetic encoder (arithmeticencoder.cpp), enough to write a chunk
 * table: bits, symbols and raw bits, with carry propagation into bytes
 * already written. All arithmetic is on unsigned 32-bit values held in
 * doubles (exact below 2^53).
 */
class ArithmeticEncoder {
  private base = 0;
  private length = 0xffffffff;
  private out: number[] = [];

  private addToBase(x: number): void {
    const sum = this.base + x;
    if (sum >= 0x100000000) {
      this.base = sum - 0x100000000;
      this.propagateCarry();
    } else {
      this.base = sum;
    }
  }
  private propagateCarry(): void {
    let p = this.out.length - 1;
    while (p >= 0 && this.out[p] === 0xff) {
      this.out[p] = 0;
      p--;
    }
    if (p >= 0) this.out[p]!++;
  }
  private renorm(): void {
    do {
      this.out.push(Math.floor(this.base / 0x1000000));
      this.base = (this.base % 0x1000000) * 256;
      this.length *= 256;
    } while (this.length < AC_MIN_LENGTH);
  }
  encodeBit(m: BitModel, bit: number): void {
    const x = m.bit0Prob * (this.length >>> BM_LENGTH_SHIFT);
    if (bit === 0) {
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
    let x: number;
    if (sym === m.lastSymbol) {
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
      this.writeShort(sym & 0xffff);
      sym = Math.floor(sym / 65536);
      bits -= 16;
    }
    this.length = this.length >>> bits;
    this.addToBase(sym * this.length);
    if (this.length < AC_MIN_LENGTH) this.renorm();
  }
  private writeShort(sym: number): void {
    this.length = this.length >>> 16;
    this.addToBase(sym * this.length);
    if (this.length < AC_MIN_LENGTH) this.renorm();
  }
  /** Flushes the final bytes (plus LASzip's three zero bytes) and returns them. */
  done(): Uint8Array {
    const initBase = this.base;
    if (this.length > 2 * AC_MIN_LENGTH) {
      this.base = (this.base + AC_MIN_LENGTH) % 0x100000000;
      this.length = AC_MIN_LENGTH >>> 1;
    } else {
      this.base = (this.base + (AC_MIN_LENGTH >>> 1)) % 0x100000000;
      this.length = AC_MIN_LENGTH >>> 9;
    }
    if (initBase > this.base) this.propagateCarry();
    this.renorm();
    this.out.push(0, 0, 0);
    return Uint8Array.from(this.out);
  }
}

/** IntegerCompressor(enc, 32 bits, contexts, bitsHigh 8), compression only (integercompressor.cpp). */
class IntegerCompressor {
  private readonly bitsHigh = 8;
  private readonly mBits: SymbolModel[];
  private readonly mCorrector0 = new BitModel();
  private readonly mCorrector: SymbolModel[] = [];
  constructor(
    private readonly enc: ArithmeticEncoder,
    contexts: number,
  ) {
    this.mBits = Array.from({ length: contexts }, () => new SymbolModel(33));
    for (let i = 1; i <= 32; i++)
      this.mCorrector[i] = new SymbolModel(i <= this.bitsHigh ? 1 << i : 1 << this.bitsHigh);
  }
  compress(pred: number, real: number, context: number): void {
    let c = (real - pred) | 0;
    let c1 = c <= 0 ? -c : c - 1;
    let k = 0;
    while (c1) {
      c1 = Math.floor(c1 / 2);
      k++;
    }
    this.enc.encodeSymbol(this.mBits[context]!, k);
    if (k === 0) {
      this.enc.encodeBit(this.mCorrector0, c);
      return;
    }
    if (k >= 32) return;
    c = c < 0 ? c + (2 ** k - 1) : c - 1;
    if (k <= this.bitsHigh) {
      this.enc.encodeSymbol(this.mCorrector[k]!, c);
    } else {
      const k1 = k - this.bitsHigh;
      const low = c % 2 ** k1;
      this.enc.encodeSymbol(this.mCorrector[k]!, Math.floor(c / 2 ** k1));
      this.enc.writeBits(k1, low);
    }
  }
}

/**
 * Encodes a LAZ chunk table (version 0) as LASzip writes it: point counts
 * (variable-size chunks only, context 0) and byte sizes (context 1), each
 * predicted from the previous chunk's.
 */
export function encodeLazChunkTable(chunks: readonly LazChunk[], variable: boolean): Uint8Array {
  const head = new Uint8Array(8);
  const view = new DataView(head.buffer);
  view.setUint32(0, 0, true);
  view.setUint32(4, chunks.length, true);
  if (chunks.length === 0) return head;
  const enc = new ArithmeticEncoder();
  const ic = new IntegerCompressor(enc, 2);
  for (let i = 0; i < chunks.length; i++) {
    if (variable) ic.compress(i ? chunks[i - 1]!.pointCount : 0, chunks[i]!.pointCount, 0);
    ic.compress(i ? chunks[i - 1]!.byteLength : 0, chunks[i]!.byteLength, 1);
  }
  const body = enc.done();
  const out = new Uint8Array(8 + body.length);
  out.set(head);
  out.set(body, 8);
  return out;
}

/** One copy of a LAZ file placed in the spliced output, shifted by (dx, dy) in file units. */
export interface SplicePiece {
  path: string;
  dx: number;
  dy: number;
}

export interface SpliceResult {
  pointCount: number;
  bytes: number;
  chunks: number;
}

const LASZIP_ITEM_POINT10 = 6;

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined, skip: [number, number]): boolean {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if ((i < skip[0] || i >= skip[1]) && a[i] !== b[i]) return false;
  return true;
}

/**
 * Lays copies of LAZ files side by side in one new LAZ file without
 * recompressing them: each compressed chunk is copied as it is, except its
 * first point, which LASzip stores raw and from which every later point of
 * the chunk is predicted; shifting that point's X and Y integers shifts the
 * whole chunk. The chunk table is written anew (variable-size chunks).
 *
 * Only the point-wise compressor (LAS 1.0–1.3, POINT10 first item) is
 * supported, and every piece must share the first piece's point format,
 * scale, offset, VLRs and LASzip items; shifts must be whole multiples of the
 * scale. Used to build big benchmark inputs from the small real files.
 */
export async function spliceLaz(pieces: readonly SplicePiece[], outPath: string): Promise<SpliceResult> {
  if (pieces.length === 0) throw new InvalidInput('pieces', 'nothing to splice', 0);
  const headers: LasHeader[] = [];
  for (const piece of pieces) {
    const source = await openFileSource(piece.path);
    try {
      headers.push(await readLasHeader(source));
    } finally {
      await source.close();
    }
  }
  const first = headers[0]!;
  const laszipOf = (h: LasHeader) => h.vlrs.find((v) => v.userId === 'laszip encoded' && v.recordId === 22204);
  const firstLaszip = laszipOf(first);
  if (!first.compressed || first.laszip?.compressor !== 2 || !firstLaszip?.data) {
    throw new InvalidInput('laszip.compressor', 'only point-wise chunked LAZ (compressor 2) can be spliced', 104);
  }
  const zip = new DataView(firstLaszip.data.buffer, firstLaszip.data.byteOffset, firstLaszip.data.byteLength);
  if (zip.getUint16(34, true) !== LASZIP_ITEM_POINT10) {
    throw new InvalidInput('laszip.items[0]', 'the first LASzip item must be POINT10', firstLaszip.contentOffset + 34);
  }
  for (const [i, h] of headers.entries()) {
    const same =
      h.pointFormat === first.pointFormat &&
      h.recordLength === first.recordLength &&
      h.pointDataOffset === first.pointDataOffset &&
      h.scale.every((v, k) => v === first.scale[k]) &&
      h.offset.every((v, k) => v === first.offset[k]) &&
      // Everything but the chunk size (bytes 12..16) must match.
      sameBytes(laszipOf(h)?.data, firstLaszip.data, [12, 16]);
    if (!same)
      throw new InvalidInput(`pieces[${i}]`, `${pieces[i]!.path} differs in format, scale, offset or LASzip items`, 0);
  }
  const shifts = pieces.map((piece, i) => {
    const ix = Math.round(piece.dx / first.scale[0]);
    const iy = Math.round(piece.dy / first.scale[1]);
    if (
      Math.abs(ix * first.scale[0] - piece.dx) > first.scale[0] * 1e-6 ||
      Math.abs(iy * first.scale[1] - piece.dy) > first.scale[1] * 1e-6
    ) {
      throw new InvalidInput(`pieces[${i}].dx`, 'shifts must be whole multiples of the scale', 0);
    }
    return [ix, iy] as const;
  });

  // The header and VLRs of the first piece, with counts, bounds and chunk size patched.
  const source0 = await openFileSource(pieces[0]!.path);
  const headerBytes = Uint8Array.from(await source0.read(0, first.pointDataOffset));
  await source0.close();
  const hv = new DataView(headerBytes.buffer);
  const pointCount = headers.reduce((sum, h) => sum + h.pointCount, 0);
  if (first.versionMinor < 4 && pointCount > 0xffffffff) {
    throw new InvalidInput(
      'header.pointCount',
      `${pointCount} points do not fit a LAS 1.${first.versionMinor} header`,
      107,
    );
  }
  const byReturn = [0, 0, 0, 0, 0];
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  headers.forEach((h, i) => {
    for (let r = 0; r < 5; r++) byReturn[r]! += h.pointsByReturn[r] ?? 0;
    const d = [pieces[i]!.dx, pieces[i]!.dy, 0];
    for (let a = 0; a < 3; a++) {
      min[a] = Math.min(min[a]!, h.min[a]! + d[a]!);
      max[a] = Math.max(max[a]!, h.max[a]! + d[a]!);
    }
  });
  hv.setUint32(107, Math.min(pointCount, 0xffffffff), true);
  for (let r = 0; r < 5; r++) hv.setUint32(111 + 4 * r, byReturn[r]!, true);
  for (let a = 0; a < 3; a++) {
    hv.setFloat64(179 + 16 * a, max[a]!, true);
    hv.setFloat64(187 + 16 * a, min[a]!, true);
  }
  if (first.versionMinor >= 4) {
    hv.setBigUint64(247, BigInt(pointCount), true);
    for (let r = 0; r < 5; r++) hv.setBigUint64(255 + 8 * r, BigInt(byReturn[r]!), true);
  }
  hv.setUint32(firstLaszip.contentOffset + 12, 0xffffffff, true);

  const out = await open(outPath, 'w');
  try {
    let position = 0;
    const write = async (bytes: Uint8Array) => {
      await out.write(bytes, 0, bytes.length, position);
      position += bytes.length;
    };
    await write(headerBytes);
    await write(new Uint8Array(8)); // chunk table offset, patched at the end
    const written: LazChunk[] = [];
    for (const [i, piece] of pieces.entries()) {
      const source = await openFileSource(piece.path);
      try {
        const [ix, iy] = shifts[i]!;
        for (const chunk of await readLazChunkTable(source, headers[i]!)) {
          const bytes = Uint8Array.from(await source.read(chunk.offset, chunk.byteLength));
          const raw = new DataView(bytes.buffer);
          const x = raw.getInt32(0, true) + ix;
          const y = raw.getInt32(4, true) + iy;
          if (x !== (x | 0) || y !== (y | 0)) {
            throw new InvalidInput(
              `pieces[${i}].dx`,
              'the shift takes coordinates out of 32-bit integers',
              chunk.offset,
            );
          }
          raw.setInt32(0, x, true);
          raw.setInt32(4, y, true);
          written.push({ offset: position, byteLength: bytes.length, pointCount: chunk.pointCount });
          await write(bytes);
        }
      } finally {
        await source.close();
      }
    }
    const tableOffset = position;
    await write(encodeLazChunkTable(written, true));
    const pointer = new Uint8Array(8);
    new DataView(pointer.buffer).setBigInt64(0, BigInt(tableOffset), true);
    await out.write(pointer, 0, 8, first.pointDataOffset);
    return { pointCount, bytes: position, chunks: written.length };
  } finally {
    await out.close();
  }
}
