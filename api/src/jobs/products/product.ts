import type { TilerOptions } from '@nuage/engine/tiler/tiler-options.js';
import type { GeoFeature } from '../../db/queries/features.queries.js';
import type { AssetType } from '../../db/types.js';
import type { Logger } from '../../log.js';
import type { ProcessingOptions } from '../../services/processing-options.js';

/** What a product gets to run: the input cloud, the options, earlier products' values and a folder. */
export interface ProductContext {
  /** Local path of the stored LAS/LAZ input. */
  inputPath: string;
  /** EPSG code set on the asset (overrides or supplies the file's CRS), null when the file's own applies. */
  epsg: number | null;
  options: ProcessingOptions;
  /** Empty folder for this product's files. */
  workDir: string;
  /** Scratch folder of the whole job. */
  tmpDir: string;
  signal: AbortSignal;
  /** Progress of this product in [0, 1]. */
  progress(fraction: number): void;
  log: Logger;
  /** Values returned by the products listed in `needs` (by product id). */
  inputs: ReadonlyMap<string, unknown>;
  /** The admin's tiler options (for products that make a 3D tileset). */
  tilerOptions: Partial<TilerOptions>;
  /** The uploaded file's name without its extension, to name downloads. */
  sourceName: string;
}

/** A file a product wrote, to be stored and offered for download. */
export interface ProductFile {
  /** Local path. */
  path: string;
  /** Extension without the dot (`tif`, `geojson`, `las`...): one file per extension and asset. */
  extension: string;
  /** Download name shown to users. */
  fileName: string;
}

/** What a product made. */
export interface ProductOutput {
  files: ProductFile[];
  /** Folder of tiles (3D Tiles with tileset.json, or XYZ `{z}/{x}/{y}.png`), stored under the asset's tile prefix. */
  tilesDir?: string;
  /** Features in EPSG:4326 for the PostGIS features table (OGC API Features). */
  features?: Iterable<GeoFeature>;
  /** Value later products read through `inputs` (a DTM raster, a classified cloud). */
  value?: unknown;
  /** Figures recorded in the processing job's result. */
  figures?: Record<string, unknown>;
}

/**
 * One processing product: registered once in `products/index.ts`, it becomes
 * an asset of its type with its own status. Products run in list order after
 * the products they need; a product whose need failed is marked ERROR.
 */
export interface ProcessingProduct {
  /** Stable id (`dtm`, `hillshade`...). */
  id: string;
  assetType: AssetType;
  /** Asset name shown in the layer tree. */
  name: string;
  /** Ids of products whose `value` this one reads. */
  needs: readonly string[];
  /** False when the options turn it off (it is then not run and its asset is left as it was). */
  enabled?(options: ProcessingOptions): boolean;
  run(ctx: ProductContext): Promise<ProductOutput>;
}
