import { describe, expect, it } from 'vitest';
import { DisjointSets } from './disjoint-sets.js';

describe('DisjointSets', () => {
  it('groups what is joined pair by pair, and nothing else', () => {
    const sets = new DisjointSets(8);
    for (const [a, b] of [
      [0, 1],
      [2, 3],
      [1, 3],
      [5, 6],
      [6, 5],
    ] as const) {
      sets.union(a, b);
    }
    const groups = new Map<number, number[]>();
    for (let i = 0; i < 8; i++) groups.set(sets.find(i), [...(groups.get(sets.find(i)) ?? []), i]);
    expect([...groups.values()].sort((a, b) => a[0]! - b[0]!)).toEqual([[0, 1, 2, 3], [4], [5, 6], [7]]);
    // The root of the second set becomes the root of both.
    const fresh = new DisjointSets(3);
    fresh.union(0, 2);
    expect(fresh.find(0)).toBe(2);
    expect(fresh.parent[2]).toBe(2);
  });

  it('halves the path each find walks', () => {
    const n = 1000;
    const sets = new DisjointSets(n);
    // Each union hangs a root under the next member: a chain 999 links long.
    for (let i = 0; i + 1 < n; i++) sets.union(i, i + 1);
    const depth = (from: number) => {
      let d = 0;
      for (let a = from; sets.parent[a] !== a; a = sets.parent[a]!) d++;
      return d;
    };
    expect(depth(0)).toBe(n - 1);
    expect(sets.find(0)).toBe(n - 1);
    expect(depth(0)).toBe(n / 2);
    sets.find(0);
    expect(depth(0)).toBe(250);
  });
});
