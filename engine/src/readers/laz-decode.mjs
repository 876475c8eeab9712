// Decodes LAZ chunks to raw point records. Point formats 0-3 (LASzip's
// point-wise items, version 2) go through the TypeScript decoder in ./lazjs,
// byte-identical to laz-perf and 1.36-1.64x faster per CPU-second; the LAS 1.4
// formats through laz-perf (WASM): lazjs decodes them too, but only 1.07x
// (format 8) to 1.23x (format 7) faster, not clearly past the 1.15x bar
// (bench suite lazjs). Plain
// JavaScript loaded by worker threads: decode.worker.mjs registers the
// TypeScript loader first.
import lazPerfModule from 'laz-perf';
import { decodeChunk, openChunk, supportsPointFormat } from './lazjs/chunk-decoder.ts';

/** Whether lazjs rather than laz-perf decodes this point format (see above). */
function useLazjs(pointFormat, recordLength) {
  return pointFormat <= 3 && supportsPointFormat(pointFormat, recordLength);
}

let lazPerfPromise;

/** The process-wide (or worker-wide) laz-perf instance. */
export function getLazPerf() {
  lazPerfPromise ??= lazPerfModule.createLazPerf();
  return lazPerfPromise;
}

/**
 * Decodes `pointCount` points of a compressed chunk into raw records.
 * Returns a fresh Uint8Array of pointCount * recordLength bytes.
 */
export async function decodeLazChunk(compressed, pointFormat, recordLength, pointCount) {
  if (useLazjs(pointFormat, recordLength)) return decodeChunk(compressed, pointFormat, recordLength, pointCount);
  return decodeLazChunkWithLazPerf(compressed, pointFormat, recordLength, pointCount);
}

/** decodeLazChunk through laz-perf whatever the point format (the reference the TypeScript decoder is tested against). */
export async function decodeLazChunkWithLazPerf(compressed, pointFormat, recordLength, pointCount) {
  const lazPerf = await getLazPerf();
  const outLength = pointCount * recordLength;
  // Padding keeps a decoder that overreads corrupt data inside our own allocation.
  const blob = lazPerf._malloc(compressed.byteLength + 1024);
  const out = lazPerf._malloc(outLength + recordLength);
  const decoder = new lazPerf.ChunkDecoder();
  try {
    lazPerf.HEAPU8.set(compressed, blob);
    lazPerf.HEAPU8.fill(0, blob + compressed.byteLength, blob + compressed.byteLength + 1024);
    decoder.open(pointFormat, recordLength, blob);
    for (let i = 0, p = out; i < pointCount; i++, p += recordLength) decoder.getPoint(p);
    return lazPerf.HEAPU8.slice(out, out + outLength);
  } finally {
    decoder.delete();
    lazPerf._free(blob);
    lazPerf._free(out);
  }
}

/**
 * Opens a compressed chunk for incremental decoding: `read(n)` returns the
 * next n raw records, so a huge (or corrupt) chunk never has to be decoded
 * whole. `close()` frees the decoder's memory.
 */
export async function openLazChunk(compressed, pointFormat, recordLength) {
  if (useLazjs(pointFormat, recordLength)) {
    const stream = openChunk(compressed, pointFormat, recordLength);
    return stream;
  }
  const lazPerf = await getLazPerf();
  const blob = lazPerf._malloc(compressed.byteLength + 1024);
  const point = lazPerf._malloc(recordLength);
  const decoder = new lazPerf.ChunkDecoder();
  let out = 0;
  let outCapacity = 0;
  let closed = false;
  try {
    lazPerf.HEAPU8.set(compressed, blob);
    lazPerf.HEAPU8.fill(0, blob + compressed.byteLength, blob + compressed.byteLength + 1024);
    decoder.open(pointFormat, recordLength, blob);
  } catch (error) {
    decoder.delete();
    lazPerf._free(blob);
    lazPerf._free(point);
    throw error;
  }
  return {
    read(n) {
      const bytes = n * recordLength;
      if (bytes > outCapacity) {
        if (out) lazPerf._free(out);
        out = lazPerf._malloc(bytes);
        outCapacity = bytes;
      }
      for (let i = 0, p = out; i < n; i++, p += recordLength) decoder.getPoint(p);
      return lazPerf.HEAPU8.slice(out, out + bytes);
    },
    close() {
      if (closed) return;
      closed = true;
      decoder.delete();
      lazPerf._free(blob);
      lazPerf._free(point);
      if (out) lazPerf._free(out);
    },
  };
}
