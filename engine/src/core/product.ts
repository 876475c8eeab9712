/**
 * The product contract. A product is one thing a processing run makes (a DTM,
 * contour lines, a report): it names its asset type, the products it needs,
 * the processing options it reads, what its outputs are, and `run(ctx)`, which
 * reads what it needs and writes its files into its own folder. Products are
 * listed once, in `products/registry.ts`; the CLI verbs, `nuage process`, the
 * processing job, the API's option schema and asset types, and the viewer's
 * layer kinds all derive from that list.
 */

import type { OptionName, ProcessingOptions } from '../products/options.js';
import type { TilerOptions } from '../tiler/tiler-options.js';
import type { PackedFeatures } from '../writers/ewkb.js';
import type { Feature } from '../writers/geojson.writer.js';

/** Layer types of spec §3, in layer order. */
export const LAYER_TYPES = ['POINT_CLOUD', 'RASTER', 'VECTOR', 'REPORT'] as const;
export type LayerType = (typeof LAYER_TYPES)[number];

/**
 * How the viewer shows an asset: a 3D Tiles point cloud, XYZ raster tiles,
 * vector features (OGC API Features), or a file to download.
 */
export type DisplayKind = 'pointCloud' | 'raster' | 'vector' | 'download';

/** File formats of artifacts (GDAL/OGR driver names where one exists). */
export type ArtifactFormat =
  | 'LAS'
  | 'GTiff'
  | 'GeoJSON'
  | '3DTiles'
  | 'XYZ'
  | 'CSV'
  | 'DXF'
  | 'ESRI Shapefile'
  | 'PDF'
  | 'JSON';

/** A file a product wrote. */
export interface ProductFile {
  /** Local path (inside the product's `workDir`). */
  path: string;
  format: ArtifactFormat;
  /** Extension without the dot (`tif`, `geojson`): one file per extension and asset. */
  extension: string;
  /** Horizontal CRS of the file (4326 for GeoJSON), null when unknown. */
  epsg: number | null;
  /** Points, features or pixels in the file. */
  count: number;
}

/** A folder of tiles a product wrote (3D Tiles with tileset.json, or XYZ `{z}/{x}/{y}.png`). */
export interface ProductTiles {
  dir: string;
  format: '3DTiles' | 'XYZ';
  epsg: number | null;
  /** Tiles written. */
  count: number;
}

/** What a product made. */
export interface ProductResult<V = unknown> {
  files: ProductFile[];
  tiles?: ProductTiles;
  /** Features in EPSG:4326 for the PostGIS features table (OGC API Features); called once. */
  features?: () => Iterable<Feature>;
  /**
   * The same features packed by the product's lane thread (EWKB and JSON
   * text), when it ran in one: what the features table stores, with no
   * GeoJSON objects on this thread. `features` then unpacks them.
   */
  packedFeatures?: PackedFeatures;
  /**
   * Packs the features of `features` directly, without GeoJSON objects (contour lines: millions of vertices);
   * the same pack as packing `features()`. Called once, instead of `features`, where the features are packed.
   */
  packFeatures?: () => PackedFeatures;
  /** Value the products that need this one read (a DTM raster, a classified cloud). */
  value?: V;
  /** Figures recorded in the processing job's result. */
  figures?: Record<string, unknown>;
}

/** What a product gets to run. */
export interface ProductContext {
  /**
   * The input point cloud (LAS, LAZ or COPC): its local path, the user's file name, the EPSG code given for it;
   * `orthophoto`: local path of the GeoTIFF the classified cloud takes its colours from.
   */
  input: {
    path: string;
    name: string;
    epsg?: number;
    orthophoto?: string;
    /** The classes of every point, one byte each in input order, made by a tiled run (engine/src/tiled): the classification product takes them instead of classifying. */
    classes?: string;
  };
  /** Validated processing options. */
  options: ProcessingOptions;
  /** The value of a product this one needs (it ran or was restored before). */
  need<T>(id: string): T;
  /** The value of a product this one may use (`uses`), or undefined when the run did not make it. */
  use<T>(id: string): T | undefined;
  /** Language of documents (reports): the user's. */
  language: 'en-US' | 'fr';
  /** What the products before this one wrote (manifest entries so far). */
  artifacts(): ReadonlyArray<{ type: string; path: string; format: ArtifactFormat; count: number; bytes: number }>;
  /** Empty folder for this product's files. */
  workDir: string;
  /** Scratch folder of the whole run. */
  tmpDir: string;
  /** Base of download names (the uploaded file's name without extension). */
  sourceName: string;
  /** The admin's tiler options (products that make a 3D tileset). */
  tilerOptions: Partial<TilerOptions>;
  signal?: AbortSignal;
  /** Progress of this product in [0, 1]. */
  progress(fraction: number): void;
  log(message: string, data?: Record<string, unknown>): void;
}

/** A file of an earlier run handed to {@link ProductDefinition.restore}. */
export interface StoredFile {
  path: string;
  extension: string;
}

/** One product. */
export interface ProductDefinition<V = unknown> {
  /** Stable kebab-case id; also its `nuage` verb. */
  id: string;
  /** Asset type of spec §3 (`DTM`, `HILLSHADE_DTM`, ...). */
  assetType: string;
  /** English name of the asset (the layer tree translates the asset type). */
  title: string;
  /** One line for `nuage --help`. */
  summary: string;
  layer: LayerType;
  display: DisplayKind;
  /** Ids of products whose value this one reads. */
  needs: readonly string[];
  /**
   * Products whose value this one reads when the run makes them (a report
   * shows the trees if there are trees): never made for it, and their failure
   * does not stop it; it runs after them.
   */
  uses?: readonly string[];
  /** Processing options this product reads (its CLI flags). */
  options: readonly OptionName[];
  /**
   * Relative cost, for progress bars and for the order lanes take ready
   * products in (1 = a raster from a DTM, about a second per 17 M points:
   * the seconds of each product on the 0.48 GB replica of the pipeline bench).
   */
  weight: number;
  /**
   * False for products only `nuage process` makes (not an asset of a project).
   * Default true.
   */
  asset?: boolean;
  /** Reads `ctx.artifacts()`: runs only after every product before it in the run's order. */
  readsArtifacts?: boolean;
  /**
   * Runs on the calling thread, never in a lane thread of `runProducts` (its
   * value is too big to hand back, or it drives worker pools of its own).
   */
  mainThread?: boolean;
  run(ctx: ProductContext): Promise<ProductResult<V>>;
  /** The error this product reports when a product it needs failed (default DEPENDENCY_FAILED naming the need). */
  needFailed?: { code: string; message: string };
  /**
   * Rebuilds the value from the files an earlier run wrote, so a resumed job
   * (or `nuage <verb>` given such a file) need not make it again.
   */
  restore?: {
    /** Format of the file `nuage <verb>` accepts in place of a point cloud. */
    format: ArtifactFormat;
    load(files: StoredFile[], ctx: { epsg?: number; signal?: AbortSignal }): Promise<V>;
  };
}

/** Declares a product (typed value). */
export function defineProduct<V>(product: ProductDefinition<V>): ProductDefinition<V> {
  return product;
}
