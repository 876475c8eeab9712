/**
 * Grid operations on Float32 surfaces stored row-major (`cols` × `rows`),
 * with NaN for empty cells. Used by the ground filter (SMRF) and by HAG.
 */

/**
 * 1D running min over a window of 2r+1 (van Herk / Gil-Werman, O(n)) along a
 * strided line; `g` and `h` are scratch arrays of at least n + 2r elements.
 * `negate` reads the line negated (the min of the negated values).
 */
function runMin(
  src: Float32Array,
  dst: Float32Array,
  offset: number,
  stride: number,
  n: number,
  r: number,
  g: Float32Array,
  h: Float32Array,
  negate: boolean,
): void {
  const k = 2 * r + 1;
  const m = n + 2 * r;
  for (let i = 0; i < r; i++) {
    g[i] = Number.POSITIVE_INFINITY;
    g[m - 1 - i] = Number.POSITIVE_INFINITY;
  }
  if (negate) for (let j = 0; j < n; j++) g[j + r] = -src[offset + j * stride]!;
  else for (let j = 0; j < n; j++) g[j + r] = src[offset + j * stride]!;
  h.set(g.subarray(0, m));
  for (let b = 0; b < m; b += k) {
    const end = Math.min(b + k, m);
    for (let i = b + 1; i < end; i++) {
      const prev = g[i - 1]!;
      if (prev < g[i]!) g[i] = prev;
    }
    for (let i = end - 2; i >= b; i--) {
      const next = h[i + 1]!;
      if (next < h[i]!) h[i] = next;
    }
  }
  const w = 2 * r;
  for (let j = 0; j < n; j++) {
    const a = h[j]!;
    const bb = g[j + w]!;
    dst[offset + j * stride] = Math.min(a, bb);
  }
}

/**
 * Scratch arrays of the erosions and dilations of one surface size, for
 * windows up to a radius: reused across the passes of an opening.
 */
export class Morphology {
  private readonly tmp: Float32Array;
  private readonly lineG: Float32Array;
  private readonly lineH: Float32Array;
  private readonly blockG: Float32Array;
  private readonly blockH: Float32Array;
  private readonly eroded: Float32Array;

  constructor(
    readonly cols: number,
    readonly rows: number,
    readonly maxRadius: number,
  ) {
    const cells = cols * rows;
    this.tmp = new Float32Array(cells);
    this.eroded = new Float32Array(cells);
    this.lineG = new Float32Array(cols + 2 * maxRadius + 1);
    this.lineH = new Float32Array(cols + 2 * maxRadius + 1);
    this.blockG = new Float32Array((rows + 2 * maxRadius) * cols);
    this.blockH = new Float32Array((rows + 2 * maxRadius) * cols);
  }

  /**
   * Erosion (`negate` false) of `src` into `out` with a square window of
   * radius r; with `negate`, the dilation, as the negated erosion of the
   * negated surface (the same values). `out` may be `src`.
   */
  erode(src: Float32Array, r: number, out: Float32Array, negate = false): Float32Array {
    if (r > this.maxRadius) throw new RangeError(`radius ${r} above ${this.maxRadius}`);
    const { cols, rows, tmp } = this;
    for (let row = 0; row < rows; row++) runMin(src, tmp, row * cols, 1, cols, r, this.lineG, this.lineH, negate);
    runMinColumns(tmp, out, cols, rows, r, this.blockG, this.blockH, negate);
    return out;
  }

  /** Morphological opening (erosion then dilation) of `src` into `out` (which may be `src`). */
  open(src: Float32Array, r: number, out: Float32Array): Float32Array {
    this.erode(src, r, this.eroded);
    return this.erode(this.eroded, r, out, true);
  }
}

/**
 * {@link runMin} down every column at once, row after row (memory in order,
 * not one cell per cache line): the same blocks, comparisons and results.
 * `g` and `h` hold at least (rows + 2r) × cols values; `negate` negates
 * what is written.
 */
function runMinColumns(
  src: Float32Array,
  dst: Float32Array,
  cols: number,
  rows: number,
  r: number,
  g: Float32Array,
  h: Float32Array,
  negate: boolean,
): void {
  const k = 2 * r + 1;
  const m = rows + 2 * r;
  // Padded line i holds source row i - r (+∞ above and below the surface).
  g.fill(Number.POSITIVE_INFINITY, 0, r * cols);
  g.set(src.subarray(0, rows * cols), r * cols);
  g.fill(Number.POSITIVE_INFINITY, (r + rows) * cols, m * cols);
  h.set(g.subarray(0, m * cols));
  for (let b = 0; b < m; b += k) {
    const end = Math.min(b + k, m);
    for (let i = b + 1; i < end; i++) {
      const line = i * cols;
      for (let c = 0; c < cols; c++) {
        const prev = g[line - cols + c]!;
        if (prev < g[line + c]!) g[line + c] = prev;
      }
    }
    for (let i = end - 2; i >= b; i--) {
      const line = i * cols;
      for (let c = 0; c < cols; c++) {
        const next = h[line + cols + c]!;
        if (next < h[line + c]!) h[line + c] = next;
      }
    }
  }
  const w = 2 * r * cols;
  if (negate) for (let j = 0; j < rows * cols; j++) dst[j] = -Math.min(h[j]!, g[j + w]!);
  else for (let j = 0; j < rows * cols; j++) dst[j] = Math.min(h[j]!, g[j + w]!);
}

/** Erosion (isMin) or dilation of a full surface with a square window of radius r cells. */
export function morph(src: Float32Array, cols: number, rows: number, r: number, isMin: boolean): Float32Array {
  return new Morphology(cols, rows, r).erode(src, r, new Float32Array(src.length), !isMin);
}

/** Morphological opening (erosion then dilation) with a square window of radius r. */
export function open(src: Float32Array, cols: number, rows: number, r: number): Float32Array {
  return new Morphology(cols, rows, r).open(src, r, new Float32Array(src.length));
}

/**
 * Fills NaN cells from the valid cells around them, ring by ring (each empty
 * cell takes the weighted mean of its already-valid 8-neighbours, edge
 * neighbours counting twice), like GDAL's fillnodata without smoothing, for
 * at most `maxRings` rings. Cells with no valid cell within reach stay NaN.
 */
export function inpaint(surface: Float32Array, cols: number, rows: number, maxRings = Number.POSITIVE_INFINITY): void {
  const total = cols * rows;
  const queued = new Uint8Array(total);
  let frontier = new Int32Array(1024);
  let size = 0;
  const push = (i: number) => {
    if (size === frontier.length) {
      const grown = new Int32Array(frontier.length * 2);
      grown.set(frontier);
      frontier = grown;
    }
    frontier[size++] = i;
  };
  // First ring: empty cells touching a valid one.
  for (let r = 0; r < rows; r++) {
    const r0 = r > 0 ? r - 1 : 0;
    const r1 = r < rows - 1 ? r + 1 : r;
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      if (!Number.isNaN(surface[i]!)) continue;
      const c0 = c > 0 ? c - 1 : 0;
      const c1 = c < cols - 1 ? c + 1 : c;
      let touches = false;
      for (let rr = r0; rr <= r1 && !touches; rr++) {
        for (let cc = c0; cc <= c1; cc++) {
          if (!Number.isNaN(surface[rr * cols + cc]!)) {
            touches = true;
            break;
          }
        }
      }
      if (touches) {
        queued[i] = 1;
        push(i);
      }
    }
  }
  let values = new Float32Array(frontier.length);
  let next = new Int32Array(1024);
  let rings = 0;
  while (size > 0 && rings++ < maxRings) {
    if (values.length < size) values = new Float32Array(frontier.length);
    for (let k = 0; k < size; k++) {
      const i = frontier[k]!;
      const r = (i / cols) | 0;
      const c = i - r * cols;
      let sum = 0;
      let n = 0;
      for (let dr = -1; dr <= 1; dr++) {
        const rr = r + dr;
        if (rr < 0 || rr >= rows) continue;
        for (let dc = -1; dc <= 1; dc++) {
          const cc = c + dc;
          if (cc < 0 || cc >= cols) continue;
          const v = surface[rr * cols + cc]!;
          if (!Number.isNaN(v)) {
            const w = dr === 0 || dc === 0 ? 2 : 1;
            sum += v * w;
            n += w;
          }
        }
      }
      values[k] = sum / n;
    }
    for (let k = 0; k < size; k++) surface[frontier[k]!] = values[k]!;
    let nextSize = 0;
    for (let k = 0; k < size; k++) {
      const i = frontier[k]!;
      const r = (i / cols) | 0;
      const c = i - r * cols;
      for (let dr = -1; dr <= 1; dr++) {
        const rr = r + dr;
        if (rr < 0 || rr >= rows) continue;
        for (let dc = -1; dc <= 1; dc++) {
          const cc = c + dc;
          if (cc < 0 || cc >= cols) continue;
          const j = rr * cols + cc;
          if (queued[j] || !Number.isNaN(surface[j]!)) continue;
          queued[j] = 1;
          if (nextSize === next.length) {
            const grown = new Int32Array(next.length * 2);
            grown.set(next);
            next = grown;
          }
          next[nextSize++] = j;
        }
      }
    }
    const swap = frontier;
    frontier = next;
    next = swap;
    size = nextSize;
  }
}

/**
 * Bilinear interpolation on a full (no NaN) surface whose cell (c, r) centre
 * is at (minX + (c + 0.5) * cell, minY + (r + 0.5) * cell); r grows northwards.
 */
export function bilinear(
  surface: Float32Array,
  cols: number,
  rows: number,
  minX: number,
  minY: number,
  cell: number,
  x: number,
  y: number,
): number {
  return bilinearAt(surface, cols, rows, (x - minX) / cell - 0.5, (y - minY) / cell - 0.5);
}

/**
 * {@link bilinear} at fractional cell coordinates (`fc`, `fr`): column and
 * row from the centre of cell (0, 0), clamped to the surface.
 */
export function bilinearAt(surface: Float32Array, cols: number, rows: number, fc: number, fr: number): number {
  if (fc < 0) fc = 0;
  else if (fc > cols - 1) fc = cols - 1;
  if (fr < 0) fr = 0;
  else if (fr > rows - 1) fr = rows - 1;
  const c0 = Math.min(Math.floor(fc), Math.max(0, cols - 2));
  const r0 = Math.min(Math.floor(fr), Math.max(0, rows - 2));
  const tx = cols > 1 ? fc - c0 : 0;
  const ty = rows > 1 ? fr - r0 : 0;
  const c1 = cols > 1 ? c0 + 1 : c0;
  const r1 = rows > 1 ? r0 + 1 : r0;
  const v00 = surface[r0 * cols + c0]!;
  const v10 = surface[r0 * cols + c1]!;
  const v01 = surface[r1 * cols + c0]!;
  const v11 = surface[r1 * cols + c1]!;
  return (v00 * (1 - tx) + v10 * tx) * (1 - ty) + (v01 * (1 - tx) + v11 * tx) * ty;
}

/** Gradient magnitude (rise over run) of a full surface by central differences. */
export function gradient(surface: Float32Array, cols: number, rows: number, cell: number): Float32Array {
  const out = new Float32Array(surface.length);
  for (let r = 0; r < rows; r++) {
    const r0 = r > 0 ? r - 1 : r;
    const r1 = r < rows - 1 ? r + 1 : r;
    for (let c = 0; c < cols; c++) {
      const c0 = c > 0 ? c - 1 : c;
      const c1 = c < cols - 1 ? c + 1 : c;
      const gx = c1 > c0 ? (surface[r * cols + c1]! - surface[r * cols + c0]!) / ((c1 - c0) * cell) : 0;
      const gy = r1 > r0 ? (surface[r1 * cols + c]! - surface[r0 * cols + c]!) / ((r1 - r0) * cell) : 0;
      out[r * cols + c] = Math.sqrt(gx * gx + gy * gy);
    }
  }
  return out;
}
