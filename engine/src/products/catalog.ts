/**
 * What every product is, without what it does: id, asset type, names, layer,
 * the products it needs and uses, its options, its weight and the format a
 * run can restore it from. Each product module spreads its entry
 * (`...productEntry('dtm')`) and adds `run`; `registry.ts` lists the modules
 * in this order. The `nuage` verbs and their help read this list alone, so a
 * command loads the code of the products it runs and nothing else (issue 24:
 * the fixed start-up of every command).
 */
import { InvalidInput } from '../core/errors.js';
import type { ArtifactFormat, ProductDefinition } from '../core/product.js';

/** A product's description: its definition less `run`, `restore` and `needFailed`, with the format it is restored from. */
export type ProductEntry = Pick<
  ProductDefinition,
  | 'id'
  | 'assetType'
  | 'title'
  | 'summary'
  | 'layer'
  | 'display'
  | 'needs'
  | 'uses'
  | 'options'
  | 'weight'
  | 'asset'
  | 'readsArtifacts'
  | 'mainThread'
> & {
  /** Format of the file a run can restore the product from (`ProductDefinition.restore.format`). */
  restoreFormat?: ArtifactFormat;
};

/** Every product, in the asset sort order of spec §3. */
export const PRODUCT_CATALOG: readonly ProductEntry[] = [
  {
    id: 'classify',
    assetType: 'CLASSIFIED_POINT_CLOUD',
    title: 'Classified point cloud',
    summary: 'classified LAS 1.4 (noise, ground, vegetation, buildings) and its 3D Tiles',
    layer: 'POINT_CLOUD',
    display: 'pointCloud',
    needs: [],
    options: ['vendorWireClasses'],
    weight: 33,
    restoreFormat: 'LAS',
    mainThread: true,
  },
  {
    id: 'power-lines',
    assetType: 'POWER_LINE',
    title: 'Power lines',
    summary:
      'power lines (GeoJSON, EPSG:4326 with Z): conductors per span as catenaries (spanId, conductorId, length, sag, minHeightAboveGround, fitRmse) and towers',
    layer: 'VECTOR',
    display: 'vector',
    needs: ['classify', 'dtm'],
    options: [],
    weight: 1,
  },
  {
    id: 'power-line-buffers',
    assetType: 'POWER_LINE_BUFFERS',
    title: 'Power-line buffer zones',
    summary:
      'buffer zones around the conductors (GeoJSON, EPSG:4326): zone, radiusM, pointCount (vegetation within that 3D distance); --power-line-buffers-cm',
    layer: 'VECTOR',
    display: 'vector',
    needs: ['classify', 'dtm', 'power-lines'],
    options: ['powerLineBuffersCm'],
    weight: 1.3,
  },
  {
    id: 'vegetation-risk',
    assetType: 'VEGETATION_RISK',
    title: 'Vegetation risk',
    summary:
      'vegetation near the conductors and above the clearance height, clustered (GeoJSON, EPSG:4326): zone, severity, minDistance, maxHeight, pointCount; --clearance-height-cm',
    layer: 'VECTOR',
    display: 'vector',
    needs: ['classify', 'dtm', 'power-lines'],
    options: ['powerLineBuffersCm', 'clearanceHeightCm'],
    weight: 0.8,
  },
  {
    id: 'tree-fall-risk',
    assetType: 'TREE_FALL_RISK',
    title: 'Tree-fall risk',
    summary:
      'trees that could fall on a conductor (GeoJSON, EPSG:4326): treeId, height, distance, margin, reachesConductor; --tree-fall-height-buffer-cm',
    layer: 'VECTOR',
    display: 'vector',
    needs: ['power-lines', 'tree-tops'],
    options: ['treeFallHeightBufferCm'],
    weight: 0.2,
  },
  {
    id: 'grid',
    assetType: 'GRID',
    title: 'Point grid',
    summary: 'point grid (GeoJSON, EPSG:4326): ground elevation every --grid-resolution-cm',
    layer: 'VECTOR',
    display: 'vector',
    needs: ['dtm'],
    options: ['gridResolutionCm'],
    weight: 0.3,
  },
  {
    id: 'contours',
    assetType: 'CONTOUR_LINE',
    title: 'Contour lines',
    summary: 'contour lines (GeoJSON, EPSG:4326) every --contour-minor-cm, majors every --contour-major-cm',
    layer: 'VECTOR',
    display: 'vector',
    needs: ['dtm'],
    options: ['contourMinorCm', 'contourMajorCm'],
    weight: 9,
  },
  {
    id: 'contours-major',
    assetType: 'CONTOUR_LINE_MAJOR',
    title: 'Major contour lines',
    summary: 'major contour lines only (GeoJSON, EPSG:4326)',
    layer: 'VECTOR',
    display: 'vector',
    needs: ['contours'],
    options: ['contourMinorCm', 'contourMajorCm'],
    weight: 0.2,
  },
  {
    id: 'contours-minor',
    assetType: 'CONTOUR_LINE_MINOR',
    title: 'Minor contour lines',
    summary: 'minor contour lines only (GeoJSON, EPSG:4326)',
    layer: 'VECTOR',
    display: 'vector',
    needs: ['contours'],
    options: ['contourMinorCm', 'contourMajorCm'],
    weight: 0.5,
  },
  {
    id: 'buildings',
    assetType: 'BUILDINGS',
    title: 'Buildings',
    summary: 'building footprints (GeoJSON, EPSG:4326) with heights; --building-simplification RURAL or URBAN',
    layer: 'VECTOR',
    display: 'vector',
    needs: ['classify', 'dtm'],
    options: ['buildingSimplification'],
    weight: 0.3,
  },
  {
    id: 'tree-crowns',
    assetType: 'TREE_CROWNS',
    title: 'Tree crowns',
    summary: 'tree crowns (GeoJSON, EPSG:4326): treeId, height (m), crownArea (m²); --crown-shape NARROW|WIDE',
    layer: 'VECTOR',
    display: 'vector',
    needs: ['tree-tops'],
    options: ['crownShape'],
    weight: 5,
  },
  {
    id: 'tree-tops',
    assetType: 'TREE_TOPS',
    title: 'Tree tops',
    summary: 'tree tops (GeoJSON, EPSG:4326): treeId, height (m), x, y, z; trees from 2 m',
    layer: 'VECTOR',
    display: 'vector',
    needs: ['chm'],
    options: [],
    weight: 1.7,
  },
  {
    id: 'dtm',
    assetType: 'DTM',
    title: 'Digital terrain model',
    summary: 'DTM GeoTIFF (float32, nodata -9999): ground points → TIN at --dtm-resolution-cm',
    layer: 'RASTER',
    display: 'download',
    needs: ['classify'],
    options: ['dtmResolutionCm'],
    weight: 4.5,
    restoreFormat: 'GTiff',
  },
  {
    id: 'dsm',
    assetType: 'DSM',
    title: 'Digital surface model',
    summary: 'DSM GeoTIFF (float32, nodata -9999): highest first return per DTM cell, and XYZ tiles',
    layer: 'RASTER',
    display: 'raster',
    needs: ['classify', 'dtm'],
    options: ['dtmResolutionCm'],
    weight: 2,
  },
  {
    id: 'imagery-dtm',
    assetType: 'IMAGERY_DTM',
    title: 'Terrain model imagery',
    summary: 'the DTM coloured by elevation as XYZ PNG tiles',
    layer: 'RASTER',
    display: 'raster',
    needs: ['dtm'],
    options: [],
    weight: 0.3,
  },
  {
    id: 'hillshade',
    assetType: 'HILLSHADE_DTM',
    title: 'Shaded terrain',
    summary: 'hillshade GeoTIFF (Horn, azimuth 315, altitude 45, like gdaldem) and XYZ tiles',
    layer: 'RASTER',
    display: 'raster',
    needs: ['dtm'],
    options: [],
    weight: 1,
  },
  {
    id: 'topographic-map',
    assetType: 'TOPOGRAPHIC_MAP',
    title: 'Topographic map',
    summary:
      'topographic plan as a 3D DXF: contours, spot heights, buildings, trees, power lines, frame and title block',
    layer: 'VECTOR',
    display: 'download',
    needs: ['dtm', 'contours'],
    uses: ['buildings', 'tree-crowns', 'power-lines'],
    options: ['contourMinorCm', 'contourMajorCm'],
    weight: 3,
  },
  {
    id: 'slope',
    assetType: 'SLOPE_MAP',
    title: 'Slope map',
    summary: 'slope GeoTIFF in degrees (Horn, like gdaldem) and XYZ tiles',
    layer: 'RASTER',
    display: 'raster',
    needs: ['dtm'],
    options: [],
    weight: 2,
  },
  {
    id: 'chm',
    assetType: 'CHM',
    title: 'Canopy height model',
    summary: 'pit-free canopy height model GeoTIFF (m above the DTM, about 3 points per cell) and XYZ tiles',
    layer: 'RASTER',
    display: 'raster',
    needs: ['classify', 'dtm'],
    options: ['chmResolutionCm'],
    weight: 5.5,
  },
  {
    id: 'forest-inventory',
    assetType: 'FOREST_INVENTORY',
    title: 'Forest inventory',
    summary: 'forest inventory CSV: tree_id, x, y (project CRS), height_m, crown_area_m2',
    layer: 'REPORT',
    display: 'download',
    needs: ['tree-crowns'],
    options: ['crownShape'],
    weight: 0.4,
  },
  {
    id: 'quality',
    assetType: 'QUALITY_REPORT',
    title: 'Classification quality report',
    summary: 'classification against the input’s own classes: ground kappa, DTM RMSE, points per class (JSON)',
    layer: 'REPORT',
    display: 'download',
    needs: ['classify', 'dtm'],
    options: ['dtmResolutionCm'],
    weight: 3.6,
  },
  {
    id: 'report',
    assetType: 'PDF_REPORT',
    title: 'PDF report',
    summary: 'the project report: summary, map, charts, quality, trees, buildings, products (A4 PDF, --lang en-US|fr)',
    layer: 'REPORT',
    display: 'download',
    readsArtifacts: true,
    needs: ['classify', 'dtm'],
    uses: [
      'contours',
      'tree-crowns',
      'buildings',
      'quality',
      'power-lines',
      'vegetation-risk',
      'tree-fall-risk',
      'power-line-buffers',
      'topographic-map',
      'slope',
      'hillshade',
      'imagery-dtm',
      'grid',
      'dsm',
      'chm',
      'forest-inventory',
    ],
    options: [],
    weight: 2.2,
  },
];

/** The entry of product `id`, less `restoreFormat`, to spread into its definition. */
export function productEntry(id: string): Omit<ProductEntry, 'restoreFormat'> {
  const entry = PRODUCT_CATALOG.find((p) => p.id === id);
  if (!entry) throw new Error(`product ${id} is not in the catalog`);
  const { restoreFormat: _, ...definition } = entry;
  return definition;
}

/** What the closure of a selection reads of a product. */
type Linked = Pick<ProductEntry, 'id' | 'needs' | 'uses'>;

/**
 * The products to consider for a selection: the selected ids and everything
 * they need, in an order where each comes after its needs (catalog order
 * otherwise). Unknown ids and cycles are refused.
 */
export function productClosure<P extends Linked>(selected: readonly string[] | undefined, registry: readonly P[]): P[] {
  const byId = new Map(registry.map((p) => [p.id, p]));
  for (const id of selected ?? []) {
    if (!byId.has(id)) {
      throw new InvalidInput('products', `unknown product "${id}" (known: ${registry.map((p) => p.id).join(', ')})`);
    }
  }
  const roots = selected ? registry.filter((p) => selected.includes(p.id)) : registry;
  const members = new Set<string>();
  const collect = (p: P, path: string[]) => {
    if (path.includes(p.id)) throw new Error(`product ${p.id} needs itself (cycle)`);
    if (members.has(p.id)) return;
    members.add(p.id);
    for (const need of p.needs) {
      const dep = byId.get(need);
      if (!dep) throw new Error(`product ${p.id} needs unknown product ${need}`);
      collect(dep, [...path, p.id]);
    }
  };
  for (const p of roots) collect(p, []);
  // Order: needs first, and products it `uses` first when the run makes them too.
  const out: P[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: P) => {
    const s = state.get(p.id);
    if (s === 'done') return;
    if (s === 'visiting') throw new Error(`product ${p.id} needs itself (cycle)`);
    state.set(p.id, 'visiting');
    for (const id of [...p.needs, ...(p.uses ?? [])]) {
      const dep = byId.get(id);
      if (dep && members.has(id)) visit(dep);
    }
    state.set(p.id, 'done');
    out.push(p);
  };
  for (const p of registry) if (members.has(p.id)) visit(p);
  return out;
}
