import type { TileGrid } from './plan.js';
import { classifyTile, type TileOutcome, type TileSettings } from './tiled-classify.js';

/** One tile to classify in a worker thread (see `classifyTileInThread`): files, not points, cross the boundary. */
export interface ClassifyTileTask {
  tileFile: string;
  grid: TileGrid;
  index: number;
  settings: TileSettings;
  outFile: string;
  /** Threads the tile's own classification may start (see `classifyTile`); default 1. */
  workers?: number;
}

/** Classifies one tile on this thread (a worker's entry). */
export function runClassifyTile(task: ClassifyTileTask): Promise<TileOutcome> {
  return classifyTile(
    task.tileFile,
    task.grid,
    task.index,
    task.settings,
    task.outFile,
    task.workers === undefined ? {} : { workers: task.workers },
  );
}
