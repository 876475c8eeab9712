import { type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type {
  AssetFilesTable,
  AssetStatus,
  AssetsTable,
  AssetType,
  Database,
  LayersTable,
  LayerType,
} from '../types.js';

type Db = Kysely<Database>;

export type LayerRow = Selectable<LayersTable>;
export type AssetRow = Selectable<AssetsTable>;
export type AssetFileRow = Selectable<AssetFilesTable>;
/** An asset with the owner of its project. */
export type OwnedAssetRow = AssetRow & { owner_id: string; project_status: string };

/** The project's layer of a type, created on first use. */
export async function ensureLayer(db: Db, projectId: string, type: LayerType, name: string): Promise<LayerRow> {
  await db
    .insertInto('layers')
    .values({ project_id: projectId, type, name })
    .onConflict((oc) => oc.columns(['project_id', 'type']).doNothing())
    .execute();
  return db
    .selectFrom('layers')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('type', '=', type)
    .executeTakeFirstOrThrow();
}

export function findLayer(db: Db, id: string): Promise<(LayerRow & { owner_id: string }) | undefined> {
  return db
    .selectFrom('layers')
    .innerJoin('projects', 'projects.id', 'layers.project_id')
    .selectAll('layers')
    .select('projects.owner_id')
    .where('layers.id', '=', id)
    .executeTakeFirst();
}

export function listLayers(db: Db, projectId: string): Promise<LayerRow[]> {
  return db.selectFrom('layers').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

export function listAssets(db: Db, projectId: string): Promise<AssetRow[]> {
  return db.selectFrom('assets').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

export function listAssetFiles(db: Db, assetIds: readonly string[]): Promise<AssetFileRow[]> {
  if (assetIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('asset_files')
    .selectAll()
    .where('asset_id', 'in', [...assetIds])
    .orderBy('id')
    .execute();
}

export function findAsset(db: Db, id: string): Promise<OwnedAssetRow | undefined> {
  return db
    .selectFrom('assets')
    .innerJoin('projects', 'projects.id', 'assets.project_id')
    .selectAll('assets')
    .select(['projects.owner_id', 'projects.status as project_status'])
    .where('assets.id', '=', id)
    .executeTakeFirst();
}

export function findProjectAsset(db: Db, projectId: string, type: AssetType): Promise<AssetRow | undefined> {
  return db
    .selectFrom('assets')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('type', '=', type)
    .executeTakeFirst();
}

/** Creates the project's asset of a type, or resets the existing one to the given fields. */
export async function upsertAsset(
  db: Db,
  a: {
    projectId: string;
    layerId: string;
    type: AssetType;
    name: string;
    status: AssetStatus;
    originalFilename?: string | null;
    declaredSize?: number | null;
    epsgCode?: number | null;
  },
): Promise<AssetRow> {
  const values = {
    project_id: a.projectId,
    layer_id: a.layerId,
    type: a.type,
    name: a.name,
    status: a.status,
    original_filename: a.originalFilename ?? null,
    declared_size: a.declaredSize ?? null,
    epsg_code: a.epsgCode ?? null,
  };
  return db
    .insertInto('assets')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['project_id', 'type']).doUpdateSet({
        layer_id: a.layerId,
        name: a.name,
        status: a.status,
        ...(a.originalFilename !== undefined ? { original_filename: a.originalFilename } : {}),
        ...(a.declaredSize !== undefined ? { declared_size: a.declaredSize } : {}),
        ...(a.epsgCode !== undefined ? { epsg_code: a.epsgCode } : {}),
        error_code: null,
        error_message: null,
        updated_at: sql`now()`,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type AssetPatch = Omit<Updateable<AssetsTable>, 'id' | 'project_id' | 'created_at' | 'updated_at'>;

export async function updateAsset(db: Db, id: string, patch: AssetPatch): Promise<void> {
  await db
    .updateTable('assets')
    .set({ ...patch, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Sets an asset's status, recording (or clearing) its error. */
export function setAssetStatus(
  db: Db,
  id: string,
  status: AssetStatus,
  error: { code: string; message: string } | null = null,
): Promise<void> {
  return updateAsset(db, id, { status, error_code: error?.code ?? null, error_message: error?.message ?? null });
}

/**
 * Takes the single-use upload token of an asset: succeeds once, while the
 * token is unexpired and the asset waits for its bytes.
 */
export async function claimUpload(db: Db, id: string, tokenHash: string): Promise<AssetRow | undefined> {
  return db
    .updateTable('assets')
    .set({ upload_token_hash: null, upload_expires_at: null, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('upload_token_hash', '=', tokenHash)
    .where('upload_expires_at', '>', sql<Date>`now()`)
    .where('status', '=', 'UPLOADING')
    .returningAll()
    .executeTakeFirst();
}

export async function deleteAsset(db: Db, id: string): Promise<boolean> {
  const r = await db.deleteFrom('assets').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Records (or replaces) the downloadable file of an asset for one extension. */
export async function putAssetFile(
  db: Db,
  f: { assetId: string; extension: string; key: string; fileName: string; size: number; contentType: string },
): Promise<void> {
  await db
    .insertInto('asset_files')
    .values({
      asset_id: f.assetId,
      extension: f.extension,
      key: f.key,
      file_name: f.fileName,
      size: f.size,
      content_type: f.contentType,
    })
    .onConflict((oc) =>
      oc.columns(['asset_id', 'extension']).doUpdateSet({
        key: f.key,
        file_name: f.fileName,
        size: f.size,
        content_type: f.contentType,
      }),
    )
    .execute();
}

export async function deleteAssetFiles(db: Db, assetId: string): Promise<void> {
  await db.deleteFrom('asset_files').where('asset_id', '=', assetId).execute();
}

export function findAssetFile(db: Db, assetId: string, extension: string): Promise<AssetFileRow | undefined> {
  return db
    .selectFrom('asset_files')
    .selectAll()
    .where('asset_id', '=', assetId)
    .where('extension', '=', extension)
    .executeTakeFirst();
}

/** Bytes a user keeps in the store, over every asset of their projects. */
export async function storedBytesOfOwner(db: Db, ownerId: string): Promise<number> {
  const r = await db
    .selectFrom('assets')
    .innerJoin('projects', 'projects.id', 'assets.project_id')
    .select(sql<string>`coalesce(sum(assets.stored_bytes), 0)`.as('n'))
    .where('projects.owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
