// Decodes one LAZ chunk to raw point records with laz-perf (WASM). Plain
// JavaScript so that worker threads can load it without a TypeScript loader.
import lazPerfModule from 'laz-perf';

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
