import { CountTable } from '../core/count-table.js';
import type { Raster } from './raster.js';

/**
 * Where the returns of a cloud lie, on square cells of `cell` CRS units: the
 * evidence that a TIN is interpolating between nearby measurements rather
 * than spanning empty space (a lake, a no-data area). Cost follows the
 * points: only occupied cells are stored.
 */
export class Coverage {
  private readonly cells = new CountTable(1 << 16);
  /** The cell of the last return added: consecutive returns of a scan mostly share one. */
  private last = Number.NaN;
  constructor(readonly cell: number) {}
  add(x: number, y: number): void {
    const key = Math.floor(x / this.cell) * 2 ** 26 + Math.floor(y / this.cell) + 2 ** 25;
    if (key === this.last) return;
    this.last = key;
    this.cells.add(key);
  }
  /**
   * Adds the returns `0..count-1` but those whose class is flagged in `skipClass` (256 entries): marks
   * their cells on a grid over their extent first when it is not much larger than the returns, so the
   * table sees each cell once (a cloud in memory), else adds them one by one.
   */
  addMany(
    x: ArrayLike<number>,
    y: ArrayLike<number>,
    count: number,
    classes?: ArrayLike<number>,
    skipClass?: Uint8Array,
  ): void {
    const skip = (i: number) => classes !== undefined && skipClass !== undefined && skipClass[classes[i]!] === 1;
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < count; i++) {
      if (skip(i)) continue;
      const gx = Math.floor(x[i]! / this.cell);
      const gy = Math.floor(y[i]! / this.cell);
      if (gx < minX) minX = gx;
      if (gx > maxX) maxX = gx;
      if (gy < minY) minY = gy;
      if (gy > maxY) maxY = gy;
    }
    if (minX > maxX) return;
    const cols = maxX - minX + 1;
    const rows = maxY - minY + 1;
    if (cols * rows > Math.max(1 << 16, 4 * count)) {
      for (let i = 0; i < count; i++) if (!skip(i)) this.add(x[i]!, y[i]!);
      return;
    }
    const marked = new Uint8Array(cols * rows);
    for (let i = 0; i < count; i++) {
      if (skip(i)) continue;
      marked[(Math.floor(y[i]! / this.cell) - minY) * cols + Math.floor(x[i]! / this.cell) - minX] = 1;
    }
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (marked[r * cols + c]) this.cells.add((minX + c) * 2 ** 26 + minY + r + 2 ** 25);
      }
    }
  }

  /** Number of covered cells. */
  get size(): number {
    return this.cells.size;
  }
  /** Calls `fn` with the column and row of every covered cell (cell units from the CRS origin). */
  forEachCell(fn: (gx: number, gy: number) => void): void {
    this.cells.forEachKey((key) => fn(Math.floor(key / 2 ** 26), (key % 2 ** 26) - 2 ** 25));
  }
}

/**
 * Sets to nodata every raster cell whose centre lies farther than about
 * `reach` CRS units (square neighbourhood, in coverage cells) from any
 * covered cell. Returns the number of cells cleared.
 */
export function clearBeyondReach(raster: Raster, coverage: Coverage, reach: number): number {
  const { width, height, resolution, data, nodata } = raster;
  const cell = coverage.cell;
  const gx0 = Math.floor(raster.originX / cell);
  const gy0 = Math.floor((raster.originY - height * resolution) / cell);
  const cols = Math.floor((raster.originX + width * resolution) / cell) - gx0 + 1;
  const rows = Math.floor(raster.originY / cell) - gy0 + 1;
  const r = Math.max(0, Math.ceil(reach / cell));
  const occupied = new Uint8Array(cols * rows);
  coverage.forEachCell((cx, cy) => {
    const gx = cx - gx0;
    const gy = cy - gy0;
    if (gx >= 0 && gy >= 0 && gx < cols && gy < rows) occupied[gy * cols + gx] = 1;
  });
  // Square dilation by r, rows then columns, with running counts (O(cells) whatever r).
  const along = (src: Uint8Array, dst: Uint8Array, n: number, lines: number, step: number, stride: number) => {
    for (let l = 0; l < lines; l++) {
      const base = l * stride;
      let inside = 0;
      for (let k = 0; k < Math.min(r, n); k++) inside += src[base + k * step]!;
      for (let k = 0; k < n; k++) {
        if (k + r < n) inside += src[base + (k + r) * step]!;
        if (k - r - 1 >= 0) inside -= src[base + (k - r - 1) * step]!;
        dst[base + k * step] = inside > 0 ? 1 : 0;
      }
    }
  };
  const tmp = new Uint8Array(cols * rows);
  const reached = new Uint8Array(cols * rows);
  along(occupied, tmp, cols, rows, 1, cols);
  along(tmp, reached, rows, cols, cols, 1);
  let cleared = 0;
  for (let row = 0; row < height; row++) {
    const gy = Math.floor((raster.originY - (row + 0.5) * resolution) / cell) - gy0;
    for (let c = 0; c < width; c++) {
      const gx = Math.floor((raster.originX + (c + 0.5) * resolution) / cell) - gx0;
      const k = row * width + c;
      if (reached[gy * cols + gx] || data[k] === nodata) continue;
      data[k] = nodata;
      cleared++;
    }
  }
  return cleared;
}
