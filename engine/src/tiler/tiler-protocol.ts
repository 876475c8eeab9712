import type { BuildParams, NodeAddress, NodeSummary } from './octree.js';
import type { PointBlock } from './point-block.js';
import type { ContentOptions } from './tile-content.js';

/** Messages the tiler's main thread sends to its workers. */
export type TilerTask =
  | BucketTask
  | { op: 'build'; files: string[]; address: NodeAddress; params: BuildParams; content: ContentOptions; outDir: string }
  | { op: 'split'; files: string[]; address: NodeAddress; childPrefix: string };

/**
 * Quantise one chunk (already in local ENU metres) and append it to the
 * bucket files `<dir>/b<id>.t<thread>` of the thread running the task.
 */
export interface BucketTask {
  op: 'bucket';
  count: number;
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  intensity?: Uint16Array;
  classification?: Uint8Array;
  red?: Uint16Array;
  green?: Uint16Array;
  blue?: Uint16Array;
  /** Cube minimum (local metres) and quantum (metres). */
  min: [number, number, number];
  quantum: number;
  /** Bucket depth. */
  depth: number;
  dir: string;
}

/** Replies. */
export type TilerReply =
  | {
      op: 'bucket';
      /** Thread that wrote the files (their `.t<thread>` suffix). */
      thread: number;
      ids: number[];
      counts: number[];
      classHistogram: Float64Array;
      maxColor: number;
      /** Index of the first point that could not be reprojected (NaN coordinates), -1 when none. */
      badPoint: number;
      /** Points outside the octree cube (placed from the header bounds plus a 2 % margin). */
      clamped: number;
    }
  | { op: 'build'; nodes: NodeSummary[]; rootPoints: PointBlock; contentBytes: number; points: number }
  | { op: 'split'; counts: number[] };

/** Bucket file written by one thread. */
export function bucketFile(dir: string, id: number, thread: number): string {
  return `${dir}/b${id}.t${thread}`;
}

/** Buffers of a bucket task's columns, for transfer lists. */
export function bucketTaskBuffers(t: BucketTask): ArrayBuffer[] {
  return [t.x, t.y, t.z, t.intensity, t.classification, t.red, t.green, t.blue].flatMap((a) =>
    a ? [a.buffer as ArrayBuffer] : [],
  );
}

/** Child bucket file of a split bucket. */
export function childBucketFile(prefix: string, octant: number): string {
  return `${prefix}.${octant}`;
}

/** The buffers of a block, for transfer lists. */
export function blockBuffers(b: PointBlock): ArrayBuffer[] {
  return [b.x, b.y, b.z, b.intensity, b.classification, b.red, b.green, b.blue].map((a) => a.buffer as ArrayBuffer);
}
