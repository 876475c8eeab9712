/**
 * Counts per integer key (any safe integer, e.g. a voxel's linear index):
 * an open-addressing hash table on typed arrays, several times faster than a
 * `Map<number, number>` on millions of additions and never holding a per-key
 * object. Grows by doubling past half full.
 *
 * @example
 * const counts = new CountTable();
 * counts.add(42);
 * counts.get(42); // 1
 */
export class CountTable {
  private keys: Float64Array;
  private counts: Int32Array;
  private used: Uint8Array;
  private mask: number;
  /** Distinct keys held. */
  size = 0;

  constructor(capacity = 1 << 12) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.keys = new Float64Array(cap);
    this.counts = new Int32Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
  }

  /** Adds one to the count of `key`. */
  add(key: number): void {
    let slot = this.slotOf(key);
    if (this.used[slot]) {
      this.counts[slot]!++;
      return;
    }
    if ((this.size + 1) * 2 > this.keys.length) {
      this.grow();
      slot = this.slotOf(key);
    }
    this.used[slot] = 1;
    this.keys[slot] = key;
    this.counts[slot] = 1;
    this.size++;
  }

  /** Calls `fn` with every key held (in no particular order). */
  forEachKey(fn: (key: number) => void): void {
    const { keys, used } = this;
    for (let s = 0; s < keys.length; s++) if (used[s]) fn(keys[s]!);
  }

  /** Count of `key` (0 when never added). */
  get(key: number): number {
    const slot = this.slotOf(key);
    return this.used[slot] ? this.counts[slot]! : 0;
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  private slotOf(key: number): number {
    const lo = key >>> 0;
    const hi = Math.floor(key / 4294967296) >>> 0;
    let slot = Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1);
    slot = (slot ^ (slot >>> 15)) & this.mask;
    const { used, keys, mask } = this;
    while (used[slot] && keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { keys, counts, used } = this;
    const cap = keys.length * 2;
    this.keys = new Float64Array(cap);
    this.counts = new Int32Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
    for (let s = 0; s < keys.length; s++) {
      if (!used[s]) continue;
      const slot = this.slotOf(keys[s]!);
      this.used[slot] = 1;
      this.keys[slot] = keys[s]!;
      this.counts[slot] = counts[s]!;
    }
  }
}
