/**
 * What the scanner saw under a return: a wire is a few centimetres thick and
 * hides nothing, so the ground (or whatever stands below it) is seen all
 * around beneath it; a roof is opaque, and nothing is seen under it but near
 * its edges. Rows of returns along the scan lines of a sparsely scanned roof
 * look like wires to the shape tests: on the IGN tile, 372 of the 406
 * returns the wire search labelled lay on the vendor's roofs; with this test
 * it labels 98.
 */

/**
 * The lowest return of each column (square cell `cell` wide in plan, relative
 * to an origin) of a cloud, in an open-addressing hash of flat typed arrays
 * (structured-cloneable: sent to the wire worker with its task).
 */
export interface LowestReturns {
  cell: number;
  ox: number;
  oy: number;
  /** Column of each slot (x and y cells); `used` 0 marks an empty slot. */
  slotX: Int32Array;
  slotY: Int32Array;
  used: Uint8Array;
  /** Lowest z of the slot's column. */
  lowest: Float64Array;
}

/** Slot of column (ax, ay): its own, or the empty slot where it would go. */
function slotOf(table: LowestReturns, ax: number, ay: number): number {
  const mask = table.used.length - 1;
  let h = (Math.imul(ax, 0x9e3779b1) ^ Math.imul(ay, 0x85ebca77)) & mask;
  while (table.used[h]! > 0 && (table.slotX[h] !== ax || table.slotY[h] !== ay)) h = (h + 1) & mask;
  return h;
}

/** An empty table of `size` slots (a power of two). */
function emptyTable(cell: number, ox: number, oy: number, size: number): LowestReturns {
  return {
    cell,
    ox,
    oy,
    slotX: new Int32Array(size),
    slotY: new Int32Array(size),
    used: new Uint8Array(size),
    lowest: new Float64Array(size),
  };
}

/** Puts column (ax, ay) with a return at `z` in the table; returns whether the column is new. */
function put(table: LowestReturns, ax: number, ay: number, z: number): boolean {
  const h = slotOf(table, ax, ay);
  if (table.used[h] === 0) {
    table.used[h] = 1;
    table.slotX[h] = ax;
    table.slotY[h] = ay;
    table.lowest[h] = z;
    return true;
  }
  if (z < table.lowest[h]!) table.lowest[h] = z;
  return false;
}

/**
 * The lowest return of every `cell`-wide column of a cloud, columns counted
 * from (ox, oy). The table holds at most twice as many slots as columns.
 */
export function lowestReturns(
  x: Float64Array,
  y: Float64Array,
  z: Float64Array,
  count: number,
  ox: number,
  oy: number,
  cell: number,
): LowestReturns {
  let table = emptyTable(cell, ox, oy, 1024);
  let columns = 0;
  for (let i = 0; i < count; i++) {
    if (!put(table, Math.floor((x[i]! - ox) / cell), Math.floor((y[i]! - oy) / cell), z[i]!)) continue;
    if (++columns * 2 <= table.used.length) continue;
    const old = table;
    table = emptyTable(cell, ox, oy, old.used.length * 2);
    for (let h = 0; h < old.used.length; h++) {
      if (old.used[h]) put(table, old.slotX[h]!, old.slotY[h]!, old.lowest[h]!);
    }
  }
  return table;
}

/**
 * {@link lowestReturns} for the columns that {@link seenBelow} looks at
 * around the points `px`, `py` (`points` of them) only: the same lowest
 * return in each of those columns (+∞ in those holding none, which then
 * count as empty), the others left out. Under a few wire returns, far
 * cheaper than the whole cloud's table (a small hash, read once per return)
 * and far smaller: on a 17 M-point forest, a few kilobytes for hundreds of
 * megabytes.
 */
export function lowestReturnsNear(
  x: Float64Array,
  y: Float64Array,
  z: Float64Array,
  count: number,
  ox: number,
  oy: number,
  cell: number,
  px: ArrayLike<number>,
  py: ArrayLike<number>,
  points: number,
  reach: number,
): LowestReturns {
  let columns = 0;
  for (let k = 0; k < points; k++) {
    const w = Math.floor((px[k]! - ox + reach) / cell) - Math.floor((px[k]! - ox - reach) / cell) + 1;
    const h = Math.floor((py[k]! - oy + reach) / cell) - Math.floor((py[k]! - oy - reach) / cell) + 1;
    columns += w * h;
  }
  let size = 16;
  while (size < 2 * columns) size *= 2;
  const table = emptyTable(cell, ox, oy, size);
  let x0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < points; k++) {
    const ax0 = Math.floor((px[k]! - ox - reach) / cell);
    const ax1 = Math.floor((px[k]! - ox + reach) / cell);
    const ay0 = Math.floor((py[k]! - oy - reach) / cell);
    const ay1 = Math.floor((py[k]! - oy + reach) / cell);
    x0 = Math.min(x0, ax0);
    x1 = Math.max(x1, ax1);
    y0 = Math.min(y0, ay0);
    y1 = Math.max(y1, ay1);
    for (let ax = ax0; ax <= ax1; ax++) {
      for (let ay = ay0; ay <= ay1; ay++) put(table, ax, ay, Number.POSITIVE_INFINITY);
    }
  }
  if (points === 0) return table;
  const { used, slotX, slotY, lowest } = table;
  const mask = used.length - 1;
  for (let i = 0; i < count; i++) {
    const ax = Math.floor((x[i]! - ox) / cell);
    if (ax < x0 || ax > x1) continue;
    const ay = Math.floor((y[i]! - oy) / cell);
    if (ay < y0 || ay > y1) continue;
    let h = (Math.imul(ax, 0x9e3779b1) ^ Math.imul(ay, 0x85ebca77)) & mask;
    while (used[h]! > 0 && (slotX[h] !== ax || slotY[h] !== ay)) h = (h + 1) & mask;
    if (used[h]! > 0 && z[i]! < lowest[h]!) lowest[h] = z[i]!;
  }
  return table;
}

/**
 * Whether a return of the table's cloud lies more than `drop` below (px, py,
 * pz), in a column within `reach` of (px, py) in plan (the block of columns
 * holding that square).
 */
export function seenBelow(
  table: LowestReturns,
  px: number,
  py: number,
  pz: number,
  reach: number,
  drop: number,
): boolean {
  const { cell, ox, oy } = table;
  const x0 = Math.floor((px - ox - reach) / cell);
  const x1 = Math.floor((px - ox + reach) / cell);
  const y0 = Math.floor((py - oy - reach) / cell);
  const y1 = Math.floor((py - oy + reach) / cell);
  for (let ax = x0; ax <= x1; ax++) {
    for (let ay = y0; ay <= y1; ay++) {
      const h = slotOf(table, ax, ay);
      if (table.used[h]! > 0 && table.lowest[h]! < pz - drop) return true;
    }
  }
  return false;
}
