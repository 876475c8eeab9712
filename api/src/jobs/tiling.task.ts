import path from 'node:path';
import { tilePointCloud } from '@nuage/engine/tiler/tile-point-cloud.js';
import { runTilesPrefix } from '@nuage/tiles-cache';
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../context.js';
import { findAsset, listAssetFiles, setAssetStatus, updateAsset } from '../db/queries/assets.queries.js';
import { enqueueJob, failWaitingProcessing, latestJob, updateJob } from '../db/queries/jobs.queries.js';
import { findProject, setProjectStatus } from '../db/queries/projects.queries.js';
import { AppError } from '../errors.js';
import { ensureJobReservation, settleJob } from '../services/credits.service.js';
import { tilerOptionsForJobs } from '../services/global-parameters.service.js';
import { processingRefusal, standingOf } from '../services/subscription.service.js';
import { defineJobTask, type JobFailure, PermanentJobError } from './job-runner.js';
import { ensureQueue, MAX_ATTEMPTS } from './queue.js';
import { localCopy, uploadFolder } from './store-io.js';

/** Creation progress steps of spec §4, in the order a tiling goes through them. */
export const TILING_STEPS = [
  'tilesCreation',
  'startLasDownload',
  'assetCreation',
  'startGo',
  'optimizing',
  'uploadingToBucket',
  'done',
  'tilingUploadDone',
  'tilingSuccess',
] as const;

/**
 * Tiles the stored point cloud into 3D Tiles 1.1 (engine tilePointCloud, with
 * the admin's tiling parameters) and puts the tileset in the store under a
 * prefix of this run, so tiles never change under a handed-out URL. The asset
 * goes TILING → READY (or ERROR with the reason), the project READY; a
 * processing request waiting for the tileset is queued, or fails at once when
 * the owner's subscription or credits cannot cover the measured area.
 */
export function tilingTask(deps: AppDeps, workerId: string): Task {
  return defineJobTask(deps, workerId, {
    kind: 'TILING',
    firstStep: 'tilesCreation',
    finalStep: 'tilingSuccess',
    async run(ctx) {
      const { job } = ctx;
      const db = deps.database.db;
      const asset = job.asset_id ? await findAsset(db, job.asset_id) : undefined;
      if (asset?.type !== 'POINT_CLOUD') {
        throw new PermanentJobError('ASSET_NOT_FOUND', 'the point cloud asset of this job is gone');
      }
      const input = (await listAssetFiles(db, [asset.id])).find((f) => f.extension === 'las' || f.extension === 'laz');
      if (!input) throw new PermanentJobError('ASSET_NOT_UPLOADED', 'the point cloud file was never stored');

      await ctx.step('startLasDownload', 1);
      const file = await localCopy(deps.storage, input.key, ctx.tmpDir, (f) => ctx.progress(1 + 7 * f));
      await ctx.step('assetCreation', 8);
      const options = { ...(await tilerOptionsForJobs(deps)), ...(asset.epsg_code ? { epsg: asset.epsg_code } : {}) };
      const outDir = path.join(ctx.tmpDir, 'tiles');
      await ctx.step('startGo', 10);
      const tiled = await tilePointCloud(file, outDir, options, {
        signal: ctx.signal,
        progress: (f) => ctx.progress(10 + 70 * f),
        log: (message, data) => ctx.log.debug(data ?? {}, message),
        tmpDir: ctx.tmpDir,
      });
      await ctx.step('optimizing', 80);
      const prefix = runTilesPrefix(asset.project_id, asset.id, job.id);
      await ctx.step('uploadingToBucket', 82);
      const uploaded = await uploadFolder(deps.storage.objects, outDir, prefix, {
        signal: ctx.signal,
        onProgress: (f) => ctx.progress(82 + 15 * f),
      });
      await ctx.step('done', 97);
      await ctx.step('tilingUploadDone', 98);
      await ensureQueue(deps);

      const previousPrefix = asset.tiles_prefix;
      return {
        result: {
          pointCount: tiled.pointCount,
          tileCount: tiled.tileCount,
          nodeCount: tiled.nodeCount,
          maxDepth: tiled.maxDepth,
          contentBytes: tiled.contentBytes,
          storedBytes: uploaded.bytes,
          files: uploaded.files,
          bboxWgs84: tiled.bboxWgs84,
          epsg: tiled.epsg,
          crsName: tiled.crsName,
          reprojectionError: tiled.reprojectionError,
          tilingMs: Math.round(tiled.durationMs),
        },
        async commit(trx) {
          await updateAsset(trx, asset.id, {
            status: 'READY',
            tiles_prefix: prefix,
            tiling_type: 'PY3DTILES',
            storage: 'CUSTOM_TILING',
            stored_bytes: Number(input.size) + uploaded.bytes,
            error_code: null,
            error_message: null,
          });
          await setProjectStatus(trx, asset.project_id, 'READY');
          const waiting = await latestJob(trx, 'PROCESSING', { projectId: asset.project_id });
          if (waiting && waiting.state === 'PENDING' && waiting.queued_at === null) {
            // The area is measured now: the processing's credits are reserved (atomically), or it
            // ends here, with its reason (subscription, credits), instead of running.
            const project = await findProject(trx, asset.project_id);
            let refusal: AppError | null = null;
            if (project) {
              refusal = processingRefusal(await standingOf(deps, project.owner_id, trx), null);
              if (!refusal && (project.area_hectares ?? 0) > 0) {
                try {
                  await ensureJobReservation(trx, {
                    userId: project.owner_id,
                    projectId: project.id,
                    jobId: waiting.id,
                    hectares: project.area_hectares!,
                  });
                } catch (err) {
                  if (!(err instanceof AppError)) throw err;
                  refusal = err;
                }
              }
            }
            if (refusal) {
              await updateJob(trx, waiting.id, {
                state: 'FAILURE',
                step: 'error',
                error_code: refusal.code,
                error_message: refusal.message,
                finished_at: new Date(),
              });
              // Credits reserved with the request (the area was known then) come back.
              await settleJob(trx, waiting.id, 'release', refusal.code);
            } else {
              await enqueueJob(trx, waiting, MAX_ATTEMPTS);
            }
          }
        },
        async after() {
          if (previousPrefix && previousPrefix !== prefix) await deps.storage.objects.deletePrefix(previousPrefix);
        },
      };
    },
    async onFailure(trx, job, failure: JobFailure) {
      if (job.asset_id) await setAssetStatus(trx, job.asset_id, 'ERROR', failure);
      await setProjectStatus(trx, job.project_id, 'ERROR', failure);
      const waiting = await latestJob(trx, 'PROCESSING', { projectId: job.project_id });
      await failWaitingProcessing(trx, job.project_id, `the point cloud could not be tiled: ${failure.message}`);
      // A processing that waited for this tiling gives back the credits it reserved.
      if (waiting?.state === 'PENDING' && waiting.queued_at === null)
        await settleJob(trx, waiting.id, 'release', failure.code);
    },
  });
}
