import { describe, expect, it } from 'vitest';
import { acquireTilerPool, hasSparePool, releaseTilerPool } from './tiler-pool.js';
import { warmTilerPool } from './tiler-warm-up.js';

describe('acquireTilerPool', () => {
  it('hands a healthy pool to the next tiling, and a fresh one when it is taken or unhealthy', async () => {
    const first = acquireTilerPool(1);
    const concurrent = acquireTilerPool(1);
    expect(concurrent).not.toBe(first);
    await releaseTilerPool(concurrent, false); // failed tiling: closed, never reused
    await releaseTilerPool(first, true);
    const second = acquireTilerPool(1);
    expect(second).toBe(first);
    expect(second.reusable()).toBe(true);
    // Another size gets its own pool.
    const other = acquireTilerPool(0);
    expect(other).not.toBe(second);
    await releaseTilerPool(other, true);
    await releaseTilerPool(second, false);
    const last = acquireTilerPool(1);
    expect(last).not.toBe(first);
    await last.close();
  });
});

describe('warmTilerPool', () => {
  it('starts and warms a pool that the next tiling of that size takes', async () => {
    expect(hasSparePool(2)).toBe(false);
    await warmTilerPool(2);
    expect(hasSparePool(2)).toBe(true);
    const pool = acquireTilerPool(2);
    expect(pool.reusable()).toBe(true);
    expect(hasSparePool(2)).toBe(false);
    await releaseTilerPool(pool, true);
    // Warming again with the same size keeps that pool.
    await warmTilerPool(2);
    const again = acquireTilerPool(2);
    expect(again).toBe(pool);
    await again.close();
  });
});
