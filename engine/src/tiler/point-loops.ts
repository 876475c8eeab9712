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
 * none) and the number clamped, written before the loop and in its rare
 * branches: a store after the loop is code the loop's compiled version has
 * never seen run, and it gave that code up at the end of each call.
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
  out[0] = -1;
  out[1] = 0;
  for (let i = 0; i < n; i++) {
    const ex = x[i]!;
    const ny = y[i]!;
    const uz = z[i]!;
    // v - v is 0 for a finite v, NaN for NaN and ±Infinity.
    if (ex - ex !== 0 || ny - ny !== 0 || uz - uz !== 0) {
      if (out[0]! < 0) out[0] = i;
      ids[i] = 0;
      continue;
    }
    let a = Math.floor((ex - mx) * invQ);
    let b = Math.floor((ny - my) * invQ);
    let d = Math.floor((uz - mz) * invQ);
    if (a < 0 || b < 0 || d < 0 || a > quantMax || b > quantMax || d > quantMax) {
      out[1]!++;
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

/**
 * Columns of the points `indices` of a block for a tile content: their intensity, class, and
 * position relative to the centre, rotated from local ENU to ECEF and written y-up (x, z, -y), as
 * float32 triples. `frame` holds the centre
 * as doubled quantised coordinates (cx2, cy2, cz2), half a quantum in metres, then the east, north
 * and up unit vectors. The same operations, in the same order, as the exact formulation, so
 * positions do not depend on how this loop is written.
 */
export function nodeColumns(
  x: Int32Array,
  y: Int32Array,
  z: Int32Array,
  pointIntensity: Uint16Array,
  pointClass: Uint8Array,
  indices: Uint32Array,
  frame: Float64Array,
  positions: Float32Array,
  intensity: Uint16Array,
  classification: Uint8Array,
): void {
  const cx2 = frame[0]!;
  const cy2 = frame[1]!;
  const cz2 = frame[2]!;
  const hq = frame[3]!;
  const e0 = frame[4]!;
  const e1 = frame[5]!;
  const e2 = frame[6]!;
  const n0 = frame[7]!;
  const n1 = frame[8]!;
  const n2 = frame[9]!;
  const u0 = frame[10]!;
  const u1 = frame[11]!;
  const u2 = frame[12]!;
  const n = indices.length;
  for (let j = 0, o = 0; j < n; j++, o += 3) {
    const i = indices[j]!;
    const dx = (2 * x[i]! - cx2) * hq;
    const dy = (2 * y[i]! - cy2) * hq;
    const dz = (2 * z[i]! - cz2) * hq;
    positions[o] = e0 * dx + n0 * dy + u0 * dz;
    positions[o + 1] = e2 * dx + n2 * dy + u2 * dz;
    positions[o + 2] = -(e1 * dx + n1 * dy + u1 * dz);
    intensity[j] = pointIntensity[i]!;
    classification[j] = pointClass[i]!;
  }
}

/** RGBA (opaque) of the points `indices`: each LAS channel shifted right by `shift` and capped at 255. */
export function nodeColors(
  red: Uint16Array,
  green: Uint16Array,
  blue: Uint16Array,
  indices: Uint32Array,
  shift: number,
  rgba: Uint8Array,
): void {
  const n = indices.length;
  for (let j = 0, o = 0; j < n; j++, o += 4) {
    const i = indices[j]!;
    const r = red[i]! >> shift;
    const g = green[i]! >> shift;
    const b = blue[i]! >> shift;
    rgba[o] = r > 255 ? 255 : r;
    rgba[o + 1] = g > 255 ? 255 : g;
    rgba[o + 2] = b > 255 ? 255 : b;
    rgba[o + 3] = 255;
  }
}
