import { closeSync, openSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { threadId } from 'node:worker_threads';
import { decodeLazChunk } from '../readers/laz-decode.mjs';
import type { RecordLayout } from '../readers/record-decoder.js';
import { readBucket, splitBucket } from './bucket-file.js';
import { enuFrameAt, geodeticToEcef } from './local-frame.js';
import { loadExactTransforms, localTransform, needsExactTransform } from './local-transform.js';
import { type BuildParams, buildSubtree, GridSampler, QUANT_MAX } from './octree.js';
import { allocBlock, blockRange, concatBlocks, encodeBlock, type PointBlock } from './point-block.js';
import { encodeNodeContent, writeNodeContent } from './tile-content.js';
import {
  type BucketTarget,
  type BucketTask,
  bucketFile,
  childBucketFile,
  type LazBucketTask,
  type TilerReply,
  type TilerTask,
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
  const [mx, my, mz] = t.min;
  const invQ = 1 / t.quantum;
  const depth = t.depth;
  const shift = 30 - depth;
  ensureScratch(n, 1 << (3 * depth));
  const { ids, idCounts, idSlot } = scratch;
  // Quantised coordinates go back into x, y, z (exact integers below 2^30 in a double).
  let badPoint = -1;
  let clamped = 0;
  for (let i = 0; i < n; i++) {
    const ex = x[i]!;
    const ny = y[i]!;
    const uz = z[i]!;
    if (!(Number.isFinite(ex) && Number.isFinite(ny) && Number.isFinite(uz))) {
      if (badPoint < 0) badPoint = i;
      ids[i] = 0;
      continue;
    }
    let a = Math.floor((ex - mx) * invQ);
    let b = Math.floor((ny - my) * invQ);
    let d = Math.floor((uz - mz) * invQ);
    if (a < 0 || b < 0 || d < 0 || a > QUANT_MAX || b > QUANT_MAX || d > QUANT_MAX) {
      clamped++;
      a = a < 0 ? 0 : Math.min(a, QUANT_MAX);
      b = b < 0 ? 0 : Math.min(b, QUANT_MAX);
      d = d < 0 ? 0 : Math.min(d, QUANT_MAX);
    }
    x[i] = a;
    y[i] = b;
    z[i] = d;
    const id = ((a >> shift) << (2 * depth)) | ((b >> shift) << depth) | (d >> shift);
    ids[i] = id;
    idCounts[id]!++;
  }
  const classHistogram = new Float64Array(256);
  if (classification) for (let i = 0; i < n; i++) classHistogram[classification[i]!]!++;
  else classHistogram[0] = n;
  let maxColor = 0;
  if (red && green && blue) {
    for (let i = 0; i < n; i++) {
      const m = Math.max(red[i]!, green[i]!, blue[i]!);
      if (m > maxColor) maxColor = m;
    }
  }
  const usedIds: number[] = [];
  const usedCounts: number[] = [];
  const starts: number[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    const count = idCounts[id]!;
    if (count > 0) {
      usedIds.push(id);
      usedCounts.push(count);
      starts.push(at);
      idSlot[id] = at;
      at += count;
      idCounts[id] = 0;
    }
  }
  if (badPoint >= 0 || clamped > 0) return emptyReply({ badPoint, clamped });
  const block = allocBlock(n, t.memory);
  block.count = n;
  const bx = block.x;
  const by = block.y;
  const bz = block.z;
  for (let i = 0; i < n; i++) {
    const k = idSlot[ids[i]!]!++;
    bx[k] = x[i]!;
    by[k] = y[i]!;
    bz[k] = z[i]!;
  }
  // Attributes column by column (idSlot has moved to each bucket's end: walk back from it).
  for (let u = 0; u < usedIds.length; u++) idSlot[usedIds[u]!] = starts[u]!;
  if (intensity || classification || red) {
    const bi = block.intensity;
    const bc = block.classification;
    const br = block.red;
    const bg = block.green;
    const bb = block.blue;
    for (let i = 0; i < n; i++) {
      const k = idSlot[ids[i]!]!++;
      if (intensity) bi[k] = intensity[i]!;
      if (classification) bc[k] = classification[i]!;
      if (red && green && blue) {
        br[k] = red[i]!;
        bg[k] = green[i]!;
        bb[k] = blue[i]!;
      }
    }
  }
  const reply: TilerReply = {
    op: 'bucket',
    thread: threadId,
    ids: usedIds,
    counts: usedCounts,
    classHistogram,
    maxColor,
    badPoint,
    clamped,
  };
  if (t.memory) return { ...reply, block };
  for (let u = 0; u < usedIds.length; u++) {
    const fd = openSync(bucketFile(t.dir, usedIds[u]!, threadId), 'a');
    try {
      writeSync(fd, encodeBlock(blockRange(block, starts[u]!, starts[u]! + usedCounts[u]!)));
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
  const [sx, sy, sz] = layout.scale;
  const [ox, oy, oz] = layout.offset;
  const { x, y, z, intensity, classification } = scratch;
  for (let i = 0, p = 0; i < n; i++, p += len) {
    x[i] = view.getInt32(p, true) * sx + ox;
    y[i] = view.getInt32(p + 4, true) * sy + oy;
    z[i] = view.getInt32(p + 8, true) * sz + oz;
    intensity[i] = view.getUint16(p + 12, true);
  }
  // LAS 1.4 formats 6-10 keep the class in a byte of its own; formats 0-5 in the low 5 bits.
  if (layout.layout.extended) for (let i = 0, p = 16; i < n; i++, p += len) classification[i] = records[p]!;
  else for (let i = 0, p = 15; i < n; i++, p += len) classification[i] = records[p]! & 31;
  const rgbAt = layout.layout.rgb;
  const color = hasColor && rgbAt >= 0;
  if (color) {
    const { red, green, blue } = scratch;
    for (let i = 0, p = rgbAt; i < n; i++, p += len) {
      red[i] = view.getUint16(p, true);
      green[i] = view.getUint16(p + 2, true);
      blue[i] = view.getUint16(p + 4, true);
    }
  }
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

/**
 * Runs the hot loops of a tiling (bucketing, sampling, GLB encoding) on a
 * synthetic terrain of `count` points, writing nothing: a thread that did
 * this once tiles its first real file at full speed.
 */
function warmUp(count = 200_000): TilerReply {
  const side = 400;
  let seed = 1;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  const columns: LocalColumns = {
    count,
    x: new Float64Array(count),
    y: new Float64Array(count),
    z: new Float64Array(count),
    intensity: new Uint16Array(count),
    classification: new Uint8Array(count),
    red: new Uint16Array(count),
    green: new Uint16Array(count),
    blue: new Uint16Array(count),
  };
  for (let i = 0; i < count; i++) {
    const e = (random() - 0.5) * side;
    const n = (random() - 0.5) * side;
    columns.x[i] = e;
    columns.y[i] = n;
    columns.z[i] = 20 * Math.sin(e / 40) * Math.cos(n / 60) + random() * 10;
    columns.intensity![i] = i & 0xfff;
    columns.classification![i] = i % 3 === 0 ? 5 : 2;
    columns.red![i] = i & 0xff;
  }
  const size = side * 1.1;
  const space = {
    frame: enuFrameAt(...geodeticToEcef(5, 45, 200)),
    min: [-size / 2, -size / 2, -size / 2] as [number, number, number],
    size,
  };
  const reply = bucketColumns(columns, { min: space.min, quantum: size / 2 ** 30, depth: 1, memory: true, dir: '' });
  if (reply.op !== 'bucket' || !reply.block) throw new Error('tiler warm-up failed');
  const params: BuildParams = { space, maxPoints: 20_000, minNodeSize: 0.15, gridBits: 7 };
  if (!sampler || sampler.gridBits !== params.gridBits) sampler = new GridSampler(params.gridBits);
  let at = 0;
  for (let k = 0; k < reply.ids.length; k++) {
    const id = reply.ids[k]!;
    const block = blockRange(reply.block, at, at + reply.counts[k]!);
    at += reply.counts[k]!;
    const address = { d: 1, x: (id >> 2) & 1, y: (id >> 1) & 1, z: id & 1 };
    for (const color of ['none', '16bit'] as const) {
      buildSubtree(
        block,
        address,
        params,
        (_, points, indices, bounds) => {
          encodeNodeContent(points, indices, space, { color, quantize: true }, bounds);
        },
        sampler,
      );
    }
  }
  return { op: 'warm', points: count };
}

/**
 * Runs one tiler task; the same code serves worker threads and the inline
 * (no worker) mode. Bucket files are deleted once consumed.
 */
export async function runTilerTask(task: TilerTask): Promise<TilerReply> {
  if (task.op === 'bucket') return bucketChunk(task);
  if (task.op === 'bucket-laz') return bucketLazChunk(task);
  if (task.op === 'warm') return warmUp();
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
  for (const file of task.files) {
    parts.push(await readBucket(file));
    await rm(file, { force: true });
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
