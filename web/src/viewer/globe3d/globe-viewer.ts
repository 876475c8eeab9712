import './cesium-base-url.js';
import {
  BingMapsImageryProvider,
  BoundingSphere,
  Cartesian2,
  Cartesian3,
  Cesium3DTileset,
  Math as CesiumMath,
  Color,
  CustomHeightmapTerrainProvider,
  CustomShader,
  Ellipsoid,
  GridImageryProvider,
  HeadingPitchRange,
  ImageryLayer,
  type ImageryProvider,
  Ion,
  IonImageryProvider,
  LightingModel,
  Rectangle,
  ScreenSpaceEventHandler,
  ScreenSpaceEventType,
  UniformType,
  UrlTemplateImageryProvider,
  Viewer,
  WebMapTileServiceImageryProvider,
} from 'cesium';
import 'cesium/Build/Cesium/Widgets/widgets.css';
import { createGlobeEdit } from '../edit/globe-edit.js';
import { createGlobeMeasure } from '../measure/globe-measure.js';
import {
  clampPointSize,
  type HeightFrame,
  maxPointSize,
  normaliseElevation,
  type PointShaderUniforms,
  pointShaderSource,
} from '../point-styles.js';
import type {
  CreateViewer,
  ImageryOptions,
  ImageryProblem,
  PickedFeature,
  PointCloudLayerDescription,
  RasterLayerDescription,
  SceneDescription,
  VectorLayerDescription,
  ViewerEvent,
  ViewerHandle,
  WorldImagery,
} from '../scene.types.js';
import {
  elevationToHeight,
  type FeatureCollection,
  fetchLayerFeatures,
  propertyLookup,
  truncationNotices,
} from '../vector-features.js';
import { VIEWER_CONSTANTS } from '../viewer-constants.js';
import { createDtmTerrainProvider, fetchTerrainInfo } from './dtm-terrain.js';
import { createFrameQueue } from './frame-queue.js';
import { buildGlobeVectorLayer, type GlobeVectorLayer, type LabelView, vectorPickOf } from './globe-vectors.js';
import { normaliseTileset, PY3DTILES_ERROR_PER_SPACING, type TilesetJsonLike } from './tileset-json.js';

/**
 * Keys of the imagery services: the admin settings handed in the scene, else
 * those a deployment injects (`window.NUAGE_CONFIG`); without them only
 * "none" and "ign" imagery load.
 */
function imageryConfig(options: ImageryOptions | undefined): ImageryOptions {
  const injected = (globalThis as { NUAGE_CONFIG?: ImageryOptions }).NUAGE_CONFIG ?? {};
  return {
    cesiumIonToken: options?.cesiumIonToken || injected.cesiumIonToken || undefined,
    bingMapsKey: options?.bingMapsKey || injected.bingMapsKey || undefined,
  };
}

/** An imagery choice that cannot be shown, with its reason. */
class ImageryUnavailable extends Error {
  constructor(
    readonly problem: ImageryProblem,
    message: string,
  ) {
    super(message);
  }
}

/** The globe of "none": a plain ground with a faint grid, drawn here (no network), so the scene keeps a ground reference. */
function plainGlobeImagery(): ImageryProvider {
  return new GridImageryProvider({
    cells: 4,
    color: Color.fromCssColorString('#7b8794').withAlpha(0.35),
    glowColor: Color.TRANSPARENT,
    glowWidth: 0,
    backgroundColor: Color.TRANSPARENT,
  });
}

/** What the tiler writes in tileset.json `extras` (engine/src/tiler/tiler.ts). */
interface TilesetExtras {
  pointCount?: number;
  classCounts?: Record<string, number>;
  hasColor?: boolean;
  bboxWgs84?: { west: number; south: number; east: number; north: number; minHeight: number; maxHeight: number };
}

interface LoadedCloud {
  description: PointCloudLayerDescription;
  tileset: Cesium3DTileset;
  hasColor: boolean;
  frame: HeightFrame;
  /** Footprint in degrees, when the tiler wrote it. */
  box: TilesetExtras['bboxWgs84'];
  removeListeners: () => void;
}

/**
 * The frame that turns ECEF positions into heights for the Elevation mode:
 * the footprint centre at the lowest height of the tiler's WGS84 box, else the
 * bounding sphere's centre ± its radius.
 */
function heightFrameOf(tileset: Cesium3DTileset, extras: TilesetExtras | undefined): HeightFrame {
  const box = extras?.bboxWgs84;
  const ellipsoid = Ellipsoid.WGS84;
  if (box && [box.west, box.south, box.east, box.north, box.minHeight, box.maxHeight].every(Number.isFinite)) {
    const origin = Cartesian3.fromDegrees((box.west + box.east) / 2, (box.south + box.north) / 2, box.minHeight);
    const up = ellipsoid.geodeticSurfaceNormal(origin, new Cartesian3());
    return {
      origin: [origin.x, origin.y, origin.z],
      up: [up.x, up.y, up.z],
      originHeight: box.minHeight,
      minHeight: box.minHeight,
      maxHeight: box.maxHeight,
    };
  }
  const sphere = tileset.boundingSphere;
  const carto = ellipsoid.cartesianToCartographic(sphere.center);
  const up = ellipsoid.geodeticSurfaceNormal(sphere.center, new Cartesian3());
  const h = carto?.height ?? 0;
  const c = sphere.center;
  return {
    origin: [c.x, c.y, c.z],
    up: [up.x, up.y, up.z],
    originHeight: h,
    minHeight: h - sphere.radius / 2,
    maxHeight: h + sphere.radius / 2,
  };
}

/** A terrain that is flat at `height` metres above the ellipsoid everywhere. */
function constantHeightTerrain(height: number): CustomHeightmapTerrainProvider {
  const size = 4;
  const samples = new Float32Array(size * size).fill(height);
  return new CustomHeightmapTerrainProvider({ width: size, height: size, callback: () => samples });
}

/** The uniforms of a point shader as Cesium declares them. */
function cesiumUniforms(u: PointShaderUniforms) {
  return {
    u_pointSize: { type: UniformType.FLOAT, value: u.u_pointSize },
    u_maxPointSize: { type: UniformType.FLOAT, value: u.u_maxPointSize },
    u_origin: { type: UniformType.VEC3, value: new Cartesian3(...u.u_origin) },
    u_up: { type: UniformType.VEC3, value: new Cartesian3(...u.u_up) },
    u_heights: { type: UniformType.VEC3, value: new Cartesian3(...u.u_heights) },
    u_intensity: { type: UniformType.VEC2, value: new Cartesian2(...u.u_intensity) },
  };
}

/**
 * Fetches tileset.json and hands Cesium a normalised copy (errors on the
 * py3dtiles scale the SSE of 120 expects, absolute content URIs) as a blob URL.
 */
async function normalisedTilesetUrl(url: string): Promise<string> {
  const absolute = new URL(url, document.baseURI).href;
  const res = await fetch(absolute, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${absolute}: HTTP ${res.status}`);
  const { json } = normaliseTileset((await res.json()) as TilesetJsonLike, absolute);
  const blobUrl = URL.createObjectURL(new Blob([JSON.stringify(json)], { type: 'application/json' }));
  // Content URIs are absolute: the blob is only read once, by fromUrl.
  setTimeout(() => URL.revokeObjectURL(blobUrl), 60_000);
  return blobUrl;
}

/**
 * The imagery provider of a world imagery choice ("none": the plain globe's
 * grid); an {@link ImageryUnavailable} when a key is missing or the service
 * does not answer.
 */
async function imageryProvider(choice: WorldImagery, options: ImageryOptions | undefined): Promise<ImageryProvider> {
  const config = imageryConfig(options);
  const unreachable = (err: unknown) => {
    throw new ImageryUnavailable('unreachable', (err as Error)?.message ?? String(err));
  };
  switch (choice) {
    case 'none':
      return plainGlobeImagery();
    case 'cesium':
      if (!config.cesiumIonToken) throw new ImageryUnavailable('missingKey', 'no Cesium ion token is configured');
      Ion.defaultAccessToken = config.cesiumIonToken;
      return IonImageryProvider.fromAssetId(2).catch(unreachable);
    case 'bing':
      if (!config.bingMapsKey) throw new ImageryUnavailable('missingKey', 'no Bing Maps key is configured');
      return BingMapsImageryProvider.fromUrl('https://dev.virtualearth.net', { key: config.bingMapsKey }).catch(
        unreachable,
      );
    case 'ign':
      // IGN Géoplateforme orthophotos (France), open WMTS without a key.
      return new WebMapTileServiceImageryProvider({
        url: 'https://data.geopf.fr/wmts',
        layer: 'ORTHOIMAGERY.ORTHOPHOTOS',
        style: 'normal',
        format: 'image/jpeg',
        tileMatrixSetID: 'PM',
        maximumLevel: 19,
        credit: 'IGN-F/Géoportail',
      });
  }
}

/**
 * The 3D viewer (Cesium): point clouds as 3D Tiles styled per point mode,
 * rasters as imagery layers, vectors as GeoJSON drawn by their style (see
 * globe-vectors.ts; a click reports the feature under it), world imagery under them.
 * Settings follow spec §9: screen-space error 120, 100 MB tile cache plus
 * 100 MB overflow, zoom between 20 m and 99,999,999 m, 20 frames per second,
 * frames rendered only when something changes.
 */
export const createGlobeViewer: CreateViewer = async (container, initial, onEvent) => {
  let viewer: Viewer;
  try {
    viewer = new Viewer(container, {
      baseLayer: false,
      animation: false,
      timeline: false,
      baseLayerPicker: false,
      fullscreenButton: false,
      geocoder: false,
      homeButton: false,
      infoBox: false,
      sceneModePicker: false,
      selectionIndicator: false,
      navigationHelpButton: false,
      navigationInstructionsInitiallyVisible: false,
      requestRenderMode: true,
      maximumRenderTimeChange: Number.POSITIVE_INFINITY,
      targetFrameRate: VIEWER_CONSTANTS.targetFrameRate,
      msaaSamples: 1,
    });
  } catch (err) {
    onEvent({ type: 'error', code: 'WEBGL_UNAVAILABLE', message: (err as Error).message });
    throw err;
  }
  const scene = viewer.scene;
  scene.backgroundColor = Color.fromCssColorString('#0d1117');
  // The plain ground: lighter than the sky so the globe reads as a surface under the points.
  scene.globe.baseColor = Color.fromCssColorString('#3e4c59');
  scene.globe.showGroundAtmosphere = false;
  scene.globe.depthTestAgainstTerrain = false;
  scene.fog.enabled = false;
  const controller = scene.screenSpaceCameraController;
  controller.minimumZoomDistance = VIEWER_CONSTANTS.minimumZoomDistance;
  controller.maximumZoomDistance = VIEWER_CONSTANTS.maximumZoomDistance3d;

  let current: SceneDescription = { ...initial, layers: [] };
  let destroyed = false;
  let flownHome = false;
  const clouds = new Map<string, LoadedCloud>();
  const loading = new Set<string>();
  const rasters = new Map<string, ImageryLayer>();
  /** The version each raster and vector layer was loaded at: a new one loads it again. */
  const loadedVersions = new Map<string, string | undefined>();
  const vectors = new Map<string, GlobeVectorLayer>();
  let worldLayer: ImageryLayer | null = null;
  let worldChoice: WorldImagery | null = null;
  let worldKeys = '';
  /** Choices already reported as unavailable: each is said once. */
  const imageryReported = new Set<WorldImagery>();
  const emit = (e: ViewerEvent) => {
    if (!destroyed) onEvent(e);
  };
  /** Layers are built and added one per frame (frame-queue.ts): a scene opened with every layer ticked keeps answering. */
  const frames = createFrameQueue(scene, (err) =>
    emit({ type: 'error', code: 'VECTOR_LOAD_FAILED', message: (err as Error)?.message ?? String(err) }),
  );

  function shaderOf(cloud: LoadedCloud): CustomShader {
    // The ramp spans the cloud's own heights (the tiler's WGS84 box): the project's
    // min and max elevation, in the file's vertical datum and unit, label its ends.
    const src = pointShaderSource(
      {
        mode: current.pointMode,
        hasColor: cloud.hasColor,
        heightFrame: cloud.frame,
        intensity: current.intensity,
        hiddenClasses: current.hiddenClasses,
      },
      current.pointSize,
    );
    return new CustomShader({
      lightingModel: LightingModel.UNLIT,
      uniforms: cesiumUniforms(src.uniforms),
      vertexShaderText: src.vertexShaderText,
      fragmentShaderText: src.fragmentShaderText,
    });
  }

  function visibleSphere(): BoundingSphere | null {
    const spheres = [...clouds.values()].filter((c) => c.tileset.show).map((c) => c.tileset.boundingSphere);
    if (spheres.length === 0) return null;
    return BoundingSphere.fromBoundingSpheres(spheres);
  }

  function flyHome(duration = 1.5): void {
    const sphere = visibleSphere();
    if (!sphere) return;
    viewer.camera.flyToBoundingSphere(sphere, {
      duration,
      offset: new HeadingPitchRange(CesiumMath.toRadians(20), CesiumMath.toRadians(-40), sphere.radius * 1.7),
    });
  }

  async function addCloud(d: PointCloudLayerDescription): Promise<void> {
    loading.add(d.id);
    try {
      const tileset = await Cesium3DTileset.fromUrl(await normalisedTilesetUrl(d.tilesetUrl), {
        maximumScreenSpaceError: VIEWER_CONSTANTS.maximumScreenSpaceError,
        cacheBytes: VIEWER_CONSTANTS.tileCacheBytes,
        maximumCacheOverflowBytes: VIEWER_CONSTANTS.tileCacheOverflowBytes,
      });
      const wanted = current.layers.find((l) => l.id === d.id);
      if (destroyed || !wanted) {
        tileset.destroy();
        return;
      }
      if (wanted.kind === 'pointCloud' && wanted.version !== d.version) {
        // Rewritten while it loaded (a classification edit): the new version is loaded instead.
        tileset.destroy();
        queueMicrotask(() => update(current));
        return;
      }
      const extras = tileset.extras as TilesetExtras | undefined;
      const offProgress = tileset.loadProgress.addEventListener((pending: number, processing: number) => {
        emit({ type: 'loading', pendingTiles: pending + processing });
      });
      const offLoaded = tileset.allTilesLoaded.addEventListener(() => emit({ type: 'tilesLoaded' }));
      const offFailed = tileset.tileFailed.addEventListener((e: { url: string; message: string }) => {
        emit({ type: 'error', code: 'TILE_FAILED', layerId: d.id, message: `${e.url}: ${e.message}` });
      });
      const cloud: LoadedCloud = {
        description: d,
        tileset,
        hasColor: extras?.hasColor !== false,
        frame: heightFrameOf(tileset, extras),
        box: extras?.bboxWgs84,
        removeListeners: () => {
          offProgress();
          offLoaded();
          offFailed();
        },
      };
      applyShading(tileset);
      // Tile errors are on the py3dtiles scale (10 × point spacing): back to the spacing.
      tileset.pointCloudShading.geometricErrorScale = 1 / PY3DTILES_ERROR_PER_SPACING;
      tileset.show = d.visible;
      tileset.customShader = shaderOf(cloud);
      scene.primitives.add(tileset);
      clouds.set(d.id, cloud);
      emit({
        type: 'cloudInfo',
        layerId: d.id,
        hasColor: cloud.hasColor,
        pointCount: typeof extras?.pointCount === 'number' ? extras.pointCount : null,
        classCodes: extras?.classCounts
          ? Object.entries(extras.classCounts)
              .filter(([, n]) => Number(n) > 0)
              .map(([code]) => Number(code))
          : null,
      });
      if (!flownHome) {
        flownHome = true;
        // The globe's surface at the cloud's lowest point: imagery, rasters and the
        // ground sit under the points instead of at the ellipsoid, far below.
        viewer.terrainProvider = constantHeightTerrain(cloud.frame.minHeight - 0.5);
        // With a READY DTM the ground becomes the project's own terrain (dtm-terrain.ts);
        // away from the DTM it stays at the cloud's lowest point.
        void fetchTerrainInfo(d.tilesetUrl).then((info) => {
          if (!info || destroyed) return;
          viewer.terrainProvider = createDtmTerrainProvider(info, cloud.frame.minHeight - 0.5);
          scene.requestRender();
        });
        // Opened from the 2D map: looking down on the place it showed; else over the whole cloud.
        const camera = current.camera;
        if (camera) {
          viewer.camera.setView({
            destination: Cartesian3.fromDegrees(camera.lon, camera.lat, cloud.frame.minHeight + camera.distance),
            orientation: { heading: 0, pitch: -CesiumMath.PI_OVER_TWO, roll: 0 },
          });
        } else flyHome(2);
      }
      syncRasters(current.layers.filter((l): l is RasterLayerDescription => l.kind === 'raster'));
      scene.requestRender();
    } catch (err) {
      emit({ type: 'error', code: 'TILESET_LOAD_FAILED', layerId: d.id, message: (err as Error).message });
    } finally {
      loading.delete(d.id);
    }
  }

  /**
   * Eye-dome lighting (the display setting) shades each point by the depth of
   * its neighbours on screen: edges of roofs, trees and wires stand out.
   * Cesium applies it only with attenuation on, which grows points with
   * their tile's geometric error up to `maximumAttenuation` (the screen-space
   * error, 120 px, by default: discs): capped here near the chosen point size.
   */
  function applyShading(tileset: Cesium3DTileset): void {
    const shading = current.shading;
    const on = shading?.eyeDomeLighting === true;
    tileset.pointCloudShading.attenuation = on;
    tileset.pointCloudShading.eyeDomeLighting = on;
    tileset.pointCloudShading.eyeDomeLightingStrength = shading?.strength ?? 1;
    tileset.pointCloudShading.eyeDomeLightingRadius = shading?.radius ?? 1;
    tileset.pointCloudShading.maximumAttenuation = Math.max(2, Math.ceil(current.pointSize * 1.5));
    scene.requestRender();
  }

  function removeCloud(id: string): void {
    const cloud = clouds.get(id);
    if (!cloud) return;
    cloud.removeListeners();
    scene.primitives.remove(cloud.tileset);
    clouds.delete(id);
  }

  function reportImagery(choice: WorldImagery, problem: ImageryProblem, message: string): void {
    if (imageryReported.has(choice)) return;
    imageryReported.add(choice);
    emit({ type: 'imagery', imagery: choice, problem, message });
  }

  /** The globe's opacity (spec §9, a percentage in the settings): below 1 the globe lets what is under it show. */
  function setGlobeOpacity(options: ImageryOptions | undefined): void {
    const alpha = Math.min(1, Math.max(0, options?.globeOpacity ?? 1));
    const translucency = scene.globe.translucency;
    translucency.enabled = alpha < 1;
    translucency.frontFaceAlpha = alpha;
    translucency.backFaceAlpha = alpha;
  }

  /**
   * Shows a world imagery choice; one that cannot be shown (no key, no
   * network) leaves the plain globe and is reported once.
   */
  async function setWorldImagery(choice: WorldImagery, options: ImageryOptions | undefined): Promise<void> {
    const keys = JSON.stringify(imageryConfig(options));
    if (choice === worldChoice && keys === worldKeys) return;
    if (keys !== worldKeys) imageryReported.clear();
    worldChoice = choice;
    worldKeys = keys;
    if (worldLayer) {
      viewer.imageryLayers.remove(worldLayer, true);
      worldLayer = null;
    }
    let provider: ImageryProvider;
    try {
      provider = await imageryProvider(choice, options);
    } catch (err) {
      if (destroyed || worldChoice !== choice) return;
      const problem = err instanceof ImageryUnavailable ? err.problem : 'unreachable';
      reportImagery(choice, problem, (err as Error).message);
      provider = plainGlobeImagery();
    }
    if (destroyed || worldChoice !== choice || worldKeys !== keys) return;
    // Tiles that do not come (no network): said once, the globe stays plain under them.
    provider.errorEvent.addEventListener((e: { message?: string }) => {
      if (worldChoice === choice) reportImagery(choice, 'unreachable', e.message ?? 'tile request failed');
    });
    worldLayer = new ImageryLayer(provider);
    viewer.imageryLayers.add(worldLayer, 0);
    scene.requestRender();
  }

  /** The first loaded cloud: its footprint bounds rasters, its heights place the ground and vectors. */
  function referenceCloud(): LoadedCloud | undefined {
    return clouds.values().next().value;
  }

  function syncRasters(list: RasterLayerDescription[]): void {
    for (const [id, layer] of rasters) {
      const wanted = list.find((r) => r.id === id);
      if (!wanted || wanted.version !== loadedVersions.get(id)) {
        viewer.imageryLayers.remove(layer, true);
        rasters.delete(id);
      }
    }
    for (const r of list) {
      let layer = rasters.get(r.id);
      // Wait for the cloud that bounds the raster's tiles (added when it has loaded).
      if (!layer && !referenceCloud() && loading.size > 0) continue;
      if (!layer) {
        const box = referenceCloud()?.box;
        // Raster tiles exist only over the project: bounded requests, from the level
        // where one tile is as wide as the footprint (the tiler writes no coarser ones).
        const rectangle = box ? Rectangle.fromDegrees(box.west, box.south, box.east, box.north) : undefined;
        const span = box ? Math.max(box.east - box.west, box.north - box.south, 1e-6) : 360;
        const minimumLevel = Math.max(0, Math.min(18, Math.floor(Math.log2(360 / span))));
        layer = new ImageryLayer(
          new UrlTemplateImageryProvider({ url: r.url, ...(rectangle ? { rectangle, minimumLevel } : {}) }),
        );
        layer.errorEvent.addEventListener((e: Error) =>
          emit({ type: 'error', code: 'IMAGERY_FAILED', layerId: r.id, message: e.message }),
        );
        // Added on a frame of its own (frame-queue.ts); destroyed instead if removed meanwhile.
        const added = layer;
        frames.push(() => {
          if (destroyed) return;
          if (rasters.get(r.id) === added) viewer.imageryLayers.add(added);
          else added.destroy();
        });
        rasters.set(r.id, layer);
        loadedVersions.set(r.id, r.version);
      }
      layer.show = r.visible;
      layer.alpha = r.opacity ?? 1;
    }
  }

  /** Layers whose features were more than the viewer reads: said once each. */
  const noticeTruncation = truncationNotices(emit, locale);
  /** Feature collections by URL, shared by layers and joins (crowns read their tops' z). */
  const collections = new Map<string, Promise<FeatureCollection>>();
  function featuresOf(source: { url: string; fileUrl?: string }): Promise<FeatureCollection> {
    const key = source.fileUrl ?? source.url;
    let pending = collections.get(key);
    if (!pending) {
      pending = fetchLayerFeatures(source);
      collections.set(key, pending);
      // A failure is not kept: ticking the layer again tries again.
      pending.catch(() => collections.delete(key));
    }
    return pending;
  }

  async function loadVectorLayer(v: VectorLayerDescription): Promise<GlobeVectorLayer | null> {
    const join = v.style.elevation?.join;
    const [collection, joined] = await Promise.all([
      featuresOf(v),
      // Without the joined collection the layer is still drawn, at its own elevations.
      join ? featuresOf({ url: join.url }).catch(() => null) : Promise.resolve(null),
    ]);
    if (destroyed || !current.layers.some((l) => l.id === v.id)) return null;
    noticeTruncation(v.id, collection);
    // Its turn: one layer built per frame.
    await new Promise<void>((resolve) => frames.push(resolve));
    if (destroyed || !current.layers.some((l) => l.id === v.id)) return null;
    const cloud = referenceCloud();
    const heights = cloud ? { min: cloud.frame.minHeight, max: cloud.frame.maxHeight } : { min: 0, max: 0 };
    return buildGlobeVectorLayer({
      layerId: v.id,
      style: v.style,
      collection,
      heightOf: elevationToHeight(normaliseElevation(current.elevation), heights),
      elevationOf: join && joined ? propertyLookup(joined, join.key, v.style.elevation!.property) : undefined,
      locale: locale(),
      onError: (err) => emit({ type: 'error', code: 'VECTOR_LOAD_FAILED', layerId: v.id, message: err.message }),
    });
  }

  function syncVectors(list: VectorLayerDescription[]): void {
    for (const [id, layer] of vectors) {
      const wanted = list.find((v) => v.id === id);
      if (!wanted || wanted.version !== loadedVersions.get(id)) {
        // Rewritten (a classification edit re-ran its product): its features are fetched again.
        if (wanted) collections.delete(wanted.fileUrl ?? wanted.url);
        vectors.delete(id);
        // Destroys the layer's primitives (each destroyed once: see buildGlobeVectorLayer).
        scene.primitives.remove(layer.primitives);
      }
    }
    for (const v of list) {
      const existing = vectors.get(v.id);
      if (existing) {
        existing.primitives.show = v.visible;
        continue;
      }
      // Vector layers load when first shown, then stay loaded while listed.
      if (loading.has(v.id) || !v.visible) continue;
      loading.add(v.id);
      loadVectorLayer(v)
        .then((layer) => {
          if (!layer) return;
          // Unticked and ticked again while loading: the description may have changed.
          const d = current.layers.find((l): l is VectorLayerDescription => l.id === v.id && l.kind === 'vector');
          if (destroyed || !d || vectors.has(v.id)) {
            // Never added to the scene: destroyed here, once.
            layer.primitives.destroy();
            return;
          }
          layer.primitives.show = d.visible;
          scene.primitives.add(layer.primitives);
          vectors.set(v.id, layer);
          loadedVersions.set(v.id, v.version);
          layer.updateLabels(labelView(), locale());
          scene.requestRender();
          // Rewritten while it loaded: loaded again at its new version.
          if (d.version !== v.version) queueMicrotask(() => update(current));
        })
        .catch((err: Error) => {
          // A vector layer failing to load is skipped; the rest of the scene goes on (spec §8).
          emit({ type: 'error', code: 'VECTOR_LOAD_FAILED', layerId: v.id, message: err.message });
        })
        .finally(() => loading.delete(v.id));
    }
  }

  function locale(): string {
    return current.locale ?? 'en-US';
  }

  function labelView(): LabelView {
    return {
      eye: viewer.camera.positionWC,
      toCanvas: (p) => scene.cartesianToCanvasCoordinates(p, new Cartesian2()),
    };
  }

  /** Labels follow the camera: the points nearest to it that do not overlap on screen carry one. */
  function relabel(): void {
    const view = labelView();
    let changed = false;
    for (const layer of vectors.values()) changed = layer.updateLabels(view, locale()) || changed;
    if (changed) scene.requestRender();
  }
  const offMoveEnd = viewer.camera.moveEnd.addEventListener(relabel);
  /** Where the camera looks (the ground under the view's centre), for the 2D map opened next. */
  const offCameraReport = viewer.camera.moveEnd.addEventListener(() => {
    if (destroyed || !flownHome) return;
    const canvas = scene.canvas;
    const eye = Ellipsoid.WGS84.cartesianToCartographic(viewer.camera.positionWC);
    const centre = viewer.camera.pickEllipsoid(new Cartesian2(canvas.clientWidth / 2, canvas.clientHeight / 2));
    const at = centre ? Ellipsoid.WGS84.cartesianToCartographic(centre) : eye;
    if (!at || !eye) return;
    const base = referenceCloud()?.frame.minHeight ?? 0;
    emit({
      type: 'camera',
      camera: {
        lon: CesiumMath.toDegrees(at.longitude),
        lat: CesiumMath.toDegrees(at.latitude),
        distance: Math.max(VIEWER_CONSTANTS.minimumZoomDistance, eye.height - base),
      },
    });
  });

  /** The feature under a click: the nearest object, else the first of ours below it (points of the cloud may be in front). */
  function pickFeature(position: Cartesian2): PickedFeature | null {
    const direct = vectorPickOf(scene.pick(position, 7, 7));
    const hit =
      direct ??
      scene
        .drillPick(position, 8, 7, 7)
        .map(vectorPickOf)
        .find((p) => p !== null) ??
      null;
    return hit ? { layerId: hit.layerId, properties: hit.properties } : null;
  }
  const clicks = new ScreenSpaceEventHandler(scene.canvas);
  const measure = createGlobeMeasure(viewer);
  const edit = createGlobeEdit(viewer, (drawn) => emit({ type: 'editRegion', ...drawn }));
  clicks.setInputAction((e: { position: Cartesian2 }) => {
    if (destroyed) return;
    if (current.measure?.active) {
      emit({ type: 'measurePick', position: measure.pick(e.position) });
      return;
    }
    try {
      emit({ type: 'pick', feature: pickFeature(e.position) });
    } catch {
      emit({ type: 'pick', feature: null });
    }
  }, ScreenSpaceEventType.LEFT_CLICK);

  function update(next: SceneDescription): void {
    if (destroyed) return;
    const restyle =
      next.pointMode !== current.pointMode ||
      next.hiddenClasses !== current.hiddenClasses ||
      next.intensity !== current.intensity;
    const resize = next.pointSize !== current.pointSize;
    const reshade = JSON.stringify(next.shading) !== JSON.stringify(current.shading);
    const relocalise = (next.locale ?? 'en-US') !== locale();
    current = next;
    const wantedClouds = next.layers.filter((l): l is PointCloudLayerDescription => l.kind === 'pointCloud');
    for (const [id, cloud] of [...clouds]) {
      const d = wantedClouds.find((c) => c.id === id);
      // A re-signed URL of the same asset keeps the loaded tileset (its own URLs stay valid for hours);
      // a new version (its tiles rewritten by a classification edit) is loaded again.
      if (!d || d.version !== cloud.description.version) removeCloud(id);
    }
    for (const d of wantedClouds) {
      const cloud = clouds.get(d.id);
      if (cloud) {
        cloud.tileset.show = d.visible;
        if (restyle) cloud.tileset.customShader = shaderOf(cloud);
        else if (resize) {
          cloud.tileset.customShader?.setUniform('u_pointSize', clampPointSize(next.pointSize));
          cloud.tileset.customShader?.setUniform('u_maxPointSize', maxPointSize(next.pointSize));
        }
      } else if (d.visible && !loading.has(d.id)) {
        // Clouds load when first shown, then stay loaded while listed.
        void addCloud(d);
      }
    }
    syncRasters(next.layers.filter((l): l is RasterLayerDescription => l.kind === 'raster'));
    syncVectors(next.layers.filter((l): l is VectorLayerDescription => l.kind === 'vector'));
    void setWorldImagery(next.imagery, next.imageryOptions);
    setGlobeOpacity(next.imageryOptions);
    if (reshade || resize) for (const cloud of clouds.values()) applyShading(cloud.tileset);
    if (relocalise) relabel();
    measure.draw(next.measure);
    edit.draw(next.edit);
    scene.requestRender();
  }

  const handle: ViewerHandle = {
    update,
    flyHome: () => flyHome(1.2),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      offMoveEnd();
      offCameraReport();
      clicks.destroy();
      measure.destroy();
      edit.destroy();
      frames.destroy();
      for (const id of [...clouds.keys()]) removeCloud(id);
      vectors.clear();
      viewer.destroy();
    },
  };
  update(initial);
  emit({ type: 'ready' });
  return handle;
};
