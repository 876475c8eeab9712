import type { ProcessingProduct } from './product.js';

/**
 * Every processing product, registered once: the processing job runs them in
 * this order (after the products each one needs) and makes each an asset.
 * Adding a product is one module in this folder and one line here.
 */
export const PROCESSING_PRODUCTS: readonly ProcessingProduct[] = [];
