import type { Layer, PickingInfo } from '@deck.gl/core';
import { MVTLayer } from '@deck.gl/geo-layers';
import { GeoJsonLayer, ScatterplotLayer, TextLayer } from '@deck.gl/layers';
import { MVTLoader } from '@loaders.gl/mvt';
import type { PickedFeature, VectorLayerDescription } from '../scene.types.js';
import {
  declutterLabels,
  type Feature,
  type FeatureCollection,
  featureColor,
  finiteNumber,
  formatLabel,
} from '../vector-features.js';

/** Below this zoom the map draws no point labels (they would only pile up). */
const LABEL_MIN_ZOOM = 16;

/** A point of a `points` layer, with what its label and picking need. */
interface MapPoint {
  position: [number, number];
  properties: Record<string, unknown>;
  /** Labels that collide keep the highest (the tallest tree). */
  priority: number;
}

interface MapLabel {
  position: [number, number];
  text: string;
}

/**
 * Deepest vector tiles the map asks for; closer views draw these, scaled. A
 * zoom-16 tile spans about 600 m in 4096 units: 15 cm, finer than any product.
 */
export const MAX_TILE_ZOOM = 16;

/** A vector layer's vector tiles (OGC API Tiles, MVT): what the map asks for as it moves. */
export interface MapVectorTiles {
  /** Tile URL template (`{z}/{x}/{y}`) of the features' current run, so the browser may keep tiles. */
  template: string;
  /** West, south, east, north (degrees): no tile is asked for outside. */
  extent: [number, number, number, number] | null;
}

/**
 * The tileset of a vector layer from its TileJSON (the `/tiles/WebMercatorQuad`
 * document of OGC API Tiles): its tile URL template and bounds; null when the
 * layer has no collection (a product with no feature: nothing to draw).
 */
export async function fetchTileSet(url: string, fetcher: typeof fetch = fetch): Promise<MapVectorTiles | null> {
  const res = await fetcher(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const doc = (await res.json()) as { tiles?: unknown; bounds?: unknown };
  const template = Array.isArray(doc.tiles) && typeof doc.tiles[0] === 'string' ? doc.tiles[0] : null;
  if (!template || !/\{z\}/.test(template)) throw new Error(`${url}: the TileJSON names no tile URL template`);
  const b = doc.bounds;
  const extent =
    Array.isArray(b) && b.length === 4 && b.every((v) => typeof v === 'number' && Number.isFinite(v))
      ? (b as [number, number, number, number])
      : null;
  // Read against the TileJSON's address, on its origin: the server names tiles by its public URL, which
  // may not be the host this page was opened on (its session cookie goes to this one only). `{z}`, `{x}`
  // and `{y}` would come out of URL percent-encoded.
  const read = new URL(template.replace(/\{([xyz])\}/g, '__tile_$1__'), url);
  const at = new URL(`${read.pathname}${read.search}`, new URL(url).origin);
  return { template: at.href.replace(/__tile_([xyz])__/g, '{$1}'), extent };
}

/** A vector layer's features, ready for deck.gl. */
export interface MapVectorData {
  /** Drawn from vector tiles instead (lines and polygons): the features are not loaded. */
  tiles?: MapVectorTiles;
  features: Feature[];
  /**
   * The features as the data of the layer's GeoJsonLayer: the same object at
   * every render, since a new one makes deck.gl parse, tessellate and upload
   * every feature again (with every layer ticked, each render of the map
   * blocked the page for long seconds on a software GPU).
   */
  collection: { type: 'FeatureCollection'; features: Feature[] };
  points: MapPoint[];
  /** Decluttered labels, by zoom step and locale. */
  labels: { key: string; items: MapLabel[] } | null;
}

/** Indexes a collection once for the map: its points (tree tops) apart, for the dots and their labels. */
export function prepareMapVectors(collection: FeatureCollection, d: VectorLayerDescription): MapVectorData {
  const points: MapPoint[] = [];
  if (d.style.kind === 'points') {
    const labelProperty = d.style.label?.property;
    for (const f of collection.features) {
      const properties = f.properties ?? {};
      const push = (c: unknown) => {
        const [lon, lat] = (Array.isArray(c) ? c : []) as number[];
        if (Number.isFinite(lon) && Number.isFinite(lat)) {
          const priority = labelProperty ? (finiteNumber(properties[labelProperty]) ?? 0) : 0;
          points.push({ position: [lon!, lat!], properties, priority });
        }
      };
      if (f.geometry?.type === 'Point') push(f.geometry.coordinates);
      else if (f.geometry?.type === 'MultiPoint') for (const c of (f.geometry.coordinates as unknown[]) ?? []) push(c);
    }
  }
  return {
    features: collection.features,
    collection: { type: 'FeatureCollection', features: collection.features },
    points,
    labels: null,
  };
}

/** A vector layer drawn from its tiles: deck.gl asks for the tiles in view as the map moves. */
export function tiledMapVectors(tiles: MapVectorTiles): MapVectorData {
  return { tiles, features: [], collection: { type: 'FeatureCollection', features: [] }, points: [], labels: null };
}

function rgb(css: string): [number, number, number] {
  const v = Number.parseInt(css.replace('#', '').slice(0, 6), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

/**
 * The deck.gl layers of a vector layer, by its style: lines and outlines
 * (GeoJsonLayer, or MVTLayer over its vector tiles), points as dots with
 * decluttered labels (ScatterplotLayer + TextLayer: the declutter needs every
 * point), polygons and building footprints outlined with a light fill.
 * Every layer is pickable; {@link pickedOf} reads what a click hit.
 */
export function mapVectorLayers(
  d: VectorLayerDescription,
  data: MapVectorData,
  zoom: number,
  locale: string,
  onTileError?: (err: Error) => void,
): Layer[] {
  const id = `vector-${d.id}`;
  // Colours by feature (risk by severity, buffers by zone), as [r, g, b] per CSS colour.
  const rgbs = new Map<string, [number, number, number]>();
  const colorOf = (properties: Record<string, unknown> | null | undefined): [number, number, number] => {
    const css = featureColor(d.style, properties);
    let c = rgbs.get(css);
    if (!c) {
      c = rgb(css);
      rgbs.set(css, c);
    }
    return c;
  };
  const fillAlpha = Math.round(255 * (d.style.fillOpacity ?? 0.25));
  const lineOf = (f: Feature): [number, number, number, number] => [...colorOf(f.properties), 255];
  // Colour accessors change with the style only: deck.gl recomputes them when the trigger does.
  const triggers = { getLineColor: [d.style.color, d.style.colorBy?.property], getFillColor: [d.style.color] };
  switch (d.style.kind) {
    case 'points': {
      const out: Layer[] = [
        new ScatterplotLayer<MapPoint>({
          id: `${id}-points`,
          data: data.points,
          getPosition: (p) => p.position,
          getFillColor: (p) => [...colorOf(p.properties), 255],
          getLineColor: [255, 255, 255, 255],
          stroked: true,
          radiusUnits: 'pixels',
          getRadius: 5,
          lineWidthUnits: 'pixels',
          getLineWidth: 1.5,
          pickable: true,
        }),
      ];
      const label = d.style.label;
      if (label && zoom >= LABEL_MIN_ZOOM) {
        // Collisions are settled per half zoom level: labels change when a zoom ends, not every frame.
        const step = Math.round(zoom * 2) / 2;
        const key = `${step}|${locale}`;
        if (data.labels?.key !== key) {
          const kept = declutterLabels(
            data.points.map((p) => p.position),
            data.points.map((p) => p.priority),
            step,
          );
          const items: MapLabel[] = [];
          for (const i of kept) {
            const p = data.points[i]!;
            const text = formatLabel(p.properties[label.property], label, locale);
            if (text !== null) items.push({ position: p.position, text });
          }
          data.labels = { key, items };
        }
        out.push(
          new TextLayer<MapLabel>({
            id: `${id}-labels`,
            data: data.labels!.items,
            getPosition: (l) => l.position,
            getText: (l) => l.text,
            getSize: 13,
            getColor: [255, 255, 255, 255],
            getPixelOffset: [0, -9],
            getTextAnchor: 'middle',
            getAlignmentBaseline: 'bottom',
            fontFamily: 'sans-serif',
            fontWeight: 600,
            characterSet: 'auto',
            fontSettings: { sdf: true },
            outlineWidth: 3,
            outlineColor: [0, 0, 0, 255],
          }),
        );
      }
      return out;
    }
    default: {
      // Lines and outlines; polygons and building footprints with a light fill; towers (poles) as filled dots.
      const areas = d.style.kind === 'polygons' || d.style.kind === 'blocks';
      const props = {
        id,
        stroked: true,
        filled: areas || Boolean(d.style.pole),
        getLineColor: lineOf,
        getFillColor: (f: Feature): [number, number, number, number] => [
          ...colorOf(f.properties),
          areas ? fillAlpha : 255,
        ],
        updateTriggers: triggers,
        lineWidthUnits: 'pixels' as const,
        getLineWidth: d.style.lineWidth ?? (d.style.kind === 'polygons' ? 1.5 : 2),
        getPointRadius: d.style.pole ? 5 : 4,
        pointRadiusUnits: 'pixels' as const,
        pickable: true,
      };
      if (data.tiles) {
        return [
          new MVTLayer({
            ...props,
            id,
            data: data.tiles.template,
            ...(data.tiles.extent ? { extent: data.tiles.extent } : {}),
            maxZoom: MAX_TILE_ZOOM,
            // Parsed here: loaders.gl's workers come from a CDN, which a closed network does not reach.
            loaders: [MVTLoader],
            loadOptions: { core: { worker: false } },
            ...(onTileError ? { onTileError } : {}),
          }),
        ];
      }
      return [new GeoJsonLayer({ ...props, data: data.collection as never })];
    }
  }
}

/** The feature a click on the map hit (the asset id from the deck.gl layer id), or null. */
export function pickedOf(info: Pick<PickingInfo, 'layer' | 'object'>): PickedFeature | null {
  const layerId = info.layer?.id.match(/^vector-(.+?)(?:-points|-labels)?$/)?.[1];
  let properties = (info.object as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (properties && info.layer instanceof MVTLayer) {
    // The MVT loader adds the tile layer's name to every feature: not one of its attributes.
    const { layerName: _, ...own } = properties;
    properties = own;
  }
  return layerId && properties ? { layerId, properties } : null;
}
