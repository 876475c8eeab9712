import { describe, expect, it } from 'vitest';
import { enuFrameAt, geodeticToEcef } from './local-frame.js';
import { type BuildParams, buildSubtree, mergeIntoParent, type NodeAddress, nodeKey, QUANT_BITS } from './octree.js';
import { allocBlock, decodeBlocks, encodeBlock, type PointBlock } from './point-block.js';

function randomBlock(n: number, seed: number, spread = 2 ** QUANT_BITS): PointBlock {
  const b = allocBlock(n);
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return s / 4294967296;
  };
  for (let i = 0; i < n; i++) {
    b.x[i] = Math.floor(rnd() * spread);
    b.y[i] = Math.floor(rnd() * spread);
    b.z[i] = Math.floor(rnd() * spread * 0.05);
    b.intensity[i] = i & 0xffff;
    b.classification[i] = i % 7;
  }
  b.count = n;
  return b;
}

const params: BuildParams = {
  space: { frame: enuFrameAt(...geodeticToEcef(0, 0, 0)), min: [0, 0, 0], size: 1000 },
  maxPoints: 2000,
  minNodeSize: 0.15,
  gridBits: 5,
};

describe('octree', () => {
  it('puts every point in exactly one node', () => {
    const block = randomBlock(50_000, 1);
    const seen = new Uint8Array(block.count);
    const root: NodeAddress = { d: 0, x: 0, y: 0, z: 0 };
    const { nodes, rootPoints } = buildSubtree(block, root, params, (_a, b, idx) => {
      expect(b).toBe(block);
      for (const i of idx) seen[i]!++;
    });
    expect(rootPoints.count).toBeGreaterThan(0);
    expect(rootPoints.count).toBeLessThanOrEqual(params.maxPoints);
    const total = nodes.reduce((s, n) => s + n.count, 0);
    expect(total).toBe(50_000);
    expect(seen.reduce((s, v) => s + v, 0) + rootPoints.count).toBe(50_000);
    expect(seen.every((v) => v <= 1)).toBe(true);
    for (const n of nodes) {
      if (n.children.length === 0) expect(n.count).toBeLessThanOrEqual(params.maxPoints);
    }
  });

  it('keeps duplicates from recursing forever (minimum node size)', () => {
    const block = allocBlock(10_000);
    block.count = 10_000; // all at (0,0,0)
    const { nodes } = buildSubtree(block, { d: 0, x: 0, y: 0, z: 0 }, params, () => {});
    const deepest = Math.max(...nodes.map((n) => Number(n.key.split('-')[0])));
    expect(1000 / 2 ** deepest).toBeGreaterThanOrEqual(params.minNodeSize);
    expect(nodes.reduce((s, n) => s + n.count, 0)).toBe(10_000);
  });

  it('merges children roots into a parent without losing points', () => {
    const a = buildSubtree(randomBlock(8000, 2, 2 ** 29), { d: 1, x: 0, y: 0, z: 0 }, params, () => {});
    const b0 = randomBlock(6000, 3, 2 ** 29);
    for (let i = 0; i < b0.count; i++) b0.x[i]! += 2 ** 29;
    const b = buildSubtree(b0, { d: 1, x: 1, y: 0, z: 0 }, params, () => {});
    let sunk = 0;
    const m = mergeIntoParent(
      { d: 0, x: 0, y: 0, z: 0 },
      [
        { address: { d: 1, x: 0, y: 0, z: 0 }, points: a.rootPoints },
        { address: { d: 1, x: 1, y: 0, z: 0 }, points: b.rootPoints },
      ],
      params,
      (_addr, _blk, idx) => {
        sunk += idx.length;
      },
    );
    expect(m.parent.key).toBe(nodeKey({ d: 0, x: 0, y: 0, z: 0 }));
    expect(m.parentPoints.count + sunk).toBe(a.rootPoints.count + b.rootPoints.count);
    expect(m.children.map((c) => c.count).reduce((s, v) => s + v, 0)).toBe(sunk);
  });

  it('encodes and decodes blocks losslessly', () => {
    const a = randomBlock(1001, 4);
    const b = randomBlock(7, 5);
    const bytes = new Uint8Array([...encodeBlock(a), ...encodeBlock(b)]);
    const d = decodeBlocks(bytes);
    expect(d.count).toBe(1008);
    expect(d.x[1000]).toBe(a.x[1000]);
    expect(d.z[1004]).toBe(b.z[3]);
    expect(d.classification[1007]).toBe(b.classification[6]);
    expect(() => decodeBlocks(bytes.subarray(0, bytes.length - 4))).toThrow(/truncated/);
    // Blocks from several files come back in the order they carry, not in file order.
    const sorted = decodeBlocks([encodeBlock(b, 7_000), new Uint8Array([...encodeBlock(a, 3_000)])]);
    expect(sorted.count).toBe(1008);
    expect(sorted.x[0]).toBe(a.x[0]);
    expect(sorted.x[1001]).toBe(b.x[0]);
  });
});
