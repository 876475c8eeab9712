/**
 * The orthophoto a processing colours the point cloud from (issue 22 item 6):
 * an ORTHOPHOTO asset of the project, in its raster layer, uploaded through
 * the signed-URL flow (`type: 'ORTHOPHOTO'`, a .tif file) and named by
 * `processingOptions.orthophotoAssetId`. Its upload never changes the
 * project's status (the point cloud's upload drives it).
 */
import { randomBytes } from 'node:crypto';
import type { ProcessingOptions } from '@nuage/engine/products/options.js';
import { assetKey, uploadKey } from '@nuage/tiles-cache';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../context.js';
import {
  type AssetRow,
  deleteAssetFiles,
  ensureLayer,
  findAsset,
  findProjectAsset,
  listAssetFiles,
  putAssetFile,
  setAssetStatus,
  updateAsset,
  upsertAsset,
} from '../db/queries/assets.queries.js';
import type { Database } from '../db/types.js';
import { AppError } from '../errors.js';
import { storeSource } from '../jobs/store-io.js';
import { LAYER_NAMES } from './project-view.js';
import { checkUploadStanding } from './subscription.service.js';

/** Asset type of an uploaded orthophoto. */
export const ORTHOPHOTO = 'ORTHOPHOTO';

/**
 * Step 1 of an orthophoto upload: the file is a .tif/.tiff, the limits and
 * the subscription allow it; the project's ORTHOPHOTO asset (in its raster
 * layer) is created or reset as UPLOADING with the single-use token.
 */
export async function prepareOrthophotoUpload(
  deps: AppDeps,
  layer: { project_id: string; owner_id: string },
  req: {
    filename: { display: string; original: string };
    declaredSize: number | null;
    tokenHash: string | null;
    expiresAt: Date | null;
    checkLimits(ownerId: string, replacedBytes: number): Promise<void>;
  },
): Promise<{ asset: AssetRow; filename: string }> {
  const { display: filename, original } = req.filename;
  if (!/\.tiff?$/i.test(filename)) {
    throw new AppError(400, 'INVALID_FILE', 'the file is invalid: a GeoTIFF orthophoto (.tif) is expected');
  }
  const db = deps.database.db;
  const existing = await findProjectAsset(db, layer.project_id, ORTHOPHOTO);
  await checkUploadStanding(deps, layer.owner_id);
  await req.checkLimits(layer.owner_id, existing ? Number(existing.stored_bytes) : 0);
  const raster = await ensureLayer(db, layer.project_id, 'RASTER', LAYER_NAMES.RASTER);
  const asset = await upsertAsset(db, {
    projectId: layer.project_id,
    layerId: raster.id,
    type: ORTHOPHOTO,
    name: filename,
    status: 'UPLOADING',
    originalFilename: filename,
    declaredSize: req.declaredSize,
  });
  await updateAsset(db, asset.id, {
    upload_token_hash: req.tokenHash,
    upload_expires_at: req.expiresAt,
    metadata: JSON.stringify({ upload: { originalFilename: original.replace(/\u0000/g, '\\u0000') } }),
    tiles_prefix: null,
  });
  if (existing) {
    await deps.storage.tiles.deletePrefix(assetKey(layer.project_id, asset.id));
    await deleteAssetFiles(db, asset.id);
    await updateAsset(db, asset.id, { stored_bytes: 0 });
  }
  return { asset, filename };
}

async function fail(deps: AppDeps, asset: AssetRow, status: 'ABORTED' | 'ERROR', error: AppError): Promise<never> {
  await setAssetStatus(deps.database.db, asset.id, status, { code: error.code, message: error.message });
  throw error;
}

/**
 * Step 2 of an orthophoto upload: the bytes stream into the store (never held
 * in memory); exactly the declared size, and a TIFF (classic or BigTIFF)
 * header, or the asset is ABORTED/ERROR with nothing stored. Georeferencing,
 * CRS and bands are checked when a processing reads it (INVALID_INPUT naming
 * `orthophoto`). The asset becomes UPLOADED; the project status is left as it is.
 */
export async function storeOrthophoto(
  deps: AppDeps,
  asset: AssetRow,
  body: AsyncIterable<Uint8Array>,
  declared: number,
): Promise<AssetRow> {
  const key = uploadKey(asset.project_id, asset.id, randomBytes(6).toString('hex'), 'tif');
  let received = 0;
  async function* limited(src: AsyncIterable<Uint8Array>) {
    for await (const chunk of src) {
      received += chunk.byteLength;
      if (received > declared) {
        throw new AppError(413, 'FILE_TOO_LARGE', `the upload is larger than the declared ${declared} bytes`, {
          limit: declared,
        });
      }
      yield chunk;
    }
  }
  const objects = deps.storage.objects;
  try {
    await objects.put(key, limited(body), { contentType: 'image/tiff' });
  } catch (err) {
    await objects.delete(key).catch(() => false);
    if (err instanceof AppError) return fail(deps, asset, 'ABORTED', err);
    return fail(
      deps,
      asset,
      'ABORTED',
      new AppError(400, 'UPLOAD_INCOMPLETE', `the upload was interrupted after ${received} of ${declared} bytes`),
    );
  }
  if (received !== declared) {
    await objects.delete(key).catch(() => false);
    return fail(
      deps,
      asset,
      'ABORTED',
      new AppError(400, 'UPLOAD_INCOMPLETE', `the upload ended after ${received} of ${declared} bytes`),
    );
  }
  const head =
    received >= 4 ? Buffer.from(await storeSource(objects, key, received).read(0, 4)).toString('latin1') : '';
  if (!['II*\0', 'MM\0*', 'II+\0', 'MM\0+'].includes(head)) {
    await objects.delete(key).catch(() => false);
    return fail(deps, asset, 'ERROR', new AppError(400, 'INVALID_FILE', 'the file is invalid: it is not a TIFF image'));
  }
  await deps.database.db.transaction().execute(async (trx) => {
    await putAssetFile(trx, {
      assetId: asset.id,
      extension: 'tif',
      key,
      fileName: asset.original_filename ?? 'orthophoto.tif',
      size: received,
      contentType: 'image/tiff',
    });
    await updateAsset(trx, asset.id, {
      status: 'UPLOADED',
      stored_bytes: received,
      declared_size: received,
      error_code: null,
      error_message: null,
    });
  });
  return (await findAsset(deps.database.db, asset.id))!;
}

/**
 * The stored file of the orthophoto a processing names, or null when it
 * names none; 400 INVALID_PROCESSING_OPTIONS (field `orthophotoAssetId`)
 * when it is not an uploaded orthophoto of this project.
 */
export async function orthophotoFile(
  db: Kysely<Database>,
  projectId: string,
  options: Pick<ProcessingOptions, 'orthophotoAssetId'>,
): Promise<{ key: string; size: number } | null> {
  const id = options.orthophotoAssetId;
  if (id === undefined) return null;
  const asset = await findAsset(db, id);
  const file =
    asset?.type === ORTHOPHOTO && asset.project_id === projectId && asset.status === 'UPLOADED'
      ? (await listAssetFiles(db, [asset.id])).find((f) => f.extension === 'tif')
      : undefined;
  if (!file) {
    throw new AppError(
      400,
      'INVALID_PROCESSING_OPTIONS',
      'orthophotoAssetId: not an uploaded orthophoto of this project: upload the GeoTIFF first',
      { field: 'orthophotoAssetId' },
    );
  }
  return { key: file.key, size: Number(file.size) };
}
