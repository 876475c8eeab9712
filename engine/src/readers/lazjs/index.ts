/**
 * lazjs: a TypeScript decoder of LASzip-compressed (LAZ) chunks, byte for byte
 * what LASzip and laz-perf produce. Point formats 0-3 (point-wise chunks,
 * items version 2) and 6-8 (layered chunks, items version 3).
 *
 * @example
 * const items = parseLaszipItems(laszipVlrContent);
 * if (supports(items)) records = decodeChunk(compressed, pointFormat, recordLength, pointCount);
 */
export {
  type ChunkDecoder,
  type ChunkStream,
  createChunkDecoder,
  decodeChunk,
  expectedItems,
  LASZIP_ITEM,
  type LaszipItem,
  openChunk,
  parseLaszipItems,
  supports,
  supportsPointFormat,
} from './chunk-decoder.js';
