import { randomBytes } from 'node:crypto';
import { EngineError, InvalidInput } from '@nuage/engine/core/errors.js';
import { crsFromEpsg, resolveCrs } from '@nuage/engine/crs/index.js';
import { readLasHeader } from '@nuage/engine/readers/index.js';
import { assetKey, uploadKey } from '@nuage/tiles-cache';
import type { AppDeps } from '../context.js';
import {
  type AssetRow,
  claimUpload,
  deleteAssetFiles,
  deleteAsset as deleteAssetRow,
  findAsset,
  findAssetFile,
  findLayer,
  listAssetFiles,
  type OwnedAssetRow,
  putAssetFile,
  setAssetStatus,
  updateAsset,
  upsertAsset,
} from '../db/queries/assets.queries.js';
import { latestJob } from '../db/queries/jobs.queries.js';
import { findProject, lockProject, setProjectStatus } from '../db/queries/projects.queries.js';
import type { AssetType } from '../db/types.js';
import { AppError } from '../errors.js';
import { ensureQueue } from '../jobs/queue.js';
import { storeSource } from '../jobs/store-io.js';
import { canRead, canWrite, projectOfShareToken, type Viewer } from './access.service.js';
import { queueNewJob } from './jobs.service.js';
import { checkUpload } from './limits.service.js';
import { ORTHOPHOTO, orthophotoFile, prepareOrthophotoUpload, storeOrthophoto } from './orthophoto.service.js';
import { parseProcessingOptions } from './processing-options.js';
import { type AssetDto, assetDto } from './project-view.js';
import { grantForViewer } from './share-grants.service.js';
import { expiresIn, hashToken, notExpired, randomToken, signer } from './signing.service.js';
import {
  checkUploadStanding,
  isPremium,
  processingRefusal,
  standingOf,
  uploadRefusal,
} from './subscription.service.js';
import { signedFileUrl, signedTilesBase } from './tiles.service.js';

/** Lifetime of an upload URL (the PUT must start before; it may then last as long as it needs). */
export const UPLOAD_URL_SECONDS = 3600;

const assetNotFound = () => new AppError(404, 'ASSET_NOT_FOUND', 'no such asset');

/** Loads an asset the viewer may read (`read`) or change (`write`); 404 ASSET_NOT_FOUND otherwise. */
export async function assetFor(
  deps: AppDeps,
  viewer: Viewer,
  assetId: string,
  mode: 'read' | 'write',
): Promise<OwnedAssetRow> {
  if (!/^\d{1,18}$/.test(assetId)) throw assetNotFound();
  const asset = await findAsset(deps.database.db, assetId);
  if (!asset) throw assetNotFound();
  if (mode === 'write' ? !canWrite(viewer, asset) : !(await viewerReads(deps, viewer, asset))) throw assetNotFound();
  return asset;
}

async function viewerReads(deps: AppDeps, viewer: Viewer, asset: OwnedAssetRow): Promise<boolean> {
  if (viewer.kind === 'user') return canRead(viewer, { owner_id: asset.owner_id, share_token: null });
  const project = await findProject(deps.database.db, asset.project_id);
  return !!project && canRead(viewer, project);
}

async function dtoOf(deps: AppDeps, asset: AssetRow, grant?: string): Promise<AssetDto> {
  return assetDto(deps, asset, await listAssetFiles(deps.database.db, [asset.id]), grant);
}

/** Characters never shown in a file name: C0/C1 controls and the bidi controls that reorder text (U+202E …). */
const UNSHOWN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** File names are shown under 255 characters (spec §5 "names under 255"). */
export const MAX_FILE_NAME_LENGTH = 255;

/**
 * The name a client gave to a file, as sent (URL-decoded when it is) and as
 * shown: only the last path segment, NFC, without control or bidi-override
 * characters (a name cannot pose as `gpj.las` reversed). The name is metadata
 * only, never a path; the original is kept in the asset's metadata.
 * 400 FILE_NAME_TOO_LONG from 255 characters on.
 */
export function decodeFilename(raw: string): { display: string; original: string } {
  let original = raw;
  try {
    original = decodeURIComponent(raw);
  } catch {
    // Not URL-encoded: keep it as it is.
  }
  original = original.normalize('NFC');
  const display = (original.split(/[\\/]/).pop() ?? '').replace(UNSHOWN_CHARACTERS, '').trim();
  if ([...display].length >= MAX_FILE_NAME_LENGTH) {
    throw new AppError(
      400,
      'FILE_NAME_TOO_LONG',
      `the file name must be under ${MAX_FILE_NAME_LENGTH} characters (it has ${[...display].length}): rename the file`,
      { max: MAX_FILE_NAME_LENGTH, length: [...display].length },
    );
  }
  return { display, original };
}

/**
 * Details of an INVALID_FILE from the engine's header check: the field it names,
 * the value found, the problem in English, and an i18next `context` (the web's
 * errors.json has `INVALID_FILE_scale`, `INVALID_FILE_pointFormat` …, else
 * `INVALID_FILE_field`), so the translated message names the field too.
 */
function invalidFileDetails(err: EngineError): Record<string, unknown> {
  if (!(err instanceof InvalidInput)) return {};
  const field = err.field;
  const context = field.startsWith('header.scale.')
    ? 'scale'
    : field.startsWith('header.offset.')
      ? 'offset'
      : field === 'header.pointFormat' && err.value !== undefined
        ? 'pointFormat'
        : field === 'header.pointRecordLength'
          ? 'recordLength'
          : field === 'header.pointCount'
            ? 'pointCount'
            : 'field';
  const problem = err.message.replace(/^[^:]*:\s*/, '');
  return { field, problem, context, ...(err.value !== undefined ? { value: err.value } : {}) };
}

const fileEmpty = () =>
  new AppError(400, 'FILE_EMPTY', 'the file is empty (0 bytes): select a LAS or LAZ file', { field: 'file.size' });

export interface UploadRequest {
  layerId: string;
  type: AssetType;
  filename: string;
  fileSize: number;
  epsgCode?: number | null | undefined;
  /** What the browser read from the header; never trusted (the server reads the stored bytes). */
  lasHeaderData?: unknown;
}

/** Checks an EPSG code is a CRS the engine knows; 400 UNKNOWN_EPSG otherwise. */
export function checkEpsg(epsg: number): void {
  try {
    crsFromEpsg(epsg);
  } catch (err) {
    if (err instanceof EngineError) throw new AppError(400, 'UNKNOWN_EPSG', err.message);
    throw err;
  }
}

/** What {@link prepareUpload} needs to know about the upload to come. */
export interface UploadPreparation {
  layerId: string;
  type: AssetType;
  /** The file name as sent: URL-decoded, reduced to its last segment, never used as a path. */
  filename: string;
  epsgCode?: number | null | undefined;
  /** Declared size in bytes (signed URL), null when only the stream will tell (multipart). */
  declaredSize: number | null;
  /** Hash of the single-use token of a signed URL; null clears any earlier URL. */
  tokenHash: string | null;
  expiresAt: Date | null;
  /** Checks the size limits once the owner and the bytes an earlier upload frees are known. */
  checkLimits(ownerId: string, replacedBytes: number): Promise<void>;
}

/**
 * The checks and the asset row every upload starts with (signed URL or
 * multipart): the layer is the viewer's point cloud layer, the file a .las or
 * .laz, the EPSG code known, the project without a stored point cloud, the
 * subscription not suspended or missing, the limits respected. The
 * POINT_CLOUD asset is created (or reset, its earlier files removed) as
 * UPLOADING and the project UPLOADING.
 */
export async function prepareUpload(
  deps: AppDeps,
  viewer: Viewer,
  req: UploadPreparation,
): Promise<{ asset: AssetRow; filename: string }> {
  if (viewer.kind !== 'user') throw new AppError(404, 'LAYER_NOT_FOUND', 'no such layer');
  const layer = /^\d{1,18}$/.test(req.layerId) ? await findLayer(deps.database.db, req.layerId) : undefined;
  if (!layer || !(viewer.admin || layer.owner_id === viewer.id)) {
    throw new AppError(404, 'LAYER_NOT_FOUND', 'no such layer');
  }
  // An orthophoto to colour the cloud from: any layer of the project names it, it goes to the raster layer.
  if (req.type === ORTHOPHOTO)
    return prepareOrthophotoUpload(deps, layer, { ...req, filename: decodeFilename(req.filename) });
  if (req.type !== 'POINT_CLOUD' || layer.type !== 'POINT_CLOUD') {
    throw new AppError(
      400,
      'UNSUPPORTED_ASSET_TYPE',
      'only POINT_CLOUD files are uploaded, into the point cloud layer',
    );
  }
  const { display: filename, original } = decodeFilename(req.filename);
  if (!/\.la[sz]$/i.test(filename)) {
    throw new AppError(400, 'INVALID_FILE', 'the file is invalid: a .las or .laz file is expected');
  }
  if (req.epsgCode != null) checkEpsg(req.epsgCode);
  const ownerId = layer.owner_id;
  const existing = await deps.database.db
    .selectFrom('assets')
    .selectAll()
    .where('project_id', '=', layer.project_id)
    .where('type', '=', 'POINT_CLOUD')
    .executeTakeFirst();
  if (existing && !['NONE', 'UPLOADING', 'ABORTED', 'ERROR'].includes(existing.status)) {
    throw new AppError(409, 'ASSET_ALREADY_UPLOADED', 'this project already has its point cloud');
  }
  await checkUploadStanding(deps, ownerId);
  await req.checkLimits(ownerId, existing ? Number(existing.stored_bytes) : 0);

  const asset = await deps.database.db.transaction().execute(async (trx) => {
    await lockProject(trx, layer.project_id);
    const row = await upsertAsset(trx, {
      projectId: layer.project_id,
      layerId: layer.id,
      type: 'POINT_CLOUD',
      name: filename,
      status: 'UPLOADING',
      originalFilename: filename,
      declaredSize: req.declaredSize,
      epsgCode: req.epsgCode ?? null,
    });
    await updateAsset(trx, row.id, {
      upload_token_hash: req.tokenHash,
      upload_expires_at: req.expiresAt,
      // The name exactly as sent (JSON keeps every character; PostgreSQL refuses only NUL).
      metadata: JSON.stringify({ upload: { originalFilename: original.replace(/\u0000/g, '\\u0000') } }),
      tiles_prefix: null,
    });
    await setProjectStatus(trx, layer.project_id, 'UPLOADING');
    return row;
  });
  // A failed or abandoned earlier upload of this asset leaves nothing behind.
  if (existing) await removeAssetFiles(deps, asset.project_id, asset.id);
  return { asset, filename };
}

/**
 * Step 1 of the upload flow (spec §4): creates (or resets) the project's
 * POINT_CLOUD asset and returns a signed, expiring, single-use URL on this API
 * for the PUT. The subscription (suspended, none) and the limits are checked
 * here (file size, zero-limit variant, storage).
 */
export async function requestUploadUrl(
  deps: AppDeps,
  viewer: Viewer,
  req: UploadRequest,
): Promise<{ signedUrl: string; asset: AssetDto; filename: string }> {
  if (req.fileSize === 0) throw fileEmpty();
  const token = randomToken();
  const exp = expiresIn(UPLOAD_URL_SECONDS);
  const { asset, filename } = await prepareUpload(deps, viewer, {
    layerId: req.layerId,
    type: req.type,
    filename: req.filename,
    epsgCode: req.epsgCode,
    declaredSize: req.fileSize,
    tokenHash: hashToken(token),
    expiresAt: new Date(exp * 1000),
    checkLimits: (ownerId, replaced) => checkUpload(deps, ownerId, req.fileSize, replaced),
  });
  const signature = await signer(deps).sign('upload', [asset.id, token, exp]);
  const base = deps.config.PUBLIC_URL.replace(/\/$/, '');
  const signedUrl = `${base}/api/assets/upload/${asset.id}?token=${token}&expires=${exp}&signature=${signature}`;
  const fresh = await findAsset(deps.database.db, asset.id);
  return { signedUrl, asset: await dtoOf(deps, fresh!), filename };
}

/** Deletes every stored file of an asset (input, products, tiles) and its file rows. */
async function removeAssetFiles(deps: AppDeps, projectId: string, assetId: string): Promise<void> {
  await deps.storage.tiles.deletePrefix(assetKey(projectId, assetId));
  await deleteAssetFiles(deps.database.db, assetId);
  await updateAsset(deps.database.db, assetId, { stored_bytes: 0 });
}

export interface UploadResult {
  asset: AssetDto;
  /** What the server read from the stored bytes (a point cloud; absent for an orthophoto). */
  header?: {
    lasVersion: string;
    pointFormat: number;
    pointCount: number;
    compressed: boolean;
    fileSize: number;
    /** The file has no CRS and the asset no epsgCode: processing will ask for one. */
    crsRequired: boolean;
  };
}

/** Marks an upload failed: the asset ABORTED (interrupted, refused) or ERROR (bad file), the project NONE. */
async function failUpload(
  deps: AppDeps,
  asset: Pick<AssetRow, 'id' | 'project_id'>,
  status: 'ABORTED' | 'ERROR',
  error: AppError,
): Promise<never> {
  const db = deps.database.db;
  await setAssetStatus(db, asset.id, status, { code: error.code, message: error.message });
  await setProjectStatus(db, asset.project_id, 'NONE', { code: error.code, message: error.message });
  throw error;
}

/**
 * Step 2: the PUT to the signed URL. The body streams into the store (never
 * held in memory) under a generated key; more bytes than declared stop it
 * with 413 FILE_TOO_LARGE, fewer leave UPLOAD_INCOMPLETE. Then the LAS header
 * is read back from the stored bytes (MISSING_LAS_HEADER / INVALID_FILE). Any
 * failure leaves the asset ABORTED or ERROR with its partial bytes removed;
 * asking for a new URL uploads again.
 */
export async function receiveUpload(
  deps: AppDeps,
  assetId: string,
  q: { token: string; expires: string; signature: string },
  body: AsyncIterable<Uint8Array> | null,
  contentLength: number | null,
): Promise<UploadResult> {
  if (
    !/^\d{1,18}$/.test(assetId) ||
    !(await signer(deps).verify('upload', [assetId, q.token, q.expires], q.signature))
  ) {
    throw new AppError(403, 'UPLOAD_URL_INVALID', 'this upload URL is not valid');
  }
  if (!notExpired(q.expires)) throw new AppError(403, 'UPLOAD_URL_EXPIRED', 'this upload URL has expired');
  const claimed = await claimUpload(deps.database.db, assetId, hashToken(q.token));
  if (!claimed) throw new AppError(409, 'UPLOAD_URL_USED', 'this upload URL was already used or replaced');
  const declared = Number(claimed.declared_size);
  if (!body)
    return failUpload(deps, claimed, 'ABORTED', new AppError(400, 'UPLOAD_INCOMPLETE', 'the upload has no body'));
  if (contentLength !== null && contentLength > declared) {
    return failUpload(
      deps,
      claimed,
      'ABORTED',
      new AppError(413, 'FILE_TOO_LARGE', `the body (${contentLength} bytes) is larger than declared (${declared})`, {
        limit: declared,
      }),
    );
  }
  if (claimed.type === ORTHOPHOTO) {
    const stored = await storeOrthophoto(deps, claimed, body, declared);
    return { asset: await dtoOf(deps, stored) };
  }
  return storeUpload(deps, claimed, body, {
    expectedBytes: declared,
    overLimit: (received) =>
      received > declared
        ? new AppError(413, 'FILE_TOO_LARGE', `the upload is larger than the declared ${declared} bytes`, {
            limit: declared,
          })
        : null,
  });
}

/**
 * Streams the bytes of an UPLOADING point cloud asset into the store (never
 * held in memory) under a generated key, then reads the LAS header back from
 * the stored bytes; the asset becomes UPLOADED. `overLimit` is asked after
 * each chunk and stops the upload with its error; `expectedBytes` (when
 * known) must be met exactly (UPLOAD_INCOMPLETE). Any failure removes the
 * partial bytes and leaves the asset ABORTED (interrupted, refused) or ERROR
 * (MISSING_LAS_HEADER, INVALID_FILE).
 */
export async function storeUpload(
  deps: AppDeps,
  asset: AssetRow,
  body: AsyncIterable<Uint8Array>,
  o: { expectedBytes: number | null; overLimit(received: number): AppError | null },
): Promise<UploadResult> {
  const db = deps.database.db;
  const ext = /\.laz$/i.test(asset.original_filename ?? '') ? 'laz' : 'las';
  const key = uploadKey(asset.project_id, asset.id, randomBytes(6).toString('hex'), ext);
  let received = 0;
  async function* limited(src: AsyncIterable<Uint8Array>) {
    for await (const chunk of src) {
      received += chunk.byteLength;
      const refusal = o.overLimit(received);
      if (refusal) throw refusal;
      yield chunk;
    }
  }
  const objects = deps.storage.objects;
  try {
    await objects.put(key, limited(body), { contentType: 'application/octet-stream' });
  } catch (err) {
    // The store removes its partial write; make sure nothing stays under the key either way.
    await objects.delete(key).catch(() => false);
    if (err instanceof AppError) return failUpload(deps, asset, 'ABORTED', err);
    deps.log.warn({ err, assetId: asset.id, received, expected: o.expectedBytes }, 'upload interrupted');
    const of = o.expectedBytes === null ? '' : ` of ${o.expectedBytes}`;
    return failUpload(
      deps,
      asset,
      'ABORTED',
      new AppError(400, 'UPLOAD_INCOMPLETE', `the upload was interrupted after ${received}${of} bytes`),
    );
  }
  if (o.expectedBytes !== null && received !== o.expectedBytes) {
    await objects.delete(key).catch(() => false);
    return failUpload(
      deps,
      asset,
      'ABORTED',
      new AppError(400, 'UPLOAD_INCOMPLETE', `the upload ended after ${received} of ${o.expectedBytes} bytes`),
    );
  }

  if (received === 0) {
    await objects.delete(key).catch(() => false);
    return failUpload(deps, asset, 'ERROR', fileEmpty());
  }

  let header: Awaited<ReturnType<typeof readLasHeader>>;
  try {
    const source = storeSource(objects, key, received);
    const magic = received >= 4 ? Buffer.from(await source.read(0, 4)).toString('latin1') : '';
    if (magic !== 'LASF') {
      throw new AppError(400, 'MISSING_LAS_HEADER', 'the file has no LAS header (it does not start with "LASF")');
    }
    try {
      header = await readLasHeader(source);
    } catch (err) {
      if (err instanceof EngineError) {
        throw new AppError(400, 'INVALID_FILE', `the file is invalid: ${err.message}`, invalidFileDetails(err));
      }
      throw err;
    }
  } catch (err) {
    await objects.delete(key).catch(() => false);
    if (err instanceof AppError) return failUpload(deps, asset, 'ERROR', err);
    throw err;
  }

  const storedExt = header.compressed ? 'laz' : 'las';
  await db.transaction().execute(async (trx) => {
    await putAssetFile(trx, {
      assetId: asset.id,
      extension: storedExt,
      key,
      fileName: asset.original_filename ?? `cloud.${storedExt}`,
      size: received,
      contentType: header.compressed ? 'application/vnd.laszip' : 'application/vnd.las',
    });
    await updateAsset(trx, asset.id, {
      status: 'UPLOADED',
      stored_bytes: received,
      declared_size: received,
      error_code: null,
      error_message: null,
    });
    await setProjectStatus(trx, asset.project_id, 'UPLOADED');
  });
  const crsRequired = resolveCrsSafe(header, asset.epsg_code) === null;
  const fresh = await findAsset(db, asset.id);
  return {
    asset: await dtoOf(deps, fresh!),
    header: {
      lasVersion: header.lasVersion,
      pointFormat: header.pointFormat,
      pointCount: header.pointCount,
      compressed: header.compressed,
      fileSize: received,
      crsRequired,
    },
  };
}

function resolveCrsSafe(header: Parameters<typeof resolveCrs>[0], epsg: number | null) {
  try {
    return resolveCrs(header, epsg ?? undefined);
  } catch {
    return null;
  }
}

/**
 * Step 3: starts the jobs (metadata extraction, then tiling, then the
 * processing when options are given). The asset must be UPLOADED. The owner's
 * subscription is checked as for an upload, and as for a processing when
 * options are given; the credits are checked once the area is measured (the
 * tiling job fails the waiting processing with INSUFFICIENT_CREDITS).
 */
export async function startTiling(
  deps: AppDeps,
  viewer: Viewer,
  req: { assetId: string; processingOptions?: unknown },
): Promise<{ asset: AssetDto; inputFilePath: string }> {
  const asset = await assetFor(deps, viewer, req.assetId, 'write');
  if (asset.type !== 'POINT_CLOUD') {
    throw new AppError(400, 'UNSUPPORTED_ASSET_TYPE', 'only the POINT_CLOUD asset is tiled from an upload');
  }
  let options: unknown;
  if (req.processingOptions !== undefined) {
    options = parseProcessingOptions(req.processingOptions);
    await orthophotoFile(deps.database.db, asset.project_id, options as { orthophotoAssetId?: string });
  }
  const standing = await standingOf(deps, asset.owner_id);
  const refusal = uploadRefusal(standing) ?? (options !== undefined ? processingRefusal(standing, null) : null);
  if (refusal) throw refusal;
  await ensureQueue(deps);
  const input = await deps.database.db.transaction().execute(async (trx) => {
    await lockProject(trx, asset.project_id);
    const fresh = await findAsset(trx, asset.id);
    if (fresh?.status !== 'UPLOADED') {
      throw new AppError(
        409,
        'ASSET_NOT_UPLOADED',
        `the point cloud is ${fresh?.status ?? 'gone'}: it can be tiled once UPLOADED`,
      );
    }
    const file = (await listAssetFiles(trx, [asset.id])).find((f) => f.extension === 'las' || f.extension === 'laz');
    if (!file) throw new AppError(409, 'ASSET_NOT_UPLOADED', 'the point cloud file is not stored');
    await setAssetStatus(trx, asset.id, 'EXTRACTING_METADATA');
    await setProjectStatus(trx, asset.project_id, 'PROCESSING');
    await queueNewJob(trx, {
      kind: 'METADATA',
      projectId: asset.project_id,
      assetId: asset.id,
      userId: asset.owner_id,
    });
    if (options !== undefined) {
      const running = await latestJob(trx, 'PROCESSING', { projectId: asset.project_id });
      if (!running || !['PENDING', 'PROGRESS'].includes(running.state)) {
        await trx
          .insertInto('jobs')
          .values({
            kind: 'PROCESSING',
            project_id: asset.project_id,
            asset_id: asset.id,
            user_id: asset.owner_id,
            state: 'PENDING',
            options: JSON.stringify(options),
          })
          .execute();
      }
    }
    return file;
  });
  const fresh = await findAsset(deps.database.db, asset.id);
  return { asset: await dtoOf(deps, fresh!), inputFilePath: input.key };
}

export interface AssetPatchRequest {
  id: string;
  name?: string | undefined;
  epsgCode?: number | null | undefined;
  intensityNormalisation?: boolean | undefined;
  intensityNormalisationMin?: number | null | undefined;
}

/**
 * Changes an asset. A new epsgCode on the point cloud (a file without CRS, or
 * a wrong one) extracts the metadata and tiles again.
 */
export async function patchAsset(deps: AppDeps, viewer: Viewer, req: AssetPatchRequest): Promise<AssetDto> {
  const asset = await assetFor(deps, viewer, req.id, 'write');
  if (req.epsgCode != null) checkEpsg(req.epsgCode);
  const epsgChanged = req.epsgCode !== undefined && req.epsgCode !== asset.epsg_code;
  if (epsgChanged && asset.type === 'POINT_CLOUD') {
    if (!['UPLOADED', 'READY', 'ERROR'].includes(asset.status)) {
      throw new AppError(409, 'ASSET_NOT_UPLOADED', `the point cloud is ${asset.status}: wait for its jobs to end`);
    }
    await ensureQueue(deps);
  }
  await deps.database.db.transaction().execute(async (trx) => {
    await lockProject(trx, asset.project_id);
    await updateAsset(trx, asset.id, {
      ...(req.name !== undefined ? { name: req.name } : {}),
      ...(req.epsgCode !== undefined ? { epsg_code: req.epsgCode } : {}),
      ...(req.intensityNormalisation !== undefined ? { intensity_normalisation: req.intensityNormalisation } : {}),
      ...(req.intensityNormalisationMin !== undefined
        ? { intensity_normalisation_min: req.intensityNormalisationMin }
        : {}),
    });
    if (epsgChanged && asset.type === 'POINT_CLOUD') {
      const files = await listAssetFiles(trx, [asset.id]);
      if (!files.some((f) => f.extension === 'las' || f.extension === 'laz')) {
        throw new AppError(409, 'ASSET_NOT_UPLOADED', 'the point cloud file is not stored');
      }
      await setAssetStatus(trx, asset.id, 'EXTRACTING_METADATA');
      await setProjectStatus(trx, asset.project_id, 'PROCESSING');
      await queueNewJob(trx, {
        kind: 'METADATA',
        projectId: asset.project_id,
        assetId: asset.id,
        userId: asset.owner_id,
      });
    }
  });
  const fresh = await findAsset(deps.database.db, asset.id);
  return dtoOf(deps, fresh!);
}

/** Deletes an asset and its files; deleting the point cloud leaves the project empty (NONE). */
export async function deleteAsset(deps: AppDeps, viewer: Viewer, id: string): Promise<void> {
  const asset = await assetFor(deps, viewer, id, 'write');
  await deleteAssetRow(deps.database.db, asset.id);
  if (asset.type === 'POINT_CLOUD') await setProjectStatus(deps.database.db, asset.project_id, 'NONE');
  await deps.storage.tiles.deletePrefix(assetKey(asset.project_id, asset.id)).catch((err) => {
    deps.log.error({ err, assetId: asset.id }, 'could not delete the files of a deleted asset');
    return 0;
  });
}

/** The asset monitor (spec §3): the asset with its metadata and intensity normalisation. */
export async function assetMonitor(
  deps: AppDeps,
  viewer: Viewer,
  id: string,
): Promise<
  AssetDto & {
    projectId: string;
    metadata: Record<string, unknown> & { intensityMin: number | null; intensityMax: number | null };
    intensityNormalisation: boolean;
    intensityNormalisationMin: number | null;
  }
> {
  const asset = await assetFor(deps, viewer, id, 'read');
  const meta = (asset.metadata ?? {}) as Record<string, unknown>;
  const { wkt: _wkt, ...rest } = meta;
  return {
    ...(await dtoOf(deps, asset, grantForViewer(viewer, asset.project_id))),
    projectId: asset.project_id,
    metadata: {
      ...rest,
      intensityMin: typeof meta.intensityMin === 'number' ? meta.intensityMin : null,
      intensityMax: typeof meta.intensityMax === 'number' ? meta.intensityMax : null,
    },
    intensityNormalisation: asset.intensity_normalisation,
    intensityNormalisationMin: asset.intensity_normalisation_min,
  };
}

/**
 * `tiles-supplier-url` (spec §7): the signed URL of an asset's tiles, for the
 * owner, an admin or a share-token holder. `variant=hillshade` on a DTM asks
 * for the project's HILLSHADE_DTM tiles.
 */
export async function tilesSupplierUrl(
  deps: AppDeps,
  viewer: Viewer,
  q: { id: string; isTiles?: boolean | undefined; variant?: string | undefined },
): Promise<{ url: string }> {
  let asset = await assetFor(deps, viewer, q.id, 'read');
  const project = await findProject(deps.database.db, asset.project_id);
  if (!project) throw assetNotFound();
  if (project.status !== 'READY') {
    throw new AppError(409, 'PROJECT_NOT_READY', `project is not ready (${project.status})`, {
      status: project.status,
    });
  }
  if (q.variant === 'hillshade' && asset.type !== 'HILLSHADE_DTM') {
    const shade = await deps.database.db
      .selectFrom('assets')
      .selectAll()
      .where('project_id', '=', asset.project_id)
      .where('type', '=', 'HILLSHADE_DTM')
      .executeTakeFirst();
    if (!shade) throw new AppError(404, 'NO_TILES', 'terrain layer does not have a hillshade asset');
    asset = { ...shade, owner_id: asset.owner_id, project_status: asset.project_status };
  }
  if (asset.status !== 'READY') {
    throw new AppError(409, 'ASSET_NOT_READY', `the asset is not ready (${asset.status})`, { status: asset.status });
  }
  if (!asset.tiles_prefix) throw new AppError(404, 'NO_TILES', 'the asset does not have a valid accessUrl (no tiles)');
  const tileset = asset.type === 'POINT_CLOUD' || asset.type === 'CLASSIFIED_POINT_CLOUD';
  const grant = grantForViewer(viewer, asset.project_id);
  const base = await signedTilesBase(deps, asset.tiles_prefix, undefined, tileset ? 's' : 'raster', grant);
  if (q.isTiles === false) return { url: base };
  return { url: tileset ? `${base}tileset.json` : `${base}{z}/{x}/{y}.png` };
}

/** A viewer from a share token given with a request (`…-from-shared-token`). */
export async function shareViewer(deps: AppDeps, token: string): Promise<Viewer> {
  await projectOfShareToken(deps, token);
  return { kind: 'share', token };
}

/**
 * `file-supplier-url` (spec §7): a signed, expiring download URL of one of the
 * asset's files (Range supported). The classified point cloud needs a premium
 * subscription: 403 PREMIUM_REQUIRED (the web shows the upgrade prompt).
 */
export async function fileSupplierUrl(
  deps: AppDeps,
  viewer: Viewer,
  q: { id: string; extension: string },
): Promise<{ url: string; fileName: string; totalSize: number }> {
  const asset = await assetFor(deps, viewer, q.id, 'read');
  const extension = q.extension.replace(/^\./, '').toLowerCase();
  if (asset.type === 'CLASSIFIED_POINT_CLOUD') {
    // Premium: an active premium subscription, or an account an admin flagged (spec §1).
    const premium = viewer.kind === 'user' && (viewer.admin || (await isPremium(deps, viewer.id)));
    if (!premium) {
      throw new AppError(
        403,
        'PREMIUM_REQUIRED',
        'downloading the classified point cloud needs a premium subscription',
      );
    }
  }
  const file = await findAssetFile(deps.database.db, asset.id, extension);
  if (!file) throw new AppError(404, 'FILE_NOT_FOUND', `the asset has no .${extension} file`);
  const url = await signedFileUrl(deps, file.key, file.file_name, undefined, grantForViewer(viewer, asset.project_id));
  return { url, fileName: file.file_name, totalSize: Number(file.size) };
}
