import { randomBytes } from 'node:crypto';
import { areaFromGeoJson, type ClipKind } from '@nuage/engine/clip/geojson.js';
import { compileArea, estimateClip, lazClipPossible } from '@nuage/engine/clip/index.js';
import { CrsRequired, InvalidInput } from '@nuage/engine/core/errors.js';
import { type CrsInfo, resolveCrs } from '@nuage/engine/crs/index.js';
import { type LasHeader, readLasHeader } from '@nuage/engine/readers/las-header.js';
import { assetRunPrefix, checkKey, ObjectNotFound, readAll } from '@nuage/tiles-cache';
import { sql } from 'kysely';
import type { AppDeps } from '../context.js';
import { type AssetRow, findProjectAsset, listAssetFiles } from '../db/queries/assets.queries.js';
import type { ProjectRow } from '../db/queries/projects.queries.js';
import { AppError } from '../errors.js';
import { ensureQueue } from '../jobs/queue.js';
import { storeSource } from '../jobs/store-io.js';
import { projectFor, type Viewer } from './access.service.js';
import type { ClipVectorFile, ClipVectorFormat } from './clip-vectors.service.js';
import { safeFileNamePart } from './exports.service.js';
import { grantForViewer } from './share-grants.service.js';
import { isPremium } from './subscription.service.js';
import { signedFileUrl } from './tiles.service.js';

/**
 * Clip and download (issue 23): the points of a project's stored cloud (the
 * original upload, or the classified cloud — premium, spec §6) inside an area
 * drawn in EPSG:4326, cut by a graphile-worker job (`clip`) into a LAS 1.4
 * file in the project CRS, offered as a signed download URL.
 *
 * A clip's state lives beside its file in the store, under a run prefix of
 * the source asset (`projects/<p>/assets/<a>/c<clipId>/status.json`), so that
 * it goes with the project when the project is deleted and needs no table.
 */

/** The largest area a clip may cover (m²): 100 km². */
export const CLIP_MAX_AREA_M2 = 100_000_000;
/** Attempts of a clip job before it is recorded as failed. */
export const CLIP_MAX_ATTEMPTS = 3;
/** LAZ is offered for clouds of point formats 0-3 without extra bytes (the engine's LAZ writer); LAS always. */
export function clipFormatsOf(header: LasHeader): Array<'las' | 'laz'> {
  return lazClipPossible(header) ? ['las', 'laz'] : ['las'];
}

export type ClipSource = 'original' | 'classified';
export type ClipState = 'PENDING' | 'PROGRESS' | 'SUCCESS' | 'FAILURE';

/** What a clip request asks (the route's validated body). */
export interface ClipRequestBody {
  source: ClipSource;
  kind: ClipKind;
  area: { type: string; coordinates: unknown };
  width?: number | undefined;
  classes?: number[] | undefined;
  returns?: 'first' | 'last' | 'all' | undefined;
  format: 'las' | 'laz';
  /** Also the area's vector products, in one zip (issue 23). */
  vectors?: { format: ClipVectorFormat } | undefined;
}

/** The zip of a clip's vector products, once made. */
export interface ClipVectorsRecord {
  key: string;
  fileName: string;
  bytes: number;
  files: ClipVectorFile[];
}

/** The stored record of a clip (status.json). */
export interface ClipRecord {
  id: string;
  projectId: string;
  assetId: string;
  request: ClipRequestBody;
  /** Who asked: a user id, or a share-token holder. */
  requestedBy: { kind: 'user'; id: string } | { kind: 'share' };
  state: ClipState;
  step: string;
  percentage: number;
  estimate: { points: number; bytes: number };
  pointCount: number | null;
  bytes: number | null;
  key: string | null;
  fileName: string;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** The vector products' zip (when asked, once SUCCESS). */
  vectors?: ClipVectorsRecord | null;
}

/** What the routes answer about a clip. */
export interface ClipStatusDto {
  id: string;
  state: ClipState;
  step: string;
  percentage: number;
  estimate: { points: number; bytes: number };
  pointCount: number | null;
  bytes: number | null;
  fileName: string;
  url: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: string;
  finishedAt: string | null;
  vectors: {
    format: ClipVectorFormat;
    fileName: string;
    bytes: number | null;
    url: string | null;
    files: ClipVectorFile[];
  } | null;
}

export interface ClipEstimateDto {
  points: number;
  bytes: number;
  areaSquareMetres: number;
  maxAreaSquareMetres: number;
  formats: Array<'las' | 'laz'>;
  crs: { epsg: number | null; name: string };
}

const CLIP_ID = /^[a-f0-9]{24}$/;

/** The prefix of a clip's files. */
export function clipPrefix(projectId: string, assetId: string, clipId: string): string {
  return assetRunPrefix(projectId, assetId, `c${clipId}`);
}

export function clipStatusKey(projectId: string, assetId: string, clipId: string): string {
  return checkKey(`${clipPrefix(projectId, assetId, clipId)}status.json`);
}

/** Reads a clip's record; null when there is none. */
export async function readClipRecord(deps: AppDeps, key: string): Promise<ClipRecord | null> {
  try {
    const got = await deps.storage.objects.get(key);
    return JSON.parse((await readAll(got.body)).toString('utf8')) as ClipRecord;
  } catch (err) {
    if (err instanceof ObjectNotFound) return null;
    throw err;
  }
}

export async function writeClipRecord(deps: AppDeps, record: ClipRecord): Promise<void> {
  await deps.storage.objects.put(
    clipStatusKey(record.projectId, record.assetId, record.id),
    Buffer.from(JSON.stringify(record)),
    { contentType: 'application/json' },
  );
}

/** 400 FORM_INVALID naming one field. */
function badField(field: string, message: string): AppError {
  return new AppError(400, 'FORM_INVALID', `${field}: ${message}`, {
    fields: [{ field, code: 'FORM_INVALID', issue: 'custom', message }],
  });
}

/** The premium rule of spec §6: the classified cloud is for premium accounts (and admins) only. */
async function checkPremium(deps: AppDeps, viewer: Viewer, source: ClipSource): Promise<void> {
  if (source !== 'classified') return;
  const premium = viewer.kind === 'user' && (viewer.admin || (await isPremium(deps, viewer.id)));
  if (!premium) {
    throw new AppError(403, 'PREMIUM_REQUIRED', 'clipping the classified point cloud needs a premium subscription');
  }
}

/** The source asset of a clip and its stored file (LAS/LAZ). */
async function sourceOf(
  deps: AppDeps,
  project: ProjectRow,
  source: ClipSource,
): Promise<{ asset: AssetRow; key: string; size: number; extension: string; epsg: number | null }> {
  const db = deps.database.db;
  const cloud = await findProjectAsset(db, project.id, 'POINT_CLOUD');
  const asset = source === 'classified' ? await findProjectAsset(db, project.id, 'CLASSIFIED_POINT_CLOUD') : cloud;
  if (!asset) {
    throw new AppError(
      404,
      'ASSET_NOT_FOUND',
      source === 'classified'
        ? 'the project has no classified point cloud: process it with the classification first'
        : 'the project has no point cloud',
    );
  }
  if (source === 'classified' && asset.status !== 'READY') {
    throw new AppError(409, 'ASSET_NOT_READY', `the classified point cloud is not ready (${asset.status})`, {
      status: asset.status,
    });
  }
  const file = (await listAssetFiles(db, [asset.id])).find((f) => f.extension === 'las' || f.extension === 'laz');
  if (!file) throw new AppError(409, 'ASSET_NOT_UPLOADED', 'the point cloud file was never stored');
  return {
    asset,
    key: file.key,
    size: Number(file.size),
    extension: file.extension,
    epsg: cloud?.epsg_code ?? project.epsg_code ?? null,
  };
}

/** Reads the stored file's header (ranged reads) and its CRS. */
async function headerOf(
  deps: AppDeps,
  key: string,
  size: number,
  epsg: number | null,
): Promise<{ header: LasHeader; crs: CrsInfo }> {
  const header = await readLasHeader(storeSource(deps.storage.objects, key, size));
  let crs: CrsInfo | null;
  try {
    crs = resolveCrs(header, epsg ?? undefined);
  } catch {
    crs = null;
  }
  if (!crs) throw new AppError(409, 'CRS_REQUIRED', 'the point cloud has no coordinate reference system');
  return { header, crs };
}

/** The area in the cloud's CRS, checked (400 naming the field, 413 over the maximum). */
export function clipAreaOf(body: ClipRequestBody, crs: CrsInfo) {
  if (body.kind === 'corridor' && body.width === undefined)
    throw badField('width', 'a corridor needs a width in metres');
  if (body.kind !== 'corridor' && body.width !== undefined) throw badField('width', 'only a corridor has a width');
  let compiled: ReturnType<typeof compileArea>;
  try {
    const { area } = areaFromGeoJson(body.area, body.kind, {
      crs,
      from: 'EPSG:4326',
      ...(body.width !== undefined ? { width: body.width } : {}),
    });
    compiled = compileArea(area);
  } catch (err) {
    if (err instanceof CrsRequired) throw new AppError(409, 'CRS_REQUIRED', err.message);
    if (err instanceof InvalidInput) {
      const field = err.field === 'width' ? 'width' : 'area';
      throw badField(field, err.message.replace(/^geojson/, 'area').replace(/^[^:]*: /, ''));
    }
    throw err;
  }
  const unit = crs.horizontalUnitToMetre > 0 ? crs.horizontalUnitToMetre : 1;
  const squareMetres = compiled.surface * unit * unit;
  if (squareMetres > CLIP_MAX_AREA_M2) {
    throw new AppError(
      413,
      'CLIP_AREA_TOO_LARGE',
      `the area covers ${(squareMetres / 1e6).toFixed(2)} km², more than the ${CLIP_MAX_AREA_M2 / 1e6} km² a clip may`,
      { areaSquareMetres: squareMetres, maxAreaSquareMetres: CLIP_MAX_AREA_M2 },
    );
  }
  return { compiled, squareMetres };
}

function checkFormat(body: ClipRequestBody, header: LasHeader): void {
  if (body.format === 'laz' && !lazClipPossible(header)) {
    const message = `LAZ output is available for point formats 0-3 without extra bytes; this cloud is format ${header.pointFormat}${header.extraBytes.length ? ' with extra bytes' : ''}: ask for las`;
    throw new AppError(400, 'CLIP_FORMAT_UNAVAILABLE', `format: ${message}`, {
      fields: [{ field: 'format', code: 'CLIP_FORMAT_UNAVAILABLE', issue: 'custom', message }],
      formats: clipFormatsOf(header),
    });
  }
}

/**
 * Share of the points the classes and returns filters keep, from what is
 * known without reading points: the class counts the metadata extraction
 * recorded for the asset, and the header's count of first returns.
 */
function filterShare(body: ClipRequestBody, header: LasHeader, metadata: unknown): number {
  let share = 1;
  const counts = (metadata as { classCounts?: Record<string, number> } | null)?.classCounts;
  if (body.classes?.length && counts && typeof counts === 'object') {
    const total = Object.values(counts).reduce((a, b) => a + (Number(b) || 0), 0);
    const kept = body.classes.reduce((a, c) => a + (Number(counts[String(c)]) || 0), 0);
    if (total > 0) share *= kept / total;
  }
  if (body.returns === 'first' && header.pointCount > 0 && (header.pointsByReturn[0] ?? 0) > 0) {
    share *= Math.min(1, header.pointsByReturn[0]! / header.pointCount);
  }
  return share;
}

/** The estimate of a request: points inside, times what the filters keep (when known), and the file's size. */
function estimateOf(
  body: ClipRequestBody,
  header: LasHeader,
  compiled: ReturnType<typeof compileArea>,
  src: { size: number; asset: AssetRow },
): { points: number; bytes: number } {
  const raw = estimateClip(header, compiled);
  const share = filterShare(body, header, src.asset.metadata);
  const points = Math.round(raw.points * share);
  const scaled = {
    points,
    bytes: Math.round(raw.bytes - (raw.points - points) * (raw.bytes / Math.max(1, raw.points))),
  };
  return { points, bytes: estimatedBytes(scaled, body, header, src.size) };
}

/** The estimate's size for the format asked: LAS records, or LAZ at the input's bytes per point (a LAS input: a quarter). */
function estimatedBytes(
  estimate: { points: number; bytes: number },
  body: ClipRequestBody,
  header: LasHeader,
  size: number,
) {
  if (body.format !== 'laz') return estimate.bytes;
  const perPoint = header.compressed && header.pointCount > 0 ? size / header.pointCount : header.recordLength / 4;
  return Math.round(1500 + estimate.points * perPoint);
}

/**
 * `POST /projects/{id}/clip/estimate`: the estimated point count and file size
 * of a clip, from the stored header's density over the area (no point read).
 */
export async function estimateClipRequest(
  deps: AppDeps,
  viewer: Viewer,
  projectId: string,
  body: ClipRequestBody,
): Promise<ClipEstimateDto> {
  const project = await projectFor(deps, viewer, projectId, 'read');
  await checkPremium(deps, viewer, body.source);
  const src = await sourceOf(deps, project, body.source);
  const { header, crs } = await headerOf(deps, src.key, src.size, src.epsg);
  checkFormat(body, header);
  const { compiled, squareMetres } = clipAreaOf(body, crs);
  const estimate = estimateOf(body, header, compiled, src);
  return {
    points: estimate.points,
    bytes: estimate.bytes,
    areaSquareMetres: Math.round(squareMetres * 100) / 100,
    maxAreaSquareMetres: CLIP_MAX_AREA_M2,
    formats: clipFormatsOf(header),
    crs: { epsg: crs.epsg, name: crs.name },
  };
}

/**
 * `POST /projects/{id}/clip`: checks the request as the estimate does, records
 * the clip (PENDING) and queues its job. 202 with the clip's status.
 */
export async function startClip(
  deps: AppDeps,
  viewer: Viewer,
  projectId: string,
  body: ClipRequestBody,
): Promise<ClipStatusDto> {
  const project = await projectFor(deps, viewer, projectId, 'read');
  await checkPremium(deps, viewer, body.source);
  const src = await sourceOf(deps, project, body.source);
  const { header, crs } = await headerOf(deps, src.key, src.size, src.epsg);
  checkFormat(body, header);
  const { compiled } = clipAreaOf(body, crs);
  const estimate = estimateOf(body, header, compiled, src);
  const id = randomBytes(12).toString('hex');
  const suffix = body.source === 'classified' ? 'classified-clip' : 'clip';
  const record: ClipRecord = {
    id,
    projectId: project.id,
    assetId: src.asset.id,
    request: body,
    requestedBy: viewer.kind === 'user' ? { kind: 'user', id: viewer.id } : { kind: 'share' },
    state: 'PENDING',
    step: 'queued',
    percentage: 0,
    estimate,
    pointCount: null,
    bytes: null,
    key: null,
    fileName: `${safeFileNamePart(project.name, 'project')}-${suffix}.${body.format}`,
    errorCode: null,
    errorMessage: null,
    createdAt: new Date().toISOString(),
    finishedAt: null,
    vectors: null,
  };
  await writeClipRecord(deps, record);
  await ensureQueue(deps);
  await sql`SELECT graphile_worker.add_job(
      identifier => 'clip'::text,
      payload => ${JSON.stringify({ projectId: project.id, assetId: src.asset.id, clipId: id })}::json,
      max_attempts => ${CLIP_MAX_ATTEMPTS}::int,
      job_key => ${`clip-${id}`}::text
    )`.execute(deps.database.db);
  return statusDto(deps, viewer, record);
}

async function statusDto(deps: AppDeps, viewer: Viewer, r: ClipRecord): Promise<ClipStatusDto> {
  const url =
    r.state === 'SUCCESS' && r.key
      ? await signedFileUrl(deps, r.key, r.fileName, undefined, grantForViewer(viewer, r.projectId))
      : null;
  return {
    id: r.id,
    state: r.state,
    step: r.step,
    percentage: r.percentage,
    estimate: r.estimate,
    pointCount: r.pointCount,
    bytes: r.bytes,
    fileName: r.fileName,
    url,
    errorCode: r.errorCode,
    errorMessage: r.errorMessage,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
    vectors: r.request.vectors
      ? {
          format: r.request.vectors.format,
          fileName: r.vectors?.fileName ?? clipVectorsFileName(r.fileName),
          bytes: r.vectors?.bytes ?? null,
          url:
            r.state === 'SUCCESS' && r.vectors
              ? await signedFileUrl(
                  deps,
                  r.vectors.key,
                  r.vectors.fileName,
                  undefined,
                  grantForViewer(viewer, r.projectId),
                )
              : null,
          files: r.vectors?.files ?? [],
        }
      : null,
  };
}

/** The download name of a clip's vector zip: the cloud's name, `-vectors.zip` for the extension. */
export function clipVectorsFileName(cloudFileName: string): string {
  return `${cloudFileName.replace(/\.(las|laz)$/, '')}-vectors.zip`;
}

const clipNotFound = () => new AppError(404, 'CLIP_NOT_FOUND', 'no such clip in this project');

/**
 * `GET /projects/{id}/clip/{clipId}`: the clip's state and progress, and once
 * it succeeded a signed, expiring download URL (the premium rule is checked
 * again for a classified clip).
 */
export async function clipStatus(
  deps: AppDeps,
  viewer: Viewer,
  projectId: string,
  clipId: string,
): Promise<ClipStatusDto> {
  const project = await projectFor(deps, viewer, projectId, 'read');
  if (!CLIP_ID.test(clipId)) throw clipNotFound();
  for (const type of ['POINT_CLOUD', 'CLASSIFIED_POINT_CLOUD'] as const) {
    const asset = await findProjectAsset(deps.database.db, project.id, type);
    if (!asset) continue;
    const record = await readClipRecord(deps, clipStatusKey(project.id, asset.id, clipId));
    if (!record || record.projectId !== project.id) continue;
    await checkPremium(deps, viewer, record.request.source);
    return statusDto(deps, viewer, record);
  }
  throw clipNotFound();
}
