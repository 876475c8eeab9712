import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CrsInfo, crsFromEpsg } from '@nuage/engine/crs/index.js';
import { DISPLAY_OF_ASSET } from '@nuage/engine/products/registry.js';
import { EXPORT_FORMATS, type ExportFormat } from '@nuage/engine/writers/export.js';
import { assetRunPrefix, checkKey, runFileKey, splitAssetRunKey } from '@nuage/tiles-cache';
import type { AppDeps } from '../context.js';
import {
  type AssetFileRow,
  findAssetFile,
  findProjectAsset,
  type OwnedAssetRow,
  putAssetFile,
} from '../db/queries/assets.queries.js';
import { findProject } from '../db/queries/projects.queries.js';
import { AppError } from '../errors.js';
import { PermanentJobError } from '../jobs/job-runner.js';
import { contentTypeOf, localCopy, uploadFile } from '../jobs/store-io.js';
import type { Viewer } from './access.service.js';
import { assetFor } from './assets.service.js';
import { exportError } from './export.task.js';
import { exportInThread } from './exports.thread.js';
import { grantForViewer } from './share-grants.service.js';
import { signedFileUrl } from './tiles.service.js';

export { exportError };

/**
 * Vector exports (spec §1, §7): a READY vector asset's features as GeoJSON
 * (EPSG:4326, RFC 7946), DXF or a zipped Shapefile (both in the project CRS),
 * made on the first request from the asset's stored GeoJSON by the engine's
 * writers (`exportFeatures`), stored beside it under the same processing run
 * prefix and recorded as an asset file, so the next request is a signed URL
 * at once. A new processing run replaces the asset's files (and deletes the
 * earlier run's keys, exports included): the cache never serves a stale export.
 */

/** The formats, in the order the API documents them. */
export const EXPORT_FORMAT_NAMES = Object.keys(EXPORT_FORMATS) as [ExportFormat, ...ExportFormat[]];

/**
 * Bumped when the writers change what they write: the cache key holds it, so
 * exports made by an earlier version are made again on their next request.
 */
export const EXPORT_VERSION = 1;

/**
 * The `asset_files.extension` a cached export is recorded under (`exp` + the
 * format: `expgeojson`, `expdxf`, `expshp`), apart from the product's own
 * `geojson` file (one row per extension).
 */
export function exportFileExtension(format: ExportFormat): string {
  return `exp${format}`;
}

/** True for an `asset_files.extension` of a cached export. */
export function isExportFileExtension(extension: string): boolean {
  return EXPORT_FORMAT_NAMES.some((f) => exportFileExtension(f) === extension);
}

/**
 * A file-name part made safe for every file system and for Content-Disposition:
 * accents dropped, anything outside [A-Za-z0-9._-] becomes '-', runs of '-' folded,
 * no leading or trailing '-' or '.', at most 80 characters; `fallback` when nothing is left.
 */
export function safeFileNamePart(text: string, fallback: string): string {
  const ascii = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const safe = ascii
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80)
    .replace(/[-.]+$/g, '');
  return safe || fallback;
}

/** The download name of an export: `<project>-<asset type in lower case>.<extension>` (spec §7 fileName). */
export function exportFileName(projectName: string, assetType: string, format: ExportFormat): string {
  return `${safeFileNamePart(projectName, 'project')}-${assetType.toLowerCase()}.${EXPORT_FORMATS[format].extension}`;
}

/** What the export routes answer: the spec §7 file-supplier-url shape. */
export interface SuppliedExport {
  url: string;
  fileName: string;
  totalSize: number;
}

/** 400 EXPORT_FORMAT_UNKNOWN, naming the parameter and the formats. */
export function unknownFormat(format: string): AppError {
  return new AppError(
    400,
    'EXPORT_FORMAT_UNKNOWN',
    `format: "${format.slice(0, 40)}" is not an export format (${EXPORT_FORMAT_NAMES.join(', ')})`,
    { parameter: 'format', allowed: EXPORT_FORMAT_NAMES },
  );
}

/**
 * The CRS the asset's products were made in: the point cloud's CRS as its
 * metadata recorded it (what the processing read), else the EPSG code given
 * for the point cloud or found for the project. Null when there is none.
 */
export async function projectCrs(deps: AppDeps, projectId: string): Promise<CrsInfo | null> {
  const db = deps.database.db;
  const cloud = await findProjectAsset(db, projectId, 'POINT_CLOUD');
  const recorded = (cloud?.metadata as { crs?: Partial<CrsInfo> | null } | null)?.crs;
  if (recorded && typeof recorded.proj4 === 'string' && recorded.proj4 !== '') {
    if (typeof recorded.horizontalUnitToMetre === 'number' && typeof recorded.name === 'string') {
      return {
        epsg: typeof recorded.epsg === 'number' ? recorded.epsg : null,
        wkt: typeof recorded.wkt === 'string' ? recorded.wkt : null,
        proj4: recorded.proj4,
        name: recorded.name,
        horizontalUnitToMetre: recorded.horizontalUnitToMetre,
        verticalUnitToMetre:
          typeof recorded.verticalUnitToMetre === 'number'
            ? recorded.verticalUnitToMetre
            : recorded.horizontalUnitToMetre,
        source: recorded.source ?? 'override',
        geographic: recorded.horizontalUnitToMetre === 0,
      };
    }
  }
  const epsg = cloud?.epsg_code ?? recorded?.epsg ?? (await findProject(db, projectId))?.epsg_code ?? null;
  if (!epsg) return null;
  try {
    return crsFromEpsg(epsg);
  } catch {
    return null;
  }
}

/** The key a format's export of a stored GeoJSON goes to: beside it, under the same run prefix. */
function exportKey(asset: OwnedAssetRow, source: AssetFileRow, format: ExportFormat): string {
  const split = splitAssetRunKey(source.key);
  const name = `${asset.id}-export-v${EXPORT_VERSION}.${EXPORT_FORMATS[format].extension}`;
  if (!split || split.parts.assetId !== asset.id) {
    throw new Error(`the GeoJSON of asset ${asset.id} is not under a run prefix: ${source.key}`);
  }
  const run = /^r([A-Za-z0-9_-]{1,63})$/.exec(split.parts.run);
  return run
    ? runFileKey(split.parts.projectId, asset.id, run[1]!, name)
    : checkKey(assetRunPrefix(split.parts.projectId, asset.id, split.parts.run) + name);
}

/** Exports being made in this process, by cache key: concurrent first requests share one. */
const inFlight = new Map<string, Promise<AssetFileRow>>();

/** What {@link makeExport} did, for logs and tests. */
export interface ExportEvent {
  assetId: string;
  format: ExportFormat;
  key: string;
  features: number;
  bytes: number;
  ms: number;
}

/** Listeners told of each export made (not of those served from the cache). */
export const exportEvents = new Set<(e: ExportEvent) => void>();

/**
 * Makes an export and records it: downloads the stored GeoJSON to a temporary
 * folder (or reads it in place from a local store), writes the format, stores
 * it under `key` and records it as the asset's file — unless a new processing
 * run replaced the GeoJSON meanwhile (then the stored export is deleted and
 * null returned: the caller starts again from the new GeoJSON).
 */
async function makeExport(
  deps: AppDeps,
  asset: OwnedAssetRow,
  source: AssetFileRow,
  format: ExportFormat,
  key: string,
  projectName: string,
): Promise<AssetFileRow | null> {
  const started = performance.now();
  const tmp = await mkdtemp(path.join(tmpdir(), `nuage-export-${asset.id}-`));
  try {
    let local: string;
    try {
      local = await localCopy(deps.storage, source.key, tmp);
    } catch (err) {
      if (err instanceof PermanentJobError) {
        throw new AppError(
          404,
          'FILE_NOT_FOUND',
          'the stored GeoJSON of this asset is missing: process the project again',
        );
      }
      throw err;
    }
    const crs = EXPORT_FORMATS[format].crs === 'project' ? await projectCrs(deps, asset.project_id) : null;
    const out = path.join(tmp, `export.${EXPORT_FORMATS[format].extension}`);
    const fileName = exportFileName(projectName, asset.type, format);
    // In a thread of its own: the API's main thread keeps answering meanwhile.
    const written = await exportInThread({
      input: local,
      format,
      crs,
      out,
      options: {
        assetType: asset.type,
        layerName: format === 'shp' ? fileName.replace(/\.zip$/, '') : asset.type.toLowerCase(),
      },
    });
    const size = await uploadFile(deps.storage.objects, out, key);
    const extension = exportFileExtension(format);
    const row = await deps.database.db.transaction().execute(async (trx) => {
      // The asset row is what a processing run updates when it replaces the files: lock it.
      const now = await trx
        .selectFrom('assets')
        .select(['status', 'stored_bytes'])
        .where('id', '=', asset.id)
        .forUpdate()
        .executeTakeFirst();
      const current = await findAssetFile(trx, asset.id, 'geojson');
      if (now?.status !== 'READY' || current?.key !== source.key) return null;
      const before = await findAssetFile(trx, asset.id, extension);
      await putAssetFile(trx, {
        assetId: asset.id,
        extension,
        key,
        fileName,
        size,
        contentType: contentTypeOf(out),
      });
      const delta = size - (before ? Number(before.size) : 0);
      await trx
        .updateTable('assets')
        .set({ stored_bytes: Math.max(0, Number(now.stored_bytes) + delta) })
        .where('id', '=', asset.id)
        .execute();
      return { before, row: await findAssetFile(trx, asset.id, extension) };
    });
    if (!row) {
      await deps.storage.objects.delete(key).catch(() => false);
      return null;
    }
    // An export of an earlier writer version under another key: gone with its row.
    if (row.before && row.before.key !== key) await deps.storage.objects.delete(row.before.key).catch(() => false);
    const event: ExportEvent = {
      assetId: asset.id,
      format,
      key,
      features: written.features,
      bytes: size,
      ms: Math.round(performance.now() - started),
    };
    deps.log.info(event, 'vector export made');
    for (const listener of exportEvents) listener(event);
    return row.row ?? null;
  } finally {
    await rm(tmp, { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * `GET /assets/{id}/export?format=` (and its share-token variant): a signed,
 * expiring download URL of a vector asset's export, made on the first request
 * and served from the store afterwards.
 *
 * Errors: 404 ASSET_NOT_FOUND (no such asset, or not the viewer's), 400
 * EXPORT_FORMAT_UNKNOWN, 400 EXPORT_NOT_VECTOR, 409 ASSET_NOT_READY, 404
 * FILE_NOT_FOUND (no stored GeoJSON), 409 CRS_REQUIRED, 413 EXPORT_TOO_LARGE
 * (a Shapefile over 2 GB), 422 EXPORT_NOT_POSSIBLE (anything else a writer refuses).
 */
export async function exportUrl(
  deps: AppDeps,
  viewer: Viewer,
  assetId: string,
  formatName: string,
): Promise<SuppliedExport> {
  const asset = await assetFor(deps, viewer, assetId, 'read');
  const format = formatName.toLowerCase();
  if (!(EXPORT_FORMAT_NAMES as string[]).includes(format)) throw unknownFormat(formatName);
  const f = format as ExportFormat;
  if (DISPLAY_OF_ASSET[asset.type] !== 'vector') {
    throw new AppError(
      400,
      'EXPORT_NOT_VECTOR',
      `${asset.type} is not a vector asset: download its files with file-supplier-url`,
      { type: asset.type },
    );
  }
  const grant = grantForViewer(viewer, asset.project_id);
  for (let attempt = 0; ; attempt++) {
    const fresh = attempt === 0 ? asset : await assetFor(deps, viewer, assetId, 'read');
    if (fresh.status !== 'READY') {
      throw new AppError(409, 'ASSET_NOT_READY', `the asset is not ready (${fresh.status}): export it once READY`, {
        status: fresh.status,
      });
    }
    const source = await findAssetFile(deps.database.db, fresh.id, 'geojson');
    if (!source) throw new AppError(404, 'FILE_NOT_FOUND', 'the asset has no stored GeoJSON to export');
    const key = exportKey(fresh, source, f);
    const project = await findProject(deps.database.db, fresh.project_id);
    const fileName = exportFileName(project?.name ?? 'project', fresh.type, f);
    let row: AssetFileRow | null | undefined = await findAssetFile(deps.database.db, fresh.id, exportFileExtension(f));
    if (row?.key !== key) {
      let pending = inFlight.get(key);
      if (!pending) {
        pending = makeExport(deps, fresh, source, f, key, project?.name ?? 'project').then((r) => {
          if (!r) throw new RetryExport();
          return r;
        });
        inFlight.set(key, pending);
        const clear = () => inFlight.delete(key);
        pending.then(clear, clear);
      }
      try {
        row = await pending;
      } catch (err) {
        if (err instanceof RetryExport && attempt < 2) continue;
        if (err instanceof RetryExport) {
          throw new AppError(409, 'ASSET_NOT_READY', 'the asset is being processed again: export it once READY');
        }
        throw err;
      }
    }
    const url = await signedFileUrl(deps, row.key, fileName, undefined, grant);
    return { url, fileName, totalSize: Number(row.size) };
  }
}

/** The GeoJSON changed while an export was made: start again from the new one. */
class RetryExport extends Error {
  constructor() {
    super('the asset was processed again during the export');
  }
}
