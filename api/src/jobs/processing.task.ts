import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Task } from 'graphile-worker';
import type { AppDeps } from '../context.js';
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
import { recordCharge } from '../db/queries/jobs.queries.js';
import { findProject } from '../db/queries/projects.queries.js';
import { mailer } from '../mail/mailer.js';
import { tilerOptionsForJobs } from '../services/global-parameters.service.js';
import { type ProcessingOptions, processingOptionsSchema } from '../services/processing-options.js';
import { LAYER_NAMES, LAYER_OF_ASSET } from '../services/project-view.js';
import { processingRefusal, reserveCredits, standingOf } from '../services/subscription.service.js';
import { classifyError, defineJobTask, type JobFailure, PermanentJobError } from './job-runner.js';
import { REFUSAL_CODES, renderProcessingMail } from './processing-mail.js';
import { PROCESSING_PRODUCTS } from './products/index.js';
import type { ProcessingProduct, ProductOutput } from './products/product.js';
import { contentTypeOf, localCopy, uploadFile, uploadFolder } from './store-io.js';

/** Products in an order where every product comes after those it needs; unknown needs are an error. */
export function orderProducts(products: readonly ProcessingProduct[]): ProcessingProduct[] {
  const byId = new Map(products.map((p) => [p.id, p]));
  const out: ProcessingProduct[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: ProcessingProduct) => {
    const s = state.get(p.id);
    if (s === 'done') return;
    if (s === 'visiting') throw new Error(`product ${p.id} needs itself (cycle)`);
    state.set(p.id, 'visiting');
    for (const need of p.needs) {
      const dep = byId.get(need);
      if (!dep) throw new Error(`product ${p.id} needs unknown product ${need}`);
      visit(dep);
    }
    state.set(p.id, 'done');
    out.push(p);
  };
  for (const p of products) visit(p);
  return out;
}

/** What one product became in a processing run. */
interface ProductRun {
  id: string;
  assetType: string;
  assetId: string;
  status: 'READY' | 'ERROR' | 'SKIPPED';
  error?: JobFailure;
  figures?: Record<string, unknown>;
  ms?: number;
}

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
      const parsed = processingOptionsSchema.safeParse(job.options ?? {});
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
      // Checked again when it starts: credits may have gone to another project since the request.
      // Processings queued before this one take their credits first.
      const standing = await reserveCredits(db, await standingOf(deps, owner!.owner_id), owner!.owner_id, job.id);
      const refusal = processingRefusal(standing, owner!.area_hectares);
      if (refusal) throw new PermanentJobError(refusal.code, refusal.message);
      await ctx.step('startLasDownload', 1);
      const inputPath = await localCopy(deps.storage, input.key, ctx.tmpDir, (f) => ctx.progress(1 + 4 * f));
      const products = orderProducts(PROCESSING_PRODUCTS).filter((p) => p.enabled?.(options) ?? true);
      if (products.length === 0) throw new PermanentJobError('NO_PRODUCTS', 'no processing product is available');

      const tilerOptions = await tilerOptionsForJobs(deps);
      const sourceName = (cloud.original_filename ?? 'cloud').replace(/\.la[sz]$/i, '') || 'cloud';
      const values = new Map<string, unknown>();
      const runs: ProductRun[] = [];
      const failed = new Set<string>();
      for (let i = 0; i < products.length; i++) {
        const product = products[i]!;
        const span = 90 / products.length;
        const start = 5 + i * span;
        await ctx.step(product.id, start);
        const layerType = LAYER_OF_ASSET[product.assetType];
        const layer = await ensureLayer(db, cloud.project_id, layerType, LAYER_NAMES[layerType]);
        const asset = await upsertAsset(db, {
          projectId: cloud.project_id,
          layerId: layer.id,
          type: product.assetType,
          name: product.name,
          status: 'PROCESSING',
        });
        const missing = product.needs.filter((n) => failed.has(n) || !values.has(n));
        if (missing.length > 0) {
          const error = { code: 'DEPENDENCY_FAILED', message: `needs ${missing.join(', ')}, which failed` };
          await setAssetStatus(db, asset.id, 'ERROR', error);
          failed.add(product.id);
          runs.push({ id: product.id, assetType: product.assetType, assetId: asset.id, status: 'ERROR', error });
          continue;
        }
        const workDir = path.join(ctx.tmpDir, product.id);
        await mkdir(workDir, { recursive: true });
        const t0 = performance.now();
        try {
          const output = await product.run({
            inputPath,
            epsg: cloud.epsg_code,
            options,
            workDir,
            tmpDir: ctx.tmpDir,
            signal: ctx.signal,
            progress: (f) => ctx.progress(start + span * 0.9 * Math.max(0, Math.min(1, f))),
            log: ctx.log.child({ product: product.id }),
            inputs: new Map(product.needs.map((n) => [n, values.get(n)])),
            tilerOptions,
            sourceName,
          });
          await ctx.step(`${product.id}:storing`, start + span * 0.9);
          await storeOutput(deps, job, asset.id, cloud.project_id, output);
          values.set(product.id, output.value ?? true);
          runs.push({
            id: product.id,
            assetType: product.assetType,
            assetId: asset.id,
            status: 'READY',
            ms: Math.round(performance.now() - t0),
            ...(output.figures ? { figures: output.figures } : {}),
          });
        } catch (err) {
          const f = classifyError(err);
          if (f.cancelled || ctx.signal.aborted) throw err;
          ctx.log.error({ err, product: product.id }, 'product failed');
          const error = { code: f.code, message: f.message };
          await setAssetStatus(db, asset.id, 'ERROR', error);
          failed.add(product.id);
          runs.push({ id: product.id, assetType: product.assetType, assetId: asset.id, status: 'ERROR', error });
        }
      }

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
        result: { products: runs, chargedHectares: hectares },
        async commit(trx) {
          await recordCharge(trx, {
            key: `processing:${job.id}`,
            userId: job.user_id,
            projectId: job.project_id,
            jobId: job.id,
            hectares,
          });
        },
        after: () =>
          mailOutcome(
            job,
            'success',
            runs.map((r) => r.assetType),
          ),
      };
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
async function storeOutput(
  deps: AppDeps,
  job: JobRow,
  assetId: string,
  projectId: string,
  output: ProductOutput,
): Promise<void> {
  const store = deps.storage.objects;
  const filesPrefix = `projects/${projectId}/assets/${assetId}/r${job.id}/`;
  const stored: Array<{ extension: string; key: string; fileName: string; size: number; contentType: string }> = [];
  let bytes = 0;
  for (const f of output.files) {
    const key = `${filesPrefix}${assetId}.${f.extension}`;
    const size = await uploadFile(store, f.path, key);
    bytes += size;
    stored.push({
      extension: f.extension,
      key,
      fileName: f.fileName,
      size,
      contentType: contentTypeOf(f.path),
    });
  }
  let tilesPrefix: string | null = null;
  if (output.tilesDir) {
    tilesPrefix = `projects/${projectId}/assets/${assetId}/t${job.id}/`;
    bytes += (await uploadFolder(store, output.tilesDir, tilesPrefix)).bytes;
  }
  const before = await findAsset(deps.database.db, assetId);
  const oldFiles = await listAssetFiles(deps.database.db, [assetId]);
  await deps.database.db.transaction().execute(async (trx) => {
    if (output.features) await replaceFeatures(trx, assetId, output.features);
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
