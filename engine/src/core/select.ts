/**
 * Order statistics without a full sort: {@link selectInPlace} moves the k-th
 * smallest value of a typed array to index k (smaller or equal ones before
 * it, greater or equal ones after), in linear expected time, and
 * {@link quantiles} reads several of them from one copy.
 */

/**
 * Quickselect with a median-of-three pivot and a three-way partition (runs of
 * equal values, common in quantised coordinates, are settled in one pass).
 * Works on `a[lo..hi]` (inclusive); returns `a[k]`.
 */
export function selectInPlace(a: Float64Array, k: number, lo = 0, hi = a.length - 1): number {
  if (k < lo || k > hi) throw new RangeError(`rank ${k} outside [${lo}, ${hi}]`);
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    const x = a[lo]!;
    const y = a[mid]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    // a[lo..lt-1] < pivot, a[lt..i-1] == pivot, a[gt+1..hi] > pivot.
    let lt = lo;
    let i = lo;
    let gt = hi;
    while (i <= gt) {
      const v = a[i]!;
      if (v < pivot) {
        a[i] = a[lt]!;
        a[lt] = v;
        lt++;
        i++;
      } else if (v > pivot) {
        a[i] = a[gt]!;
        a[gt] = v;
        gt--;
      } else {
        i++;
      }
    }
    if (k < lt) hi = lt - 1;
    else if (k > gt) lo = gt + 1;
    else return pivot;
  }
  return a[k]!;
}

/** Bins of the histogram {@link quantiles} narrows the ranks with. */
const QUANTILE_BINS = 1 << 16;

/**
 * The values of ranks `ranks` (ascending) of `values[0..count)`, as a sorted
 * copy would give them, without copying the values: a histogram over
 * [lo, hi] (the values' range, found when not given) finds the bin of every
 * rank (bins follow value order, as the bin of a value never decreases with
 * it), and the rank is selected among that bin's values only.
 */
export function quantiles(
  values: Float64Array,
  count: number,
  ranks: readonly number[],
  range: { lo: number; hi: number } = rangeOf(values, count),
): number[] {
  const { lo, hi } = range;
  const bins = QUANTILE_BINS;
  const scale = hi > lo ? bins / (hi - lo) : 0;
  const last = bins - 1;
  const histogram = new Int32Array(bins);
  for (let i = 0; i < count; i++) {
    let bin = Math.floor((values[i]! - lo) * scale);
    if (bin > last) bin = last;
    else if (bin < 0) bin = 0;
    histogram[bin]!++;
  }
  // The bin of each rank, and the rank within that bin.
  const rankBin = new Int32Array(ranks.length);
  const within: number[] = [];
  let bin = 0;
  let before = 0;
  for (let q = 0; q < ranks.length; q++) {
    const k = ranks[q]!;
    if (k < 0 || k >= count || (q > 0 && k < ranks[q - 1]!)) throw new RangeError('ranks must ascend within the count');
    while (before + histogram[bin]! <= k) before += histogram[bin++]!;
    rankBin[q] = bin;
    within.push(k - before);
  }
  // The values of the wanted bins, gathered in one pass (a bin wanted by several ranks once).
  const slot = new Int32Array(bins).fill(-1);
  const offsets: number[] = [];
  let total = 0;
  for (let q = 0; q < ranks.length; q++) {
    const b = rankBin[q]!;
    if (slot[b]! >= 0) continue;
    slot[b] = offsets.length;
    offsets.push(total);
    total += histogram[b]!;
  }
  offsets.push(total);
  const gathered = new Float64Array(total);
  const fill = offsets.slice(0, -1);
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    let b = Math.floor((v - lo) * scale);
    if (b > last) b = last;
    else if (b < 0) b = 0;
    const s = slot[b]!;
    if (s >= 0) gathered[fill[s]!++] = v;
  }
  const out: number[] = [];
  for (let q = 0; q < ranks.length; q++) {
    const s = slot[rankBin[q]!]!;
    out.push(selectInPlace(gathered, offsets[s]! + within[q]!, offsets[s]!, offsets[s + 1]! - 1));
  }
  return out;
}

/** Least and greatest of `values[0..count)` (+Infinity and -Infinity when there are none). */
export function rangeOf(values: Float64Array, count: number): { lo: number; hi: number } {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return { lo, hi };
}
