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

/** Indices 0..n-1 (a loop of its own: see point-loops.ts). */
export function identityIndices(n: number): Uint32Array {
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/** Bounds of the points `indices` of a block, or null when none. */
export function indexedBounds(block: PointBlock, indices: Uint32Array): number[] | null {
  if (indices.length === 0) return null;
  let x0 = QUANT_MAX;
  let y0 = QUANT_MAX;
  let z0 = QUANT_MAX;
  let x1 = 0;
  let y1 = 0;
  let z1 = 0;
  const { x, y, z } = block;
  for (let j = 0; j < indices.length; j++) {
    const i = indices[j]!;
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
 * Picks the points a node keeps for itself — at most one per cell of a
 * 2^gridBits grid over the node, and at most `maxPoints` — and sorts the
 * others into the node's 8 children, in one pass over the coordinates.
 */
export class GridSampler {
  /**
   * One bit per cell (x fastest, for cache locality along scan lines): 256 KB
   * for 128³ cells, small enough to stay in cache (16-bit stamps took 4 MB),
   * cleared before each node.
   */
  private readonly taken: Int32Array;
  /** Octant of each point of the node being sampled (8: kept by the node), grown as needed. */
  private octants = new Uint8Array(0);
  constructor(readonly gridBits: number) {
    this.taken = new Int32Array(Math.max(1, (1 << (3 * gridBits)) >> 5));
  }

  select(
    block: PointBlock,
    indices: Uint32Array,
    d: number,
    maxPoints: number,
  ): { own: Uint32Array; parts: Uint32Array[] } {
    const n = indices.length;
    this.taken.fill(0);
    if (this.octants.length < n) this.octants = new Uint8Array(Math.max(n, this.octants.length * 2));
    const oct = this.octants;
    const counts = new Int32Array(9);
    const picked = sampleCells(block, indices, d, maxPoints, this.gridBits, this.taken, oct, counts);
    const own = new Uint32Array(picked);
    const parts = Array.from({ length: 8 }, (_, o) => new Uint32Array(counts[o]!));
    distribute(indices, oct, own, parts);
    return { own, parts };
  }
}

// The two loops of GridSampler.select, each a function of its own: V8 then
// compiles each whole, rather than re-entering a loop compiled on the fly and
// dropping it after the loop on every call (see point-loops.ts).

/**
 * Marks in `oct` the points a node keeps (8: the first point of each free
 * cell, up to `maxPoints`) and the child octant of the others, counted in
 * `counts`; returns how many the node keeps.
 */
function sampleCells(
  block: PointBlock,
  indices: Uint32Array,
  d: number,
  maxPoints: number,
  bits: number,
  taken: Int32Array,
  oct: Uint8Array,
  counts: Int32Array,
): number {
  const mask = (1 << bits) - 1;
  const shift = Math.max(0, QUANT_BITS - d - bits);
  const childShift = QUANT_BITS - d - 1;
  const { x, y, z } = block;
  const n = indices.length;
  let picked = 0;
  for (let j = 0; j < n; j++) {
    const i = indices[j]!;
    const xi = x[i]!;
    const yi = y[i]!;
    const zi = z[i]!;
    const cell = (((zi >> shift) & mask) << (2 * bits)) | (((yi >> shift) & mask) << bits) | ((xi >> shift) & mask);
    const word = cell >> 5;
    const bit = 1 << (cell & 31);
    if (picked < maxPoints && (taken[word]! & bit) === 0) {
      taken[word] = taken[word]! | bit;
      oct[j] = 8;
      picked++;
    } else {
      const o = ((xi >> childShift) & 1) | (((yi >> childShift) & 1) << 1) | (((zi >> childShift) & 1) << 2);
      oct[j] = o;
      counts[o]!++;
    }
  }
  return picked;
}

/** Sends each index to the node (`own`) or to its child's part, in order. */
function distribute(indices: Uint32Array, oct: Uint8Array, own: Uint32Array, parts: Uint32Array[]): void {
  const fill = new Int32Array(9);
  for (let j = 0; j < indices.length; j++) {
    const o = oct[j]!;
    if (o === 8) own[fill[8]!++] = indices[j]!;
    else parts[o]![fill[o]!++] = indices[j]!;
  }
}

/** True when a node at depth `d` may be split (its children stay ≥ minNodeSize and within MAX_DEPTH). */
export function canSplit(params: BuildParams, d: number): boolean {
  return d < MAX_DEPTH && params.space.size / 2 ** (d + 1) >= params.minNodeSize;
}

/** Receives each finished node's content: the points `indices` of `block` (never empty) and their bounds. */
export type NodeSink = (address: NodeAddress, block: PointBlock, indices: Uint32Array, bounds: number[]) => void;

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
  const all = identityIndices(block.count);
  let rootPoints = allocBlock(0);

  const visit = (a: NodeAddress, indices: Uint32Array): NodeSummary => {
    const summary: NodeSummary = { key: nodeKey(a), count: 0, bounds: null, children: [] };
    nodes.push(summary);
    let own = indices;
    if (indices.length > params.maxPoints && canSplit(params, a.d)) {
      const sel = sampler.select(block, indices, a.d, params.maxPoints);
      own = sel.own;
      for (let o = 0; o < 8; o++) {
        if (sel.parts[o]!.length > 0) summary.children.push(visit(childAddress(a, o), sel.parts[o]!).key);
      }
    }
    summary.count = own.length;
    summary.bounds = indexedBounds(block, own);
    if (a === root) rootPoints = gatherBlock(block, own);
    else if (own.length > 0) sink(a, block, own, summary.bounds!);
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
  const all = identityIndices(total);
  const { own, parts } = sampler.select(union, all, parent.d, params.maxPoints);
  const parentPoints = gatherBlock(union, own);
  const perChild: number[][] = children.map(() => []);
  for (const part of parts) for (let j = 0; j < part.length; j++) perChild[owner[part[j]!]!]!.push(part[j]!);
  const childSummaries = children.map((c, ci) => {
    const mine = Uint32Array.from(perChild[ci]!);
    const bounds = indexedBounds(union, mine);
    if (bounds) sink(c.address, union, mine, bounds);
    return { key: nodeKey(c.address), count: mine.length, bounds };
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
