import type { Asset, LayerType, Project } from '../projects/projects.types.js';

/**
 * What the download dialog offers (spec §1, §2, §7): every READY vector asset
 * as GeoJSON (EPSG:4326), DXF and Shapefile (project CRS), exported by
 * `GET /assets/{id}/export`; every other READY asset as its stored files
 * (rasters as GeoTIFF, reports as PDF, CSV, JSON or DXF, point clouds as
 * LAS/LAZ) through file-supplier-url. The classified point cloud needs a
 * premium subscription.
 */

/** Export formats of the API (`format=`), in the order the dialog shows them. */
export const EXPORT_FORMATS = ['geojson', 'dxf', 'shp'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Names shown for export formats and file extensions. */
export const FORMAT_LABELS: Readonly<Record<string, string>> = {
  geojson: 'GeoJSON',
  dxf: 'DXF',
  shp: 'Shapefile',
  tif: 'GeoTIFF',
  tiff: 'GeoTIFF',
  pdf: 'PDF',
  csv: 'CSV',
  json: 'JSON',
  las: 'LAS',
  laz: 'LAZ',
};

/** Asset types whose download needs a premium subscription (spec §1). */
export const PREMIUM_ASSET_TYPES: ReadonlySet<string> = new Set(['CLASSIFIED_POINT_CLOUD']);

/** One download button. */
export interface DownloadAction {
  /** Unique in the dialog: `<asset id>:<format or extension>`. */
  id: string;
  /** Format name shown on the button. */
  label: string;
  source: { kind: 'export'; format: ExportFormat } | { kind: 'file'; extension: string };
  /** Bytes of a stored file; null for exports (made on demand, sized by the API's answer). */
  size: number | null;
  premium: boolean;
}

/** One row of the dialog: an asset and its download buttons. */
export interface DownloadItem {
  asset: Asset;
  layerType: LayerType;
  actions: DownloadAction[];
}

const normalise = (ext: string) => ext.replace(/^\./, '').toLowerCase();

/** Files that are part of another download, or caches of the export route (`exp…`). */
function hiddenFile(ext: string): boolean {
  return ext === 'shx' || ext === 'dbf' || ext === 'prj' || ext === 'cpg' || /^exp/.test(ext);
}

/** The rows of the download dialog for a project, in the project's layer and asset order. */
export function downloadItems(project: Pick<Project, 'layers'>): DownloadItem[] {
  const out: DownloadItem[] = [];
  for (const layer of project.layers ?? []) {
    for (const asset of layer.assets) {
      if (asset.status !== 'READY') continue;
      const files = new Map(asset.files.map((f) => [normalise(f.extension), f]));
      const premium = PREMIUM_ASSET_TYPES.has(asset.type);
      const actions: DownloadAction[] = [];
      if (asset.display === 'vector') {
        if (!files.has('geojson')) continue;
        for (const format of EXPORT_FORMATS) {
          actions.push({
            id: `${asset.id}:${format}`,
            label: FORMAT_LABELS[format]!,
            source: { kind: 'export', format },
            // Made on demand: its size is known once the API answers (totalSize).
            size: null,
            premium,
          });
        }
      } else {
        for (const [ext, file] of files) {
          if (hiddenFile(ext)) continue;
          actions.push({
            id: `${asset.id}:${ext}`,
            label: FORMAT_LABELS[ext] ?? ext.toUpperCase(),
            source: { kind: 'file', extension: ext },
            size: file.size,
            premium,
          });
        }
      }
      if (actions.length > 0) out.push({ asset, layerType: layer.type, actions });
    }
  }
  return out;
}

/** Whether a user may download premium data: premium or admin, and never through a share link. */
export function mayDownloadPremium(
  user: { premium?: boolean; roles?: readonly string[] } | null,
  shareToken: string | undefined,
): boolean {
  if (shareToken || !user) return false;
  return user.premium === true || (user.roles ?? []).includes('admin');
}
