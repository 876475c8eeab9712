import { MVTLayer } from '@deck.gl/geo-layers';
import { GeoJsonLayer } from '@deck.gl/layers';
import { describe, expect, it } from 'vitest';
import type { VectorLayerDescription } from '../scene.types.js';
import type { FeatureCollection } from '../vector-features.js';
import {
  fetchTileSet,
  MAX_TILE_ZOOM,
  mapVectorLayers,
  pickedOf,
  prepareMapVectors,
  tiledMapVectors,
} from './map-vectors.js';

const contours: FeatureCollection = {
  features: [
    {
      properties: { elevation: 2100 },
      geometry: {
        type: 'LineString',
        coordinates: [
          [-112.188, 35.247],
          [-112.186, 35.248],
        ],
      },
    },
    {
      properties: { elevation: 2105 },
      geometry: {
        type: 'LineString',
        coordinates: [
          [-112.187, 35.246],
          [-112.185, 35.247],
        ],
      },
    },
  ],
};

function layerOf(kind: 'lines' | 'polygons'): VectorLayerDescription {
  return {
    kind: 'vector',
    id: `a-${kind}`,
    name: kind,
    url: '/ogc/x',
    visible: true,
    style: { kind, color: '#ff8800' },
  };
}

/**
 * deck.gl redoes a layer's data (parsing, tessellation, GPU upload) when its
 * `data` is a new object: the map hands the same one at every render while
 * the layer's features are the same.
 */
describe('mapVectorLayers', () => {
  for (const kind of ['lines', 'polygons'] as const) {
    it(`hands deck.gl the same data object at every render (${kind})`, () => {
      const d = layerOf(kind);
      const data = prepareMapVectors(contours, d);
      const first = mapVectorLayers(d, data, 17, 'en-US');
      const second = mapVectorLayers(d, data, 17.5, 'fr');
      expect(first).toHaveLength(1);
      expect(second[0]!.props.data).toBe(first[0]!.props.data);
      expect((first[0]!.props.data as { features: unknown[] }).features).toBe(contours.features);
    });
  }
});

/** A fetch answering one URL with a JSON body and a status. */
function answering(url: string, status: number, body: unknown): typeof fetch {
  return (async (u: string) =>
    u === url
      ? new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
      : new Response('not here', { status: 404 })) as typeof fetch;
}

describe('vector layers from their vector tiles (OGC API Tiles)', () => {
  const tileJsonUrl = 'http://localhost:8080/ogc/collections/c1/tiles/WebMercatorQuad?token=t';

  it('reads the tile template and bounds of the TileJSON', async () => {
    const tiles = await fetchTileSet(
      tileJsonUrl,
      answering(tileJsonUrl, 200, {
        tilejson: '3.0.0',
        tiles: ['http://localhost:8080/ogc/collections/c1/tiles/WebMercatorQuad/{z}/{y}/{x}?v=m7&token=t'],
        bounds: [-112.19, 35.24, -112.18, 35.25],
      }),
    );
    expect(tiles).toEqual({
      template: 'http://localhost:8080/ogc/collections/c1/tiles/WebMercatorQuad/{z}/{y}/{x}?v=m7&token=t',
      extent: [-112.19, 35.24, -112.18, 35.25],
    });
    // The server's public URL may name another host than the page's: the tiles are asked of the page's.
    const elsewhere = await fetchTileSet(
      tileJsonUrl,
      answering(tileJsonUrl, 200, {
        tiles: ['https://nuage.example/ogc/collections/c1/tiles/WebMercatorQuad/{z}/{y}/{x}?v=m7'],
      }),
    );
    expect(elsewhere?.template).toBe('http://localhost:8080/ogc/collections/c1/tiles/WebMercatorQuad/{z}/{y}/{x}?v=m7');
    // A relative template is read against the TileJSON's address; bad bounds are no extent.
    const relative = await fetchTileSet(
      tileJsonUrl,
      answering(tileJsonUrl, 200, { tiles: ['x/{z}/{y}/{x}'], bounds: [1] }),
    );
    expect(relative).toEqual({
      template: 'http://localhost:8080/ogc/collections/c1/tiles/x/{z}/{y}/{x}',
      extent: null,
    });
  });

  it('draws nothing for a layer with no collection (a product with no feature)', async () => {
    await expect(fetchTileSet(tileJsonUrl, answering(tileJsonUrl, 404, {}))).resolves.toBeNull();
  });

  it('says why a tileset cannot be read', async () => {
    await expect(fetchTileSet(tileJsonUrl, answering(tileJsonUrl, 401, {}))).rejects.toThrow(/HTTP 401/);
    await expect(fetchTileSet(tileJsonUrl, answering(tileJsonUrl, 500, {}))).rejects.toThrow(/HTTP 500/);
    await expect(fetchTileSet(tileJsonUrl, answering(tileJsonUrl, 200, { tiles: [] }))).rejects.toThrow(
      /no tile URL template/,
    );
  });

  it('draws lines and polygons with an MVTLayer of the template, in the style of the GeoJSON layer', () => {
    const tiles = { template: 'http://h/ogc/collections/c1/tiles/WebMercatorQuad/{z}/{y}/{x}', extent: null };
    for (const kind of ['lines', 'polygons'] as const) {
      const d = {
        ...layerOf(kind),
        style: { kind, color: '#ff8800', colorBy: { property: 'zone', colors: { '2': '#00ff00' } } },
      };
      const [tiled] = mapVectorLayers(d, tiledMapVectors(tiles), 15, 'en-US');
      const [plain] = mapVectorLayers(d, prepareMapVectors(contours, d), 15, 'en-US');
      expect(tiled).toBeInstanceOf(MVTLayer);
      expect(plain).toBeInstanceOf(GeoJsonLayer);
      expect(tiled!.id).toBe(`vector-${d.id}`);
      expect(tiled!.props.data).toBe(tiles.template);
      expect((tiled!.props as unknown as { maxZoom: number }).maxZoom).toBe(MAX_TILE_ZOOM);
      // Same colours by feature, fills only for polygons.
      const line = (l: typeof tiled, zone: number) =>
        (l!.props as unknown as { getLineColor: (f: unknown) => number[] }).getLineColor({ properties: { zone } });
      const fill = (l: typeof tiled) =>
        (l!.props as unknown as { getFillColor: (f: unknown) => number[] }).getFillColor({ properties: { zone: 2 } });
      expect(line(tiled, 2)).toEqual([0, 255, 0, 255]);
      expect(line(tiled, 1)).toEqual([255, 136, 0, 255]);
      expect(line(plain, 2)).toEqual(line(tiled, 2));
      expect(fill(tiled)).toEqual(fill(plain));
      expect((tiled!.props as unknown as { filled: boolean }).filled).toBe(kind === 'polygons');
      // A click on a tile's feature names the layer (deck.gl gives the top layer and the decoded feature).
      expect(pickedOf({ layer: tiled!, object: { properties: { zone: 2, layerName: 'power_line_buffers' } } })).toEqual(
        {
          layerId: d.id,
          properties: { zone: 2 },
        },
      );
    }
  });
});
