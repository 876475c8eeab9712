/**
 * Grid operations on Float32 surfaces stored row-major (`cols` × `rows`),
 * with NaN for empty cells. Used by the ground filter (SMRF) and by HAG.
 */

/**
 * 1D running min over a window of 2r+1 (van Herk / Gil-Werman, O(n)) along a
 * strided line; `g` and `h` are scratch arrays of at least n + 2r elements.
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
): void {
  const k = 2 * r + 1;
  const m = n + 2 * r;
  for (let i = 0; i < r; i++) {
    g[i] = Number.POSITIVE_INFINITY;
    g[m - 1 - i] = Number.POSITIVE_INFINITY;
  }
  for (let j = 0; j < n; j++) g[j + r] = src[offset + j * stride]!;
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

/** Erosion of a surface with a square window of radius r cells. */
function erode(
  src: Float32Array,
  cols: number,
  rows: number,
  r: number,
  tmp: Float32Array,
  out: Float32Array,
): Float32Array {
  const len = cols + 2 * r + 1;
  const g = new Float32Array(len);
  const h = new Float32Array(len);
  for (let row = 0; row < rows; row++) runMin(src, tmp, row * cols, 1, cols, r, g, h);
  runMinColumns(tmp, out, cols, rows, r);
  return out;
}

/**
 * {@link runMin} down every column at once, row after row (memory in order,
 * not one cell per cache line): the same blocks, comparisons and results.
 */
function runMinColumns(src: Float32Array, dst: Float32Array, cols: number, rows: number, r: number): void {
  const k = 2 * r + 1;
  const m = rows + 2 * r;
  // Padded line i holds source row i - r (+∞ above and below the surface).
  const g = new Float32Array(m * cols);
  const h = new Float32Array(m * cols);
  g.fill(Number.POSITIVE_INFINITY, 0, r * cols);
  g.set(src.subarray(0, rows * cols), r * cols);
  g.fill(Number.POSITIVE_INFINITY, (r + rows) * cols);
  h.set(g);
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
  for (let j = 0; j < rows * cols; j++) dst[j] = Math.min(h[j]!, g[j + w]!);
}

/** Erosion (isMin) or dilation of a full surface with a square window of radius r cells. */
export function morph(src: Float32Array, cols: number, rows: number, r: number, isMin: boolean): Float32Array {
  if (isMin) return erode(src, cols, rows, r, new Float32Array(src.length), new Float32Array(src.length));
  // Dilation is erosion of the negated surface.
  const neg = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) neg[i] = -src[i]!;
  const out = erode(neg, cols, rows, r, new Float32Array(src.length), neg);
  for (let i = 0; i < out.length; i++) out[i] = -out[i]!;
  return out;
}

/** Morphological opening (erosion then dilation) with a square window of radius r. */
export function open(src: Float32Array, cols: number, rows: number, r: number): Float32Array {
  return morph(morph(src, cols, rows, r, true), cols, rows, r, false);
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
  let fc = (x - minX) / cell - 0.5;
  let fr = (y - minY) / cell - 0.5;
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
