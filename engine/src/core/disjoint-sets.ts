/**
 * Disjoint sets of the whole numbers below `count` (union–find with path
 * halving), each set named by its root: one of its members. Used to group
 * points, cells or labels joined pair by pair (raised surfaces, grown
 * patches, building cells, small parts of outlines).
 *
 * @example
 * const sets = new DisjointSets(4);
 * sets.union(0, 1);
 * sets.find(0) === sets.find(1); // true
 */
export class DisjointSets {
  /** Each member's parent; a root is its own parent. */
  readonly parent: Int32Array;

  constructor(count: number) {
    this.parent = new Int32Array(count);
    for (let i = 0; i < count; i++) this.parent[i] = i;
  }

  /** The root of the set holding `a`. */
  find(a: number): number {
    const parent = this.parent;
    let r = a;
    while (parent[r] !== r) {
      parent[r] = parent[parent[r]!]!;
      r = parent[r]!;
    }
    return r;
  }

  /** Joins the sets of `a` and `b`: the root of `b`'s set becomes the root of both. */
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[ra] = rb;
  }
}
