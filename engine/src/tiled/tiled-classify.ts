/**
 * The three stages of a tiled classification, each runnable on its own
 * machine: {@link splitIntoTiles} (one pass over the input, a record file per
 * tile with its buffer), {@link classifyTile} (one tile: the classes of the
 * points it owns, by their index in the input) and {@link mergeTileClasses}
 * (every point's class, in input order, each point from exactly one tile).
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PointChunk, StepContext } from '../core/chunk.js';
import { Cancelled, CrsRequired, InvalidInput } from '../core/errors.js';
import { threadPool } from '../core/thread-pool.js';
import { classifyCloudTiled } from '../filters/classify.filter.js';
import { keepsVendorWires } from '../products/classified-cloud.product.js';
import { INLINE_DECODE, terrainUnits } from '../products/product-values.js';
import { openPointCloud } from '../readers/index.js';
import type { ClassifyTileTask } from './classify-tile.task.js';
import { ownerOf, type PlanOptions, planTiles, type TileGrid, tileRange } from './plan.js';

/** Bytes of one point in a tile file: x, y, z (f64), input index (u32), class, return number, returns (u8). */
export const TILE_RECORD_BYTES = 31;

/**
 * A tile file is a run of blocks, one per chunk of the input that reached the
 * tile: `[n: u32]` then its columns, `x, y, z: f64 × n`, `index: u32 × n`,
 * `class, return number, returns: u8 × n` (little-endian). Columns are
 * written and read as whole typed arrays (points one by one through Buffer
 * methods cost the split about 3 s per 17 M points).
 */
const BLOCK_HEADER_BYTES = 4;

/** One tile's points of one chunk, as columns. */
interface TileBlock {
  n: number;
  x: Float64Array;
  y: Float64Array;
  z: Float64Array;
  id: Uint32Array;
  cls: Uint8Array;
  rn: Uint8Array;
  nr: Uint8Array;
}

function newBlock(n: number): TileBlock {
  return {
    n,
    x: new Float64Array(n),
    y: new Float64Array(n),
    z: new Float64Array(n),
    id: new Uint32Array(n),
    cls: new Uint8Array(n),
    rn: new Uint8Array(n),
    nr: new Uint8Array(n),
  };
}

/** The bytes of a block, in file order (the machine is little-endian, as every Node target). */
function blockBytes(b: TileBlock): Buffer[] {
  const head = Buffer.alloc(BLOCK_HEADER_BYTES);
  head.writeUInt32LE(b.n, 0);
  const view = (a: Float64Array | Uint32Array | Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  return [head, view(b.x), view(b.y), view(b.z), view(b.id), view(b.cls), view(b.rn), view(b.nr)];
}

/** What {@link splitIntoTiles} wrote. */
export interface TileSplit {
  grid: TileGrid;
  /** Points of the input. */
  pointCount: number;
  /** Per tile: its record file and its points (buffer included). */
  tiles: Array<{ index: number; file: string; points: number }>;
  /** Classification settings every tile uses (the same for all, from the whole cloud). */
  settings: TileSettings;
}

/** What every tile's classification is run with. */
export interface TileSettings {
  unitToMetre: number;
  verticalUnitToMetre: number;
  /** false when the input's vendor labelled its wires (they are kept, not searched). */
  wires: boolean;
}

/** How {@link splitIntoTiles} cuts the input, and the input's CRS and power-line option. */
export type SplitOptions = PlanOptions & {
  epsg?: number;
  /** The processing option `vendorWireClasses`: `FIND` searches wires even in a file whose vendor labelled them. */
  vendorWireClasses?: 'KEEP' | 'FIND';
};

/**
 * Reads the input once and writes, for each tile of the grid, the points of
 * its area and buffer (a point near a seam goes to every tile whose buffer
 * holds it) with their index in the input.
 *
 * @example
 * const split = await splitIntoTiles('big.laz', 'work/tiles', { pointsPerTile: 5e6 });
 */
export async function splitIntoTiles(
  input: string,
  outDir: string,
  options: SplitOptions = {},
  context: StepContext = {},
): Promise<TileSplit> {
  const reader = await openPointCloud(input, options.epsg === undefined ? {} : { epsg: options.epsg });
  const streams: WriteStream[] = [];
  try {
    if (!reader.crs) throw new CrsRequired('the point cloud has no CRS: give one with --epsg (or the asset epsgCode)');
    const units = terrainUnits(reader.crs);
    const h = reader.header;
    const grid = planTiles({ minX: h.min[0], minY: h.min[1], maxX: h.max[0], maxY: h.max[1] }, h.pointCount, {
      ...options,
      unitToMetre: units.unitToMetre,
    });
    const n = grid.nx * grid.ny;
    await mkdir(outDir, { recursive: true });
    const files = Array.from({ length: n }, (_, i) => path.join(outDir, `tile-${i}.bin`));
    for (const f of files) streams.push(createWriteStream(f));
    const points = new Array<number>(n).fill(0);
    let index = 0;
    let vendorWires = 0;
    const counts = new Int32Array(n);
    const range = new Int32Array(4);
    for await (const chunk of reader.read({ signal: context.signal, workers: INLINE_DECODE })) {
      if (context.signal?.aborted) throw new Cancelled();
      const { x, y, z, count } = chunk;
      const cls = chunk.classification;
      const rn = chunk.returnNumber;
      const nr = chunk.numberOfReturns;
      counts.fill(0);
      const nx = grid.nx;
      for (let i = 0; i < count; i++) {
        tileRange(grid, x[i]!, y[i]!, range);
        for (let iy = range[2]!; iy <= range[3]!; iy++)
          for (let ix = range[0]!; ix <= range[1]!; ix++) counts[iy * nx + ix]!++;
      }
      const blocks = Array.from(counts, (c) => (c > 0 ? newBlock(c) : null));
      const at = new Int32Array(n);
      for (let i = 0; i < count; i++) {
        const c = cls ? cls[i]! : 0;
        if (c === 14) vendorWires++;
        const px = x[i]!;
        const py = y[i]!;
        tileRange(grid, px, py, range);
        for (let iy = range[2]!; iy <= range[3]!; iy++) {
          for (let ix = range[0]!; ix <= range[1]!; ix++) {
            const t = iy * nx + ix;
            const b = blocks[t]!;
            const k = at[t]!++;
            b.x[k] = px;
            b.y[k] = py;
            b.z[k] = z[i]!;
            b.id[k] = index + i;
            b.cls[k] = c;
            b.rn[k] = rn ? rn[i]! : 1;
            b.nr[k] = nr ? nr[i]! : 1;
          }
        }
      }
      index += count;
      for (let t = 0; t < n; t++) {
        const b = blocks[t];
        if (!b) continue;
        points[t]! += counts[t]!;
        let drained = true;
        for (const part of blockBytes(b)) drained = streams[t]!.write(part) && drained;
        if (!drained) await once(streams[t]!, 'drain');
      }
      context.progress?.(h.pointCount > 0 ? Math.min(1, index / h.pointCount) : 1, 'split');
    }
    await Promise.all(
      streams.map(
        (s) => new Promise<void>((resolve, reject) => s.end((err?: Error | null) => (err ? reject(err) : resolve()))),
      ),
    );
    if (index < 3) throw new InvalidInput('points', `the cloud has ${index} points: nothing to process`);
    return {
      grid,
      pointCount: index,
      tiles: files.map((file, i) => ({ index: i, file, points: points[i]! })),
      settings: { ...units, wires: !keepsVendorWires(vendorWires, options.vendorWireClasses) },
    };
  } finally {
    for (const s of streams) if (!s.closed) s.destroy();
    await reader.close();
  }
}

/** A tile file's points (see {@link BLOCK_HEADER_BYTES} for the format) and their indices in the input. */
export async function readTileFile(tileFile: string): Promise<{ cloud: PointChunk; ids: Uint32Array }> {
  const bytes = await readFile(tileFile);
  const broken = () => new InvalidInput('tile', `${path.basename(tileFile)} is not a whole number of point blocks`);
  let count = 0;
  let o = 0;
  while (o < bytes.byteLength) {
    if (o + BLOCK_HEADER_BYTES > bytes.byteLength) throw broken();
    const n = bytes.readUInt32LE(o);
    o += BLOCK_HEADER_BYTES + n * TILE_RECORD_BYTES;
    count += n;
  }
  if (o !== bytes.byteLength) throw broken();
  const cloud = {
    count,
    x: new Float64Array(count),
    y: new Float64Array(count),
    z: new Float64Array(count),
    classification: new Uint8Array(count),
    returnNumber: new Uint8Array(count),
    numberOfReturns: new Uint8Array(count),
  };
  const ids = new Uint32Array(count);
  // Each column of each block copied byte for byte into its place (typed arrays over unaligned file offsets would throw).
  const put = (to: Float64Array | Uint32Array | Uint8Array, at: number, from: number, n: number) => {
    const size = to.BYTES_PER_ELEMENT;
    new Uint8Array(to.buffer, at * size, n * size).set(bytes.subarray(from, from + n * size));
    return from + n * size;
  };
  o = 0;
  for (let at = 0; o < bytes.byteLength; ) {
    const n = bytes.readUInt32LE(o);
    o += BLOCK_HEADER_BYTES;
    o = put(cloud.x, at, o, n);
    o = put(cloud.y, at, o, n);
    o = put(cloud.z, at, o, n);
    o = put(ids, at, o, n);
    o = put(cloud.classification, at, o, n);
    o = put(cloud.returnNumber, at, o, n);
    o = put(cloud.numberOfReturns, at, o, n);
    at += n;
  }
  return { cloud, ids };
}

/** What {@link classifyTile} found. */
export interface TileOutcome {
  /** Points in the tile's file (buffer included). */
  points: number;
  /** Points the tile owns (written to the classes file). */
  owned: number;
  /** Owned points per class. */
  classCounts: Record<number, number>;
}

/**
 * Classifies one tile's points (its area and buffer) and writes the classes of
 * the points it owns: `[n: u32][input index: u32 × n][class: u8 × n]`.
 *
 * The tile's filters run on one thread unless `context.workers` says
 * otherwise: the ground filter cuts a cloud into strips by its thread count,
 * so a tile's classes would depend on the cores of the machine (or the
 * thread) that ran it. Tiles are the parallel unit (see {@link classifyTileInThread}).
 *
 * @example
 * await classifyTile('work/tiles/tile-3.bin', split.grid, 3, split.settings, 'work/classes-3.bin');
 */
export async function classifyTile(
  tileFile: string,
  grid: TileGrid,
  index: number,
  settings: TileSettings,
  outFile: string,
  context: StepContext & { workers?: number } = {},
): Promise<TileOutcome> {
  const { cloud, ids } = await readTileFile(tileFile);
  const count = cloud.count;
  let owned = 0;
  const mine = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    if (ownerOf(grid, cloud.x[i]!, cloud.y[i]!) === index) {
      mine[i] = 1;
      owned++;
    }
  }
  const out = Buffer.alloc(4 + owned * 5);
  out.writeUInt32LE(owned, 0);
  const classCounts: Record<number, number> = {};
  if (owned > 0) {
    const classes =
      count >= 3
        ? (
            await classifyCloudTiled(
              cloud,
              {
                unitToMetre: settings.unitToMetre,
                verticalUnitToMetre: settings.verticalUnitToMetre,
                wires: settings.wires,
              },
              context,
              context.workers ?? 1,
            )
          ).classification
        : new Uint8Array(count).fill(1);
    for (let i = 0, k = 0; i < count; i++) {
      if (!mine[i]) continue;
      out.writeUInt32LE(ids[i]!, 4 + k * 4);
      out[4 + owned * 4 + k] = classes[i]!;
      classCounts[classes[i]!] = (classCounts[classes[i]!] ?? 0) + 1;
      k++;
    }
  }
  await mkdir(path.dirname(outFile), { recursive: true });
  await writeFile(outFile, out);
  return { points: count, owned, classCounts };
}

const tileThreads = threadPool(new URL('./classify-tile.worker.mjs', import.meta.url));

/**
 * {@link classifyTile} in a worker thread of a pool of `threads`: tiles run
 * side by side, one per thread. The classification's own serial stretches
 * (the roof faces' growth among them) leave a core idle when one tile runs
 * alone, and its own worker threads cost copies of the points: two tiles at
 * once, each on its one thread, took 41–49 s on the 0.48 GB replica where one
 * tile at a time (with the filters' own threads) took 61 s. Cancelling ends the thread.
 *
 * @example
 * await Promise.all(tiles.map((t) => classifyTileInThread({ tileFile: t.file, grid, index: t.index, settings, outFile: `classes-${t.index}.bin` }, 2)));
 */
export async function classifyTileInThread(
  task: ClassifyTileTask,
  threads: number,
  signal?: AbortSignal,
): Promise<TileOutcome> {
  if (signal?.aborted) throw new Cancelled();
  try {
    return (await tileThreads(threads).run(task, signal ? { signal } : {})) as TileOutcome;
  } catch (err) {
    if (signal?.aborted) throw new Cancelled();
    throw err;
  }
}

/**
 * Every point's class in input order from the tiles' classes files; each
 * point must come from exactly one tile.
 *
 * @example
 * const classes = await mergeTileClasses(files, split.pointCount);
 */
export async function mergeTileClasses(files: readonly string[], pointCount: number): Promise<Uint8Array<ArrayBuffer>> {
  const classes = new Uint8Array(pointCount);
  const seen = new Uint8Array(pointCount);
  let total = 0;
  for (const file of files) {
    const b = await readFile(file);
    const n = b.byteLength >= 4 ? b.readUInt32LE(0) : -1;
    if (n < 0 || b.byteLength !== 4 + n * 5) throw new InvalidInput('tile', `${path.basename(file)} is truncated`);
    for (let k = 0; k < n; k++) {
      const id = b.readUInt32LE(4 + k * 4);
      if (id >= pointCount || seen[id]) {
        throw new InvalidInput(
          'tile',
          `point ${id} is owned by two tiles or lies outside the cloud (${path.basename(file)})`,
        );
      }
      seen[id] = 1;
      classes[id] = b[4 + n * 4 + k]!;
    }
    total += n;
  }
  if (total !== pointCount) {
    throw new InvalidInput('tile', `the tiles classified ${total} of ${pointCount} points`);
  }
  return classes;
}

/** Writes a merged classification (one byte per point, input order) for the classification product. */
export async function writeClassesFile(file: string, classes: Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, classes);
}

/**
 * The three stages in one process (`nuage process --tile-points N`): memory
 * follows the tile size times the tiles at work, not the cloud's. With
 * `threads` above 1 that many tiles run at once, each in a worker thread.
 * Returns the merged classes file for the classification product.
 *
 * @example
 * const classes = await classifyTiledLocally('big.laz', 'work', { pointsPerTile: 5e6 }, {}, 2);
 */
export async function classifyTiledLocally(
  input: string,
  workDir: string,
  options: SplitOptions = {},
  context: StepContext = {},
  threads = 1,
): Promise<{ file: string; tiles: number }> {
  const split = await splitIntoTiles(input, path.join(workDir, 'tiles'), options, {
    ...context,
    progress: (f) => context.progress?.(0.1 * f, 'split'),
  });
  const n = split.tiles.length;
  const outs = split.tiles.map((t) => path.join(workDir, `classes-${t.index}.bin`));
  const fractions = new Float64Array(n);
  const report = (k: number, f: number) => {
    fractions[k] = Math.min(1, Math.max(0, f));
    let sum = 0;
    for (const v of fractions) sum += v;
    context.progress?.(0.1 + (0.85 * sum) / n, 'tiles');
  };
  let next = 0;
  const one = async (k: number) => {
    const t = split.tiles[k]!;
    if (threads > 1) {
      await classifyTileInThread(
        {
          tileFile: t.file,
          grid: split.grid,
          index: t.index,
          settings: split.settings,
          outFile: outs[k]!,
        },
        threads,
        context.signal,
      );
    } else {
      await classifyTile(t.file, split.grid, t.index, split.settings, outs[k]!, {
        ...context,
        progress: (f) => report(k, f),
      });
    }
    report(k, 1);
    await rm(t.file, { force: true });
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(threads, n)) }, async () => {
      while (next < n) await one(next++);
    }),
  );
  const classes = await mergeTileClasses(outs, split.pointCount);
  const file = path.join(workDir, 'classes.bin');
  await writeClassesFile(file, classes);
  for (const o of outs) await rm(o, { force: true });
  context.progress?.(1, 'merge');
  return { file, tiles: n };
}
