/**
 * What features hand to the viewer: plain descriptions of layers and display
 * settings. Features never import Cesium or deck.gl (STYLE.md habit 9); the
 * viewer modules (globe3d: Cesium, map2d: deck.gl + MapLibre) turn these into
 * scene objects and are loaded only when a viewer opens.
 */

import type { EditScene, ScreenPixel, ScreenRegion } from './edit/edit.types.js';
import type { MeasureScene, PickedPosition } from './measure/measure.types.js';

/** Point visualisation modes (spec §2, §4). */
export const POINT_MODES = ['RGB', 'CLASS', 'INTENSITY', 'ELEVATION'] as const;
export type PointMode = (typeof POINT_MODES)[number];

/** World imagery under the cloud (spec §4): only `none` works without internet. */
export const WORLD_IMAGERIES = ['none', 'cesium', 'ign', 'bing'] as const;
export type WorldImagery = (typeof WORLD_IMAGERIES)[number];

/**
 * What the world imagery needs from the deployment (admin settings, else
 * `window.NUAGE_CONFIG`): keys of the services that ask for one, and the
 * globe's opacity (spec §9: a percentage, here 0..1).
 */
export interface ImageryOptions {
  cesiumIonToken?: string | undefined;
  bingMapsKey?: string | undefined;
  /** 0..1; default 1. */
  globeOpacity?: number | undefined;
}

/**
 * Where the camera looks: the ground point at the centre of the view and the
 * camera's distance above it (metres). Kept by the page when the user
 * switches between 3D and 2D, so the new viewer opens on the same place.
 */
export interface SceneCamera {
  lon: number;
  lat: number;
  distance: number;
}

/** Why a world imagery shows nothing: no key configured, the service unreachable, or not offered in this mode. */
export type ImageryProblem = 'missingKey' | 'unreachable' | 'unsupported';

/**
 * Eye-dome lighting of the point clouds (as Potree and CloudCompare do): each
 * point darkened by how much its neighbours on screen stand in front of it,
 * within `radius` pixels, by `strength`; shapes read without colour.
 */
export interface PointShading {
  eyeDomeLighting: boolean;
  /** 0.1..5 */
  strength: number;
  /** Pixels, 0.5..4 */
  radius: number;
}

/** Scene modes (spec §4). */
export const SCENE_MODES = ['3d', '2d'] as const;
export type SceneMode = (typeof SCENE_MODES)[number];

/** A 3D Tiles point cloud (tileset.json under a signed URL). */
export interface PointCloudLayerDescription {
  kind: 'pointCloud';
  /** Stable id (the asset id): the viewer keeps a layer loaded while its id stays. */
  id: string;
  name: string;
  tilesetUrl: string;
  visible: boolean;
  /** Changes when the asset's files were rewritten (its `updatedAt`): the viewer loads it again. */
  version?: string | undefined;
}

/** A raster shown as image tiles or a single georeferenced image (DTM, hillshade, slope). */
export interface RasterLayerDescription {
  kind: 'raster';
  id: string;
  name: string;
  /** XYZ template (`…/{z}/{x}/{y}.png`). */
  url: string;
  visible: boolean;
  /** 0..1 */
  opacity?: number;
  /** Changes when the asset's tiles were rewritten (its `updatedAt`): the viewer loads them again. */
  version?: string | undefined;
}

/** A label drawn beside each point of a layer: a numeric property, its decimals and unit ("23.45 m"). */
export interface VectorLabelStyle {
  property: string;
  decimals: number;
  unit: string;
}

/**
 * Where a feature's elevation comes from (OGC features are 2D): a property in
 * the file's vertical unit, else the geometry's z; `join` looks the property
 * up in another collection by a shared key (crowns take the z of their top).
 */
export interface VectorElevationSource {
  property: string;
  join?: { url: string; key: string };
}

/**
 * How a vector layer is drawn, in both viewers:
 * - `lines`: every geometry as lines and dots in one colour (contours, grid, power lines);
 * - `points`: dots, with a label of a property when `label` is set (tree tops);
 * - `polygons`: outlined polygons with a light fill (tree crowns);
 * - `blocks`: polygons extruded in 3D from `extrusion.base` (elevation, file unit) by the
 *   first finite `extrusion.height` (metres), translucent; outlined polygons in 2D (buildings).
 */
export interface VectorStyle {
  kind: 'lines' | 'points' | 'polygons' | 'blocks';
  /** CSS colour of lines, outlines and dots. */
  color: string;
  /**
   * Colour by a property's value (risk by severity, buffers by zone): `colors`
   * maps the value (as text) to a CSS colour; other values take `color`.
   */
  colorBy?: { property: string; colors: Readonly<Record<string, string>> };
  /**
   * Points drawn as poles (power-line towers): a vertical line from the
   * point's height down by this property (metres), then the dot on top.
   */
  pole?: { height: string };
  /** Line width in pixels (default 2). */
  lineWidth?: number;
  /** 0..1, fills of polygons and blocks. */
  fillOpacity?: number;
  label?: VectorLabelStyle;
  /** Default: the `elevation` property, else the geometry's z. */
  elevation?: VectorElevationSource;
  extrusion?: { base: string; height: readonly string[] };
}

/** A vector layer as GeoJSON in EPSG:4326 (contours, buildings, trees, power lines). */
export interface VectorLayerDescription {
  kind: 'vector';
  id: string;
  name: string;
  /** URL of a GeoJSON FeatureCollection. */
  url: string;
  /**
   * When set, the features come from the product's GeoJSON file instead: this
   * URL answers `{ url }`, the file's signed address (file-supplier-url). The
   * file keeps each vertex's height (conductors drawn at their own Z); the
   * OGC items of `url` are 2D.
   */
  fileUrl?: string;
  /**
   * URL of the layer's vector tileset (OGC API Tiles' TileJSON): the 2D map
   * draws lines and polygons from its tiles, so only what is in view loads.
   */
  tilesUrl?: string;
  visible: boolean;
  style: VectorStyle;
  /** Changes when the asset's features were rewritten (its `updatedAt`): the viewer loads them again. */
  version?: string | undefined;
}

export type LayerDescription = PointCloudLayerDescription | RasterLayerDescription | VectorLayerDescription;

/** Elevation range of the project (metres or the file's vertical unit), for the Elevation ramp and its legend. */
export interface ElevationRange {
  min: number;
  max: number;
}

/** Intensity stretch from the asset monitor (spec §3: intensityMin, intensityMax), in 8-bit units. */
export interface IntensityRange {
  min: number;
  max: number;
}

/** Everything a viewer shows; a new object is handed in whenever a setting changes. */
export interface SceneDescription {
  layers: LayerDescription[];
  pointMode: PointMode;
  /** Pixels (spec §9: default 2, from GET /globalParameters/cesiumParameters). */
  pointSize: number;
  imagery: WorldImagery;
  elevation?: ElevationRange | undefined;
  intensity?: IntensityRange | undefined;
  /** ASPRS class codes hidden in Class mode (1000 stands for every unlisted class). */
  hiddenClasses?: readonly number[];
  /** BCP 47 language of labels drawn in the scene (numbers: "23.45 m", "23,45 m"); default en-US. */
  locale?: string;
  /** Eye-dome lighting of the clouds; default off. */
  shading?: PointShading | undefined;
  /** Keys of the imagery services and the globe's opacity (admin settings). */
  imageryOptions?: ImageryOptions | undefined;
  /** Where a new viewer opens (read once, when it is created); default: over the whole cloud. */
  camera?: SceneCamera | undefined;
  /** The measurement tools' drawing; while `active`, clicks are `measurePick` events. */
  measure?: MeasureScene | undefined;
  /** The classification-edit overlay (3D): a drag draws a selection while its tool is armed. */
  edit?: EditScene | undefined;
}

/** A feature the user clicked: its layer (asset id) and its properties as the server sent them. */
export interface PickedFeature {
  layerId: string;
  properties: Record<string, unknown>;
}

/** What a viewer reports to the page (loading indicator, errors, facts of the loaded cloud). */
export type ViewerEvent =
  | { type: 'ready' }
  | { type: 'loading'; pendingTiles: number }
  | { type: 'tilesLoaded' }
  | { type: 'cloudInfo'; layerId: string; hasColor: boolean; pointCount: number | null; classCodes: number[] | null }
  | { type: 'error'; code: ViewerErrorCode; layerId?: string; message: string }
  /** A click in the scene: the feature under it, or null for none. */
  | { type: 'pick'; feature: PickedFeature | null }
  /** A click while a measure is active: the position under it, or null (the sky). */
  | { type: 'measurePick'; position: PickedPosition | null }
  /** The world imagery chosen could not be shown (said once per choice and viewer), with the reason. */
  | { type: 'imagery'; imagery: WorldImagery; problem: ImageryProblem; message: string }
  /** The camera stopped moving: where it looks now. */
  | { type: 'camera'; camera: SceneCamera }
  /** A classification-edit selection was drawn (3D): the region the server selects with, its outline on screen. */
  | { type: 'editRegion'; region: ScreenRegion; outline: ScreenPixel[] };

/** Error codes a viewer reports; the page translates them (viewer namespace). */
export type ViewerErrorCode =
  | 'WEBGL_UNAVAILABLE'
  | 'TILESET_LOAD_FAILED'
  | 'TILE_FAILED'
  | 'IMAGERY_FAILED'
  | 'VECTOR_LOAD_FAILED'
  /** A vector layer has more features than a viewer reads: the first are drawn (message: how many, formatted). */
  | 'VECTOR_TRUNCATED';

/** The handle a page holds on a running viewer. */
export interface ViewerHandle {
  /** Applies a new description (only what changed is redone). */
  update(scene: SceneDescription): void;
  /** Moves the camera back over every visible layer. */
  flyHome(): void;
  /** Releases WebGL, workers and listeners. */
  destroy(): void;
}

/** Creates a viewer in `container`; the modules of globe3d and map2d both export one. */
export type CreateViewer = (
  container: HTMLElement,
  scene: SceneDescription,
  onEvent: (event: ViewerEvent) => void,
) => Promise<ViewerHandle>;
