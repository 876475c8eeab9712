import type { LayerDescription, VectorStyle } from '../../viewer/scene.types.js';
import type { Asset, AssetType, Layer, Project } from '../projects/projects.types.js';

/**
 * Why a project cannot be shown (spec §8 Viewer errors); `code` is a key of
 * the viewer namespace (`viewer:problems.<code>`).
 */
export type ViewerProblem =
  | { code: 'PROJECT_NOT_READY'; status: string }
  | { code: 'NO_LAS_LAYER' }
  | { code: 'NO_WORKING_ASSET' }
  | { code: 'ASSET_INVALID_ID' }
  | { code: 'ASSET_INVALID_ACCESS_URL' }
  | { code: 'STORAGE_NOT_SUPPORTED' }
  | { code: 'UNKNOWN_STORAGE_MODE' }
  | { code: 'LAS_NOT_SUPPORTED' }
  | { code: 'TILING_TYPE_UNDEFINED' };

/** True for an asset the viewer draws as a point cloud (3D Tiles), as the product registry says (`display`). */
export function isPointCloud(asset: Pick<Asset, 'display'>): boolean {
  return asset.display === 'pointCloud';
}

/** Tiling types the viewer can read. */
const TILING_TYPES = new Set(['GOCESIUM_TILER', 'PY3DTILES']);

/**
 * Assets shown in the layer tree (spec §4): READY or TILING, and failed
 * products (ERROR), listed with their reason so a missing layer is explained.
 */
export function isListed(asset: Asset): boolean {
  return asset.status === 'READY' || asset.status === 'TILING' || asset.status === 'ERROR';
}

/**
 * Why an asset failed, for the layer tree: the translation key of its error
 * code (`errors:<code>`) and the server's message to fall back on; null for
 * an asset that did not fail.
 */
export function failureOf(asset: Pick<Asset, 'status' | 'errorCode' | 'errorMessage'>): {
  key: string | null;
  message: string | null;
} | null {
  if (asset.status !== 'ERROR') return null;
  return { key: asset.errorCode ? `errors:${asset.errorCode}` : null, message: asset.errorMessage || null };
}

/** Only READY assets can be ticked and loaded (spec §4). */
export function isTickable(asset: Asset): boolean {
  return asset.status === 'READY';
}

/**
 * True when the viewer can draw the asset, by its `display` (product
 * registry): point clouds and rasters once they have tiles (an access URL),
 * vectors (served as OGC API Features); `download` assets (and a display this
 * build does not know) are for download only.
 */
export function isDrawable(asset: Pick<Asset, 'display' | 'accessUrl'>): boolean {
  switch (asset.display) {
    case 'pointCloud':
    case 'raster':
      return asset.accessUrl !== null && asset.accessUrl !== '';
    case 'vector':
      return true;
    default:
      return false;
  }
}

/**
 * URL of a vector asset's features in EPSG:4326 (OGC API Features items, all
 * pages followed by the viewer); a share token opens a shared project's.
 */
export function vectorItemsUrl(apiBase: string, assetId: string, shareToken?: string): string {
  const q = new URLSearchParams({ limit: '10000' });
  if (shareToken) q.set('token', shareToken);
  return `${ogcCollectionUrl(apiBase, assetId)}/items?${q}`;
}

/** URL of a vector asset's tileset (OGC API Tiles, TileJSON of its MVT tiles); a share token opens a shared project's. */
export function vectorTilesUrl(apiBase: string, assetId: string, shareToken?: string): string {
  const q = shareToken ? `?${new URLSearchParams({ token: shareToken })}` : '';
  return `${ogcCollectionUrl(apiBase, assetId)}/tiles/WebMercatorQuad${q}`;
}

/** The OGC API collection of an asset, next to the API (`/api` → `/ogc`). */
function ogcCollectionUrl(apiBase: string, assetId: string): string {
  const base = apiBase.replace(/\/+$/, '').replace(/\/api$/, '/ogc');
  return `${base}/collections/${encodeURIComponent(assetId)}`;
}

/**
 * URL of the address of a vector asset's GeoJSON file (file-supplier-url,
 * answering `{ url }`); a share token opens a shared project's.
 */
export function vectorFileUrl(apiBase: string, assetId: string, shareToken?: string): string {
  const base = apiBase.replace(/\/+$/, '');
  const q = new URLSearchParams({ id: assetId, extension: 'geojson' });
  if (shareToken) q.set('token', shareToken);
  const route = shareToken ? 'file-supplier-url-from-shared-token' : 'file-supplier-url';
  return `${base}/assets/custom-tiler/${route}?${q}`;
}

/** The project's LAS layer (POINT_CLOUD type), if any. */
export function lasLayerOf(project: Project): Layer | undefined {
  return project.layers?.find((l) => l.type === 'POINT_CLOUD');
}

/**
 * Checks the project can be opened, in the order of spec §8: the project is
 * READY, has a LAS layer, that layer has a working asset, and the asset's
 * storage, tiling type and URL are usable. Null when the viewer can load it.
 */
export function viewerProblem(project: Project): ViewerProblem | null {
  if (project.status !== 'READY') return { code: 'PROJECT_NOT_READY', status: project.status };
  const layer = lasLayerOf(project);
  if (!layer) return { code: 'NO_LAS_LAYER' };
  const working = layer.assets.filter((a) => isPointCloud(a) && a.status === 'READY');
  if (working.length === 0) return { code: 'NO_WORKING_ASSET' };
  const asset = working[0]!;
  if (asset.storage === 'CESIUM_ION') {
    // Nuage tiles its own clouds; an ion asset would need an ion token and an id this deployment has not.
    return asset.id ? { code: 'STORAGE_NOT_SUPPORTED' } : { code: 'ASSET_INVALID_ID' };
  }
  if (asset.storage !== 'CUSTOM_TILING') return { code: 'UNKNOWN_STORAGE_MODE' };
  if (!asset.tilingType) return { code: 'TILING_TYPE_UNDEFINED' };
  if (!TILING_TYPES.has(asset.tilingType)) return { code: 'LAS_NOT_SUPPORTED' };
  if (!asset.accessUrl || !isHttpUrl(asset.accessUrl)) return { code: 'ASSET_INVALID_ACCESS_URL' };
  return null;
}

function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url, 'http://relative.invalid/');
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The assets ticked when a project opens: its first READY point cloud. */
export function defaultTicked(project: Project): Set<string> {
  const first = lasLayerOf(project)?.assets.find((a) => isPointCloud(a) && isTickable(a));
  return new Set(first ? [first.id] : []);
}

/**
 * How each vector type is drawn (the legend of vector layers): its kind, colour,
 * fill, label and where its elevation comes from. A `join` names the asset
 * type of the same project to read the elevation from, matched on `key`
 * (crowns sit at the z of their tree top). A type not listed is drawn as lines
 * in {@link DEFAULT_VECTOR_COLOR}.
 */
type VectorStyleRow = Omit<VectorStyle, 'elevation'> & {
  elevation?: { property: string; join?: { assetType: AssetType; key: string } };
  /** Read from the product's GeoJSON file (3D: every vertex keeps its height) instead of the 2D OGC items. */
  fromFile?: boolean;
};

/** Severities of vegetation-risk clusters (engine: zone 1 high, 2 medium, 3 low) and their colours. */
export const RISK_COLORS: Readonly<Record<string, string>> = { high: '#e5383b', medium: '#f48c06', low: '#ffd60a' };

/** Buffer zones around the conductors, nearest first: translucent violets, darker where they overlap. */
export const BUFFER_ZONE_COLORS: Readonly<Record<string, string>> = { '1': '#b388ff', '2': '#8c9eff', '3': '#80d8ff' };

/** Trees at fall risk: red when the fall reaches a conductor, orange when it is within the fall distance only. */
export const TREE_FALL_COLORS: Readonly<Record<string, string>> = { true: '#e5383b', false: '#f48c06' };

/** Power-line conductors and towers: a colour no other layer uses. */
export const POWER_LINE_COLOR = '#00e5ff';

export const VECTOR_STYLES: Readonly<Partial<Record<AssetType, VectorStyleRow>>> = {
  // Conductors at their own heights (the file's 3D catenaries, never draped); towers as poles of their height.
  POWER_LINE: { kind: 'lines', color: POWER_LINE_COLOR, lineWidth: 3, pole: { height: 'height' }, fromFile: true },
  POWER_LINE_BUFFERS: {
    kind: 'polygons',
    color: '#b388ff',
    fillOpacity: 0.12,
    colorBy: { property: 'zone', colors: BUFFER_ZONE_COLORS },
  },
  // Clusters as translucent volumes up to their highest return (metres above the ground), by severity.
  VEGETATION_RISK: {
    kind: 'blocks',
    color: RISK_COLORS.medium!,
    fillOpacity: 0.45,
    colorBy: { property: 'severity', colors: RISK_COLORS },
    extrusion: { base: 'none', height: ['maxHeight'] },
  },
  // Trees at their tops (the file's Z), by whether their fall reaches a conductor.
  TREE_FALL_RISK: {
    kind: 'points',
    color: RISK_COLORS.medium!,
    colorBy: { property: 'reachesConductor', colors: TREE_FALL_COLORS },
    fromFile: true,
  },
  GRID: { kind: 'lines', color: '#9aa5b1' },
  CONTOUR_LINE: { kind: 'lines', color: '#c98b4a' },
  CONTOUR_LINE_MAJOR: { kind: 'lines', color: '#8f5a2a' },
  CONTOUR_LINE_MINOR: { kind: 'lines', color: '#c98b4a' },
  // Blocks from the ground under the footprint (groundZ, file unit) up to the eaves (metres above it).
  BUILDINGS: {
    kind: 'blocks',
    color: '#e4572e',
    fillOpacity: 0.35,
    elevation: { property: 'groundZ' },
    extrusion: { base: 'groundZ', height: ['eaveHeight', 'ridgeHeight'] },
  },
  TREE_CROWNS: {
    kind: 'polygons',
    color: '#4cb848',
    fillOpacity: 0.2,
    elevation: { property: 'z', join: { assetType: 'TREE_TOPS', key: 'treeId' } },
  },
  // Spec §9: a tree top shows its height in metres to 2 decimals.
  TREE_TOPS: {
    kind: 'points',
    color: '#3ee07a',
    label: { property: 'height', decimals: 2, unit: 'm' },
    elevation: { property: 'z' },
  },
  TOPOGRAPHIC_MAP: { kind: 'lines', color: '#d9d9d9' },
};

/** Line colour of a vector type {@link VECTOR_STYLES} does not list. */
export const DEFAULT_VECTOR_COLOR = '#ffd166';

/** The line colour of a vector asset type. */
export function vectorColor(type: AssetType): string {
  return VECTOR_STYLES[type]?.color ?? DEFAULT_VECTOR_COLOR;
}

/**
 * The style of a vector asset in `project`: its row of {@link VECTOR_STYLES}
 * (lines in the default colour otherwise), a join resolved to the OGC items
 * URL of the READY asset of that type (dropped when there is none).
 */
export function vectorStyle(project: Project, type: AssetType, apiBase = '/api', shareToken?: string): VectorStyle {
  const row = VECTOR_STYLES[type];
  if (!row) return { kind: 'lines', color: DEFAULT_VECTOR_COLOR };
  const { elevation, fromFile: _fromFile, ...rest } = row;
  if (!elevation) return { ...rest };
  const join = elevation.join;
  if (!join) return { ...rest, elevation: { property: elevation.property } };
  const source = (project.layers ?? [])
    .flatMap((l) => l.assets)
    .find((a) => a.type === join.assetType && a.status === 'READY' && a.display === 'vector');
  return {
    ...rest,
    elevation: source
      ? { property: elevation.property, join: { url: vectorItemsUrl(apiBase, source.id, shareToken), key: join.key } }
      : { property: elevation.property },
  };
}

/**
 * The layer descriptions handed to the viewer: every READY asset it can
 * draw, by its `display` (product registry), in layer order, visible when
 * ticked; `download` assets are not drawn. Rasters and vectors are only
 * described once ticked (the viewer fetches their tiles and features then).
 */
export function sceneLayers(
  project: Project,
  ticked: ReadonlySet<string>,
  apiBase = '/api',
  shareToken?: string,
): LayerDescription[] {
  const out: LayerDescription[] = [];
  for (const layer of project.layers ?? []) {
    for (const asset of layer.assets) {
      if (!isTickable(asset)) continue;
      const visible = ticked.has(asset.id);
      switch (asset.display) {
        case 'pointCloud':
          if (asset.accessUrl && asset.storage === 'CUSTOM_TILING') {
            out.push({
              kind: 'pointCloud',
              id: asset.id,
              name: asset.name,
              tilesetUrl: asset.accessUrl,
              visible,
              // A classification edit rewrites the tiles and touches the asset: the viewer loads it again.
              version: asset.updatedAt,
            });
          }
          break;
        case 'raster':
          if (asset.accessUrl && visible) {
            out.push({
              kind: 'raster',
              id: asset.id,
              name: asset.name,
              url: asset.accessUrl,
              visible,
              opacity: 0.85,
              version: asset.updatedAt,
            });
          }
          break;
        case 'vector':
          if (visible) {
            out.push({
              kind: 'vector',
              id: asset.id,
              name: asset.name,
              url: vectorItemsUrl(apiBase, asset.id, shareToken),
              tilesUrl: vectorTilesUrl(apiBase, asset.id, shareToken),
              ...(VECTOR_STYLES[asset.type]?.fromFile && asset.files.some((f) => /^\.?geojson$/i.test(f.extension))
                ? { fileUrl: vectorFileUrl(apiBase, asset.id, shareToken) }
                : {}),
              visible,
              style: vectorStyle(project, asset.type, apiBase, shareToken),
              version: asset.updatedAt,
            });
          }
          break;
        default:
          // 'download' (and a display this build does not know): not drawn.
          break;
      }
    }
  }
  return out;
}

/** File formats the download dialog offers for vector assets (spec §1). */
export const VECTOR_EXPORTS = [
  { format: 'GeoJSON', extensions: ['geojson'] },
  { format: 'DXF', extensions: ['dxf'] },
  { format: 'Shapefile', extensions: ['shp'] },
] as const;

/** One line of the download dialog. */
export interface DownloadChoice {
  asset: Asset;
  /** File extension to ask file-supplier-url for. */
  extension: string;
  /** Format shown to the user. */
  format: string;
  size: number | null;
  /** Needs a premium subscription (classified point cloud, spec §1). */
  premium: boolean;
}

function normaliseExtension(ext: string): string {
  return ext.replace(/^\./, '').toLowerCase();
}

/**
 * What a project offers for download: every READY asset's files, vectors
 * (`display` vector) as GeoJSON, DXF and Shapefile when those files exist,
 * the others (rasters, reports, point clouds) as they are. Classified point
 * clouds are marked premium.
 */
export function downloadChoices(project: Project): DownloadChoice[] {
  const out: DownloadChoice[] = [];
  for (const layer of project.layers ?? []) {
    for (const asset of layer.assets) {
      if (asset.status !== 'READY') continue;
      const files = new Map(asset.files.map((f) => [normaliseExtension(f.extension), f]));
      if (asset.display === 'vector') {
        for (const e of VECTOR_EXPORTS) {
          const file = e.extensions.map((x) => files.get(x)).find((f) => f !== undefined);
          if (file) {
            out.push({
              asset,
              extension: normaliseExtension(file.extension),
              format: e.format,
              size: file.size,
              premium: false,
            });
          }
        }
        continue;
      }
      for (const [ext, file] of files) {
        if (ext === 'shx' || ext === 'dbf' || ext === 'prj') continue;
        out.push({
          asset,
          extension: ext,
          format: ext.toUpperCase(),
          size: file.size,
          premium: asset.type === 'CLASSIFIED_POINT_CLOUD',
        });
      }
    }
  }
  return out;
}
