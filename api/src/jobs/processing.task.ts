import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ProductDefinition, ProductResult } from '@nuage/engine/core/product.js';
import { type ProcessingOptions, processingOptionsSchema } from '@nuage/engine/products/options.js';
import {
  RASTER_TILE_DESCRIPTION,
  RASTER_TILE_SOURCE,
  type RasterTileDescription,
  rasterTileDescriptionSchema,
} from '@nuage/engine/products/raster-tiles.product.js';
import { productClosure, runProducts } from '@nuage/engine/products/run-products.js';
import { openPointCloud } from '@nuage/engine/readers/index.js';
import { runFileKey, runFilesPrefix, runTilesPrefix } from '@nuage/tiles-cache';
import type { Task } from 'graphile-worker';
import {
  deleteAssetFiles,
  ensureLayer,
  findAsset,
  listAssetFiles,
  putAssetFile,
  setAssetStatus,
  updateAsset,
  upsertAsset,
} from '../db/queries/assets.queries.js';
import { replaceFeatures } from '../db/queries/features.queries.js';
import type { JobRow } from '../db/queries/jobs.queries.js';
import { findProject } from '../db/queries/projects.queries.js';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { mailer } from '../mail/mailer.js';
import { ensureJobReservation, settleJob, USER_FAULT_CODES } from '../services/credits.service.js';
import { tilerOptionsForJobs } from '../services/global-parameters.service.js';
import { orthophotoFile } from '../services/orthophoto.service.js';
import { upgradeProcessingOptions } from '../services/processing-options.js';
import { LAYER_NAMES, LAYER_OF_ASSET } from '../services/project-view.js';
import { processingRefusal, standingOf } from '../services/subscription.service.js';
import { classifyError, defineJobTask, PermanentJobError } from './job-runner.js';
import { REFUSAL_CODES, renderProcessingMail } from './processing-mail.js';
import { classifyInTiles, forgetTiles, tiledProcessing } from './processing-tiles.js';
import { contentTypeOf, localCopy, uploadFile, uploadFolder } from './store-io.js';

/**
 * Runs every registered product on the project's point cloud with the form's
 * options (spec §2, §5). Each product becomes an asset of its type in the
 * layer of its type, PROCESSING → READY or ERROR (with the reason); its files
 * go to the store under a prefix of this run, vector features to PostGIS. When
 * every product is READY the job succeeds and the project's area is charged
 * once (charge key per job); the owner gets a mail either way.
 */
export function processingTask(deps: AppDeps, workerId: string): Task {
  const mailOutcome = async (job: JobRow, outcome: 'success' | 'failure' | 'refused', details: string[]) => {
    const project = await findProject(deps.database.db, job.project_id);
    if (!project) return;
    const owner = await deps.database.db
      .selectFrom('users')
      .select(['email', 'prefer_language'])
      .where('id', '=', project.owner_id)
      .executeTakeFirst();
    if (!owner) return;
    const base = deps.config.PUBLIC_URL.replace(/\/$/, '');
    const link = `${base}/#/projects/${project.id}`;
    const buyLink = `${base}/#/user/subscription/buy`;
    await mailer(deps).send(
      owner.email,
      renderProcessingMail({ outcome, projectName: project.name, link, buyLink, details }, owner.prefer_language),
    );
  };

  return defineJobTask(deps, workerId, {
    kind: 'PROCESSING',
    firstStep: 'starting',
    finalStep: 'done',
    async run(ctx) {
      const { job } = ctx;
      const db = deps.database.db;
      const parsed = processingOptionsSchema.safeParse(upgradeProcessingOptions(job.options ?? {}));
      if (!parsed.success) {
        throw new PermanentJobError('INVALID_PROCESSING_OPTIONS', parsed.error.issues.map((i) => i.message).join('; '));
      }
      const options: ProcessingOptions = parsed.data;
      const cloud = job.asset_id ? await findAsset(db, job.asset_id) : undefined;
      if (cloud?.type !== 'POINT_CLOUD') {
        throw new PermanentJobError('ASSET_NOT_FOUND', 'the point cloud asset of this project is gone');
      }
      if (cloud.error_code === 'CRS_REQUIRED') {
        throw new PermanentJobError('CRS_REQUIRED', 'the point cloud has no CRS: set the asset epsgCode first');
      }
      const input = (await listAssetFiles(db, [cloud.id])).find((f) => f.extension === 'las' || f.extension === 'laz');
      if (!input) throw new PermanentJobError('ASSET_NOT_UPLOADED', 'the point cloud file was never stored');

      const owner = await findProject(db, cloud.project_id);
      if (!((owner?.area_hectares ?? 0) > 0)) {
        throw new PermanentJobError(
          'AREA_NOT_COMPUTED',
          'the area of the point cloud could not be calculated: contact support',
        );
      }
      // Checked again when it starts: the subscription may have been suspended or cancelled since
      // the request. The credits were reserved with the request; a retry reserves them again here.
      const refusal = processingRefusal(await standingOf(deps, owner!.owner_id), null);
      if (refusal) throw new PermanentJobError(refusal.code, refusal.message);
      try {
        await ensureJobReservation(db, {
          jobId: job.id,
          userId: owner!.owner_id,
          projectId: owner!.id,
          hectares: owner!.area_hectares!,
        });
      } catch (err) {
        if (err instanceof AppError) throw new PermanentJobError(err.code, err.message);
        throw err;
      }
      await ctx.step('startLasDownload', 1);
      const inputPath = await localCopy(deps.storage, input.key, ctx.tmpDir, (f) => ctx.progress(1 + 4 * f));
      // The orthophoto the classified cloud takes its colours from (processingOptions.orthophotoAssetId).
      let orthophoto: string | undefined;
      try {
        const ortho = await orthophotoFile(db, cloud.project_id, options);
        if (ortho) orthophoto = await localCopy(deps.storage, ortho.key, ctx.tmpDir);
      } catch (err) {
        if (err instanceof AppError) throw new PermanentJobError(err.code, err.message);
        throw err;
      }
      const tilerOptions = await tilerOptionsForJobs(deps);
      const sourceName = (cloud.original_filename ?? 'cloud').replace(/\.la[sz]$/i, '') || 'cloud';
      const projectId = cloud.project_id;
      const assetIds = new Map<string, string>();
      const assetOf = async (product: ProductDefinition, status: 'PROCESSING' | 'ERROR') => {
        const layerType = LAYER_OF_ASSET[product.assetType]!;
        const layer = await ensureLayer(db, projectId, layerType, LAYER_NAMES[layerType]);
        const asset = await upsertAsset(db, {
          projectId,
          layerId: layer.id,
          type: product.assetType,
          name: product.title,
          status,
        });
        assetIds.set(product.id, asset.id);
        return asset.id;
      };
      const outDir = path.join(ctx.tmpDir, 'products');
      const ownerRow = await db
        .selectFrom('users')
        .select('prefer_language')
        .where('id', '=', owner!.owner_id)
        .executeTakeFirst();
      const language = ownerRow?.prefer_language?.startsWith('fr') ? 'fr' : 'en-US';
      let percentage = 5;
      const pointCount = await headerPointCount(inputPath, cloud.epsg_code ?? undefined);
      const totalWeight = productClosure(options.products).reduce((sum, p) => sum + p.weight, 0) || 1;
      let tiled = false;
      const outcome = await runProducts({
        input: {
          path: inputPath,
          name: cloud.original_filename ?? path.basename(inputPath),
          ...(cloud.epsg_code ? { epsg: cloud.epsg_code } : {}),
          ...(orthophoto ? { orthophoto } : {}),
        },
        options,
        outDir,
        tmpDir: ctx.tmpDir,
        sourceName,
        tilerOptions,
        language,
        signal: ctx.signal,
        progress: (f) => {
          // Never backwards: a tiled classification reports its tiles first, then the product its own steps.
          percentage = Math.max(percentage, 5 + 90 * f);
          ctx.progress(percentage);
        },
        log: (message, data) => ctx.log.info(data ?? {}, message),
        hooks: {
          // A big cloud is classified in tiles by every worker there is (processing-tiles.ts).
          input: async (product) => {
            if (product.id !== 'classify' || !tiledProcessing(deps, pointCount)) return undefined;
            const share = (90 * product.weight) / totalWeight;
            const classes = await classifyInTiles(ctx, {
              inputPath,
              ...(cloud.epsg_code ? { epsg: cloud.epsg_code } : {}),
              projectId,
              cloudAssetId: cloud.id,
              workerId,
              vendorWireClasses: options.vendorWireClasses,
              from: percentage,
              to: percentage + share * 0.6,
            });
            tiled = true;
            return { classes };
          },
          // A retried run keeps what it already stored: products READY with files of this job are not made again.
          done: async (product) => {
            if (product.asset === false) return null;
            const asset = await deps.database.db
              .selectFrom('assets')
              .selectAll()
              .where('project_id', '=', projectId)
              .where('type', '=', product.assetType)
              .executeTakeFirst();
            if (asset?.status !== 'READY') return null;
            const files = await listAssetFiles(db, [asset.id]);
            const ofThisRun =
              asset.tiles_prefix === runTilesPrefix(projectId, asset.id, job.id) ||
              (files.length > 0 && files.every((f) => f.key.startsWith(runFilesPrefix(projectId, asset.id, job.id))));
            if (!ofThisRun) return null;
            assetIds.set(product.id, asset.id);
            return async () => {
              const dir = path.join(ctx.tmpDir, 'restored', product.id);
              await mkdir(dir, { recursive: true });
              return Promise.all(
                files.map(async (f) => ({
                  path: await localCopy(deps.storage, f.key, dir),
                  extension: f.extension,
                })),
              );
            };
          },
          starting: async (product) => {
            await ctx.step(product.id, percentage);
            if (product.asset !== false) await assetOf(product, 'PROCESSING');
          },
          finished: async (product, result) => {
            if (product.asset === false) return;
            await ctx.step(`${product.id}:storing`);
            await storeOutput(deps, job, assetIds.get(product.id)!, projectId, sourceName, result);
          },
          // storeOutput reads files, tiles and features, never the value.
          finishedReadsValue: false,
          failed: async (product, error) => {
            if (product.asset === false) return;
            const f = classifyError(error);
            const assetId = assetIds.get(product.id) ?? (await assetOf(product, 'ERROR'));
            await setAssetStatus(db, assetId, 'ERROR', { code: f.code, message: f.message });
          },
        },
      });
      if (tiled) await forgetTiles(deps, job.id, projectId, cloud.id);
      const runs = outcome.runs;
      const errors = runs.filter((r) => r.status === 'ERROR');
      if (errors.length > 0) {
        throw new PermanentJobError(
          'PROCESSING_FAILED',
          `${errors.length} of ${runs.length} products failed: ${errors
            .map((r) => `${r.assetType} (${r.error?.message})`)
            .join('; ')}`,
        );
      }
      await ctx.step('done', 98);
      const project = await findProject(db, cloud.project_id);
      const hectares = project?.area_hectares ?? 0;
      return {
        result: { products: runs, manifest: outcome.manifest, chargedHectares: hectares },
        async commit(trx) {
          // The reserved hectares are spent, once (the reservation's settlement is unique).
          await settleJob(trx, job.id, 'charge', 'processing succeeded');
        },
        after: () =>
          mailOutcome(
            job,
            'success',
            runs.map((r) => r.assetType),
          ),
      };
    },
    async onFailure(trx, job, failure) {
      // Our fault (or a refusal): the reserved hectares come back. A bad file or bad options: spent.
      await settleJob(trx, job.id, USER_FAULT_CODES.has(failure.code) ? 'charge' : 'release', failure.code);
    },
    async afterFailure(job, failure) {
      await mailOutcome(job, REFUSAL_CODES.has(failure.code) ? 'refused' : 'failure', [failure.message]);
    },
  });
}

/**
 * Stores a product's files and tiles under prefixes of this run, its features
 * in PostGIS, and marks its asset READY (one transaction for the rows). Files
 * of an earlier run of the same asset are deleted afterwards.
 */
export async function storeOutput(
  deps: AppDeps,
  job: JobRow,
  assetId: string,
  projectId: string,
  sourceName: string,
  output: ProductResult,
): Promise<void> {
  const store = deps.storage.objects;
  const stored: Array<{ extension: string; key: string; fileName: string; size: number; contentType: string }> = [];
  let bytes = 0;
  for (const f of output.files) {
    const key = runFileKey(projectId, assetId, job.id, `${assetId}.${f.extension}`);
    const size = await uploadFile(store, f.path, key);
    bytes += size;
    stored.push({
      extension: f.extension,
      key,
      fileName: `${sourceName}-${path.basename(f.path)}`,
      size,
      contentType: contentTypeOf(f.path),
    });
  }
  let tilesPrefix: string | null = null;
  if (output.tiles) {
    tilesPrefix = runTilesPrefix(projectId, assetId, job.id);
    const description = await rasterSourceStoredOnce(output.tiles.dir, output.files, stored);
    if (description) {
      const skip = new Set([RASTER_TILE_SOURCE, RASTER_TILE_DESCRIPTION]);
      bytes += (await uploadFolder(store, output.tiles.dir, tilesPrefix, { skip: (f) => skip.has(f) })).bytes;
      const json = Buffer.from(`${JSON.stringify(description, null, 2)}\n`);
      bytes += (
        await store.put(tilesPrefix + RASTER_TILE_DESCRIPTION, json, {
          contentType: contentTypeOf(RASTER_TILE_DESCRIPTION),
        })
      ).size;
    } else {
      bytes += (await uploadFolder(store, output.tiles.dir, tilesPrefix)).bytes;
    }
  }
  const before = await findAsset(deps.database.db, assetId);
  const oldFiles = await listAssetFiles(deps.database.db, [assetId]);
  await deps.database.db.transaction().execute(async (trx) => {
    // Packed by the product's thread when it ran in one: EWKB and JSON text, straight to PostGIS.
    if (output.packedFeatures) await replaceFeatures(trx, assetId, output.packedFeatures);
    else if (output.packFeatures) await replaceFeatures(trx, assetId, output.packFeatures());
    else if (output.features) await replaceFeatures(trx, assetId, output.features());
    await deleteAssetFiles(trx, assetId);
    for (const s of stored) await putAssetFile(trx, { assetId, ...s });
    await updateAsset(trx, assetId, {
      status: 'READY',
      tiles_prefix: tilesPrefix,
      stored_bytes: bytes,
      error_code: null,
      error_message: null,
    });
  });
  // Earlier runs' files: keys of this run are never reused, so the old ones can go.
  const keep = new Set(stored.map((s) => s.key));
  for (const f of oldFiles) if (!keep.has(f.key)) await store.delete(f.key).catch(() => false);
  if (before?.tiles_prefix && before.tiles_prefix !== tilesPrefix) {
    await store.deletePrefix(before.tiles_prefix).catch(() => 0);
  }
}

/**
 * Points of a cloud, from its header (the tiled processing's threshold); 0
 * when the header cannot be read: the products then fail each with the
 * reader's reason (PROCESSING_FAILED), as they do for any unreadable input.
 */
async function headerPointCount(file: string, epsg: number | undefined): Promise<number> {
  let reader: Awaited<ReturnType<typeof openPointCloud>>;
  try {
    reader = await openPointCloud(file, epsg ? { epsg } : {});
  } catch {
    return 0;
  }
  try {
    return reader.header.pointCount;
  } finally {
    await reader.close();
  }
}

/** SHA-256 of a local file. */
async function fileDigest(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * A raster product's tiles folder holds its COG (`source.tif`, a hard link to
 * or a copy of the product's GeoTIFF) for the tile renderer: when that COG is
 * one of the product's files, just stored as its download, the description
 * to store instead names that file's key, and `source.tif` is not stored a
 * second time. Null when the folder has no such COG (3D Tiles, or a COG that
 * is not one of the product's own files: it is stored in the folder).
 */
async function rasterSourceStoredOnce(
  dir: string,
  files: ProductResult['files'],
  stored: Array<{ extension: string; key: string }>,
): Promise<RasterTileDescription | null> {
  let text: string;
  try {
    text = await readFile(path.join(dir, RASTER_TILE_DESCRIPTION), 'utf8');
  } catch {
    return null;
  }
  const parsed = rasterTileDescriptionSchema.safeParse(JSON.parse(text));
  if (!parsed.success || parsed.data.source !== RASTER_TILE_SOURCE) return null;
  const cog = path.join(dir, RASTER_TILE_SOURCE);
  const cogInfo = await stat(cog).catch(() => null);
  if (!cogInfo) return null;
  for (const [i, f] of files.entries()) {
    if (f.extension !== 'tif') continue;
    const info = await stat(f.path);
    const same =
      (info.dev === cogInfo.dev && info.ino === cogInfo.ino) ||
      (info.size === cogInfo.size && (await fileDigest(f.path)) === (await fileDigest(cog)));
    if (same) return { ...parsed.data, source: stored[i]!.key };
  }
  return null;
}
