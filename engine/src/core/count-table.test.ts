import { describe, expect, it } from 'vitest';
import { CountTable } from './count-table.js';

describe('CountTable', () => {
  it('counts like a Map, across growth and keys beyond 32 bits', () => {
    const table = new CountTable(4);
    const reference = new Map<number, number>();
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let k = 0; k < 50_000; k++) {
      // Few distinct small keys (many repeats) and large ones above 2^32 that share their low 32 bits.
      const key = k % 3 === 0 ? Math.floor(random() * 500) : 2 ** 33 * (1 + Math.floor(random() * 40)) + 17;
      table.add(key);
      reference.set(key, (reference.get(key) ?? 0) + 1);
    }
    expect(table.size).toBe(reference.size);
    for (const [key, n] of reference) expect(table.get(key)).toBe(n);
    expect(table.get(123_456_789)).toBe(0);
    expect(table.get(2 ** 33 * 41 + 17)).toBe(0);
  });

  it('holds key 0 and negative keys', () => {
    const table = new CountTable();
    table.add(0);
    table.add(0);
    table.add(-5);
    expect([table.get(0), table.get(-5), table.get(5), table.size]).toEqual([2, 1, 0, 2]);
  });
});
