import path from 'node:path';
import type { PointChunk } from '../core/chunk.js';
import { openPointCloud } from '../readers/index.js';
import { writeLas } from './las.writer.js';

/**
 * Writes the given point clouds (adjacent tiles of one survey, same CRS) as
 * one LAS 1.4 file, as a user would upload a mosaic; returns its path.
 */
export async function writeMosaic(files: readonly string[], outDir: string, name = 'mosaic.las'): Promise<string> {
  const first = await openPointCloud(files[0]!);
  const crs = first.crs;
  const scale = first.header.scale;
  await first.close();
  async function* chunks(): AsyncIterable<PointChunk> {
    for (const f of files) {
      const reader = await openPointCloud(f);
      try {
        yield* reader.read({ workers: 0 });
      } finally {
        await reader.close();
      }
    }
  }
  const out = path.join(outDir, name);
  await writeLas(out, chunks(), { crs, scale });
  return out;
}
