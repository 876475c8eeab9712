import { describe, expect, it } from 'vitest';
import type { VectorLayerDescription } from '../scene.types.js';
import type { FeatureCollection } from '../vector-features.js';
import { mapVectorLayers, prepareMapVectors } from './map-vectors.js';

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
