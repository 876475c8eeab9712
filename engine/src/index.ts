/**
 * Public entry of the Nuage engine. Engineers adding a unit add one export line.
 */
export * from './core/chunk.js';
export * from './core/dimensions.js';
export * from './core/errors.js';
export type { CoordinateTransformer, CrsInfo } from './crs/index.js';
export { createTransformer, crsFromEpsg, matchEpsg, resolveCrs } from './crs/index.js';
export * from './edit/class-edits.js';
export type { CloudMetadata, MetadataBounds, MetadataOptions } from './metadata/index.js';
export { COVERAGE_METHOD, extractMetadata, metadataFromReader } from './metadata/index.js';
export * from './readers/index.js';
export type { ArtifactRecord, LasWriterOptions } from './writers/las.writer.js';
export { LAS_WRITER, writeLas } from './writers/las.writer.js';
