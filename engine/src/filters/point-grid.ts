/**
 * A 2D bucket index of points: cell (c, r) with r growing northwards holds the
 * point indices `index[start[cell] .. start[cell + 1]]`. Built in O(n) by a
 * counting sort, so neighbour queries touch contiguous memory.
 */
export interface PointGrid {
  minX: number;
  minY: number;
  cellSize: number;
  cols: number;
  rows: number;
  start: Int32Array;
  index: Int32Array;
  /** Cell of every point (-1 when the point was excluded). */
  cellOf: Int32Array;
}

/** Horizontal extent of the first `count` points. */
export function extent(
  x: Float64Array,
  y: Float64Array,
  count: number,
): { minX: number; minY: number; maxX: number; maxY: number } {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const xi = x[i]!;
    const yi = y[i]!;
    if (xi < minX) minX = xi;
    if (xi > maxX) maxX = xi;
    if (yi < minY) minY = yi;
    if (yi > maxY) maxY = yi;
  }
  return { minX, minY, maxX, maxY };
}

/**
 * Buckets the points of `include` (all when absent) into square cells.
 */
export function buildPointGrid(
  x: Float64Array,
  y: Float64Array,
  count: number,
  cellSize: number,
  include?: (i: number) => boolean,
  bounds = extent(x, y, count),
): PointGrid {
  const cols = Math.max(1, Math.floor((bounds.maxX - bounds.minX) / cellSize) + 1);
  const rows = Math.max(1, Math.floor((bounds.maxY - bounds.minY) / cellSize) + 1);
  const cells = cols * rows;
  const cellOf = new Int32Array(count);
  const start = new Int32Array(cells + 1);
  const inv = 1 / cellSize;
  for (let i = 0; i < count; i++) {
    if (include && !include(i)) {
      cellOf[i] = -1;
      continue;
    }
    let c = Math.floor((x[i]! - bounds.minX) * inv);
    let r = Math.floor((y[i]! - bounds.minY) * inv);
    if (c < 0) c = 0;
    else if (c >= cols) c = cols - 1;
    if (r < 0) r = 0;
    else if (r >= rows) r = rows - 1;
    const cell = r * cols + c;
    cellOf[i] = cell;
    start[cell + 1]!++;
  }
  for (let k = 0; k < cells; k++) start[k + 1]! += start[k]!;
  const fill = start.slice(0, cells);
  const index = new Int32Array(start[cells]!);
  for (let i = 0; i < count; i++) {
    const cell = cellOf[i]!;
    if (cell < 0) continue;
    index[fill[cell]!++] = i;
  }
  return { minX: bounds.minX, minY: bounds.minY, cellSize, cols, rows, start, index, cellOf };
}

/**
 * Mean horizontal spacing of the points (square root of the area per point),
 * in CRS units: filters scale their cells with it so they work at any density.
 */
export function meanSpacing(b: { minX: number; minY: number; maxX: number; maxY: number }, count: number): number {
  const area = Math.max(1e-9, (b.maxX - b.minX) * (b.maxY - b.minY));
  return Math.sqrt(area / Math.max(1, count));
}
