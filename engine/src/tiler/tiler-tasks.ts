import { rm } from 'node:fs/promises';
import { readBucket, splitBucket } from './bucket-file.js';
import { buildSubtree, GridSampler } from './octree.js';
import { writeNodeContent } from './tile-content.js';
import { childBucketFile, type TilerReply, type TilerTask } from './tiler-protocol.js';

let sampler: GridSampler | undefined;

/**
 * Runs one tiler task; the same code serves worker threads and the inline
 * (no worker) mode. Bucket files are deleted once consumed.
 */
export async function runTilerTask(task: TilerTask): Promise<TilerReply> {
  if (task.op === 'split') {
    const counts = splitBucket(task.file, task.address, (o) => childBucketFile(task.childPrefix, o));
    await rm(task.file, { force: true });
    return { op: 'split', counts };
  }
  const block = await readBucket(task.file);
  await rm(task.file, { force: true });
  if (!sampler || sampler.gridBits !== task.params.gridBits) sampler = new GridSampler(task.params.gridBits);
  let contentBytes = 0;
  const { nodes, rootPoints } = buildSubtree(
    block,
    task.address,
    task.params,
    (a, points, indices) => {
      contentBytes += writeNodeContent(task.outDir, a, points, indices, task.params.space, task.color);
    },
    sampler,
  );
  return { op: 'build', nodes, rootPoints, contentBytes, points: block.count };
}
