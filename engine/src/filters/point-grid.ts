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
 * {@link buildMaskedPointGrid} does the same for a mask, without a call per point.
 */
export function buildPointGrid(
  x: Float64Array,
  y: Float64Array,
  count: number,
  cellSize: number,
  include?: (i: number) => boolean,
  bounds = extent(x, y, count),
): PointGrid {
  const g = gridShape(bounds, cellSize);
  const cellOf = new Int32Array(count);
  const start = new Int32Array(g.cols * g.rows + 1);
  for (let i = 0; i < count; i++) {
    if (include && !include(i)) {
      cellOf[i] = -1;
      continue;
    }
    const cell = cellAt(g, x[i]!, y[i]!);
    cellOf[i] = cell;
    start[cell + 1]!++;
  }
  return bucketCells(g, cellSize, cellOf, start);
}

/**
 * {@link buildPointGrid} of the points whose `mask` value is `want` (every
 * point when `mask` is null): the same grid.
 */
export function buildMaskedPointGrid(
  x: Float64Array,
  y: Float64Array,
  count: number,
  cellSize: number,
  mask: Uint8Array | null,
  want: number,
  bounds = extent(x, y, count),
): PointGrid {
  const g = gridShape(bounds, cellSize);
  const cellOf = new Int32Array(count);
  const start = new Int32Array(g.cols * g.rows + 1);
  for (let i = 0; i < count; i++) {
    if (mask !== null && mask[i] !== want) {
      cellOf[i] = -1;
      continue;
    }
    const cell = cellAt(g, x[i]!, y[i]!);
    cellOf[i] = cell;
    start[cell + 1]!++;
  }
  return bucketCells(g, cellSize, cellOf, start);
}

interface GridShape {
  minX: number;
  minY: number;
  cols: number;
  rows: number;
  inv: number;
}

function gridShape(bounds: { minX: number; minY: number; maxX: number; maxY: number }, cellSize: number): GridShape {
  const cols = Math.max(1, Math.floor((bounds.maxX - bounds.minX) / cellSize) + 1);
  const rows = Math.max(1, Math.floor((bounds.maxY - bounds.minY) / cellSize) + 1);
  return { minX: bounds.minX, minY: bounds.minY, cols, rows, inv: 1 / cellSize };
}

/** Cell of (x, y), clamped to the grid. */
function cellAt(g: GridShape, x: number, y: number): number {
  let c = Math.floor((x - g.minX) * g.inv);
  let r = Math.floor((y - g.minY) * g.inv);
  if (c < 0) c = 0;
  else if (c >= g.cols) c = g.cols - 1;
  if (r < 0) r = 0;
  else if (r >= g.rows) r = g.rows - 1;
  return r * g.cols + c;
}

/** The bucket lists from the cell of every point and the counts per cell (in `start[cell + 1]`). */
function bucketCells(g: GridShape, cellSize: number, cellOf: Int32Array, start: Int32Array): PointGrid {
  const cells = g.cols * g.rows;
  const count = cellOf.length;
  for (let k = 0; k < cells; k++) start[k + 1]! += start[k]!;
  const fill = start.slice(0, cells);
  const index = new Int32Array(start[cells]!);
  for (let i = 0; i < count; i++) {
    const cell = cellOf[i]!;
    if (cell < 0) continue;
    index[fill[cell]!++] = i;
  }
  return { minX: g.minX, minY: g.minY, cellSize, cols: g.cols, rows: g.rows, start, index, cellOf };
}

/**
 * Mean horizontal spacing of the points (square root of the area per point),
 * in CRS units: filters scale their cells with it so they work at any density.
 */
export function meanSpacing(b: { minX: number; minY: number; maxX: number; maxY: number }, count: number): number {
  const area = Math.max(1e-9, (b.maxX - b.minX) * (b.maxY - b.minY));
  return Math.sqrt(area / Math.max(1, count));
}
