import type { RecordLayout } from '../readers/record-decoder.js';
import type { LocalTransformSpec } from './local-transform.js';
import type { BuildParams, NodeAddress, NodeSummary } from './octree.js';
import type { PointBlock } from './point-block.js';
import type { ContentOptions } from './tile-content.js';

/** Messages the tiler's main thread sends to its workers. */
export type TilerTask =
  | BucketTask
  | LazBucketTask
  | {
      op: 'build';
      /** Bucket files to read (and delete), and/or blocks in shared memory. */
      files: string[];
      parts: PointBlock[];
      address: NodeAddress;
      params: BuildParams;
      content: ContentOptions;
      outDir: string;
    }
  | { op: 'split'; files: string[]; address: NodeAddress; childPrefix: string }
  | WarmUpLazTask;

/**
 * Decode small LAZ chunks again and again through the bucket step (into
 * memory, kept nowhere), so that a thread's LAZ code is compiled before it
 * meets a real file; also starts laz-perf (the LAS 1.4 formats' decoder).
 */
export interface WarmUpLazTask {
  op: 'warm-up-laz';
  chunks: { bytes: Uint8Array; pointFormat: number; recordLength: number; pointCount: number }[];
  rounds: number;
}

/** Where a bucket task puts its points: the octree cube, quantum, bucket depth and store. */
export interface BucketTarget {
  /** Cube minimum (local metres) and quantum (metres). */
  min: [number, number, number];
  quantum: number;
  /** Bucket depth. */
  depth: number;
  /**
   * True: the points go back to the caller in shared memory, sorted by bucket
   * (inputs that fit in memory); false: they are appended to the bucket files
   * `<dir>/b<id>.t<thread>` of the thread running the task.
   */
  memory: boolean;
  dir: string;
  /**
   * Read offset of the chunk's first point: bucket files record it with each
   * block, so a bucket reads back in input order whichever thread wrote what.
   */
  order: number;
}

/** Quantise one chunk (already in local ENU metres) and bucket it. */
export interface BucketTask extends BucketTarget {
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
}

/**
 * Decode one compressed LAZ chunk, transform it to local ENU metres and
 * bucket it as a {@link BucketTask} does: the whole per-point work of the
 * first pass on one thread, with nothing but compressed bytes crossing threads.
 */
export interface LazBucketTask extends BucketTarget {
  op: 'bucket-laz';
  /** The compressed chunk (transferred). */
  bytes: ArrayBuffer;
  pointCount: number;
  /** Record layout of the file (plain data; extra bytes are not needed). */
  layout: RecordLayout;
  transform: LocalTransformSpec;
  /** Keep RGB (the point format has it). */
  hasColor: boolean;
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
      /** Why a LAZ chunk could not be decoded (nothing was bucketed). */
      decodeError?: string;
      /** Memory target: the points in shared memory, sorted by bucket in `ids` order (`counts` each). */
      block?: PointBlock;
    }
  | { op: 'build'; nodes: NodeSummary[]; rootPoints: PointBlock; contentBytes: number; points: number }
  | { op: 'split'; counts: number[] }
  | { op: 'warm-up-laz'; points: number };

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

/** The buffers of a block, for transfer lists (each once; shared memory is never transferred). */
export function blockBuffers(b: PointBlock): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const a of [b.x, b.y, b.z, b.intensity, b.classification, b.red, b.green, b.blue]) {
    if (a.buffer instanceof ArrayBuffer) buffers.add(a.buffer);
  }
  return [...buffers];
}
