import { appendFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { threadId } from 'node:worker_threads';
import { readBucket, splitBucket } from './bucket-file.js';
import { buildSubtree, GridSampler, QUANT_MAX } from './octree.js';
import { allocBlock, concatBlocks, encodeBlock } from './point-block.js';
import { writeNodeContent } from './tile-content.js';
import { type BucketTask, bucketFile, childBucketFile, type TilerReply, type TilerTask } from './tiler-protocol.js';

let sampler: GridSampler | undefined;
let idCounts = new Uint32Array(0);
let idFill = new Uint32Array(0);

/** Quantises a chunk, groups it by bucket (counting sort) and appends each group to this thread's bucket file. */
function bucketChunk(t: BucketTask): TilerReply {
  const n = t.count;
  const { x, y, z, depth } = t;
  const [mx, my, mz] = t.min;
  const invQ = 1 / t.quantum;
  const shift = 30 - depth;
  const size = 1 << (3 * depth);
  if (idCounts.length < size) {
    idCounts = new Uint32Array(size);
    idFill = new Uint32Array(size);
  }
  const qx = new Int32Array(n);
  const qy = new Int32Array(n);
  const qz = new Int32Array(n);
  const ids = new Uint32Array(n);
  let badPoint = -1;
  let clamped = 0;
  for (let i = 0; i < n; i++) {
    const ex = x[i]!;
    const ny = y[i]!;
    const uz = z[i]!;
    if (!(Number.isFinite(ex) && Number.isFinite(ny) && Number.isFinite(uz))) {
      if (badPoint < 0) badPoint = i;
      continue;
    }
    let a = Math.floor((ex - mx) * invQ);
    let b = Math.floor((ny - my) * invQ);
    let c = Math.floor((uz - mz) * invQ);
    if (a < 0 || b < 0 || c < 0 || a > QUANT_MAX || b > QUANT_MAX || c > QUANT_MAX) clamped++;
    a = a < 0 ? 0 : Math.min(a, QUANT_MAX);
    b = b < 0 ? 0 : Math.min(b, QUANT_MAX);
    c = c < 0 ? 0 : Math.min(c, QUANT_MAX);
    qx[i] = a;
    qy[i] = b;
    qz[i] = c;
    const id = ((a >> shift) << (2 * depth)) | ((b >> shift) << depth) | (c >> shift);
    ids[i] = id;
    idCounts[id]!++;
  }
  const classHistogram = new Float64Array(256);
  if (t.classification) for (let i = 0; i < n; i++) classHistogram[t.classification[i]!]!++;
  else classHistogram[0] = n;
  let maxColor = 0;
  if (t.red && t.green && t.blue) {
    for (let i = 0; i < n; i++) {
      const m = Math.max(t.red[i]!, t.green[i]!, t.blue[i]!);
      if (m > maxColor) maxColor = m;
    }
  }
  const usedIds: number[] = [];
  const usedCounts: number[] = [];
  if (badPoint >= 0 || clamped > 0) {
    return { op: 'bucket', thread: threadId, ids: [], counts: [], classHistogram, maxColor, badPoint, clamped };
  }
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    if (idCounts[id]! > 0) {
      usedIds.push(id);
      usedCounts.push(idCounts[id]!);
      idCounts[id] = 0;
    }
  }
  const blocks = usedIds.map((id, k) => {
    idFill[id] = k;
    return allocBlock(usedCounts[k]!);
  });
  for (let i = 0; i < n; i++) {
    const b = blocks[idFill[ids[i]!]!]!;
    const k = b.count++;
    b.x[k] = qx[i]!;
    b.y[k] = qy[i]!;
    b.z[k] = qz[i]!;
    if (t.intensity) b.intensity[k] = t.intensity[i]!;
    if (t.classification) b.classification[k] = t.classification[i]!;
    if (t.red && t.green && t.blue) {
      b.red[k] = t.red[i]!;
      b.green[k] = t.green[i]!;
      b.blue[k] = t.blue[i]!;
    }
  }
  usedIds.forEach((id, k) => {
    appendFileSync(bucketFile(t.dir, id, threadId), encodeBlock(blocks[k]!));
  });
  return {
    op: 'bucket',
    thread: threadId,
    ids: usedIds,
    counts: usedCounts,
    classHistogram,
    maxColor,
    badPoint,
    clamped,
  };
}

/**
 * Runs one tiler task; the same code serves worker threads and the inline
 * (no worker) mode. Bucket files are deleted once consumed.
 */
export async function runTilerTask(task: TilerTask): Promise<TilerReply> {
  if (task.op === 'bucket') return bucketChunk(task);
  if (task.op === 'split') {
    const counts = new Array<number>(8).fill(0);
    for (const file of task.files) {
      const c = splitBucket(file, task.address, (o) => childBucketFile(task.childPrefix, o));
      for (let o = 0; o < 8; o++) counts[o]! += c[o]!;
      await rm(file, { force: true });
    }
    return { op: 'split', counts };
  }
  const parts = [];
  for (const file of task.files) {
    parts.push(await readBucket(file));
    await rm(file, { force: true });
  }
  const block = concatBlocks(parts);
  if (!sampler || sampler.gridBits !== task.params.gridBits) sampler = new GridSampler(task.params.gridBits);
  let contentBytes = 0;
  const { nodes, rootPoints } = buildSubtree(
    block,
    task.address,
    task.params,
    (a, points, indices) => {
      contentBytes += writeNodeContent(task.outDir, a, points, indices, task.params.space, task.content);
    },
    sampler,
  );
  return { op: 'build', nodes, rootPoints, contentBytes, points: block.count };
}
