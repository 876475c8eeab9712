/**
 * The per-point loops of the tiler's bucket step, one loop per function.
 *
 * Why so small: V8 compiles a long-running function while its first loop
 * runs (on-stack replacement), before the code after that loop has ever run.
 * It then re-enters that compiled loop on every later call and drops it again
 * at the first statement it knows nothing about, so the rest of each call ran
 * unoptimised: 140 such bailouts in three tilings of wires.laz, the bucket
 * step at ~80 ns a point. A function made of one loop is compiled whole; its
 * results go into typed arrays it is given (an object or array built after
 * the loop would be such an unknown statement).
 */

/** X, Y, Z (scaled, offset) and intensity of `n` raw LAS records of `len` bytes. */
export function readXyzIntensity(
  view: DataView,
  n: number,
  len: number,
  scale: readonly number[],
  offset: readonly number[],
  x: Float64Array,
  y: Float64Array,
  z: Float64Array,
  intensity: Uint16Array,
): void {
  const sx = scale[0]!;
  const sy = scale[1]!;
  const sz = scale[2]!;
  const ox = offset[0]!;
  const oy = offset[1]!;
  const oz = offset[2]!;
  for (let i = 0, p = 0; i < n; i++, p += len) {
    x[i] = view.getInt32(p, true) * sx + ox;
    y[i] = view.getInt32(p + 4, true) * sy + oy;
    z[i] = view.getInt32(p + 8, true) * sz + oz;
    intensity[i] = view.getUint16(p + 12, true);
  }
}

/** One byte of each record (at `at`), masked. */
export function readByte(records: Uint8Array, n: number, len: number, at: number, mask: number, out: Uint8Array): void {
  for (let i = 0, p = at; i < n; i++, p += len) out[i] = records[p]! & mask;
}

/** The three 16-bit colour channels at `at` of each record. */
export function readRgb(
  view: DataView,
  n: number,
  len: number,
  at: number,
  red: Uint16Array,
  green: Uint16Array,
  blue: Uint16Array,
): void {
  for (let i = 0, p = at; i < n; i++, p += len) {
    red[i] = view.getUint16(p, true);
    green[i] = view.getUint16(p + 2, true);
    blue[i] = view.getUint16(p + 4, true);
  }
}

/** Smallest and largest x and y, as [minX, maxX, minY, maxY] in `out` (NaN when any is NaN). */
export function extremesXY(x: Float64Array, y: Float64Array, n: number, out: Float64Array): void {
  let minX = x[0]!;
  let maxX = minX;
  let minY = y[0]!;
  let maxY = minY;
  for (let i = 1; i < n; i++) {
    minX = Math.min(minX, x[i]!);
    maxX = Math.max(maxX, x[i]!);
    minY = Math.min(minY, y[i]!);
    maxY = Math.max(maxY, y[i]!);
  }
  out[0] = minX;
  out[1] = maxX;
  out[2] = minY;
  out[3] = maxY;
}

/**
 * Quantises local coordinates in place (integers in [0, `quantMax`]) and
 * gives each point its bucket id at `depth`, counting points per bucket.
 * Points outside the cube are clamped and counted; a non-finite point is
 * skipped (id 0, not counted). `out` receives the first such point (-1 if
 * none) and the number clamped.
 */
export function quantizeToBuckets(
  x: Float64Array,
  y: Float64Array,
  z: Float64Array,
  n: number,
  min: readonly number[],
  invQ: number,
  quantMax: number,
  depth: number,
  ids: Uint32Array,
  idCounts: Uint32Array,
  out: Float64Array,
): void {
  const mx = min[0]!;
  const my = min[1]!;
  const mz = min[2]!;
  const shift = 30 - depth;
  let badPoint = -1;
  let clamped = 0;
  for (let i = 0; i < n; i++) {
    const ex = x[i]!;
    const ny = y[i]!;
    const uz = z[i]!;
    // v - v is 0 for a finite v, NaN for NaN and ±Infinity.
    if (ex - ex !== 0 || ny - ny !== 0 || uz - uz !== 0) {
      if (badPoint < 0) badPoint = i;
      ids[i] = 0;
      continue;
    }
    let a = Math.floor((ex - mx) * invQ);
    let b = Math.floor((ny - my) * invQ);
    let d = Math.floor((uz - mz) * invQ);
    if (a < 0 || b < 0 || d < 0 || a > quantMax || b > quantMax || d > quantMax) {
      clamped++;
      a = a < 0 ? 0 : Math.min(a, quantMax);
      b = b < 0 ? 0 : Math.min(b, quantMax);
      d = d < 0 ? 0 : Math.min(d, quantMax);
    }
    x[i] = a;
    y[i] = b;
    z[i] = d;
    const id = ((a >> shift) << (2 * depth)) | ((b >> shift) << depth) | (d >> shift);
    ids[i] = id;
    idCounts[id]!++;
  }
  out[0] = badPoint;
  out[1] = clamped;
}

/** Adds the class codes of `n` points to a 256-bin histogram. */
export function countClasses(classification: Uint8Array, n: number, histogram: Float64Array): void {
  for (let i = 0; i < n; i++) histogram[classification[i]!]!++;
}

/** Largest colour value of `n` points. */
export function maxColor(red: Uint16Array, green: Uint16Array, blue: Uint16Array, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) m = Math.max(m, red[i]!, green[i]!, blue[i]!);
  return m;
}

/**
 * Copies each point's (quantised) coordinates to the next free place of its
 * bucket (`slot[id]`, advanced) and replaces its bucket id by that place.
 */
export function placeByBucket(
  ids: Uint32Array,
  slot: Uint32Array,
  n: number,
  x: Float64Array,
  y: Float64Array,
  z: Float64Array,
  bx: Int32Array,
  by: Int32Array,
  bz: Int32Array,
): void {
  for (let i = 0; i < n; i++) {
    const k = slot[ids[i]!]!++;
    ids[i] = k;
    bx[k] = x[i]!;
    by[k] = y[i]!;
    bz[k] = z[i]!;
  }
}

/** `out[places[i]] = values[i]` for 16-bit values. */
export function scatter16(values: Uint16Array, places: Uint32Array, n: number, out: Uint16Array): void {
  for (let i = 0; i < n; i++) out[places[i]!] = values[i]!;
}

/** `out[places[i]] = values[i]` for bytes. */
export function scatter8(values: Uint8Array, places: Uint32Array, n: number, out: Uint8Array): void {
  for (let i = 0; i < n; i++) out[places[i]!] = values[i]!;
}
