/**
 * Tiled processing (issue 24, goal 2): a PROCESSING job on a big cloud cuts it
 * into tiles with overlap buffers (engine/src/tiled), stores each tile and
 * queues one 'processing-tile' graphile-worker job per tile. Any worker
 * process, on any machine sharing the database and the store, takes tiles;
 * the processing job takes them too while it waits (so one worker alone gets
 * through), reports the whole project's progress, and merges the tiles'
 * classes once all are done. A tile whose worker dies (its heartbeat stops)
 * is taken again; only that tile is lost.
 */
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Cancelled } from '@nuage/engine/core/errors.js';
import type { TileGrid } from '@nuage/engine/tiled/plan.js';
import type { TileSettings } from '@nuage/engine/tiled/tiled-classify.js';
import {
  classifyTileInThread,
  mergeTileClasses,
  splitIntoTiles,
  writeClassesFile,
} from '@nuage/engine/tiled/tiled-classify.js';
import { assetRunPrefix } from '@nuage/tiles-cache';
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { AppDeps } from '../context.js';
import {
  beatTile,
  claimTile,
  deleteTiles,
  failTile,
  finishTile,
  insertTiles,
  listTiles,
  releaseTile,
  runningTiles,
  type TileRow,
  tileCounts,
} from '../db/queries/processing-tiles.queries.js';
import type { Logger } from '../log.js';
import type { JobContext } from './job-runner.js';
import { PermanentJobError } from './job-runner.js';
import { pidAlive, processTable } from './recovery.js';
import { localCopy, uploadFile } from './store-io.js';

/** Tries of one tile before the processing fails. */
export const TILE_ATTEMPTS = 3;
const HEARTBEAT_MS = 5_000;

/** What a tile row's `spec` holds. */
interface TileSpecJson {
  grid: TileGrid;
  settings: TileSettings;
  pointCount: number;
  /** Store keys: the tile's points (buffer included) and its classes once done. */
  input: string;
  classes: string;
}

/** The store prefix of a tiled run's working files (under the point cloud asset, removed after the merge). */
export function tileWorkPrefix(projectId: string, cloudAssetId: string, jobId: string): string {
  return assetRunPrefix(projectId, cloudAssetId, `w${jobId}`);
}

/**
 * Running tiles whose worker process is gone (no heartbeat row, or in this
 * process table a pid that no longer exists) go back to PENDING at once; on
 * other hosts (or in other containers) the tile heartbeat's age
 * (TILE_STALE_SECONDS) tells.
 */
async function releaseDeadTiles(deps: AppDeps, jobId: string, log: Logger): Promise<void> {
  const here = processTable();
  for (const t of await runningTiles(deps.database.db, jobId)) {
    // No heartbeat row: the worker stopped (or was found dead and swept). Same process table: its pid tells.
    const dead = t.hostname === null || (t.hostname === here && t.pid !== null && !pidAlive(t.pid));
    if (!dead) continue;
    await releaseTile(deps.database.db, jobId, t.tile, t.worker_id);
    log.warn({ tile: t.tile, worker: t.worker_id }, 'the worker of a tile died: the tile is taken again');
  }
}

/** Whether a cloud of `points` points is processed in tiles. */
export function tiledProcessing(deps: AppDeps, points: number): boolean {
  const min = deps.config.TILED_PROCESSING_POINTS;
  return min > 0 && points >= min;
}

/**
 * Runs one claimed tile: its points from the store, the classification (in a
 * worker thread of a pool of `threads`), its classes to the store, DONE. A
 * heartbeat keeps the claim while it runs.
 */
async function runTile(
  deps: AppDeps,
  row: TileRow,
  workerId: string,
  signal: AbortSignal,
  scratch: string,
  log: Logger,
  threads: number,
): Promise<void> {
  const spec = row.spec as TileSpecJson;
  const dir = path.join(scratch, `tile-${row.tile}-${Date.now()}`);
  await mkdir(dir, { recursive: true });
  const beat = setInterval(() => {
    void beatTile(deps.database.db, row.job_id, row.tile, workerId).catch(() => {});
  }, HEARTBEAT_MS);
  beat.unref();
  const t0 = Date.now();
  try {
    const input = await localCopy(deps.storage, spec.input, dir);
    const out = path.join(dir, 'classes.bin');
    const outcome = await classifyTileInThread(
      { tileFile: input, grid: spec.grid, index: row.tile, settings: spec.settings, outFile: out },
      threads,
      signal,
    );
    await uploadFile(deps.storage.objects, out, spec.classes);
    await finishTile(deps.database.db, row.job_id, row.tile, outcome.owned);
    log.info({ tile: row.tile, points: outcome.points, owned: outcome.owned, ms: Date.now() - t0 }, 'tile classified');
  } catch (err) {
    if (!(err instanceof Cancelled) && !signal.aborted) {
      await failTile(
        deps.database.db,
        row.job_id,
        row.tile,
        workerId,
        (err as Error)?.message ?? String(err),
        TILE_ATTEMPTS,
      );
    } else {
      // Shutdown: the tile goes back at once for another worker.
      await failTile(deps.database.db, row.job_id, row.tile, workerId, 'worker shut down', Number.MAX_SAFE_INTEGER);
    }
    throw err;
  } finally {
    clearInterval(beat);
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

const tilePayload = z.object({ jobId: z.string().regex(/^\d{1,18}$/), tile: z.number().int().min(0) });

/**
 * The 'processing-tile' task: takes its tile when nobody runs it (or its
 * runner died) and classifies it; a tile already done or running elsewhere
 * is left alone.
 */
export function processingTileTask(deps: AppDeps, workerId: string): Task {
  return async (raw, helpers) => {
    const { jobId, tile } = tilePayload.parse(raw);
    const row = await claimTile(deps.database.db, jobId, tile, workerId, deps.config.TILE_STALE_SECONDS);
    if (!row) return;
    const log = deps.log.child({ job: jobId, tile });
    const scratch = path.join(tmpdir(), `nuage-tiles-${process.pid}`);
    // In a worker thread: the event loop stays free for the heartbeat while the tile is classified.
    await runTile(deps, row, workerId, helpers.abortSignal, scratch, log, deps.config.TILE_THREADS);
  };
}

/**
 * The processing job's side: splits the input into tiles (once: a resumed job
 * finds them), queues their jobs, runs tiles itself while any is left,
 * waits for the others' and merges every tile's classes into one file (one
 * byte per point, input order) for the classification product.
 */
export async function classifyInTiles(
  ctx: JobContext,
  o: {
    inputPath: string;
    epsg?: number;
    projectId: string;
    cloudAssetId: string;
    workerId: string;
    /** The processing option: `FIND` searches wires even in a file whose vendor labelled them. */
    vendorWireClasses: 'KEEP' | 'FIND';
    /** Percentages of the job this stage spans. */
    from: number;
    to: number;
  },
): Promise<string> {
  const { deps, job } = ctx;
  const db = deps.database.db;
  const prefix = tileWorkPrefix(o.projectId, o.cloudAssetId, job.id);
  let rows = await listTiles(db, job.id);
  if (rows.some((r) => r.status === 'FAILED')) {
    // A new try of a failed processing starts the tiles over.
    await deleteTiles(db, job.id);
    rows = [];
  }
  const span = o.to - o.from;
  if (rows.length === 0) {
    await ctx.step('tiledSplit', o.from);
    const dir = path.join(ctx.tmpDir, 'split');
    const split = await splitIntoTiles(
      o.inputPath,
      dir,
      {
        pointsPerTile: deps.config.TILE_POINTS,
        bufferMetres: deps.config.TILE_BUFFER_METRES,
        vendorWireClasses: o.vendorWireClasses,
        ...(o.epsg ? { epsg: o.epsg } : {}),
      },
      { signal: ctx.signal, progress: (f) => ctx.progress(o.from + span * 0.1 * f) },
    );
    const specs = [];
    for (const t of split.tiles) {
      const spec: TileSpecJson = {
        grid: split.grid,
        settings: split.settings,
        pointCount: split.pointCount,
        input: `${prefix}tile-${t.index}.bin`,
        classes: `${prefix}classes-${t.index}.bin`,
      };
      await uploadFile(deps.storage.objects, t.file, spec.input);
      await rm(t.file, { force: true });
      specs.push({ tile: t.index, spec, points: t.points });
    }
    await insertTiles(db, job.id, specs, TILE_ATTEMPTS + 2);
    ctx.log.info(
      { tiles: specs.length, grid: `${split.grid.nx}x${split.grid.ny}`, points: split.pointCount },
      'cloud split into tiles',
    );
    rows = await listTiles(db, job.id);
  }
  await ctx.step('tiledClassify', o.from + span * 0.1);
  const scratch = path.join(ctx.tmpDir, 'tiles');
  // Up to TILE_THREADS tiles at once, each in a worker thread; another worker's failure of a tile is its own.
  const threads = deps.config.TILE_THREADS;
  const mine = new Set<Promise<void>>();
  let stop: unknown = null;
  try {
    for (;;) {
      if (ctx.signal.aborted) throw new Cancelled();
      if (stop) throw stop;
      const counts = await tileCounts(db, job.id);
      ctx.progress(o.from + span * (0.1 + (0.85 * counts.done) / Math.max(1, counts.total)));
      if (counts.failed > 0) {
        throw new PermanentJobError('TILE_FAILED', `a tile of the cloud could not be classified: ${counts.failure}`);
      }
      if (counts.done === counts.total) break;
      if (counts.running > mine.size) await releaseDeadTiles(deps, job.id, ctx.log);
      const row =
        mine.size < threads ? await claimTile(db, job.id, null, o.workerId, deps.config.TILE_STALE_SECONDS) : null;
      if (row) {
        const run: Promise<void> = runTile(deps, row, o.workerId, ctx.signal, scratch, ctx.log, threads)
          .catch((err) => {
            if (err instanceof Cancelled || ctx.signal.aborted) stop ??= err;
            else ctx.log.warn({ err, tile: row.tile }, 'tile failed; it will be tried again');
          })
          .finally(() => mine.delete(run));
        mine.add(run);
        continue;
      }
      await Promise.race([new Promise((r) => setTimeout(r, 1000)), ...mine]);
    }
  } finally {
    await Promise.allSettled(mine);
  }
  await ctx.step('tiledMerge', o.from + span * 0.95);
  const done = await listTiles(db, job.id);
  const dir = path.join(ctx.tmpDir, 'classes');
  const files: string[] = [];
  for (const r of done) {
    const sub = path.join(dir, String(r.tile));
    await mkdir(sub, { recursive: true });
    files.push(await localCopy(deps.storage, (r.spec as TileSpecJson).classes, sub));
  }
  const pointCount = (done[0]!.spec as TileSpecJson).pointCount;
  const classes = await mergeTileClasses(files, pointCount);
  const file = path.join(ctx.tmpDir, 'tiled-classes.bin');
  await writeClassesFile(file, classes);
  ctx.progress(o.to);
  return file;
}

/** After the processing: the tiles' rows and working files go. */
export async function forgetTiles(
  deps: AppDeps,
  jobId: string,
  projectId: string,
  cloudAssetId: string,
): Promise<void> {
  await deleteTiles(deps.database.db, jobId);
  await deps.storage.objects.deletePrefix(tileWorkPrefix(projectId, cloudAssetId, jobId)).catch(() => 0);
}
