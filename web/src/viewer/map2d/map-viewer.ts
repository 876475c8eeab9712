import { COORDINATE_SYSTEM, type Layer } from '@deck.gl/core';
import { PointCloudLayer } from '@deck.gl/layers';
import { MapboxOverlay } from '@deck.gl/mapbox';
import { Map as MapLibreMap, type StyleSpecification, setWorkerUrl } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { mapMeasureLayers, metresPerPixel, pickOnMap } from '../measure/map-measure.js';
import { colorizePoints, type HeightFrame, maxPointSize } from '../point-styles.js';
import type {
  CreateViewer,
  PointCloudLayerDescription,
  RasterLayerDescription,
  SceneDescription,
  VectorLayerDescription,
  ViewerEvent,
  WorldImagery,
} from '../scene.types.js';
import { fetchLayerFeatures, truncationNotices } from '../vector-features.js';
import { VIEWER_CONSTANTS } from '../viewer-constants.js';
import { EyeDomeEffect, EyeDomePointCloudLayer, EyeDomeShadeLayer, type HeightRange } from './eye-dome-lighting.js';
import { MapImageryUnavailable, type WorldSource, worldSource } from './map-imagery.js';
import { mapPoints } from './map-points.js';
import {
  fetchTileSet,
  type MapVectorData,
  mapVectorLayers,
  pickedOf,
  prepareMapVectors,
  tiledMapVectors,
} from './map-vectors.js';
import { distanceForZoom, zoomForDistance } from './map-zoom.js';
import { type SampledCloud, sampleTileset } from './tileset-sampler.js';

setWorkerUrl(workerUrl);

/** A cloud loaded for the map: its points as east-north metres around `origin`, on the map's plane (map-points.ts). */
interface MapCloud {
  description: PointCloudLayerDescription;
  sample: SampledCloud;
  origin: [number, number, number];
  enu: Float32Array;
  heights: Float32Array;
  frame: HeightFrame;
  bounds: [[number, number], [number, number]];
  /** Point colours of the last render and the settings they were made for. */
  colors?: Uint8Array;
  colorKey?: unknown[];
  /**
   * The deck.gl data of the last render and the colours it was made from,
   * kept while they are the same: a new object makes deck.gl upload every
   * point again (MB per cloud), which on a software GPU blocks the page for
   * seconds each time.
   */
  data?: PointCloudData;
  dataColors?: Uint8Array;
  /** Positions of the points drawn (every `step`-th point, see {@link MAX_DRAWN_POINTS}). */
  drawnEnu?: Float32Array;
  /** Heights of the points drawn, made when eye-dome lighting first needs them. */
  drawnHeights?: Float32Array;
}

/**
 * Most points the map draws of one cloud: an even subset (every n-th point)
 * beyond it. deck.gl draws each point as an instance, and a software GPU
 * (SwiftShader, machines without a GPU) pays microseconds per instance: the
 * 465k points of WilliamsAZ took seconds per frame, each layer ticked froze
 * the page. Seen from above, 150k points still cover the map's pixels.
 */
export const MAX_DRAWN_POINTS = 150_000;

/** Every `step`-th item of `size` values each. */
function everyNth<T extends Float32Array | Uint8Array>(values: T, size: number, step: number): T {
  const n = Math.ceil(values.length / size / step);
  const out = new (values.constructor as new (length: number) => T)(n * size);
  for (let i = 0; i < n; i++) out.set(values.subarray(i * step * size, i * step * size + size), i * size);
  return out;
}

/**
 * Binary data of a PointCloudLayer (positions in metres around the cloud's
 * origin, RGBA colours; with eye-dome lighting, each point's height in metres).
 */
interface PointCloudData {
  length: number;
  attributes: {
    getPosition: { value: Float32Array; size: 3 };
    getColor: { value: Uint8Array; size: 4; normalized: true };
    getHeight?: { value: Float32Array; size: 1 };
  };
}

/** Order of vector layers on the map by style: areas first, then lines, then points on top. */
const DRAW_RANK: Record<VectorLayerDescription['style']['kind'], number> = {
  blocks: 0,
  polygons: 0,
  lines: 1,
  points: 2,
};

/** The effects of the map: the same arrays each time, so deck.gl sets the effect up only when it changes. */
const NO_EFFECTS: EyeDomeEffect[] = [];

/** The world imagery shown on the map: its source (null: the plain background) and opacity (0..1). */
interface MapWorld {
  source: WorldSource | null;
  opacity: number;
}

function styleFor(world: MapWorld, rasters: RasterLayerDescription[], bounds?: MapCloud['bounds']): StyleSpecification {
  const sources: StyleSpecification['sources'] = {};
  const layers: StyleSpecification['layers'] = [
    { id: 'background', type: 'background', paint: { 'background-color': '#1f2933' } },
  ];
  if (world.source) {
    sources.world = { type: 'raster', tileSize: 256, ...world.source };
    layers.push({ id: 'world', type: 'raster', source: 'world', paint: { 'raster-opacity': world.opacity } });
  }
  for (const r of rasters) {
    sources[`raster-${r.id}`] = {
      type: 'raster',
      tiles: [r.url],
      tileSize: 256,
      ...(bounds ? { bounds: [bounds[0][0], bounds[0][1], bounds[1][0], bounds[1][1]] } : {}),
    };
    layers.push({
      id: `raster-${r.id}`,
      type: 'raster',
      source: `raster-${r.id}`,
      layout: { visibility: r.visible ? 'visible' : 'none' },
      paint: { 'raster-opacity': r.opacity ?? 1 },
    });
  }
  return { version: 8, sources, layers };
}

/**
 * The 2D viewer: a MapLibre map (world imagery, raster tiles) with deck.gl
 * layers on top: the point clouds (sampled from their 3D Tiles, coloured per
 * point mode on the CPU with the same colours as the 3D viewer) and the
 * vectors (OGC API Tiles and Features) drawn by their style (map-vectors.ts); a click
 * reports the feature under it. Zoom stays between the spec's 2D distances.
 */
export const createMapViewer: CreateViewer = async (container, initial, onEvent) => {
  let map: MapLibreMap;
  try {
    map = new MapLibreMap({
      container,
      style: styleFor({ source: null, opacity: 1 }, []),
      center: [0, 20],
      zoom: 2,
      minZoom: Math.max(0, zoomForDistance(VIEWER_CONSTANTS.maximumZoomDistance2d)),
      maxZoom: zoomForDistance(VIEWER_CONSTANTS.minimumZoomDistance),
      attributionControl: { compact: true },
    });
  } catch (err) {
    onEvent({ type: 'error', code: 'WEBGL_UNAVAILABLE', message: (err as Error).message });
    throw err;
  }
  const overlay = new MapboxOverlay({
    interleaved: false,
    layers: [],
    // A click reports the feature under it (or none): the page shows its attributes.
    onClick: (info) => {
      if (destroyed) return;
      if (current.measure?.active) {
        const [lon, lat] = info.coordinate ?? [];
        const radius = 8 * metresPerPixel(lat ?? 0, map.getZoom());
        const samples = [...clouds.values()].map((c) => c.sample);
        const position = lon !== undefined && lat !== undefined ? pickOnMap(lon, lat, samples, radius) : null;
        onEvent({ type: 'measurePick', position });
        return;
      }
      onEvent({ type: 'pick', feature: pickedOf(info) });
    },
  });
  map.addControl(overlay);
  const eyeDome = new EyeDomeEffect();
  const eyeDomeEffects = [eyeDome];
  await new Promise<void>((resolve) => {
    if (map.loaded()) resolve();
    else map.once('load', () => resolve());
  });

  let current: SceneDescription = initial;
  let destroyed = false;
  let flown = false;
  const clouds = new Map<string, MapCloud>();
  const loadingClouds = new Set<string>();
  const vectors = new Map<string, MapVectorData>();
  /** The version each vector layer was loaded at: a new one (its product re-run) loads it again. */
  const vectorVersions = new Map<string, string | undefined>();
  const loadingVectors = new Set<string>();
  const emit = (e: ViewerEvent) => {
    if (!destroyed) onEvent(e);
  };

  function firstCloud(): MapCloud | undefined {
    return clouds.values().next().value;
  }

  function render(): void {
    const layers: Layer[] = [];
    const shading = current.shading?.eyeDomeLighting ? current.shading : null;
    const shown = [...clouds.values()].filter((c) => c.description.visible);
    const range = shading ? heightRangeOf(shown) : null;
    for (const cloud of shown) {
      const props = {
        data: dataOf(cloud),
        coordinateSystem: COORDINATE_SYSTEM.METER_OFFSETS,
        coordinateOrigin: cloud.origin,
        sizeUnits: 'pixels' as const,
        pointSize: Math.min(maxPointSize(current.pointSize), Math.max(1, current.pointSize)),
        getNormal: [0, 0, 1] as [number, number, number],
        material: false,
        parameters: { depthCompare: 'always' as const },
      };
      // Eye-dome lighting: the layer that also knows heights (its own id: a new layer, set up with them).
      layers.push(
        range
          ? new EyeDomePointCloudLayer({
              ...props,
              id: `cloud-${cloud.description.id}-shaded`,
              data: withHeights(cloud, props.data),
              ...range,
            })
          : new PointCloudLayer({ ...props, id: `cloud-${cloud.description.id}` }),
      );
    }
    if (shading && range) {
      layers.push(
        new EyeDomeShadeLayer({
          id: 'eye-dome-shade',
          effect: eyeDome,
          strength: shading.strength,
          radius: shading.radius,
          ...range,
        }),
      );
    }
    const zoom = map.getZoom();
    // Areas under lines under points, as on a map: the fills of buffers and risk zones do not tint the conductors.
    const drawn = current.layers
      .filter((l): l is VectorLayerDescription => l.kind === 'vector' && l.visible)
      .sort((a, b) => DRAW_RANK[a.style.kind] - DRAW_RANK[b.style.kind]);
    for (const v of drawn) {
      const data = vectors.get(v.id);
      if (data) layers.push(...mapVectorLayers(v, data, zoom, current.locale ?? 'en-US', tileErrorOf(v.id)));
    }
    layers.push(...mapMeasureLayers(current.measure));
    map.getCanvasContainer().style.cursor = current.measure?.active ? 'crosshair' : '';
    overlay.setProps({ layers, effects: range ? eyeDomeEffects : NO_EFFECTS });
  }

  /** The heights of the shown clouds, lowest to highest (metres). */
  function heightRangeOf(shown: MapCloud[]): HeightRange | null {
    if (shown.length === 0) return null;
    let minHeight = Number.POSITIVE_INFINITY;
    let maxHeight = Number.NEGATIVE_INFINITY;
    for (const c of shown) {
      minHeight = Math.min(minHeight, c.frame.minHeight);
      maxHeight = Math.max(maxHeight, c.frame.maxHeight);
    }
    return { minHeight, maxHeight: Math.max(maxHeight, minHeight + 0.01) };
  }

  /** The layer data with each drawn point's height: a new object only when the colours' data is new. */
  function withHeights(cloud: MapCloud, data: PointCloudData): PointCloudData {
    if (data.attributes.getHeight) return data;
    const step = Math.max(1, Math.ceil(cloud.sample.count / MAX_DRAWN_POINTS));
    cloud.drawnHeights ??= step === 1 ? cloud.heights : everyNth(cloud.heights, 1, step);
    data.attributes.getHeight = { value: cloud.drawnHeights, size: 1 };
    return data;
  }

  /** The layer data of a cloud (at most {@link MAX_DRAWN_POINTS}): the same object while its colours are the same. */
  function dataOf(cloud: MapCloud): PointCloudData {
    const colors = colorsOf(cloud);
    if (cloud.data && cloud.dataColors === colors) return cloud.data;
    const step = Math.max(1, Math.ceil(cloud.sample.count / MAX_DRAWN_POINTS));
    cloud.drawnEnu ??= step === 1 ? cloud.enu : everyNth(cloud.enu, 3, step);
    cloud.dataColors = colors;
    cloud.data = {
      length: cloud.drawnEnu.length / 3,
      attributes: {
        getPosition: { value: cloud.drawnEnu, size: 3 },
        getColor: { value: step === 1 ? colors : everyNth(colors, 4, step), size: 4, normalized: true },
      },
    };
    return cloud.data;
  }

  /** Colours of a cloud's points, made again only when the point mode or its settings change. */
  function colorsOf(cloud: MapCloud): Uint8Array {
    const key = [current.pointMode, current.hiddenClasses, current.intensity];
    if (cloud.colors && cloud.colorKey?.every((k, i) => k === key[i])) return cloud.colors;
    cloud.colors = colorizePoints(
      {
        mode: current.pointMode,
        hasColor: Boolean(cloud.sample.rgb) && cloud.sample.extras.hasColor !== false,
        heightFrame: cloud.frame,
        intensity: current.intensity,
        hiddenClasses: current.hiddenClasses,
      },
      { ...cloud.sample, heights: cloud.heights },
    );
    cloud.colorKey = key;
    return cloud.colors;
  }

  async function addCloud(d: PointCloudLayerDescription): Promise<void> {
    loadingClouds.add(d.id);
    try {
      const url = new URL(d.tilesetUrl, document.baseURI).href;
      const sample = await sampleTileset(url, {
        onProgress: (pending) => emit({ type: 'loading', pendingTiles: pending }),
      });
      const wanted = current.layers.find((l) => l.id === d.id);
      if (destroyed || !wanted) return;
      if (wanted.kind === 'pointCloud' && wanted.version !== d.version) {
        // Rewritten while it loaded (a classification edit): the new version is loaded instead.
        queueMicrotask(() => update(current));
        return;
      }
      const box = sample.extras.bboxWgs84;
      // Flat on the map (see map-points.ts: points at their heights fall beyond deck.gl's far plane).
      const { origin, positions: enu, heights, minHeight, maxHeight } = mapPoints(sample);
      const bounds: MapCloud['bounds'] = box
        ? [
            [box.west, box.south],
            [box.east, box.north],
          ]
        : [
            [origin[0] - 0.01, origin[1] - 0.01],
            [origin[0] + 0.01, origin[1] + 0.01],
          ];
      const frame: HeightFrame = { origin: [0, 0, 0], up: [0, 0, 1], originHeight: minHeight, minHeight, maxHeight };
      clouds.set(d.id, { description: d, sample, origin, enu, heights, frame, bounds });
      emit({
        type: 'cloudInfo',
        layerId: d.id,
        hasColor: Boolean(sample.rgb),
        pointCount: sample.extras.pointCount ?? sample.count,
        classCodes: sample.extras.classCounts ? Object.keys(sample.extras.classCounts).map(Number) : null,
      });
      if (!flown) {
        flown = true;
        // The container may have been laid out after the map was made.
        map.resize();
        // Opened from the 3D view: on the place it looked at; else over the whole cloud.
        const camera = current.camera;
        if (camera)
          map.jumpTo({ center: [camera.lon, camera.lat], zoom: zoomForDistance(camera.distance, camera.lat) });
        else map.fitBounds(bounds, { padding: 40, duration: 0 });
        map.setStyle(styleFor(world, rasterLayers(), bounds));
      }
      render();
      map.once('idle', () => emit({ type: 'tilesLoaded' }));
      map.triggerRepaint();
    } catch (err) {
      emit({ type: 'error', code: 'TILESET_LOAD_FAILED', layerId: d.id, message: (err as Error).message });
    } finally {
      loadingClouds.delete(d.id);
    }
  }

  function rasterLayers(): RasterLayerDescription[] {
    return current.layers.filter((l): l is RasterLayerDescription => l.kind === 'raster');
  }

  /** A vector tile that does not come: said once per layer (the map keeps drawing the others). */
  const tileErrorsSaid = new Set<string>();
  /** One handler per layer, the same at every render (a new function is a changed prop to deck.gl). */
  const tileErrorHandlers = new Map<string, (err: Error) => void>();
  function tileErrorOf(layerId: string): (err: Error) => void {
    let handler = tileErrorHandlers.get(layerId);
    if (!handler) {
      handler = (err) => {
        if (tileErrorsSaid.has(layerId)) return;
        tileErrorsSaid.add(layerId);
        emit({ type: 'error', code: 'VECTOR_LOAD_FAILED', layerId, message: err?.message ?? String(err) });
      };
      tileErrorHandlers.set(layerId, handler);
    }
    return handler;
  }

  /** Layers whose features were more than the viewer reads: said once each. */
  const noticeTruncation = truncationNotices(emit, () => current.locale ?? 'en-US');

  /**
   * A vector layer for the map: lines and polygons from their vector tiles
   * (the map asks for the tiles in view, at any size of product); points (tree
   * tops, with labels decluttered across all of them) as their features.
   */
  function loadVectors(v: VectorLayerDescription): Promise<MapVectorData> {
    if (v.tilesUrl && v.style.kind !== 'points') {
      return fetchTileSet(new URL(v.tilesUrl, document.baseURI).href).then((tiles) =>
        tiles ? tiledMapVectors(tiles) : prepareMapVectors({ features: [] }, v),
      );
    }
    return fetchLayerFeatures(v).then((collection) => {
      noticeTruncation(v.id, collection);
      return prepareMapVectors(collection, v);
    });
  }

  function syncVectors(list: VectorLayerDescription[]): void {
    for (const v of list) {
      if ((vectors.has(v.id) && vectorVersions.get(v.id) === v.version) || loadingVectors.has(v.id)) continue;
      loadingVectors.add(v.id);
      loadVectors(v)
        .then((data) => {
          if (destroyed) return;
          // Kept while the map lives: ticking the layer again draws it at once.
          tileErrorsSaid.delete(v.id);
          vectors.set(v.id, data);
          vectorVersions.set(v.id, v.version);
          render();
        })
        .catch((err: Error) => emit({ type: 'error', code: 'VECTOR_LOAD_FAILED', layerId: v.id, message: err.message }))
        .finally(() => loadingVectors.delete(v.id));
    }
  }

  let styleKey = '';
  let world: MapWorld = { source: null, opacity: 1 };
  let worldKey = '';
  let worldKeys = JSON.stringify({});
  /** Choices already reported as unavailable: each is said once. */
  const imageryReported = new Set<WorldImagery>();
  function reportImagery(choice: WorldImagery, problem: MapImageryUnavailable['problem'], message: string): void {
    if (imageryReported.has(choice)) return;
    imageryReported.add(choice);
    emit({ type: 'imagery', imagery: choice, problem, message });
  }

  /** Resolves the world imagery (Bing and ion read their tile URLs first), then restyles the map. */
  function setWorld(next: SceneDescription): void {
    const keys = {
      cesiumIonToken: next.imageryOptions?.cesiumIonToken || undefined,
      bingMapsKey: next.imageryOptions?.bingMapsKey || undefined,
    };
    const opacity = Math.min(1, Math.max(0, next.imageryOptions?.globeOpacity ?? 1));
    const key = JSON.stringify([next.imagery, keys]);
    if (key === worldKey) {
      if (opacity !== world.opacity) {
        world = { ...world, opacity };
        if (world.source && map.getLayer('world')) map.setPaintProperty('world', 'raster-opacity', opacity);
      }
      return;
    }
    // New keys: each choice may be said again.
    if (JSON.stringify(keys) !== worldKeys) imageryReported.clear();
    worldKeys = JSON.stringify(keys);
    worldKey = key;
    const choice = next.imagery;
    worldSource(choice, keys)
      .catch((err: Error) => {
        const problem = err instanceof MapImageryUnavailable ? err.problem : 'unreachable';
        reportImagery(choice, problem, err.message);
        return null;
      })
      .then((source) => {
        if (destroyed || worldKey !== key) return;
        world = { source, opacity };
        styleKey = '';
        update(current);
      });
  }

  // Tiles of the world imagery that do not come (no network): said once, the map stays plain under them.
  const onMapError = (e: { error?: { message?: string } }) => {
    const sourceId = (e as { sourceId?: unknown }).sourceId;
    if (sourceId === 'world' && current.imagery !== 'none') {
      reportImagery(current.imagery, 'unreachable', e.error?.message ?? 'tile request failed');
    }
  };
  map.on('error', onMapError);

  function update(next: SceneDescription): void {
    if (destroyed) return;
    current = next;
    const wanted = next.layers.filter((l): l is PointCloudLayerDescription => l.kind === 'pointCloud');
    for (const [id, cloud] of [...clouds]) {
      // A new version (its tiles rewritten by a classification edit) is sampled again.
      const w = wanted.find((c) => c.id === id);
      if (!w || w.version !== cloud.description.version) clouds.delete(id);
    }
    for (const d of wanted) {
      const cloud = clouds.get(d.id);
      if (cloud) cloud.description = d;
      else if (d.visible && !loadingClouds.has(d.id)) void addCloud(d);
    }
    syncVectors(next.layers.filter((l): l is VectorLayerDescription => l.kind === 'vector'));
    const rasters = rasterLayers();
    setWorld(next);
    const key = JSON.stringify([world.source?.tiles, rasters.map((r) => [r.id, r.visible, r.opacity, r.version])]);
    if (key !== styleKey) {
      styleKey = key;
      map.setStyle(styleFor(world, rasters, firstCloud()?.bounds));
    }
    render();
  }

  // Labels are decluttered for the zoom: drawn again when a zoom ends.
  const onZoomEnd = () => {
    if (!destroyed && current.layers.some((l) => l.kind === 'vector' && l.visible && l.style.label)) render();
  };
  map.on('zoomend', onZoomEnd);
  // Where the map looks, for the 3D view opened next.
  const onMoveEnd = () => {
    if (destroyed || !flown) return;
    const c = map.getCenter();
    emit({ type: 'camera', camera: { lon: c.lng, lat: c.lat, distance: distanceForZoom(map.getZoom(), c.lat) } });
  };
  map.on('moveend', onMoveEnd);

  update(initial);
  emit({ type: 'ready' });
  return {
    update,
    flyHome() {
      const cloud = firstCloud();
      if (cloud) map.fitBounds(cloud.bounds, { padding: 60, duration: 800 });
    },
    destroy() {
      destroyed = true;
      map.off('zoomend', onZoomEnd);
      map.off('moveend', onMoveEnd);
      map.off('error', onMapError);
      map.removeControl(overlay);
      map.remove();
    },
  };
};
