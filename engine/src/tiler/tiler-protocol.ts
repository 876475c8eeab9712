import type { BuildParams, NodeAddress, NodeSummary } from './octree.js';
import type { PointBlock } from './point-block.js';
import type { ColorMode } from './tile-content.js';

/** Messages the tiler's main thread sends to its workers. */
export type TilerTask =
  | { op: 'build'; file: string; address: NodeAddress; params: BuildParams; color: ColorMode; outDir: string }
  | { op: 'split'; file: string; address: NodeAddress; childPrefix: string };

/** Replies. */
export type TilerReply =
  | { op: 'build'; nodes: NodeSummary[]; rootPoints: PointBlock; contentBytes: number; points: number }
  | { op: 'split'; counts: number[] };

/** Child bucket file of a split bucket. */
export function childBucketFile(prefix: string, octant: number): string {
  return `${prefix}.${octant}`;
}

/** The buffers of a block, for transfer lists. */
export function blockBuffers(b: PointBlock): ArrayBuffer[] {
  return [b.x, b.y, b.z, b.intensity, b.classification, b.red, b.green, b.blue].map((a) => a.buffer as ArrayBuffer);
}
