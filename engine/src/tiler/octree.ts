import type { LocalFrame } from './local-frame.js';
import { allocBlock, gatherBlock, type PointBlock } from './point-block.js';

/** Quantised coordinates are integers in [0, 2^QUANT_BITS). */
export const QUANT_BITS = 30;
export const QUANT_MAX = 2 ** QUANT_BITS - 1;
/** Deepest octree level ever built (far below any useful minimum node size). */
export const MAX_DEPTH = 24;

/** The octree's root cube in the local ENU frame. */
export interface OctreeSpace {
  frame: LocalFrame;
  /** Minimum corner of the cube in local ENU metres. */
  min: [number, number, number];
  /** Cube edge in metres. */
  size: number;
}

/** Metres a quantum step stands for. */
export function quantum(space: OctreeSpace): number {
  return space.size / 2 ** QUANT_BITS;
}

/** Octree node address: depth and integer position at that depth. */
export interface NodeAddress {
  d: number;
  x: number;
  y: number;
  z: number;
}

/** `d-x-y-z`, the node's id and the stem of its content file. */
export function nodeKey(a: NodeAddress): string {
  return `${a.d}-${a.x}-${a.y}-${a.z}`;
}

export function parseNodeKey(key: string): NodeAddress {
  const [d, x, y, z] = key.split('-').map(Number) as [number, number, number, number];
  return { d, x, y, z };
}

/** Child `octant` (bit 0 east, 1 north, 2 up) of a node. */
export function childAddress(a: NodeAddress, octant: number): NodeAddress {
  return { d: a.d + 1, x: a.x * 2 + (octant & 1), y: a.y * 2 + ((octant >> 1) & 1), z: a.z * 2 + ((octant >> 2) & 1) };
}

/** Parent of a node (depth > 0). */
export function parentAddress(a: NodeAddress): NodeAddress {
  return { d: a.d - 1, x: a.x >> 1, y: a.y >> 1, z: a.z >> 1 };
}

/** Which child of a node at depth `d` a quantised point falls in. */
export function octantOf(x: number, y: number, z: number, d: number): number {
  const s = QUANT_BITS - d - 1;
  return ((x >> s) & 1) | (((y >> s) & 1) << 1) | (((z >> s) & 1) << 2);
}

/** Settings of the subtree builder (already validated). */
export interface BuildParams {
  space: OctreeSpace;
  /** Points above which a node is split. */
  maxPoints: number;
  /** Nodes are not split when their children would be smaller than this edge (metres). */
  minNodeSize: number;
  /** log2 of the sampling grid per node axis (7 → 128³ cells). */
  gridBits: number;
}

/** What the builder learnt about one node. */
export interface NodeSummary {
  key: string;
  /** Points whose content lives in this node (0 for a node that gave all its points to its parent). */
  count: number;
  /** Tight quantised bounds of the node's own points [minX, minY, minZ, maxX, maxY, maxZ], null when empty. */
  bounds: number[] | null;
  /** Keys of existing children. */
  children: string[];
}

/** Bounds of a whole block, or null when empty. */
export function blockBounds(block: PointBlock): number[] | null {
  if (block.count === 0) return null;
  let x0 = QUANT_MAX;
  let y0 = QUANT_MAX;
  let z0 = QUANT_MAX;
  let x1 = 0;
  let y1 = 0;
  let z1 = 0;
  const { x, y, z } = block;
  for (let i = 0; i < block.count; i++) {
    const a = x[i]!;
    const b = y[i]!;
    const c = z[i]!;
    if (a < x0) x0 = a;
    if (a > x1) x1 = a;
    if (b < y0) y0 = b;
    if (b > y1) y1 = b;
    if (c < z0) z0 = c;
    if (c > z1) z1 = c;
  }
  return [x0, y0, z0, x1, y1, z1];
}

/**
 * Picks the points a node keeps for itself: at most one per cell of a
 * 2^gridBits grid over the node, and at most `maxPoints`; returns them first
 * in a reordered copy of `indices` and how many were picked.
 */
export class GridSampler {
  private readonly stamp: Int32Array;
  private current = 0;
  constructor(readonly gridBits: number) {
    this.stamp = new Int32Array(1 << (3 * gridBits));
  }

  select(
    block: PointBlock,
    indices: Uint32Array,
    d: number,
    maxPoints: number,
  ): { order: Uint32Array; picked: number } {
    this.current++;
    if (this.current === 0x7fffffff) {
      this.stamp.fill(0);
      this.current = 1;
    }
    const cur = this.current;
    const bits = this.gridBits;
    const mask = (1 << bits) - 1;
    const shift = Math.max(0, QUANT_BITS - d - bits);
    const { x, y, z } = block;
    const n = indices.length;
    const order = new Uint32Array(n);
    let head = 0;
    let tail = n;
    for (let j = 0; j < n; j++) {
      const i = indices[j]!;
      const cell =
        (((x[i]! >> shift) & mask) << (2 * bits)) | (((y[i]! >> shift) & mask) << bits) | ((z[i]! >> shift) & mask);
      if (head < maxPoints && this.stamp[cell] !== cur) {
        this.stamp[cell] = cur;
        order[head++] = i;
      } else {
        order[--tail] = i;
      }
    }
    // The rest was filled from the end; restore file order for stable output.
    order.subarray(head).reverse();
    return { order, picked: head };
  }
}

/** True when a node at depth `d` may be split (its children stay ≥ minNodeSize and within MAX_DEPTH). */
export function canSplit(params: BuildParams, d: number): boolean {
  return d < MAX_DEPTH && params.space.size / 2 ** (d + 1) >= params.minNodeSize;
}

/** Splits indices into the 8 children of a node at depth `d` (counting sort). */
export function partitionOctants(block: PointBlock, indices: Uint32Array, d: number): Uint32Array[] {
  const counts = new Int32Array(8);
  const oct = new Uint8Array(indices.length);
  const { x, y, z } = block;
  for (let j = 0; j < indices.length; j++) {
    const i = indices[j]!;
    const o = octantOf(x[i]!, y[i]!, z[i]!, d);
    oct[j] = o;
    counts[o]!++;
  }
  const parts = Array.from({ length: 8 }, (_, o) => new Uint32Array(counts[o]!));
  const fill = new Int32Array(8);
  for (let j = 0; j < indices.length; j++) {
    const o = oct[j]!;
    parts[o]![fill[o]!++] = indices[j]!;
  }
  return parts;
}

/** Receives each finished node's content (never called with an empty node). */
export type NodeSink = (address: NodeAddress, points: PointBlock) => void;

/**
 * Builds the octree below `root` from points that all lie in it. Every node
 * but the root is final and handed to `sink`; the root's points are returned
 * so that ancestors can still take their share (see `mergeIntoParent`).
 * Every input point ends up in exactly one node.
 */
export function buildSubtree(
  block: PointBlock,
  root: NodeAddress,
  params: BuildParams,
  sink: NodeSink,
  sampler = new GridSampler(params.gridBits),
): { nodes: NodeSummary[]; rootPoints: PointBlock } {
  const nodes: NodeSummary[] = [];
  const all = new Uint32Array(block.count);
  for (let i = 0; i < block.count; i++) all[i] = i;
  let rootPoints = allocBlock(0);

  const visit = (a: NodeAddress, indices: Uint32Array): NodeSummary => {
    const summary: NodeSummary = { key: nodeKey(a), count: 0, bounds: null, children: [] };
    nodes.push(summary);
    let own: PointBlock;
    if (indices.length <= params.maxPoints || !canSplit(params, a.d)) {
      own = gatherBlock(block, indices);
    } else {
      const { order, picked } = sampler.select(block, indices, a.d, params.maxPoints);
      own = gatherBlock(block, order, 0, picked);
      const parts = partitionOctants(block, order.subarray(picked), a.d);
      for (let o = 0; o < 8; o++) {
        if (parts[o]!.length > 0) summary.children.push(visit(childAddress(a, o), parts[o]!).key);
      }
    }
    summary.count = own.count;
    summary.bounds = blockBounds(own);
    if (a === root) rootPoints = own;
    else if (own.count > 0) sink(a, own);
    return summary;
  };
  visit(root, all);
  return { nodes, rootPoints };
}

/**
 * Creates the parent node over children whose roots are not yet final: the
 * parent samples from the union of the children's root points, the rest goes
 * back to each child, whose content then becomes final (handed to `sink`).
 * Returns the parent's summary, the children's updated summaries and the
 * parent's points (not yet final either).
 */
export function mergeIntoParent(
  parent: NodeAddress,
  children: { address: NodeAddress; points: PointBlock }[],
  params: BuildParams,
  sink: NodeSink,
  sampler = new GridSampler(params.gridBits),
): {
  parent: NodeSummary;
  children: { key: string; count: number; bounds: number[] | null }[];
  parentPoints: PointBlock;
} {
  const total = children.reduce((s, c) => s + c.points.count, 0);
  const union = allocBlock(total);
  const owner = new Uint8Array(total);
  let at = 0;
  children.forEach((c, ci) => {
    const p = c.points;
    union.x.set(p.x.subarray(0, p.count), at);
    union.y.set(p.y.subarray(0, p.count), at);
    union.z.set(p.z.subarray(0, p.count), at);
    union.intensity.set(p.intensity.subarray(0, p.count), at);
    union.classification.set(p.classification.subarray(0, p.count), at);
    union.red.set(p.red.subarray(0, p.count), at);
    union.green.set(p.green.subarray(0, p.count), at);
    union.blue.set(p.blue.subarray(0, p.count), at);
    owner.fill(ci, at, at + p.count);
    at += p.count;
  });
  union.count = total;
  const all = new Uint32Array(total);
  for (let i = 0; i < total; i++) all[i] = i;
  const { order, picked } = sampler.select(union, all, parent.d, params.maxPoints);
  const parentPoints = gatherBlock(union, order, 0, picked);
  const rest = order.subarray(picked);
  const perChild: number[][] = children.map(() => []);
  for (let j = 0; j < rest.length; j++) perChild[owner[rest[j]!]!]!.push(rest[j]!);
  const childSummaries = children.map((c, ci) => {
    const own = gatherBlock(union, Uint32Array.from(perChild[ci]!));
    if (own.count > 0) sink(c.address, own);
    return { key: nodeKey(c.address), count: own.count, bounds: blockBounds(own) };
  });
  return {
    parent: {
      key: nodeKey(parent),
      count: parentPoints.count,
      bounds: blockBounds(parentPoints),
      children: children.map((c) => nodeKey(c.address)),
    },
    children: childSummaries,
    parentPoints,
  };
}
