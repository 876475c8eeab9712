/** Decodes one LAZ chunk to raw point records (see laz-decode.mjs): TypeScript decoder (lazjs) for point formats 0-3, laz-perf otherwise. */
export function decodeLazChunk(
  compressed: Uint8Array,
  pointFormat: number,
  recordLength: number,
  pointCount: number,
): Promise<Uint8Array>;
/** Decodes one LAZ chunk with laz-perf whatever the point format (the reference for tests and benchmarks). */
export function decodeLazChunkWithLazPerf(
  compressed: Uint8Array,
  pointFormat: number,
  recordLength: number,
  pointCount: number,
): Promise<Uint8Array>;
export function getLazPerf(): Promise<unknown>;
/** An open compressed chunk decoded n records at a time. */
export interface LazChunkStream {
  read(n: number): Uint8Array;
  close(): void;
}
export function openLazChunk(
  compressed: Uint8Array,
  pointFormat: number,
  recordLength: number,
): Promise<LazChunkStream>;
