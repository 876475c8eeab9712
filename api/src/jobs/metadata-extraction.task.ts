import { metadataFromReader } from '@nuage/engine/metadata/index.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../context.js';
import { findAsset, listAssetFiles, setAssetStatus, updateAsset } from '../db/queries/assets.queries.js';
import { failWaitingProcessing } from '../db/queries/jobs.queries.js';
import { setProjectFacts, setProjectStatus } from '../db/queries/projects.queries.js';
import { queueNewJob } from '../services/jobs.service.js';
import { defineJobTask, type JobFailure, PermanentJobError } from './job-runner.js';
import { ensureQueue } from './queue.js';
import { localCopy } from './store-io.js';

/** Progress steps of a metadata extraction (spec §4), in order. */
export const METADATA_STEPS = [
  'initialization',
  'starting',
  'downloading',
  'fileDownloaded',
  'settingWkt',
  'wktSet',
  'calculatingStatistics',
  'statisticsCalculated',
  'reprojecting',
  'reprojected',
  'updatingDatabase',
  'complete',
] as const;

/** Message of the CRS_REQUIRED state of an asset. */
export const CRS_REQUIRED_MESSAGE =
  'the file has no coordinate reference system: set the asset epsgCode (PATCH /api/assets) to tile and process it';

/**
 * Reads the stored point cloud of a POINT_CLOUD asset (never what the client
 * said about it): header, CRS, bounds, counts, intensity range and covered
 * area; writes them on the asset and the project (spec §3 LAS metadata), then
 * queues tiling. A file without a CRS stops here with CRS_REQUIRED until the
 * asset gets an EPSG code.
 */
export function metadataExtractionTask(deps: AppDeps, workerId: string): Task {
  return defineJobTask(deps, workerId, {
    kind: 'METADATA',
    firstStep: 'initialization',
    finalStep: 'complete',
    async run(ctx) {
      const { job } = ctx;
      const db = deps.database.db;
      await ctx.step('starting', 2);
      const asset = job.asset_id ? await findAsset(db, job.asset_id) : undefined;
      if (asset?.type !== 'POINT_CLOUD') {
        throw new PermanentJobError('ASSET_NOT_FOUND', 'the point cloud asset of this job is gone');
      }
      const input = (await listAssetFiles(db, [asset.id])).find((f) => f.extension === 'las' || f.extension === 'laz');
      if (!input) throw new PermanentJobError('ASSET_NOT_UPLOADED', 'the point cloud file was never stored');

      await ctx.step('downloading', 5);
      const file = await localCopy(deps.storage, input.key, ctx.tmpDir, (f) => ctx.progress(5 + 25 * f));
      await ctx.step('fileDownloaded', 30);

      await ctx.step('settingWkt', 31);
      const reader = await openPointCloud(file, asset.epsg_code ? { epsg: asset.epsg_code } : {});
      let metadata: Awaited<ReturnType<typeof metadataFromReader>>;
      try {
        await ctx.step('wktSet', 33);
        await ctx.step('calculatingStatistics', 35);
        metadata = await metadataFromReader(reader, {
          signal: ctx.signal,
          progress: (f) => ctx.progress(35 + 55 * f),
        });
      } finally {
        await reader.close();
      }
      await ctx.step('statisticsCalculated', 90);
      // The WGS84 footprint is computed with the statistics; a CRS that cannot reach WGS84 has none.
      await ctx.step('reprojecting', 91);
      if (metadata.crs && !metadata.bboxWgs84 && metadata.pointCount > 0) {
        throw new PermanentJobError(
          'CRS_INVALID',
          `the bounds cannot be transformed from ${metadata.crs.name} to WGS84: check the CRS (epsgCode)`,
        );
      }
      await ctx.step('reprojected', 93);
      await ctx.step('updatingDatabase', 95);
      await ensureQueue(deps);

      const crsRequired = metadata.crsRequired;
      return {
        result: {
          pointCount: metadata.pointCount,
          areaHectares: metadata.areaHectares,
          memoryGb: metadata.memoryGb,
          epsg: metadata.crs?.epsg ?? null,
          crsName: metadata.crs?.name ?? null,
          crsRequired,
        },
        async commit(trx) {
          await updateAsset(trx, asset.id, {
            // What the upload kept (the file name exactly as sent) stays beside the extracted facts.
            metadata: JSON.stringify({ ...pickUpload(asset.metadata), ...metadata }),
            intensity_normalisation: metadata.intensityMax > 255,
            intensity_normalisation_min: metadata.intensityMin,
          });
          await setProjectFacts(trx, asset.project_id, {
            lasName: asset.original_filename,
            areaHectares: metadata.areaHectares,
            systemId: metadata.systemId,
            generatingSoftware: metadata.generatingSoftware,
            creationDay: metadata.creationDay,
            creationYear: metadata.creationYear,
            pointCount: metadata.pointCount,
            minElevation: metadata.minElevation,
            maxElevation: metadata.maxElevation,
            memoryGb: metadata.memoryGb,
            lasVersion: metadata.lasVersion,
            epsgCode: metadata.crs?.epsg ?? null,
          });
          if (crsRequired) {
            const error = { code: 'CRS_REQUIRED', message: CRS_REQUIRED_MESSAGE };
            await setAssetStatus(trx, asset.id, 'UPLOADED', error);
            await setProjectStatus(trx, asset.project_id, 'UPLOADED', error);
            return;
          }
          await setAssetStatus(trx, asset.id, 'TILING');
          await queueNewJob(trx, {
            kind: 'TILING',
            projectId: asset.project_id,
            assetId: asset.id,
            userId: job.user_id,
          });
        },
      };
    },
    async onFailure(trx, job, failure: JobFailure) {
      if (job.asset_id) await setAssetStatus(trx, job.asset_id, 'ERROR', failure);
      await setProjectStatus(trx, job.project_id, 'ERROR', failure);
      await failWaitingProcessing(trx, job.project_id, `the point cloud could not be read: ${failure.message}`);
    },
  });
}

/** The `upload` facts an upload stored in the asset's metadata (see prepareUpload), if any. */
function pickUpload(metadata: unknown): { upload?: unknown } {
  const upload = (metadata as { upload?: unknown } | null)?.upload;
  return upload === undefined ? {} : { upload };
}
