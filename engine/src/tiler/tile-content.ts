import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodePointCloudGlb } from '../writers/3dtiles.writer.js';
import { localToEcef } from './local-frame.js';
import { indexedBounds, type NodeAddress, nodeKey, type OctreeSpace, quantum } from './octree.js';
import type { PointBlock } from './point-block.js';
import { nodeColors, nodeColumns } from './point-loops.js';

/** How LAS colours map to 8 bits: `none` (no colour), `8bit` (values ≤ 255 as stored), `16bit` (high byte). */
export type ColorMode = 'none' | '8bit' | '16bit';

/** Largest tile extent (metres) written with int16 positions: its half-diagonal (√3/2 · 75.6 m) stays ≤ 65.5 m, a step ≤ 2 mm (rounding ≤ 1 mm, below LiDAR precision). */
export const MAX_QUANTIZED_EXTENT = 75.6;

/** How node contents are encoded. */
export interface ContentOptions {
  color: ColorMode;
  /** int16 positions with KHR_mesh_quantization (for tiles small enough to keep a ≤ 1 mm step). */
  quantize: boolean;
}

const scratch = {
  size: 0,
  positions: new Float32Array(0),
  intensity: new Uint16Array(0),
  classification: new Uint8Array(0),
  rgba: new Uint8Array(0),
  /** Centre and rotation handed to {@link nodeColumns}. */
  frame: new Float64Array(13),
};

/** Relative URI of a node's content inside the tileset folder. */
export function contentUri(a: NodeAddress | string): string {
  return `content/${typeof a === 'string' ? a : nodeKey(a)}.glb`;
}

/**
 * Encodes a node's points as a GLB: positions relative to the centre of the
 * points' bounds, rotated from local ENU to ECEF and written y-up.
 */
export function encodeNodeContent(
  points: PointBlock,
  indices: Uint32Array,
  space: OctreeSpace,
  { color, quantize }: ContentOptions,
  bounds: number[] = indexedBounds(points, indices)!,
): Uint8Array {
  const n = indices.length;
  const b = bounds;
  const q = quantum(space);
  // Half-quanta keep the centre exact in float64 without rounding.
  const cx2 = b[0]! + b[3]!;
  const cy2 = b[1]! + b[4]!;
  const cz2 = b[2]! + b[5]!;
  const centre = localToEcef(
    space.frame,
    space.min[0] + (cx2 / 2) * q,
    space.min[1] + (cy2 / 2) * q,
    space.min[2] + (cz2 / 2) * q,
  );
  // Scratch columns: the encoder copies them into the GLB, so they serve every node of this thread.
  if (scratch.size < n) {
    const size = Math.max(n, scratch.size * 2);
    scratch.size = size;
    scratch.positions = new Float32Array(size * 3);
    scratch.intensity = new Uint16Array(size);
    scratch.classification = new Uint8Array(size);
    scratch.rgba = new Uint8Array(size * 4);
  }
  const positions = scratch.positions.subarray(0, n * 3);
  const intensity = scratch.intensity.subarray(0, n);
  const classification = scratch.classification.subarray(0, n);
  const { east, north, up } = space.frame;
  const frame = scratch.frame;
  frame[0] = cx2;
  frame[1] = cy2;
  frame[2] = cz2;
  frame[3] = q / 2;
  frame.set(east, 4);
  frame.set(north, 7);
  frame.set(up, 10);
  const { x, y, z } = points;
  nodeColumns(x, y, z, points.intensity, points.classification, indices, frame, positions, intensity, classification);
  let rgba: Uint8Array | undefined;
  if (color !== 'none') {
    rgba = scratch.rgba.subarray(0, n * 4);
    nodeColors(points.red, points.green, points.blue, indices, color === '16bit' ? 8 : 0, rgba);
  }
  // One object shape whether or not there is colour: the encoder's hot code then sees one kind of argument.
  return encodePointCloudGlb({
    count: n,
    positions,
    translation: [centre[0], centre[2], -centre[1]],
    rgba,
    intensity,
    classification,
    // Bigger (upper-level, sparse) tiles stay float32 so no position moves by more than 1 mm.
    quantize: quantize && Math.max(b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!) * q <= MAX_QUANTIZED_EXTENT,
  });
}

/** Writes a node's content file under `outDir` (synchronously: called from workers and tight loops). */
export function writeNodeContent(
  outDir: string,
  a: NodeAddress,
  points: PointBlock,
  indices: Uint32Array,
  space: OctreeSpace,
  content: ContentOptions,
  bounds?: number[],
): number {
  const glb = encodeNodeContent(points, indices, space, content, bounds);
  writeFileSync(path.join(outDir, contentUri(a)), glb);
  return glb.byteLength;
}
