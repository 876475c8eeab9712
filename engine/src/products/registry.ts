/**
 * Every product, listed once, in the asset sort order of spec §3. The `nuage`
 * verbs, `nuage process`, the processing job, the API's option schema and
 * asset types, the layer order and the viewer's layer kinds derive from it.
 * Adding a product is one module and one line here (see ARCHITECTURE.md).
 */
import type { LayerType, ProductDefinition } from '../core/product.js';
import { LAYER_TYPES } from '../core/product.js';
import { buildingsProduct } from './buildings.product.js';
import { chmProduct } from './chm.product.js';
import { classifiedCloudProduct } from './classified-cloud.product.js';
import { contoursProduct, majorContoursProduct, minorContoursProduct } from './contours.product.js';
import { dsmProduct } from './dsm.product.js';
import { dtmProduct } from './dtm.product.js';
import { forestInventoryProduct } from './forest-inventory.product.js';
import { gridProduct } from './grid.product.js';
import { hillshadeProduct } from './hillshade.product.js';
import { imageryDtmProduct } from './imagery-dtm.product.js';
import { pdfReportProduct } from './pdf-report.product.js';
import { powerLineBuffersProduct } from './power-line-buffers.product.js';
import { powerLinesProduct } from './power-lines.product.js';
import { qualityProduct } from './quality.product.js';
import { slopeProduct } from './slope.product.js';
import { topographicMapProduct } from './topographic-map.product.js';
import { treeCrownsProduct } from './tree-crowns.product.js';
import { treeFallRiskProduct } from './tree-fall-risk.product.js';
import { treeTopsProduct } from './tree-tops.product.js';
import { vegetationRiskProduct } from './vegetation-risk.product.js';

export const PRODUCTS: readonly ProductDefinition<unknown>[] = [
  classifiedCloudProduct,
  powerLinesProduct,
  powerLineBuffersProduct,
  vegetationRiskProduct,
  treeFallRiskProduct,
  gridProduct,
  contoursProduct,
  majorContoursProduct,
  minorContoursProduct,
  buildingsProduct,
  treeCrownsProduct,
  treeTopsProduct,
  dtmProduct,
  dsmProduct,
  imageryDtmProduct,
  hillshadeProduct,
  topographicMapProduct,
  slopeProduct,
  chmProduct,
  forestInventoryProduct,
  qualityProduct,
  pdfReportProduct,
] as readonly ProductDefinition<unknown>[];

/** The uploaded cloud's asset type: the one asset no product makes. */
export const SOURCE_ASSET_TYPE = 'POINT_CLOUD';

/** Every asset type, in the asset sort order of spec §3. */
export const ASSET_TYPES: readonly string[] = [SOURCE_ASSET_TYPE, ...PRODUCTS.map((p) => p.assetType)];

/** Layer of every asset type. */
export const LAYER_OF_ASSET: Readonly<Record<string, LayerType>> = Object.fromEntries([
  [SOURCE_ASSET_TYPE, 'POINT_CLOUD'],
  ...PRODUCTS.map((p) => [p.assetType, p.layer]),
]);

/** How the viewer shows every asset type. */
export const DISPLAY_OF_ASSET: Readonly<Record<string, ProductDefinition['display']>> = Object.fromEntries([
  [SOURCE_ASSET_TYPE, 'pointCloud'],
  ...PRODUCTS.map((p) => [p.assetType, p.display]),
]);

/** Layer types in the layer order of spec §3. */
export const LAYER_ORDER: readonly LayerType[] = LAYER_TYPES;

/** Product ids. */
export const PRODUCT_IDS: readonly string[] = PRODUCTS.map((p) => p.id);

/** A product by id, or undefined. */
export function productById(id: string): ProductDefinition | undefined {
  return PRODUCTS.find((p) => p.id === id);
}

/** A product by asset type, or undefined. */
export function productOfAsset(assetType: string): ProductDefinition | undefined {
  return PRODUCTS.find((p) => p.assetType === assetType);
}
