import { classifiedCloudProduct } from './classified-cloud.product.js';
import { contoursProduct, majorContoursProduct, minorContoursProduct } from './contours.product.js';
import { dtmProduct } from './dtm.product.js';
import { gridProduct } from './grid.product.js';
import { hillshadeProduct } from './hillshade.product.js';
import { imageryDtmProduct } from './imagery-dtm.product.js';
import type { ProcessingProduct } from './product.js';
import { slopeProduct } from './slope.product.js';

/**
 * Every processing product, registered once: the processing job runs them in
 * this order (after the products each one needs) and makes each an asset.
 * Adding a product is one module in this folder and one line here.
 */
export const PROCESSING_PRODUCTS: readonly ProcessingProduct[] = [
  classifiedCloudProduct,
  dtmProduct,
  hillshadeProduct,
  slopeProduct,
  imageryDtmProduct,
  contoursProduct,
  majorContoursProduct,
  minorContoursProduct,
  gridProduct,
];
