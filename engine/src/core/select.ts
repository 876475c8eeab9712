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

/**
 * The values of ranks `ranks` (ascending) of `values[0..count)`, as a sorted
 * copy would give them, from one unsorted copy: each selection narrows the
 * range the next one searches.
 */
export function quantiles(values: Float64Array, count: number, ranks: readonly number[]): number[] {
  const a = values.slice(0, count);
  const out: number[] = [];
  let lo = 0;
  for (const k of ranks) {
    if (k < lo) throw new RangeError('ranks must ascend');
    out.push(selectInPlace(a, k, lo, count - 1));
    lo = k;
  }
  return out;
}
