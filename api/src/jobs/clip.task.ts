import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clipPointCloud } from '@nuage/engine/clip/clip.js';
import { EngineError, InvalidInput } from '@nuage/engine/core/errors.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { checkKey } from '@nuage/tiles-cache';
import type { JobHelpers, Task } from 'graphile-worker';
import { z } from 'zod';
import type { AppDeps } from '../context.js';
import { findAsset, findProjectAsset, listAssetFiles } from '../db/queries/assets.queries.js';
import { findProject } from '../db/queries/projects.queries.js';
import { AppError } from '../errors.js';
import {
  type ClipRecord,
  type ClipVectorsRecord,
  clipAreaOf,
  clipPrefix,
  clipStatusKey,
  clipVectorsFileName,
  readClipRecord,
  writeClipRecord,
} from '../services/clip.service.js';
import { clipAreaWgs84, writeClipVectors } from '../services/clip-vectors.service.js';
import { projectCrs } from '../services/exports.service.js';
import { localCopy, uploadFile } from './store-io.js';

const payloadSchema = z.object({
  projectId: z.string().regex(/^\d{1,18}$/),
  assetId: z.string().regex(/^\d{1,18}$/),
  clipId: z.string().regex(/^[a-f0-9]{24}$/),
});

/** Share of the progress bar the download of the source takes (the rest is the clip itself). */
const DOWNLOAD_SHARE = 10;

/**
 * The `clip` task: cuts a clip's points out of the stored cloud into a LAS 1.4
 * file (streaming, memory bounded), stores it beside the clip's status and
 * records SUCCESS, or FAILURE with a code (CLIP_EMPTY when no point is
 * inside). Progress (percentage and step) is written to the status at most
 * twice a second. Transient errors are retried by graphile-worker.
 */
export function clipTask(deps: AppDeps): Task {
  return async (rawPayload: unknown, helpers: JobHelpers) => {
    const { projectId, assetId, clipId } = payloadSchema.parse(rawPayload);
    const log = deps.log.child({ clip: clipId, attempt: helpers.job.attempts });
    const key = clipStatusKey(projectId, assetId, clipId);
    const record = await readClipRecord(deps, key);
    if (!record) {
      log.info('clip record is gone (project deleted): nothing to do');
      return;
    }
    if (record.state === 'SUCCESS' || record.state === 'FAILURE') return;

    let current: ClipRecord = { ...record, state: 'PROGRESS', step: 'downloading', percentage: 0 };
    let writes: Promise<unknown> = writeClipRecord(deps, current);
    let last = 0;
    const save = (patch: Partial<ClipRecord>, force = false) => {
      current = { ...current, ...patch };
      const now = Date.now();
      if (!force && now - last < 500) return writes;
      last = now;
      const snapshot = current;
      writes = writes
        .then(() => writeClipRecord(deps, snapshot))
        .catch((err) => log.warn({ err }, 'status write failed'));
      return writes;
    };
    const tmp = await mkdtemp(path.join(tmpdir(), `nuage-clip-${clipId}-`));
    try {
      const asset = await findAsset(deps.database.db, assetId);
      const project = await findProject(deps.database.db, projectId);
      if (!asset || !project) throw new AppError(404, 'ASSET_NOT_FOUND', 'the point cloud of this clip is gone');
      const file = (await listAssetFiles(deps.database.db, [asset.id])).find(
        (f) => f.extension === 'las' || f.extension === 'laz',
      );
      if (!file) throw new AppError(409, 'ASSET_NOT_UPLOADED', 'the point cloud file was never stored');
      const cloud = await findProjectAsset(deps.database.db, projectId, 'POINT_CLOUD');
      const epsg = cloud?.epsg_code ?? project.epsg_code ?? undefined;

      const local = await localCopy(deps.storage, file.key, tmp, (f) => save({ percentage: f * DOWNLOAD_SHARE }));
      const probe = await openPointCloud(local, epsg ? { epsg } : {});
      const crs = probe.crs;
      await probe.close();
      if (!crs) throw new AppError(409, 'CRS_REQUIRED', 'the point cloud has no coordinate reference system');
      const { compiled } = clipAreaOf(record.request, crs);
      await save({ step: 'clipping', percentage: DOWNLOAD_SHARE }, true);
      const out = path.join(tmp, `clip.${record.request.format}`);
      const result = await clipPointCloud(local, out, {
        area: compiled,
        returns: record.request.returns ?? 'all',
        format: record.request.format,
        signal: helpers.abortSignal,
        ...(record.request.classes?.length ? { classes: record.request.classes } : {}),
        ...(epsg ? { epsg } : {}),
        progress: (f) => save({ percentage: DOWNLOAD_SHARE + f * (95 - DOWNLOAD_SHARE) }),
      });
      let vectors: ClipVectorsRecord | null = null;
      if (record.request.vectors) {
        await save({ step: 'vectors', percentage: 90 }, true);
        const fileName = clipVectorsFileName(record.fileName);
        const zipPath = path.join(tmp, 'vectors.zip');
        const written = await writeClipVectors(deps, {
          projectId,
          projectName: project.name,
          format: record.request.vectors.format,
          area4326: await clipAreaWgs84(deps, record.request, compiled, crs),
          crs: (await projectCrs(deps, projectId)) ?? crs,
          out: zipPath,
          signal: helpers.abortSignal,
        });
        const zipKey = checkKey(`${clipPrefix(projectId, assetId, clipId)}${fileName}`);
        vectors = {
          key: zipKey,
          fileName,
          bytes: await uploadFile(deps.storage.objects, zipPath, zipKey),
          files: written.files,
        };
      }
      await save({ step: 'uploading', percentage: 95 }, true);
      const outKey = checkKey(`${clipPrefix(projectId, assetId, clipId)}${record.fileName}`);
      const bytes = await uploadFile(deps.storage.objects, out, outKey);
      await writes;
      if (!(await findProject(deps.database.db, projectId))) {
        await deps.storage.objects.delete(outKey).catch(() => false);
        if (vectors) await deps.storage.objects.delete(vectors.key).catch(() => false);
        await deps.storage.objects.delete(key).catch(() => false);
        return;
      }
      await save(
        {
          state: 'SUCCESS',
          step: 'done',
          percentage: 100,
          pointCount: result.pointCount,
          bytes,
          key: outKey,
          vectors,
          finishedAt: new Date().toISOString(),
        },
        true,
      );
      log.info({ points: result.pointCount, bytes }, 'clip done');
    } catch (err) {
      await writes;
      const permanent =
        (err instanceof EngineError && err.code !== 'CANCELLED') || (err instanceof AppError && err.status < 500);
      if (helpers.abortSignal?.aborted) {
        await save({ state: 'PENDING', step: 'queued' }, true);
        throw err;
      }
      const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
      if (!permanent && !lastAttempt) {
        await save({ state: 'PENDING', step: 'retrying', errorMessage: (err as Error).message }, true);
        throw err;
      }
      const empty = err instanceof InvalidInput && err.field === 'area' && /no point/.test(err.message);
      const code = empty ? 'CLIP_EMPTY' : err instanceof AppError || err instanceof EngineError ? err.code : 'INTERNAL';
      log.warn({ err, code }, 'clip failed');
      await save(
        {
          state: 'FAILURE',
          step: 'error',
          errorCode: code,
          errorMessage: (err as Error).message,
          finishedAt: new Date().toISOString(),
        },
        true,
      );
    } finally {
      await rm(tmp, { recursive: true, force: true }).catch(() => {});
    }
  };
}
