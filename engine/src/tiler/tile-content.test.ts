import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { enuFrameAt, geodeticToEcef } from './local-frame.js';
import type { OctreeSpace } from './octree.js';
import { allocBlock } from './point-block.js';
import { type ColorMode, encodeNodeContent } from './tile-content.js';

/** A block of `n` points (xorshift) in a 2 km cube, colours up to 16 bits, and a scattered half of them as a node. */
function fixture(n: number) {
  let state = 0x2545f491;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const block = allocBlock(n);
  block.count = n;
  // A 40 m cell of the cube (quanta of 2 km / 2^30): quantised and float positions both apply.
  const base = 2 ** 28;
  const span = 40 / (2000 / 2 ** 30);
  for (let i = 0; i < n; i++) {
    block.x[i] = base + Math.floor(next() * span);
    block.y[i] = base + Math.floor(next() * span);
    block.z[i] = base + Math.floor(next() * span * 0.3);
    block.intensity[i] = Math.floor(next() * 65536);
    block.classification[i] = Math.floor(next() * 20);
    block.red[i] = Math.floor(next() * 65536);
    block.green[i] = Math.floor(next() * 65536);
    block.blue[i] = Math.floor(next() * 300);
  }
  const indices = new Uint32Array(Math.floor(n / 2));
  for (let j = 0; j < indices.length; j++) indices[j] = (j * 7919) % n;
  const space: OctreeSpace = {
    frame: enuFrameAt(...geodeticToEcef(4.35, 50.85, 80)),
    min: [-1000, -1000, -50],
    size: 2000,
  };
  return { block, indices, space };
}

describe('encodeNodeContent', () => {
  // SHA-256 of the GLB of a fixed node, recorded before the per-point loops were split into functions
  // (V8 warm-up): any change to the bytes fails here.
  for (const [color, quantize, digest] of [
    ['none', false, 'beb5cd3841c6da79985c581b21e8619611759ed44a3c0daace1ce8b4a609b40c'],
    ['8bit', false, '942a4fc81c4ccd12ae7c59e0d60f23fb881240b6127d1eda56f2f3dbb91b25ce'],
    ['16bit', false, '45f05f099d47b9eade57221ec36c538a5f7359b85998b8b5fbb5ed41cd7474ee'],
    ['16bit', true, '505a3d864a63aa3577d9cd7a0db7ea2a7c7b2a9344359281fb5637f2bed2ac5b'],
    ['none', true, 'd4452b505a861a61dabed3f875ceb82ce2c49a64afb44513eb83ce5df558eb93'],
  ] as [ColorMode, boolean, string][]) {
    it(`writes unchanged bytes (colour ${color}, ${quantize ? 'int16' : 'float'} positions)`, () => {
      const { block, indices, space } = fixture(4001);
      const glb = encodeNodeContent(block, indices, space, { color, quantize });
      expect(createHash('sha256').update(glb).digest('hex')).toBe(digest);
    });
  }
});
