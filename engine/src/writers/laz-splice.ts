import { open } from 'node:fs/promises';
import { InvalidInput } from '../core/errors.js';
import { openFileSource } from '../readers/byte-source.js';
import { type LasHeader, readLasHeader } from '../readers/las-header.js';
import { type LazChunk, readLazChunkTable } from '../readers/laz-chunk-table.js';
import { ArithmeticEncoder, IntegerCompressor } from './laz-encoder.js';

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
  const ic = new IntegerCompressor(enc, 32, 2);
  for (let i = 0; i < chunks.length; i++) {
    if (variable) ic.compress(i ? chunks[i - 1]!.pointCount : 0, chunks[i]!.pointCount, 0);
    ic.compress(i ? chunks[i - 1]!.byteLength : 0, chunks[i]!.byteLength, 1);
  }
  enc.done();
  const body = enc.out;
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
