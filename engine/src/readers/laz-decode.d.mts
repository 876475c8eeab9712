/** Decodes one LAZ chunk to raw point records (see laz-decode.mjs). */
export function decodeLazChunk(
  compressed: Uint8Array,
  pointFormat: number,
  recordLength: number,
  pointCount: number,
): Promise<Uint8Array>;
export function getLazPerf(): Promise<unknown>;
