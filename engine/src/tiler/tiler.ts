import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Bounds3, PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled, InvalidInput } from '../core/errors.js';
import type { CrsInfo } from '../crs/index.js';
import type { LazChunk } from '../readers/laz-chunk-table.js';
import type { RecordLayout } from '../readers/record-decoder.js';
import type { TileJson, TilesetJson } from '../writers/3dtiles.writer.js';
import { createTransformGrid } from './ecef-grid-transform.js';
import { ecefToGeodetic, ecefToLocal, enuFrameAt, localToEcef, localVectorToEcef } from './local-frame.js';
import { type LocalTransformSpec, shareGridNodes } from './local-transform.js';
import {
  type BuildParams,
  canSplit,
  childAddress,
  identityIndices,
  mergeIntoParent,
  type NodeAddress,
  type NodeSummary,
  nodeKey,
  type OctreeSpace,
  quantum,
} from './octree.js';
import { blockRange, type PointBlock } from './point-block.js';
import { type ColorMode, type ContentOptions, contentUri, writeNodeContent } from './tile-content.js';
import { ERROR_PER_SPACING, resolveTilerOptions, type TilerOptionsInput } from './tiler-options.js';
import { acquireTilerPool, releaseTilerPool } from './tiler-pool.js';
import {
  type BucketTask,
  bucketFile,
  bucketTaskBuffers,
  childBucketFile,
  type LazBucketTask,
  type TilerReply,
} from './tiler-protocol.js';

/** A point source the tiler can consume (a reader plus its CRS transform). */
export interface TilerInput {
  /** Points announced by the header (used to size buckets and report progress). */
  pointCount: number;
  /** Bounds in the source CRS (header), used to place the octree before reading. */
  bounds: Bounds3;
  /** True when the point format carries RGB. */
  hasColor: boolean;
  /**
   * Converts source coordinates to ECEF (EPSG:4978) metres, in place (the exact transform: the tiler
   * interpolates it on a verified grid, so its speed matters little).
   */
  toEcef(x: Float64Array, y: Float64Array, z: Float64Array, count: number): void;
  /** Streams the points. */
  chunks(signal?: AbortSignal): AsyncIterable<PointChunk>;
  /**
   * The same points as compressed LAZ chunks, when the input is a LAZ file:
   * the tiler's workers then decode, reproject and bucket each chunk in one
   * go, and `chunks` is not used.
   */
  laz?: LazTilerSource;
}

/** A LAZ file as its independently decodable chunks (see {@link TilerInput.laz}). */
export interface LazTilerSource {
  /** The file's CRS (workers rebuild the exact transform from it; `toEcef` must be the same transform). */
  crs: CrsInfo;
  /** Record layout (point format, record length, scale, offset). */
  layout: RecordLayout;
  chunks: LazChunk[];
  /** Reads `length` bytes at `offset` of the file. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

let transformIds = 0;

/** The bytes as a whole ArrayBuffer of their own, to transfer to a worker. */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  return own.buffer as ArrayBuffer;
}

/** West/south/east/north in degrees, heights in metres above the WGS84 ellipsoid. */
export interface BboxWgs84 {
  west: number;
  south: number;
  east: number;
  north: number;
  minHeight: number;
  maxHeight: number;
}

/** What a tiling run produced. */
export interface TileResult {
  /** Absolute path of tileset.json. */
  tilesetPath: string;
  /** Points written (each exactly once). */
  pointCount: number;
  /** Tiles with content (GLB files). */
  tileCount: number;
  /** Tiles in the tree, with or without content. */
  nodeCount: number;
  maxDepth: number;
  bboxWgs84: BboxWgs84;
  /** Bytes of all GLB contents. */
  contentBytes: number;
  /** Points per ASPRS class. */
  classCounts: Record<number, number>;
  hasColor: boolean;
  durationMs: number;
  /** Wall time of each phase: reading + reprojecting + bucketing, building subtrees and contents, tileset JSON. */
  phases: { readAndBucketMs: number; buildMs: number; tilesetMs: number };
  /** Octree depth of the disk buckets (0: one bucket). */
  bucketDepth: number;
  /** Largest error of the interpolated reprojection against the exact transform, metres (0 when exact). */
  reprojectionError: number;
}

/**
 * Internal sizes of the out-of-core build (defaults suit production; tests
 * shrink them to exercise every path on small inputs).
 */
export interface TilerTuning {
  /** Target points of one bucket built in memory by a worker (≈ 60 bytes a point of worker memory). */
  bucketTarget: number;
  /** A bucket above this is split on disk (8 ways, recursively) before building. */
  bucketLimit: number;
  /** Inputs up to this size are not bucketed by position (a single bucket). */
  singleBucketMax: number;
  /**
   * Inputs up to this many points keep their buckets in (shared) memory
   * instead of files: 21 bytes a point, and no bucket is ever split.
   */
  memoryMax: number;
}

export const DEFAULT_TUNING: TilerTuning = {
  bucketTarget: 1_500_000,
  bucketLimit: 4_000_000,
  singleBucketMax: 1_000_000,
  // 84 MB of buckets at most; a bucket never exceeds bucketLimit, so none would be split on disk either.
  memoryMax: 4_000_000,
};

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new Cancelled();
}

/** Places the octree cube from the header bounds: a sampled box transformed to ECEF then ENU, padded. */
function placeOctree(input: TilerInput): OctreeSpace {
  const b = input.bounds;
  for (const v of [b.minX, b.minY, b.minZ, b.maxX, b.maxY, b.maxZ]) {
    if (!Number.isFinite(v)) throw new InvalidInput('header.bounds', 'the header bounds are not finite numbers');
  }
  if (b.minX > b.maxX || b.minY > b.maxY || b.minZ > b.maxZ) {
    throw new InvalidInput('header.bounds', 'the header minimum exceeds its maximum');
  }
  const steps = 8;
  const n = (steps + 1) * (steps + 1) * 2 + 1;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const z = new Float64Array(n);
  let k = 0;
  for (let i = 0; i <= steps; i++) {
    for (let j = 0; j <= steps; j++) {
      for (const zz of [b.minZ, b.maxZ]) {
        x[k] = b.minX + ((b.maxX - b.minX) * i) / steps;
        y[k] = b.minY + ((b.maxY - b.minY) * j) / steps;
        z[k++] = zz;
      }
    }
  }
  x[k] = (b.minX + b.maxX) / 2;
  y[k] = (b.minY + b.maxY) / 2;
  z[k] = (b.minZ + b.maxZ) / 2;
  input.toEcef(x, y, z, n);
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(x[i]!) || !Number.isFinite(y[i]!) || !Number.isFinite(z[i]!)) {
      throw new InvalidInput('crs', 'the header bounds cannot be transformed to ECEF: check the CRS (--epsg)');
    }
  }
  const frame = enuFrameAt(x[n - 1]!, y[n - 1]!, z[n - 1]!);
  ecefToLocal(frame, x, y, z, n);
  const lo = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  const hi = [Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NEGATIVE_INFINITY];
  for (let i = 0; i < n; i++) {
    const v = [x[i]!, y[i]!, z[i]!];
    for (let a = 0; a < 3; a++) {
      if (v[a]! < lo[a]!) lo[a] = v[a]!;
      if (v[a]! > hi[a]!) hi[a] = v[a]!;
    }
  }
  const extent = Math.max(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
  // Slightly sloppy header bounds are absorbed by the margin; points beyond it are refused (see the bucket task).
  const size = Math.max(1, extent * 1.02 + 2);
  const min: [number, number, number] = [0, 0, 0];
  for (let a = 0; a < 3; a++) min[a] = (lo[a]! + hi[a]!) / 2 - size / 2;
  return { frame, min, size };
}

/** Bucket id of a node address at the bucket depth. */
function bucketId(a: NodeAddress): number {
  return (((a.x << a.d) | a.y) << a.d) | a.z;
}

/** Node address of a bucket id at depth `d`. */
function bucketAddress(id: number, d: number): NodeAddress {
  const mask = (1 << d) - 1;
  return { d, x: (id >>> (2 * d)) & mask, y: (id >>> d) & mask, z: id & mask };
}

/** Depth at which points are bucketed to disk: buckets of about `bucketTarget` points on a surface-like cloud. */
export function bucketDepth(pointCount: number, maxDepth: number, tuning: TilerTuning = DEFAULT_TUNING): number {
  if (pointCount <= tuning.singleBucketMax || maxDepth === 0) return 0;
  const d = Math.ceil(Math.log(pointCount / tuning.bucketTarget) / Math.log(4));
  return Math.max(1, Math.min(d, 5, maxDepth));
}

/**
 * Tiles a point source into a 3D Tiles 1.1 tileset in `outDir`
 * (`tileset.json` + `content/*.glb`), out of core: points are quantised in a
 * local ENU octree and bucketed (in shared memory up to
 * `tuning.memoryMax` points, else to disk), subtrees are built per bucket on
 * worker threads, and upper levels are sampled from the buckets' roots. A LAZ
 * input ({@link TilerInput.laz}) is decoded on the workers too. ADD
 * refinement: every input point is in exactly one tile.
 */
export async function tileInput(
  input: TilerInput,
  outDir: string,
  optionsInput: TilerOptionsInput = {},
  ctx: StepContext = {},
  tuning: TilerTuning = DEFAULT_TUNING,
): Promise<TileResult> {
  const started = Date.now();
  const options = resolveTilerOptions(optionsInput);
  const { signal } = ctx;
  checkAbort(signal);
  const space = placeOctree(input);
  const q = quantum(space);
  const gridBits = Math.log2(options.grid);
  const params: BuildParams = { space, maxPoints: options.maxPoints, minNodeSize: options.minNodeSize, gridBits };
  let maxSplitDepth = 0;
  while (canSplit(params, maxSplitDepth)) maxSplitDepth++;
  const depth = bucketDepth(input.pointCount, maxSplitDepth, tuning);
  const memory = input.pointCount <= tuning.memoryMax;

  await mkdir(path.join(outDir, 'content'), { recursive: true });
  const tmpRoot = ctx.tmpDir ?? os.tmpdir();
  await mkdir(tmpRoot, { recursive: true });
  const tmp = await mkdtemp(path.join(tmpRoot, 'nuage-tiler-'));
  const pool = acquireTilerPool(options.workers);
  let healthy = false;
  try {
    // Pass 1: read, reproject (interpolated grid straight into the local frame), quantise, bucket.
    ctx.progress?.(0, 'tilesCreation');
    const toLocal = createTransformGrid(
      {
        forward(x, y, z, n) {
          input.toEcef(x, y, z, n);
          ecefToLocal(space.frame, x, y, z, n);
        },
      },
      input.bounds,
    );
    const bucketCount = 1 << (3 * depth);
    const counts = new Float64Array(bucketCount);
    // Disk: which threads wrote a file for each bucket. Memory: each bucket's parts (shared memory).
    const threads = new Map<number, Set<number>>();
    // Each part keeps the read offset of its chunk: parts are built in input order, not in the order
    // the threads finished them, so the same input gives the same tileset.
    const parts = new Map<number, { offset: number; block: PointBlock }[]>();
    const classHistogram = new Float64Array(256);
    let maxColor = 0;
    let read = 0;
    let failure: unknown;
    const inFlight = new Set<Promise<void>>();
    const maxInFlight = Math.max(2, options.workers * 2);
    const onReply = (reply: TilerReply, offset: number, lazChunk: number): void => {
      if (reply.op !== 'bucket') throw new Error('unexpected tiler reply');
      if (reply.decodeError !== undefined) {
        // As the LAZ reader words it.
        throw new InvalidInput(
          `laz.chunk[${lazChunk}]`,
          `cannot decompress: ${reply.decodeError}`,
          input.laz?.chunks[lazChunk]?.offset,
        );
      }
      if (reply.badPoint >= 0) {
        throw new InvalidInput(
          'point',
          `point ${offset + reply.badPoint} cannot be transformed to ECEF (outside the CRS's area of use?)`,
        );
      }
      if (reply.clamped > 0) {
        throw new InvalidInput(
          'header.bounds',
          `${reply.clamped} points lie outside the header bounds (beyond a 2 % margin): the header is wrong; rewrite the file (nuage convert) to fix it`,
        );
      }
      let at = 0;
      reply.ids.forEach((id, k) => {
        const n = reply.counts[k]!;
        counts[id]! += n;
        if (reply.block) {
          const list = parts.get(id) ?? [];
          list.push({ offset, block: blockRange(reply.block, at, at + n) });
          parts.set(id, list);
          at += n;
        } else {
          const set = threads.get(id) ?? new Set<number>();
          set.add(reply.thread);
          threads.set(id, set);
        }
      });
      for (let c = 0; c < 256; c++) classHistogram[c]! += reply.classHistogram[c]!;
      if (reply.maxColor > maxColor) maxColor = reply.maxColor;
    };
    const submit = async (
      task: BucketTask | LazBucketTask,
      transfer: ArrayBuffer[],
      n: number,
      lazChunk = -1,
    ): Promise<void> => {
      const offset = read;
      const job: Promise<void> = pool
        .run(task, transfer)
        .then((reply) => onReply(reply, offset, lazChunk))
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
      read += n;
      ctx.progress?.(Math.min(0.5, (0.5 * read) / Math.max(1, input.pointCount)), 'tilesCreation');
    };
    const laz = input.laz;
    if (laz) {
      const transform: LocalTransformSpec = {
        id: ++transformIds,
        crs: laz.crs,
        frame: space.frame,
        nodes: toLocal.nodes ? shareGridNodes(toLocal.nodes) : null,
      };
      // Plain data, cloned into every task: the fields records decode with (extra bytes are not tiled).
      const { pointFormat, recordLength, scale, offset, layout: fields } = laz.layout;
      const layout: RecordLayout = { pointFormat, recordLength, scale, offset, extraBytes: [], layout: fields };
      for (const [index, chunk] of laz.chunks.entries()) {
        checkAbort(signal);
        if (failure) throw failure;
        if (chunk.pointCount === 0) continue;
        const bytes = ownBuffer(await laz.read(chunk.offset, chunk.byteLength));
        const task: LazBucketTask = {
          op: 'bucket-laz',
          bytes,
          pointCount: chunk.pointCount,
          layout,
          transform,
          hasColor: input.hasColor,
          min: space.min,
          quantum: q,
          depth,
          memory,
          dir: tmp,
          order: read,
        };
        await submit(task, [bytes], chunk.pointCount, index);
      }
    }
    for await (const chunk of laz ? [] : input.chunks(signal)) {
      checkAbort(signal);
      if (failure) throw failure;
      const n = chunk.count;
      if (n === 0) continue;
      // Own copies: the reader may reuse its arrays, and these are transferred to a worker.
      const x = chunk.x.slice(0, n);
      const y = chunk.y.slice(0, n);
      const z = chunk.z.slice(0, n);
      toLocal.forward(x, y, z, n);
      const withColor = input.hasColor && chunk.red && chunk.green && chunk.blue;
      const task: BucketTask = {
        op: 'bucket',
        count: n,
        x,
        y,
        z,
        ...(chunk.intensity ? { intensity: chunk.intensity.slice(0, n) } : {}),
        ...(chunk.classification ? { classification: chunk.classification.slice(0, n) } : {}),
        ...(withColor
          ? { red: chunk.red!.slice(0, n), green: chunk.green!.slice(0, n), blue: chunk.blue!.slice(0, n) }
          : {}),
        min: space.min,
        quantum: q,
        depth,
        memory,
        dir: tmp,
        order: read,
      };
      await submit(task, bucketTaskBuffers(task), n);
    }
    await Promise.all(inFlight);
    if (failure) throw failure;
    if (read === 0) throw new InvalidInput('points', 'the file holds no points: nothing to tile');
    const bucketedAt = Date.now();

    const color: ColorMode = !input.hasColor || maxColor === 0 ? 'none' : maxColor <= 255 ? '8bit' : '16bit';
    const content: ContentOptions = { color, quantize: options.quantize };

    // Pass 2: build subtrees per bucket on the workers; merge upwards on this thread.
    const summaries = new Map<string, NodeSummary>();
    let contentBytes = 0;
    let built = 0;
    const sink = (a: NodeAddress, points: PointBlock, indices: Uint32Array, bounds?: number[]): void => {
      contentBytes += writeNodeContent(outDir, a, points, indices, space, content, bounds);
    };
    // Which nodes above the bucket depth exist (ancestors of non-empty buckets).
    const existing = new Set<string>();
    for (const id of memory ? parts.keys() : threads.keys()) {
      let a = bucketAddress(id, depth);
      existing.add(nodeKey(a));
      while (a.d > 0) {
        a = { d: a.d - 1, x: a.x >> 1, y: a.y >> 1, z: a.z >> 1 };
        existing.add(nodeKey(a));
      }
    }

    const buildBucket = async (
      a: NodeAddress,
      files: string[],
      blocks: PointBlock[],
      count: number,
    ): Promise<PointBlock> => {
      checkAbort(signal);
      if (files.length > 0 && count > tuning.bucketLimit && canSplit(params, a.d)) {
        const prefix = path.join(tmp, `s${nodeKey(a)}`);
        const reply = await pool.run({ op: 'split', files, address: a, childPrefix: prefix });
        if (reply.op !== 'split') throw new Error('unexpected tiler reply');
        const kids = reply.counts.flatMap((c, o) => (c > 0 ? [{ o, c }] : []));
        const results = await Promise.all(
          kids.map(async ({ o, c }) => ({
            address: childAddress(a, o),
            points: await buildBucket(childAddress(a, o), [childBucketFile(prefix, o)], [], c),
          })),
        );
        return merge(a, results);
      }
      const reply = await pool.run({ op: 'build', files, parts: blocks, address: a, params, content, outDir });
      if (reply.op !== 'build') throw new Error('unexpected tiler reply');
      for (const s of reply.nodes) summaries.set(s.key, s);
      contentBytes += reply.contentBytes;
      built += reply.points;
      ctx.progress?.(0.5 + (0.5 * built) / read, 'tilesCreation');
      return reply.rootPoints;
    };

    const merge = (a: NodeAddress, results: { address: NodeAddress; points: PointBlock }[]): PointBlock => {
      const m = mergeIntoParent(a, results, params, sink);
      summaries.set(m.parent.key, m.parent);
      for (const c of m.children) {
        const s = summaries.get(c.key);
        if (s) {
          s.count = c.count;
          s.bounds = c.bounds;
        } else summaries.set(c.key, { key: c.key, count: c.count, bounds: c.bounds, children: [] });
      }
      return m.parentPoints;
    };

    // Every bucket's build starts now, biggest first: the last one to finish bounds this phase.
    const builds = new Map<number, Promise<PointBlock>>();
    for (const id of [...(memory ? parts.keys() : threads.keys())].sort((p, q) => counts[q]! - counts[p]!)) {
      const a = bucketAddress(id, depth);
      const files = [...(threads.get(id) ?? [])].map((t) => bucketFile(tmp, id, t));
      const inOrder = (parts.get(id) ?? []).sort((p, q) => p.offset - q.offset).map((p) => p.block);
      const build = buildBucket(a, files, inOrder, counts[id]!);
      build.catch(() => {}); // awaited by solve; a failure must not go unhandled meanwhile
      builds.set(id, build);
    }
    parts.clear();

    const solve = async (a: NodeAddress): Promise<PointBlock> => {
      if (a.d === depth) return builds.get(bucketId(a))!;
      const kids: NodeAddress[] = [];
      for (let o = 0; o < 8; o++) {
        const c = childAddress(a, o);
        if (existing.has(nodeKey(c))) kids.push(c);
      }
      const results = await Promise.all(kids.map(async (c) => ({ address: c, points: await solve(c) })));
      return merge(a, results);
    };

    const root: NodeAddress = { d: 0, x: 0, y: 0, z: 0 };
    const rootPoints = await solve(root);
    const rootSummary = summaries.get(nodeKey(root))!;
    rootSummary.count = rootPoints.count;
    if (rootPoints.count > 0) sink(root, rootPoints, identityIndices(rootPoints.count));
    checkAbort(signal);
    const builtAt = Date.now();

    // Tileset JSON.
    let tileCount = 0;
    let nodeCount = 0;
    let maxDepth = 0;
    let pointCount = 0;
    const unionBounds = (s: NodeSummary): number[] | null => {
      let b = s.bounds ? [...s.bounds] : null;
      for (const k of s.children) {
        const c = summaries.get(k);
        const cb = c ? unionBounds(c) : null;
        if (!cb) continue;
        if (!b) b = [...cb];
        else {
          for (let i = 0; i < 3; i++) b[i] = Math.min(b[i]!, cb[i]!);
          for (let i = 3; i < 6; i++) b[i] = Math.max(b[i]!, cb[i]!);
        }
      }
      (s as NodeSummary & { union?: number[] | null }).union = b;
      return b;
    };
    unionBounds(rootSummary);
    const toTile = (s: NodeSummary, a: NodeAddress): TileJson | null => {
      const u = (s as NodeSummary & { union?: number[] | null }).union;
      if (!u) return null;
      const children: TileJson[] = [];
      for (const k of s.children) {
        const c = summaries.get(k);
        if (!c) continue;
        const [d, x, y, z] = k.split('-').map(Number) as [number, number, number, number];
        const t = toTile(c, { d, x, y, z });
        if (t) children.push(t);
      }
      nodeCount++;
      if (a.d > maxDepth) maxDepth = a.d;
      const nodeSize = space.size / 2 ** a.d;
      const tile: TileJson = {
        boundingVolume: { box: boxOf(space, u) },
        geometricError: children.length > 0 ? (ERROR_PER_SPACING * nodeSize) / options.grid : 0,
      };
      if (s.count > 0) {
        tile.content = { uri: contentUri(s.key) };
        tileCount++;
        pointCount += s.count;
      }
      if (children.length > 0) tile.children = children;
      return tile;
    };
    const rootTile = toTile(rootSummary, root)!;
    rootTile.refine = 'ADD';
    const classObj: Record<number, number> = {};
    for (let c = 0; c < 256; c++) if (classHistogram[c]! > 0) classObj[c] = classHistogram[c]!;
    const rootUnion = (rootSummary as NodeSummary & { union?: number[] | null }).union!;
    const lo = [0, 1, 2].map((a) => space.min[a]! + rootUnion[a]! * q);
    const hi = [0, 1, 2].map((a) => space.min[a]! + (rootUnion[a + 3]! + 1) * q);
    const bboxWgs84 = geodeticBounds(space, lo, hi);
    const tileset: TilesetJson = {
      asset: { version: '1.1', generator: 'Nuage tiler' },
      // As py3dtiles: the whole tileset's error is the diagonal of its bounds.
      geometricError: Math.max(
        rootTile.geometricError * 2,
        Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!),
      ),
      root: rootTile,
      extras: { pointCount, classCounts: classObj, hasColor: color !== 'none', bboxWgs84 },
    };
    const tilesetPath = path.resolve(outDir, 'tileset.json');
    await writeFile(tilesetPath, JSON.stringify(tileset));
    ctx.progress?.(1, 'tilesCreation');
    ctx.log?.('tiled', { pointCount, tileCount, maxDepth });
    if (pointCount !== read) {
      throw new Error(`tiler lost points: read ${read}, wrote ${pointCount}`);
    }
    healthy = true;
    return {
      tilesetPath,
      pointCount,
      tileCount,
      nodeCount,
      maxDepth,
      bboxWgs84,
      contentBytes,
      classCounts: classObj,
      hasColor: color !== 'none',
      durationMs: Date.now() - started,
      phases: { readAndBucketMs: bucketedAt - started, buildMs: builtAt - bucketedAt, tilesetMs: Date.now() - builtAt },
      bucketDepth: depth,
      reprojectionError: toLocal.maxError,
    };
  } finally {
    await releaseTilerPool(pool, healthy);
    await rm(tmp, { recursive: true, force: true });
  }
}

/** 3D Tiles box (ECEF centre + three half-axes) of quantised local bounds. */
function boxOf(space: OctreeSpace, b: number[]): number[] {
  const q = quantum(space);
  const half: number[] = [];
  const centre: number[] = [];
  for (let a = 0; a < 3; a++) {
    const lo = space.min[a]! + b[a]! * q;
    const hi = space.min[a]! + (b[a + 3]! + 1) * q;
    centre.push((lo + hi) / 2);
    half.push(Math.max((hi - lo) / 2, 0.005));
  }
  const c = localToEcef(space.frame, centre[0]!, centre[1]!, centre[2]!);
  const e = localVectorToEcef(space.frame, half[0]!, 0, 0);
  const n = localVectorToEcef(space.frame, 0, half[1]!, 0);
  const u = localVectorToEcef(space.frame, 0, 0, half[2]!);
  return [...c, ...e, ...n, ...u];
}

/** Geodetic bounds of a local ENU box, from a grid of points over its faces. */
function geodeticBounds(space: OctreeSpace, lo: number[], hi: number[]): BboxWgs84 {
  const r: BboxWgs84 = {
    west: Number.POSITIVE_INFINITY,
    south: Number.POSITIVE_INFINITY,
    east: Number.NEGATIVE_INFINITY,
    north: Number.NEGATIVE_INFINITY,
    minHeight: Number.POSITIVE_INFINITY,
    maxHeight: Number.NEGATIVE_INFINITY,
  };
  const steps = 6;
  for (let i = 0; i <= steps; i++) {
    for (let j = 0; j <= steps; j++) {
      for (let k = 0; k <= steps; k++) {
        const p = localToEcef(
          space.frame,
          lo[0]! + ((hi[0]! - lo[0]!) * i) / steps,
          lo[1]! + ((hi[1]! - lo[1]!) * j) / steps,
          lo[2]! + ((hi[2]! - lo[2]!) * k) / steps,
        );
        const g = ecefToGeodetic(p[0], p[1], p[2]);
        r.west = Math.min(r.west, g.lon);
        r.east = Math.max(r.east, g.lon);
        r.south = Math.min(r.south, g.lat);
        r.north = Math.max(r.north, g.lat);
        r.minHeight = Math.min(r.minHeight, g.height);
        r.maxHeight = Math.max(r.maxHeight, g.height);
      }
    }
  }
  return r;
}
