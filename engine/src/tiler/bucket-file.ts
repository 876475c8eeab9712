import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { type NodeAddress, octantOf } from './octree.js';
import {
  allocBlock,
  BLOCK_HEADER_BYTES,
  blockHeader,
  decodeBlocks,
  encodeBlock,
  encodedSize,
  type PointBlock,
} from './point-block.js';

/**
 * Reads the files of a bucket (sequences of encoded blocks, one file per
 * thread that wrote to it) into one block, in input order.
 */
export async function readBucket(files: string[]): Promise<PointBlock> {
  const all = await Promise.all(files.map((f) => readFile(f)));
  return decodeBlocks(all.map((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)));
}

/**
 * Splits a bucket file into the 8 children of its node, streaming block by
 * block so memory stays at one block whatever the bucket size. Returns the
 * point count of each child file (files with 0 points are not created).
 */
export function splitBucket(file: string, address: NodeAddress, childFile: (octant: number) => string): number[] {
  const counts = new Array<number>(8).fill(0);
  const fds = new Array<number | undefined>(8).fill(undefined);
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(BLOCK_HEADER_BYTES);
    let pos = 0;
    for (;;) {
      if (readSync(fd, head, 0, BLOCK_HEADER_BYTES, pos) < BLOCK_HEADER_BYTES) break;
      const { n, order } = blockHeader(new DataView(head.buffer, head.byteOffset, BLOCK_HEADER_BYTES), 0);
      const size = encodedSize(n);
      const buf = Buffer.alloc(size);
      if (readSync(fd, buf, 0, size, pos) < size) throw new Error(`bucket ${file} truncated at byte ${pos}`);
      pos += size;
      const block = decodeBlocks(new Uint8Array(buf.buffer, buf.byteOffset, size));
      const parts = Array.from({ length: 8 }, () => allocBlock(0));
      const oct = new Uint8Array(n);
      const per = new Int32Array(8);
      for (let i = 0; i < n; i++) {
        const o = octantOf(block.x[i]!, block.y[i]!, block.z[i]!, address.d);
        oct[i] = o;
        per[o]!++;
      }
      for (let o = 0; o < 8; o++) parts[o] = allocBlock(per[o]!);
      for (let i = 0; i < n; i++) {
        const p = parts[oct[i]!]!;
        const j = p.count++;
        p.x[j] = block.x[i]!;
        p.y[j] = block.y[i]!;
        p.z[j] = block.z[i]!;
        p.intensity[j] = block.intensity[i]!;
        p.classification[j] = block.classification[i]!;
        p.red[j] = block.red[i]!;
        p.green[j] = block.green[i]!;
        p.blue[j] = block.blue[i]!;
      }
      for (let o = 0; o < 8; o++) {
        if (per[o] === 0) continue;
        fds[o] ??= openSync(childFile(o), 'a');
        // Each child block keeps its parent block's place in the input.
        writeSync(fds[o]!, encodeBlock(parts[o]!, order));
        counts[o]! += per[o]!;
      }
    }
  } finally {
    closeSync(fd);
    for (const f of fds) if (f !== undefined) closeSync(f);
  }
  return counts;
}
