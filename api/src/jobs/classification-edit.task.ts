import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ProductDefinition } from '@nuage/engine/core/product.js';
import { applyClassEdits, changedClasses } from '@nuage/engine/edit/class-edits.js';
import { productsForClasses } from '@nuage/engine/edit/dependent-products.js';
import { loadCloud, writeClassifiedLas } from '@nuage/engine/edit/edit-file.js';
import { processingOptionsSchema } from '@nuage/engine/products/options.js';
import { PRODUCTS } from '@nuage/engine/products/registry.js';
import { runProducts } from '@nuage/engine/products/run-products.js';
import { tilePointCloud } from '@nuage/engine/tiler/tile-point-cloud.js';
import { assetRunPrefix, checkKey, runFileKey } from '@nuage/tiles-cache';
import type { Task } from 'graphile-worker';
import {
  findAsset,
  findProjectAsset,
  listAssetFiles,
  listAssets,
  setAssetStatus,
} from '../db/queries/assets.queries.js';
import {
  findClassificationEditBase,
  listClassificationEdits,
  setClassificationEditChanges,
  upsertClassificationEditBase,
} from '../db/queries/classification-edits.queries.js';
import { latestJob } from '../db/queries/jobs.queries.js';
import type { AppDeps } from '../deps.js';
import { engineEdit } from '../services/classification-edits.service.js';
import { tilerOptionsForJobs } from '../services/global-parameters.service.js';
import { upgradeProcessingOptions } from '../services/processing-options.js';
import { classifyError, defineJobTask, type JobContext, PermanentJobError } from './job-runner.js';
import { storeOutput } from './processing.task.js';
import { localCopy, uploadFile } from './store-io.js';

/**
 * The CLASSIFICATION_EDIT task (issue 23): recomputes the classified cloud
 * from its base (the processing's, copied aside the first time) with every
 * ACTIVE edit in order, records what each changed, and — when classes differ
 * from the cloud it replaces — writes the LAS, tiles it again and re-runs,
 * through the product registry, only the products that depend on the classes
 * that changed (the classes come from the edited cloud: no classification).
 * Assets keep their ids; their files, tiles and features are replaced.
 */
export function classificationEditTask(deps: AppDeps, workerId: string): Task {
  return defineJobTask(deps, workerId, {
    kind: 'CLASSIFICATION_EDIT',
    firstStep: 'starting',
    finalStep: 'done',
    async run(ctx) {
      const { job } = ctx;
      const db = deps.database.db;
      const classified = job.asset_id ? await findAsset(db, job.asset_id) : undefined;
      if (classified?.type !== 'CLASSIFIED_POINT_CLOUD') {
        throw new PermanentJobError('CLASSIFIED_CLOUD_REQUIRED', 'the classified point cloud of this project is gone');
      }
      const projectId = classified.project_id;
      const file = (await listAssetFiles(db, [classified.id])).find((f) => f.extension === 'las');
      if (!file) throw new PermanentJobError('CLASSIFIED_CLOUD_REQUIRED', 'the classified point cloud file is missing');
      const source = await findProjectAsset(db, projectId, 'POINT_CLOUD');
      const epsg = classified.epsg_code ?? source?.epsg_code ?? undefined;
      const sourceName = (source?.original_filename ?? 'cloud').replace(/\.la[sz]$/i, '') || 'cloud';

      await ctx.step('startLasDownload', 1);
      const currentDir = path.join(ctx.tmpDir, 'current');
      await mkdir(currentDir, { recursive: true });
      const currentPath = await localCopy(deps.storage, file.key, currentDir, (f) => ctx.progress(1 + 4 * f));
      // The base: the processing's cloud, copied aside the first time (a new processing makes a new base).
      let base = await findClassificationEditBase(db, projectId);
      let basePath: string;
      if (!base || base.asset_id !== classified.id || (file.key !== base.source_key && file.key !== base.applied_key)) {
        const baseKey = checkKey(`${assetRunPrefix(projectId, classified.id, `edit-base-${job.id}`)}classified.las`);
        await uploadFile(deps.storage.objects, currentPath, baseKey);
        const old = base;
        await upsertClassificationEditBase(db, {
          projectId,
          assetId: classified.id,
          baseKey,
          sourceKey: file.key,
          appliedKey: null,
        });
        if (old && old.base_key !== baseKey) await deps.storage.objects.delete(old.base_key).catch(() => false);
        base = await findClassificationEditBase(db, projectId);
        basePath = currentPath;
      } else {
        const baseDir = path.join(ctx.tmpDir, 'base');
        await mkdir(baseDir, { recursive: true });
        basePath = await localCopy(deps.storage, base.base_key, baseDir, (f) => ctx.progress(5 + 5 * f));
      }

      await ctx.step('applyingEdits', 10);
      const rows = await listClassificationEdits(db, projectId);
      const loaded = await loadCloud(basePath, { epsg, signal: ctx.signal });
      const before =
        basePath === currentPath
          ? (loaded.cloud.classification?.slice(0, loaded.cloud.count) ?? new Uint8Array(loaded.cloud.count))
          : ((await loadCloud(currentPath, { epsg, signal: ctx.signal })).cloud.classification?.slice() ??
            new Uint8Array(loaded.cloud.count));
      const { classification, changed } = applyClassEdits(
        loaded.cloud,
        loaded.crs,
        rows.map(engineEdit),
        ctx.signal ? { signal: ctx.signal } : {},
      );
      const classes = changedClasses(before, classification);
      const changes = rows.map((r, i) => ({ id: r.id, changed: changed[i] ?? null }));
      ctx.log.info({ edits: rows.length, classes: [...classes] }, 'classification edits applied');
      if (classes.size === 0) {
        await ctx.step('done', 98);
        return {
          result: { changedClasses: [], products: [], edits: changes },
          commit: (trx) => setClassificationEditChanges(trx, changes),
        };
      }

      await ctx.step('writingLas', 15);
      const editedDir = path.join(ctx.tmpDir, 'edited');
      await mkdir(editedDir, { recursive: true });
      const lasPath = path.join(editedDir, 'classified.las');
      await writeClassifiedLas(lasPath, loaded, classification, ctx.signal);
      await ctx.step('tilesCreation', 20);
      const tilerOptions = await tilerOptionsForJobs(deps);
      const tilesDir = path.join(editedDir, 'tiles');
      const tiled = await tilePointCloud(
        lasPath,
        tilesDir,
        { ...tilerOptions, ...(loaded.crs.epsg ? { epsg: loaded.crs.epsg } : {}) },
        { signal: ctx.signal, progress: (f) => ctx.progress(20 + 25 * f), tmpDir: ctx.tmpDir },
      );
      await ctx.step('classify:storing', 45);
      await storeOutput(deps, job, classified.id, projectId, sourceName, {
        files: [{ path: lasPath, format: 'LAS', extension: 'las', epsg: loaded.crs.epsg, count: loaded.cloud.count }],
        tiles: { dir: tilesDir, format: '3DTiles', epsg: 4978, count: tiled.tileCount },
      });
      await upsertClassificationEditBase(db, {
        projectId,
        assetId: classified.id,
        baseKey: base!.base_key,
        sourceKey: base!.source_key,
        appliedKey: runFileKey(projectId, classified.id, job.id, `${classified.id}.las`),
      });

      // The products that read the changed classes, among those the project has.
      const assets = await listAssets(db, projectId);
      const present = new Set(assets.map((a) => a.type));
      const products = productsForClasses(classes).filter((id) => {
        const p = PRODUCTS.find((x) => x.id === id)!;
        return p.asset === false || present.has(p.assetType);
      });
      const runs = await remakeProducts(deps, ctx, {
        projectId,
        products,
        lasPath,
        epsg,
        sourceName,
        tilerOptions,
        name: `${sourceName}.las`,
      });
      const errors = runs.filter((r) => r.status === 'ERROR');
      if (errors.length > 0) {
        throw new PermanentJobError(
          'CLASSIFICATION_EDIT_FAILED',
          `${errors.length} of ${runs.length} products failed: ${errors
            .map((r) => `${r.assetType} (${r.error?.message})`)
            .join('; ')}`,
        );
      }
      await ctx.step('done', 98);
      return {
        result: { changedClasses: [...classes].sort((a, b) => a - b), products: runs, edits: changes },
        commit: (trx) => setClassificationEditChanges(trx, changes),
      };
    },
  });
}

/** Re-runs products on the edited cloud; what they need and did not change is read back from their assets. */
async function remakeProducts(
  deps: AppDeps,
  ctx: JobContext,
  o: {
    projectId: string;
    products: string[];
    lasPath: string;
    epsg: number | undefined;
    sourceName: string;
    tilerOptions: Awaited<ReturnType<typeof tilerOptionsForJobs>>;
    name: string;
  },
) {
  const db = deps.database.db;
  const { job } = ctx;
  if (o.products.length === 0) return [];
  // The options of the processing that made the products.
  const processing = await latestJob(db, 'PROCESSING', { projectId: o.projectId });
  const parsed = processingOptionsSchema.safeParse(upgradeProcessingOptions(processing?.options ?? {}));
  const options = parsed.success ? parsed.data : processingOptionsSchema.parse({});
  const owner = await db
    .selectFrom('projects')
    .innerJoin('users', 'users.id', 'projects.owner_id')
    .select('users.prefer_language')
    .where('projects.id', '=', o.projectId)
    .executeTakeFirst();
  const language = owner?.prefer_language?.startsWith('fr') ? 'fr' : 'en-US';
  const assetOf = async (product: ProductDefinition) =>
    (await findProjectAsset(db, o.projectId, product.assetType))?.id;
  const outcome = await runProducts({
    input: { path: o.lasPath, name: o.name, ...(o.epsg ? { epsg: o.epsg } : {}) },
    options: { ...options, products: o.products },
    outDir: path.join(ctx.tmpDir, 'products'),
    tmpDir: ctx.tmpDir,
    sourceName: o.sourceName,
    tilerOptions: o.tilerOptions,
    language,
    signal: ctx.signal,
    progress: (f) => ctx.progress(50 + 45 * f),
    log: (message, data) => ctx.log.info(data ?? {}, message),
    hooks: {
      // The classes come from the edited cloud; products not remade are read back from their assets.
      done: async (product) => {
        if (o.products.includes(product.id)) return null;
        if (product.id === 'classify') return async () => [{ path: o.lasPath, extension: 'las' }];
        const assetId = await assetOf(product);
        const asset = assetId ? await findAsset(db, assetId) : undefined;
        if (asset?.status !== 'READY') return null;
        const files = await listAssetFiles(db, [asset.id]);
        if (files.length === 0) return null;
        return async () => {
          const dir = path.join(ctx.tmpDir, 'restored', product.id);
          await mkdir(dir, { recursive: true });
          return Promise.all(
            files.map(async (f) => {
              const sub = path.join(dir, f.extension);
              await mkdir(sub, { recursive: true });
              return { path: await localCopy(deps.storage, f.key, sub), extension: f.extension };
            }),
          );
        };
      },
      starting: async (product) => {
        await ctx.step(product.id);
      },
      finished: async (product, result) => {
        if (product.asset === false) return;
        const assetId = await assetOf(product);
        if (!assetId) return;
        await ctx.step(`${product.id}:storing`);
        await storeOutput(deps, job, assetId, o.projectId, o.sourceName, result);
      },
      // storeOutput reads files, tiles and features, never the value.
      finishedReadsValue: false,
      failed: async (product, error) => {
        if (product.asset === false) return;
        const assetId = await assetOf(product);
        const f = classifyError(error);
        if (assetId) await setAssetStatus(db, assetId, 'ERROR', { code: f.code, message: f.message });
      },
    },
  });
  return outcome.runs;
}
