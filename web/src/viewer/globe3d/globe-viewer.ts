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
  PickedFeature,
  PointCloudLayerDescription,
  RasterLayerDescription,
  SceneDescription,
  VectorLayerDescription,
  ViewerEvent,
  ViewerHandle,
  WorldImagery,
} from '../scene.types.js';
import { elevationToHeight, type FeatureCollection, fetchAllFeatures, propertyLookup } from '../vector-features.js';
import { VIEWER_CONSTANTS } from '../viewer-constants.js';
import { buildGlobeVectorLayer, type GlobeVectorLayer, type LabelView, vectorPickOf } from './globe-vectors.js';
import { normaliseTileset, PY3DTILES_ERROR_PER_SPACING, type TilesetJsonLike } from './tileset-json.js';

/** Optional keys a deployment may inject (`window.NUAGE_CONFIG`); without them only "none" and "ign" imagery load. */
interface ImageryConfig {
  cesiumIonToken?: string;
  bingMapsKey?: string;
}

function imageryConfig(): ImageryConfig {
  return (globalThis as { NUAGE_CONFIG?: ImageryConfig }).NUAGE_CONFIG ?? {};
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

/** The imagery provider of a world imagery choice, or null for "none". */
async function imageryProvider(choice: WorldImagery): Promise<ImageryProvider | null> {
  const config = imageryConfig();
  switch (choice) {
    case 'none':
      return null;
    case 'cesium':
      if (!config.cesiumIonToken) throw new Error('no Cesium ion token is configured (NUAGE_CONFIG.cesiumIonToken)');
      Ion.defaultAccessToken = config.cesiumIonToken;
      return IonImageryProvider.fromAssetId(2);
    case 'bing':
      if (!config.bingMapsKey) throw new Error('no Bing Maps key is configured (NUAGE_CONFIG.bingMapsKey)');
      return BingMapsImageryProvider.fromUrl('https://dev.virtualearth.net', { key: config.bingMapsKey });
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
  scene.globe.baseColor = Color.fromCssColorString('#1f2933');
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
  const vectors = new Map<string, GlobeVectorLayer>();
  let worldLayer: ImageryLayer | null = null;
  let worldChoice: WorldImagery = 'none';
  const emit = (e: ViewerEvent) => {
    if (!destroyed) onEvent(e);
  };

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
      if (destroyed || !current.layers.some((l) => l.id === d.id)) {
        tileset.destroy();
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
      // Eye-dome lighting shades each point by the depth of its neighbours: edges of
      // roofs, trees and wires stand out. Cesium applies it only with attenuation on;
      // the point size itself stays the custom shader's.
      tileset.pointCloudShading.attenuation = true;
      tileset.pointCloudShading.eyeDomeLighting = true;
      tileset.pointCloudShading.eyeDomeLightingStrength = 1.0;
      tileset.pointCloudShading.eyeDomeLightingRadius = 1.0;
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
        flyHome(2);
      }
      syncRasters(current.layers.filter((l): l is RasterLayerDescription => l.kind === 'raster'));
      scene.requestRender();
    } catch (err) {
      emit({ type: 'error', code: 'TILESET_LOAD_FAILED', layerId: d.id, message: (err as Error).message });
    } finally {
      loading.delete(d.id);
    }
  }

  function removeCloud(id: string): void {
    const cloud = clouds.get(id);
    if (!cloud) return;
    cloud.removeListeners();
    scene.primitives.remove(cloud.tileset);
    clouds.delete(id);
  }

  async function setWorldImagery(choice: WorldImagery): Promise<void> {
    if (choice === worldChoice) return;
    worldChoice = choice;
    if (worldLayer) {
      viewer.imageryLayers.remove(worldLayer, true);
      worldLayer = null;
    }
    try {
      const provider = await imageryProvider(choice);
      if (destroyed || worldChoice !== choice || !provider) return;
      worldLayer = new ImageryLayer(provider);
      viewer.imageryLayers.add(worldLayer, 0);
      scene.requestRender();
    } catch (err) {
      emit({ type: 'error', code: 'IMAGERY_FAILED', message: (err as Error).message });
    }
  }

  /** The first loaded cloud: its footprint bounds rasters, its heights place the ground and vectors. */
  function referenceCloud(): LoadedCloud | undefined {
    return clouds.values().next().value;
  }

  function syncRasters(list: RasterLayerDescription[]): void {
    for (const [id, layer] of rasters) {
      if (!list.some((r) => r.id === id)) {
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
        viewer.imageryLayers.add(layer);
        rasters.set(r.id, layer);
      }
      layer.show = r.visible;
      layer.alpha = r.opacity ?? 1;
    }
  }

  /** Feature collections by URL, shared by layers and joins (crowns read their tops' z). */
  const collections = new Map<string, Promise<FeatureCollection>>();
  function featuresOf(url: string): Promise<FeatureCollection> {
    let pending = collections.get(url);
    if (!pending) {
      pending = fetchAllFeatures(url);
      collections.set(url, pending);
      // A failure is not kept: ticking the layer again tries again.
      pending.catch(() => collections.delete(url));
    }
    return pending;
  }

  async function loadVectorLayer(v: VectorLayerDescription): Promise<GlobeVectorLayer | null> {
    const join = v.style.elevation?.join;
    const [collection, joined] = await Promise.all([
      featuresOf(v.url),
      // Without the joined collection the layer is still drawn, at its own elevations.
      join ? featuresOf(join.url).catch(() => null) : Promise.resolve(null),
    ]);
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
      if (!list.some((v) => v.id === id)) {
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
      if (loading.has(v.id)) continue;
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
          layer.updateLabels(labelView(), locale());
          scene.requestRender();
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
  clicks.setInputAction((e: { position: Cartesian2 }) => {
    if (destroyed) return;
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
    const relocalise = (next.locale ?? 'en-US') !== locale();
    current = next;
    const wantedClouds = next.layers.filter((l): l is PointCloudLayerDescription => l.kind === 'pointCloud');
    for (const id of [...clouds.keys()]) {
      const d = wantedClouds.find((c) => c.id === id);
      // A re-signed URL of the same asset keeps the loaded tileset (its own URLs stay valid for hours).
      if (!d) removeCloud(id);
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
    void setWorldImagery(next.imagery);
    if (relocalise) relabel();
    scene.requestRender();
  }

  const handle: ViewerHandle = {
    update,
    flyHome: () => flyHome(1.2),
    destroy() {
      if (destroyed) return;
      destroyed = true;
      offMoveEnd();
      clicks.destroy();
      for (const id of [...clouds.keys()]) removeCloud(id);
      vectors.clear();
      viewer.destroy();
    },
  };
  update(initial);
  emit({ type: 'ready' });
  return handle;
};
