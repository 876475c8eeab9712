import { closeSync, openSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { threadId } from 'node:worker_threads';
import { pointFormatLayout } from '../readers/las-format.js';
import { decodeLazChunk, getLazPerf } from '../readers/laz-decode.mjs';
import type { RecordLayout } from '../readers/record-decoder.js';
import { readBucket, splitBucket } from './bucket-file.js';
import type { GridNodes } from './ecef-grid-transform.js';
import { enuFrameAt } from './local-frame.js';
import { loadExactTransforms, localTransform, needsExactTransform } from './local-transform.js';
import { buildSubtree, GridSampler, QUANT_MAX } from './octree.js';
import { allocBlock, blockRange, concatBlocks, encodeBlock, type PointBlock } from './point-block.js';
import {
  countClasses,
  maxColor,
  placeByBucket,
  quantizeToBuckets,
  readByte,
  readRgb,
  readXyzIntensity,
  scatter8,
  scatter16,
} from './point-loops.js';
import { writeNodeContent } from './tile-content.js';
import {
  type BucketTarget,
  type BucketTask,
  bucketFile,
  childBucketFile,
  type LazBucketTask,
  type TilerReply,
  type TilerTask,
  type WarmUpLazTask,
} from './tiler-protocol.js';

let sampler: GridSampler | undefined;

/** Per-thread scratch memory of the bucket tasks, grown as needed and reused (no garbage per chunk). */
const scratch = {
  size: 0,
  x: new Float64Array(0),
  y: new Float64Array(0),
  z: new Float64Array(0),
  intensity: new Uint16Array(0),
  classification: new Uint8Array(0),
  red: new Uint16Array(0),
  green: new Uint16Array(0),
  blue: new Uint16Array(0),
  ids: new Uint32Array(0),
  idCounts: new Uint32Array(0),
  idSlot: new Uint32Array(0),
};

function ensureScratch(n: number, buckets: number): void {
  if (scratch.size < n) {
    const size = Math.max(n, scratch.size * 2);
    scratch.size = size;
    scratch.x = new Float64Array(size);
    scratch.y = new Float64Array(size);
    scratch.z = new Float64Array(size);
    scratch.intensity = new Uint16Array(size);
    scratch.classification = new Uint8Array(size);
    scratch.red = new Uint16Array(size);
    scratch.green = new Uint16Array(size);
    scratch.blue = new Uint16Array(size);
    scratch.ids = new Uint32Array(size);
  }
  if (scratch.idCounts.length < buckets) {
    scratch.idCounts = new Uint32Array(buckets);
    scratch.idSlot = new Uint32Array(buckets);
  }
}

/** Columns of one chunk in local ENU metres, as the bucket step reads them. */
interface LocalColumns {
  count: number;
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  intensity: Uint16Array | undefined;
  classification: Uint8Array | undefined;
  /** Present together, or not at all. */
  red: Uint16Array | undefined;
  green: Uint16Array | undefined;
  blue: Uint16Array | undefined;
}

function emptyReply(extra: { badPoint?: number; clamped?: number; decodeError?: string } = {}): TilerReply {
  return {
    op: 'bucket',
    thread: threadId,
    ids: [],
    counts: [],
    classHistogram: new Float64Array(256),
    maxColor: 0,
    badPoint: -1,
    clamped: 0,
    ...extra,
  };
}

/**
 * Quantises a chunk and sorts it by bucket (counting sort, buckets in order
 * of first appearance) into one block: handed back in shared memory, or
 * appended bucket by bucket to this thread's bucket files.
 */
function bucketColumns(c: LocalColumns, t: BucketTarget): TilerReply {
  const n = c.count;
  const { x, y, z, intensity, classification, red, green, blue } = c;
  const buckets = 1 << (3 * t.depth);
  ensureScratch(n, buckets);
  const { ids, idCounts, idSlot } = scratch;
  const outcome = new Float64Array(2);
  quantizeToBuckets(x, y, z, n, t.min, 1 / t.quantum, QUANT_MAX, t.depth, ids, idCounts, outcome);
  const badPoint = outcome[0]!;
  const clamped = outcome[1]!;
  const classHistogram = new Float64Array(256);
  if (classification) countClasses(classification, n, classHistogram);
  else classHistogram[0] = n;
  const colorMax = red && green && blue ? maxColor(red, green, blue, n) : 0;
  // Buckets in use, each given its range of the sorted block (walking the ids when there are fewer than points).
  const usedIds: number[] = [];
  const usedCounts: number[] = [];
  const starts: number[] = [];
  let at = 0;
  const use = (id: number): void => {
    const count = idCounts[id]!;
    if (count === 0) return;
    usedIds.push(id);
    usedCounts.push(count);
    starts.push(at);
    idSlot[id] = at;
    at += count;
    idCounts[id] = 0;
  };
  if (buckets <= n) for (let id = 0; id < buckets; id++) use(id);
  else for (let i = 0; i < n; i++) use(ids[i]!);
  if (badPoint >= 0 || clamped > 0) return emptyReply({ badPoint, clamped });
  const block = allocBlock(n, t.memory);
  block.count = n;
  placeByBucket(ids, idSlot, n, x, y, z, block.x, block.y, block.z);
  if (intensity) scatter16(intensity, ids, n, block.intensity);
  if (classification) scatter8(classification, ids, n, block.classification);
  if (red && green && blue) {
    scatter16(red, ids, n, block.red);
    scatter16(green, ids, n, block.green);
    scatter16(blue, ids, n, block.blue);
  }
  const reply: TilerReply = {
    op: 'bucket',
    thread: threadId,
    ids: usedIds,
    counts: usedCounts,
    classHistogram,
    maxColor: colorMax,
    badPoint,
    clamped,
  };
  if (t.memory) return { ...reply, block };
  for (let u = 0; u < usedIds.length; u++) {
    const fd = openSync(bucketFile(t.dir, usedIds[u]!, threadId), 'a');
    try {
      writeSync(fd, encodeBlock(blockRange(block, starts[u]!, starts[u]! + usedCounts[u]!), t.order));
    } finally {
      closeSync(fd);
    }
  }
  return reply;
}

/**
 * The columns the tiler keeps, straight from raw LAS records (the reader's
 * decodeRecords makes every column; the tiler needs five), into scratch memory.
 */
function recordsToColumns(records: Uint8Array, n: number, layout: RecordLayout, hasColor: boolean): LocalColumns {
  ensureScratch(n, 1);
  const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
  const len = layout.recordLength;
  const { x, y, z, intensity, classification } = scratch;
  readXyzIntensity(view, n, len, layout.scale, layout.offset, x, y, z, intensity);
  // LAS 1.4 formats 6-10 keep the class in a byte of its own; formats 0-5 in the low 5 bits.
  if (layout.layout.extended) readByte(records, n, len, 16, 0xff, classification);
  else readByte(records, n, len, 15, 31, classification);
  const rgbAt = layout.layout.rgb;
  const color = hasColor && rgbAt >= 0;
  if (color) readRgb(view, n, len, rgbAt, scratch.red, scratch.green, scratch.blue);
  return {
    count: n,
    x,
    y,
    z,
    intensity,
    classification,
    red: color ? scratch.red : undefined,
    green: color ? scratch.green : undefined,
    blue: color ? scratch.blue : undefined,
  };
}

/** Decodes a LAZ chunk, transforms it to the local frame and buckets it. */
async function bucketLazChunk(t: LazBucketTask): Promise<TilerReply> {
  const n = t.pointCount;
  let records: Uint8Array;
  try {
    records = await decodeLazChunk(new Uint8Array(t.bytes), t.layout.pointFormat, t.layout.recordLength, n);
  } catch (error) {
    return emptyReply({ decodeError: (error as Error).message ?? String(error) });
  }
  const columns = recordsToColumns(records, n, t.layout, t.hasColor);
  if (needsExactTransform(t.transform, columns.x, columns.y, n)) await loadExactTransforms();
  localTransform(t.transform).forward(columns.x, columns.y, columns.z, n);
  return bucketColumns(columns, t);
}

/** Buckets a chunk of columns already in the local frame. */
function bucketChunk(t: BucketTask): TilerReply {
  const color = t.red && t.green && t.blue;
  return bucketColumns(
    {
      count: t.count,
      x: t.x,
      y: t.y,
      z: t.z,
      intensity: t.intensity,
      classification: t.classification,
      red: color ? t.red : undefined,
      green: color ? t.green : undefined,
      blue: color ? t.blue : undefined,
    },
    t,
  );
}

/** See {@link WarmUpLazTask}: each chunk through {@link bucketLazChunk}, over an identity grid that covers it. */
async function warmUpLaz(task: WarmUpLazTask): Promise<TilerReply> {
  await getLazPerf();
  let points = 0;
  for (const [k, c] of task.chunks.entries()) {
    const layout: RecordLayout = {
      pointFormat: c.pointFormat,
      recordLength: c.recordLength,
      scale: [0.01, 0.01, 0.01],
      offset: [0, 0, 0],
      extraBytes: [],
      layout: pointFormatLayout(c.pointFormat),
    };
    const records = await decodeLazChunk(c.bytes, c.pointFormat, c.recordLength, c.pointCount);
    const { x, y, z } = recordsToColumns(records, c.pointCount, layout, false);
    const lo = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    const hi = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
    for (let i = 0; i < c.pointCount; i++) {
      for (const [a, v] of [x[i]!, y[i]!, z[i]!].entries()) {
        lo[a] = Math.min(lo[a]!, v);
        hi[a] = Math.max(hi[a]!, v);
      }
    }
    // P(x, y, h) = (x, y, h) at the four corners of the points' box: the identity.
    const [x0, y0] = [lo[0]! - 1, lo[1]! - 1];
    const [x1, y1] = [hi[0]! + 1, hi[1]! + 1];
    const nodes: GridNodes = {
      a: Float64Array.of(x0, y0, 0, x1, y0, 0, x0, y1, 0, x1, y1, 0),
      b: Float64Array.of(0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1),
      x0,
      y0,
      dx: x1 - x0,
      dy: y1 - y0,
      nx: 2,
      ny: 2,
    };
    const size = Math.max(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!) * 1.1 + 2;
    const min = [0, 1, 2].map((a) => (lo[a]! + hi[a]!) / 2 - size / 2) as [number, number, number];
    const transform = { id: -1 - k, crs: null, frame: enuFrameAt(6_378_137, 0, 0), nodes };
    for (let round = 0; round < task.rounds; round++) {
      const reply = await bucketLazChunk({
        op: 'bucket-laz',
        bytes: c.bytes.slice().buffer,
        pointCount: c.pointCount,
        layout,
        transform,
        hasColor: layout.layout.rgb >= 0,
        min,
        quantum: size / 2 ** 30,
        depth: 1,
        memory: true,
        dir: '',
        order: 0,
      });
      if (reply.op !== 'bucket' || reply.decodeError !== undefined || reply.clamped > 0 || reply.badPoint >= 0) {
        throw new Error('the LAZ warm-up chunk did not go through the bucket step');
      }
      points += c.pointCount;
    }
  }
  return { op: 'warm-up-laz', points };
}

/**
 * Runs one tiler task; the same code serves worker threads and the inline
 * (no worker) mode. Bucket files are deleted once consumed.
 */
export async function runTilerTask(task: TilerTask): Promise<TilerReply> {
  if (task.op === 'bucket') return bucketChunk(task);
  if (task.op === 'bucket-laz') return bucketLazChunk(task);
  if (task.op === 'warm-up-laz') return warmUpLaz(task);
  if (task.op === 'split') {
    const counts = new Array<number>(8).fill(0);
    for (const file of task.files) {
      const c = splitBucket(file, task.address, (o) => childBucketFile(task.childPrefix, o));
      for (let o = 0; o < 8; o++) counts[o]! += c[o]!;
      await rm(file, { force: true });
    }
    return { op: 'split', counts };
  }
  const parts: PointBlock[] = [...task.parts];
  if (task.files.length > 0) {
    parts.push(await readBucket(task.files));
    await Promise.all(task.files.map((file) => rm(file, { force: true })));
  }
  // Parts in shared memory are only read, never changed.
  const block = concatBlocks(parts);
  if (!sampler || sampler.gridBits !== task.params.gridBits) sampler = new GridSampler(task.params.gridBits);
  let contentBytes = 0;
  const { nodes, rootPoints } = buildSubtree(
    block,
    task.address,
    task.params,
    (a, points, indices, bounds) => {
      contentBytes += writeNodeContent(task.outDir, a, points, indices, task.params.space, task.content, bounds);
    },
    sampler,
  );
  return { op: 'build', nodes, rootPoints, contentBytes, points: block.count };
}
