import { COORDINATE_SYSTEM, type Layer } from '@deck.gl/core';
import { PointCloudLayer } from '@deck.gl/layers';
import { MapboxOverlay } from '@deck.gl/mapbox';
import { Map as MapLibreMap, type StyleSpecification, setWorkerUrl } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { ecefToEnu } from '../glb-points.js';
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
import { fetchAllFeatures } from '../vector-features.js';
import { VIEWER_CONSTANTS } from '../viewer-constants.js';
import { type MapVectorData, mapVectorLayers, pickedOf, prepareMapVectors } from './map-vectors.js';
import { zoomForDistance } from './map-zoom.js';
import { type SampledCloud, sampleTileset } from './tileset-sampler.js';

setWorkerUrl(workerUrl);

/** IGN Géoplateforme orthophotos as XYZ tiles (Web Mercator "PM" matrix set). */
const IGN_TILES =
  'https://data.geopf.fr/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=ORTHOIMAGERY.ORTHOPHOTOS&STYLE=normal&TILEMATRIXSET=PM&FORMAT=image/jpeg&TILEMATRIX={z}&TILEROW={y}&TILECOL={x}';

/** A cloud loaded for the map: its points as east-north-up metres around `origin`. */
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
}

function styleFor(
  imagery: WorldImagery,
  rasters: RasterLayerDescription[],
  bounds?: MapCloud['bounds'],
): StyleSpecification {
  const sources: StyleSpecification['sources'] = {};
  const layers: StyleSpecification['layers'] = [
    { id: 'background', type: 'background', paint: { 'background-color': '#1f2933' } },
  ];
  if (imagery === 'ign') {
    sources.world = { type: 'raster', tiles: [IGN_TILES], tileSize: 256, attribution: 'IGN-F/Géoportail', maxzoom: 19 };
    layers.push({ id: 'world', type: 'raster', source: 'world' });
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
 * vectors (OGC API Features) drawn by their style (map-vectors.ts); a click
 * reports the feature under it. Zoom stays between the spec's 2D distances.
 */
export const createMapViewer: CreateViewer = async (container, initial, onEvent) => {
  let map: MapLibreMap;
  try {
    map = new MapLibreMap({
      container,
      style: styleFor(initial.imagery, []),
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
      if (!destroyed) onEvent({ type: 'pick', feature: pickedOf(info) });
    },
  });
  map.addControl(overlay);
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
  const loadingVectors = new Set<string>();
  const emit = (e: ViewerEvent) => {
    if (!destroyed) onEvent(e);
  };

  function firstCloud(): MapCloud | undefined {
    return clouds.values().next().value;
  }

  function render(): void {
    const layers: Layer[] = [];
    for (const cloud of clouds.values()) {
      if (!cloud.description.visible) continue;
      const colors = colorsOf(cloud);
      layers.push(
        new PointCloudLayer({
          id: `cloud-${cloud.description.id}`,
          data: {
            length: cloud.sample.count,
            attributes: {
              getPosition: { value: cloud.enu, size: 3 },
              getColor: { value: colors, size: 4, normalized: true },
            },
          },
          coordinateSystem: COORDINATE_SYSTEM.METER_OFFSETS,
          coordinateOrigin: cloud.origin,
          sizeUnits: 'pixels',
          pointSize: Math.min(maxPointSize(current.pointSize), Math.max(1, current.pointSize)),
          getNormal: [0, 0, 1],
          material: false,
          parameters: { depthCompare: 'always' },
        }),
      );
    }
    const zoom = map.getZoom();
    for (const v of current.layers) {
      if (v.kind !== 'vector' || !v.visible) continue;
      const data = vectors.get(v.id);
      if (data) layers.push(...mapVectorLayers(v, data, zoom, current.locale ?? 'en-US'));
    }
    overlay.setProps({ layers });
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
      if (destroyed || !current.layers.some((l) => l.id === d.id)) return;
      const box = sample.extras.bboxWgs84;
      const minHeight = box?.minHeight ?? 0;
      const maxHeight = box?.maxHeight ?? minHeight + 1;
      const origin: [number, number, number] = box
        ? [(box.west + box.east) / 2, (box.south + box.north) / 2, minHeight]
        : [0, 0, 0];
      const enu = ecefToEnu(sample.ecef, origin);
      const heights = new Float32Array(sample.count);
      for (let i = 0; i < sample.count; i++) heights[i] = minHeight + enu[i * 3 + 2]!;
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
        map.fitBounds(bounds, { padding: 40, duration: 0 });
        map.setStyle(styleFor(current.imagery, rasterLayers(), bounds));
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

  function syncVectors(list: VectorLayerDescription[]): void {
    for (const v of list) {
      if (vectors.has(v.id) || loadingVectors.has(v.id)) continue;
      loadingVectors.add(v.id);
      fetchAllFeatures(new URL(v.url, document.baseURI).href)
        .then((collection) => {
          if (destroyed) return;
          // Kept while the map lives: ticking the layer again draws it at once.
          vectors.set(v.id, prepareMapVectors(collection, v));
          render();
        })
        .catch((err: Error) => emit({ type: 'error', code: 'VECTOR_LOAD_FAILED', layerId: v.id, message: err.message }))
        .finally(() => loadingVectors.delete(v.id));
    }
  }

  let styleKey = '';
  function update(next: SceneDescription): void {
    if (destroyed) return;
    current = next;
    const wanted = next.layers.filter((l): l is PointCloudLayerDescription => l.kind === 'pointCloud');
    for (const id of [...clouds.keys()]) if (!wanted.some((w) => w.id === id)) clouds.delete(id);
    for (const d of wanted) {
      const cloud = clouds.get(d.id);
      if (cloud) cloud.description = d;
      else if (d.visible && !loadingClouds.has(d.id)) void addCloud(d);
    }
    syncVectors(next.layers.filter((l): l is VectorLayerDescription => l.kind === 'vector'));
    const rasters = rasterLayers();
    const key = JSON.stringify([next.imagery, rasters.map((r) => [r.id, r.visible, r.opacity])]);
    if (key !== styleKey) {
      styleKey = key;
      map.setStyle(styleFor(next.imagery, rasters, firstCloud()?.bounds));
      if (next.imagery === 'cesium' || next.imagery === 'bing') {
        emit({ type: 'error', code: 'IMAGERY_FAILED', message: `${next.imagery}: not available in the 2D map` });
      }
    }
    render();
  }

  // Labels are decluttered for the zoom: drawn again when a zoom ends.
  const onZoomEnd = () => {
    if (!destroyed && current.layers.some((l) => l.kind === 'vector' && l.visible && l.style.label)) render();
  };
  map.on('zoomend', onZoomEnd);

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
      map.removeControl(overlay);
      map.remove();
    },
  };
};
