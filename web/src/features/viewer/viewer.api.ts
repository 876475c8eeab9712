import { api } from '../../shared/api/api.js';
import { ApiError, errorFromResponse, NETWORK_ERROR } from '../../shared/api/api-error.js';
import type { Project } from '../projects/projects.types.js';

/** What the viewer takes from the admin settings. */
export interface ViewerParameters {
  /** Pixels (spec §9 default 2). */
  pointSize: number;
  /** 0..1 (the setting is a percentage). */
  globeOpacity: number;
  /** Empty strings become undefined: that imagery is not offered. */
  cesiumIonToken: string | undefined;
  bingMapsKey: string | undefined;
}

/** GET /globalParameters/cesiumParameters: point size, globe opacity and world imagery keys (admin settings). */
export async function fetchViewerParameters(): Promise<ViewerParameters> {
  const body = await api.get<{
    pointSize?: unknown;
    globeOpacity?: unknown;
    cesiumIonToken?: unknown;
    bingMapsKey?: unknown;
  }>('/globalParameters/cesiumParameters');
  const size = Number(body?.pointSize);
  const opacity = Number(body?.globeOpacity);
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  return {
    pointSize: Number.isFinite(size) && size > 0 ? size : 2,
    globeOpacity: Number.isFinite(opacity) && opacity >= 0 && opacity <= 100 ? opacity / 100 : 1,
    cesiumIonToken: text(body?.cesiumIonToken),
    bingMapsKey: text(body?.bingMapsKey),
  };
}

/** GET /projects/from-share-token: the project a share link opens (read-only, no account). */
export function projectFromShareToken(token: string): Promise<Project> {
  return api.get<Project>('/projects/from-share-token', { query: { token } });
}

/** POST /projects/{id}/share-token: creates (or replaces) the project's share token. */
export function createShareToken(projectId: string): Promise<{ token: string }> {
  return api.post<{ token: string }>(`/projects/${encodeURIComponent(projectId)}/share-token`);
}

/** DELETE /projects/{id}/share-token: the share link stops working. */
export async function revokeShareToken(projectId: string): Promise<void> {
  await api.delete(`/projects/${encodeURIComponent(projectId)}/share-token`);
}

/** The app address that opens a project from its share token. */
export function shareLink(token: string, location: Pick<Location, 'origin' | 'pathname'> = window.location): string {
  return `${location.origin}${location.pathname}#/project-from-share-token?token=${encodeURIComponent(token)}`;
}

/** What file-supplier-url answers. */
export interface FileSupply {
  url: string;
  fileName: string;
  totalSize: number;
}

/** GET /assets/custom-tiler/file-supplier-url: a signed, expiring URL of one file of an asset. */
export function fileSupplierUrl(assetId: string, extension: string, shareToken?: string): Promise<FileSupply> {
  if (shareToken) {
    return api.get<FileSupply>('/assets/custom-tiler/file-supplier-url-from-shared-token', {
      query: { id: assetId, extension, token: shareToken },
    });
  }
  return api.get<FileSupply>('/assets/custom-tiler/file-supplier-url', { query: { id: assetId, extension } });
}

/**
 * GET /assets/{id}/export: a signed URL of a vector asset exported as GeoJSON
 * (EPSG:4326), DXF or a zipped Shapefile (project CRS). The first request
 * makes the export (seconds for large layers); later ones answer at once.
 */
export function exportSupplierUrl(
  assetId: string,
  format: 'geojson' | 'dxf' | 'shp',
  shareToken?: string,
): Promise<FileSupply> {
  const id = encodeURIComponent(assetId);
  if (shareToken) {
    return api.get<FileSupply>(`/assets/${id}/export-from-shared-token`, { query: { format, token: shareToken } });
  }
  return api.get<FileSupply>(`/assets/${id}/export`, { query: { format } });
}

/**
 * Downloads a URL as a blob with progress (spec §7) and hands it to the
 * browser under `fileName`.
 */
export async function downloadWithProgress(
  supply: FileSupply,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  let res: Response;
  try {
    res = await fetch(supply.url, { signal, credentials: 'same-origin' });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, NETWORK_ERROR, (err as Error).message);
  }
  if (!res.ok) {
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = undefined;
    }
    throw errorFromResponse(res.status, body);
  }
  const total = Number(res.headers.get('content-length')) || supply.totalSize || 0;
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = res.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      onProgress(loaded, total);
    }
  } else {
    const buf = new Uint8Array(await res.arrayBuffer());
    chunks.push(buf);
    onProgress(buf.byteLength, total);
  }
  const blob = new Blob(chunks as BlobPart[], { type: res.headers.get('content-type') ?? 'application/octet-stream' });
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = supply.fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 30_000);
}
