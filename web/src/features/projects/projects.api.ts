import useSWR from 'swr';
import { api } from '../../shared/api/api.js';
import { ApiError, errorFromResponse, NETWORK_ERROR } from '../../shared/api/api-error.js';
import type { components } from '../../shared/api/schema.generated.js';
import type { Page } from '../../shared/api/types.js';
import type { LasHeaderData } from './las-file-header.js';
import type { ProcessingOptions } from './processing-options.schema.js';
import type { Project } from './projects.types.js';

type Schemas = components['schemas'];

/** Query of the projects table (spec §7 table contract). */
export interface ProjectListQuery {
  limit: number;
  offset: number;
  sortBy?: string;
  order?: 'ASC' | 'DESC';
  search?: string;
}

/** GET /projects: one page of the user's projects. */
export function listProjects(q: ProjectListQuery): Promise<Page<Project>> {
  return api.get<Page<Project>>('/projects', { query: { ...q } });
}

/** GET /projects/{id}: a project with its layers, assets and latest jobs. */
export function getProject(id: string): Promise<Project> {
  return api.get<Project>(`/projects/${encodeURIComponent(id)}`);
}

/** POST /projects: creates a project (and its point cloud layer). */
export function createProject(name: string): Promise<Project> {
  return api.post<Project>('/projects', { body: { name } });
}

/** DELETE /projects/{id}: deletes the project and every file it has. */
export async function deleteProject(id: string): Promise<void> {
  await api.delete(`/projects/${encodeURIComponent(id)}`);
}

/** What POST /assets/upload-signed-url answers. */
export type SignedUpload = Schemas['UploadUrl'];

/**
 * POST /assets/upload-signed-url (spec §7): a signed, single-use URL to PUT the file to.
 * The browser uploads point clouds only, with what it read of their header.
 */
export function requestUploadUrl(
  body: Schemas['UploadUrlRequest'] & { type: 'POINT_CLOUD'; epsgCode: number | null; lasHeaderData: LasHeaderData },
): Promise<SignedUpload> {
  return api.post<SignedUpload>('/assets/upload-signed-url', { body });
}

/**
 * POST /assets/upload-signed-url with type ORTHOPHOTO: a signed URL for the
 * GeoTIFF the processing colours the cloud from (an asset of the project's
 * raster layer; `layerId` is any layer of the project).
 */
export function requestOrthophotoUploadUrl(layerId: string, file: File): Promise<SignedUpload> {
  return api.post<SignedUpload>('/assets/upload-signed-url', {
    body: { layerId, type: 'ORTHOPHOTO', filename: encodeURIComponent(file.name), fileSize: file.size },
  });
}

/**
 * POST /assets/start-tiling (spec §7): starts metadata extraction then tiling
 * of the uploaded file; with `processingOptions` the processing follows once
 * the tileset is ready.
 */
export function startTiling(
  body: Omit<Schemas['StartTiling'], 'processingOptions'> & { processingOptions?: ProcessingOptions },
): Promise<Schemas['TilingStarted']> {
  return api.post('/assets/start-tiling', { body });
}

/** One product a processing can make (the engine's product registry). */
export type ProductInfo = Schemas['ProductInfo'];

/** GET /processing/products: every product, in the asset order of spec §3. */
export async function listProcessingProducts(): Promise<ProductInfo[]> {
  return (await api.get<Schemas['ProductList']>('/processing/products')).results;
}

/** SWR hook of the product registry (it changes with a deployment only: fetched once). */
export function useProcessingProducts() {
  return useSWR(['processing-products'], listProcessingProducts, {
    revalidateOnFocus: false,
    revalidateIfStale: false,
  });
}

/** POST /projects/{id}/processing: runs the products again (all, or `options.products`) with the form's options. */
export function startProcessing(projectId: string, options: ProcessingOptions): Promise<unknown> {
  return api.post(`/projects/${encodeURIComponent(projectId)}/processing`, { body: { options } });
}

/** Upload progress: bytes sent of the total, and the mean speed since the start (bytes per second). */
export interface UploadProgress {
  loaded: number;
  total: number;
  bytesPerSecond: number;
}

/**
 * PUTs a file to a signed URL with progress (XMLHttpRequest: fetch cannot
 * report upload progress everywhere). Rejects with an ApiError (the server's
 * code) or an AbortError when `signal` aborts.
 */
export function uploadFile(
  url: string,
  file: Blob,
  onProgress: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const started = performance.now();
    const abort = () => xhr.abort();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      const seconds = Math.max(0.001, (performance.now() - started) / 1000);
      onProgress({
        loaded: e.loaded,
        total: e.lengthComputable ? e.total : file.size,
        bytesPerSecond: e.loaded / seconds,
      });
    };
    xhr.onload = () => {
      signal?.removeEventListener('abort', abort);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve();
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      reject(errorFromResponse(xhr.status, body));
    };
    xhr.onerror = () => {
      signal?.removeEventListener('abort', abort);
      reject(new ApiError(0, NETWORK_ERROR, 'the upload was interrupted'));
    };
    xhr.onabort = () => {
      signal?.removeEventListener('abort', abort);
      reject(new DOMException('the upload was cancelled', 'AbortError'));
    };
    if (signal?.aborted) {
      reject(new DOMException('the upload was cancelled', 'AbortError'));
      return;
    }
    signal?.addEventListener('abort', abort);
    xhr.send(file);
  });
}
